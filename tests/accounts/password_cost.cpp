// eryantis-password-cost: what one Argon2id hash costs on this machine with given
// parameters, and what a flood of logins does to the password pool (docs/home.md).
// Not a test (no timed assertions anywhere): a measuring tool, run by hand.
//   eryantis-password-cost [passes] [memory MiB] [hashes] [flood size]
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "eryantis/accounts/password.hpp"
#include "eryantis/accounts/password_pool.hpp"

using namespace eryantis::accounts;
using Clock = std::chrono::steady_clock;

namespace {
double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("model name")) return line.substr(line.find(':') + 2);
  return "unknown";
}
}  // namespace

int main(int argc, char** argv) {
  PasswordParams params;
  if (argc > 1) params.passes = std::strtoull(argv[1], nullptr, 10);
  if (argc > 2) params.memory_bytes = std::strtoull(argv[2], nullptr, 10) << 20;
  const int hashes = argc > 3 ? std::atoi(argv[3]) : 10;
  const int flood = argc > 4 ? std::atoi(argv[4]) : 1000;
  if (auto ok = check_password_params(params); !ok) {
    std::fprintf(stderr, "%s\n", ok.error().message.c_str());
    return 2;
  }
  std::printf("cpu: %s\nargon2id: t=%llu m=%zu MiB\n", cpu_model().c_str(),
              static_cast<unsigned long long>(params.passes), params.memory_bytes >> 20);

  std::vector<double> times;
  for (int i = 0; i < hashes; ++i) {
    const auto t = Clock::now();
    const auto h = hash_password("correct horse battery staple", params);
    times.push_back(ms_since(t));
    if (!h) return 1;
  }
  std::sort(times.begin(), times.end());
  std::printf("one hash: min %.1f ms, median %.1f ms, max %.1f ms (%d hashes)\n", times.front(),
              times[times.size() / 2], times.back(), hashes);

  // A flood: `flood` logins at once into the default pool (2 threads, 32 waiting).
  std::mutex m;
  std::condition_variable cv;
  int outcomes = 0;
  PasswordPool pool(PasswordPoolConfig{params, 2, 32, {}}, [&] {
    std::lock_guard lock(m);
    ++outcomes;
    cv.notify_all();
  });
  const auto stored = *hash_password("correct horse battery staple", params);
  int accepted = 0;
  const auto t = Clock::now();
  for (int i = 0; i < flood; ++i)
    if (pool.submit({static_cast<std::uint64_t>(i), PasswordTask::Verify, "wrong password", stored})) ++accepted;
  const double submit_ms = ms_since(t);
  {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return outcomes == accepted; });
  }
  std::printf("flood of %d logins: %d accepted, %d refused BUSY; submitting all took %.3f ms "
              "(%.2f us each, on the caller's thread); the accepted ones were answered within %.0f ms\n",
              flood, accepted, flood - accepted, submit_ms, submit_ms * 1000.0 / flood, ms_since(t));
  return 0;
}
