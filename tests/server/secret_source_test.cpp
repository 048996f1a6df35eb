// Where tokens and seeds come from: the kernel's CSPRNG through one wrapper,
// in the shape the server hands out, and unrelated across processes started at
// the same moment (nothing derived from the clock, the pid or an id).
#include "eryantis/server/secret_source.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <set>
#include <vector>

#include "fake_secret_source.hpp"

namespace eryantis::server {
namespace {

int differing_hex_digits(const std::string& a, const std::string& b) {
  int n = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) n += a[i] != b[i];
  return n;
}

TEST(SecretSource, SystemSourceFillsEveryByteOfAnySize) {
  auto source = SystemSecretSource::open();
  ASSERT_TRUE(source) << source.error();
  // 300 and 1 MiB exceed the 256 bytes getrandom(2) always delivers whole: the
  // wrapper must continue after a short read.
  for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{16}, std::size_t{256},
                           std::size_t{300}, std::size_t{1} << 20}) {
    std::vector<std::byte> a(size, std::byte{0}), b(size, std::byte{0});
    source->fill(a);
    source->fill(b);
    if (size < 16) continue;
    EXPECT_NE(a, b) << size;
    // No stretch of zeroes left unfilled: in 1 MiB of random bytes, about 4096 zeroes.
    const auto zeroes = std::count(a.begin(), a.end(), std::byte{0});
    EXPECT_LT(zeroes, static_cast<long>(size / 128 + 8)) << size;
  }
}

std::atomic<int> g_alarms{0};
void count_alarm(int) {
  ++g_alarms;
}

// A signal storm during one large draw: getrandom(2) then returns early (a short
// count) or fails with EINTR, and the wrapper must go on until every byte is filled.
TEST(SecretSource, SignalsDuringADrawStillFillEveryByte) {
  struct sigaction action = {}, previous = {};
  action.sa_handler = count_alarm;  // no SA_RESTART: interrupted calls come back early
  ASSERT_EQ(sigaction(SIGALRM, &action, &previous), 0);
  itimerval every_50us = {{0, 50}, {0, 50}}, off = {};
  ASSERT_EQ(setitimer(ITIMER_REAL, &every_50us, nullptr), 0);
  std::vector<std::byte> bytes(std::size_t{32} << 20, std::byte{0});
  const auto filled = read_system_random(bytes);
  setitimer(ITIMER_REAL, &off, nullptr);
  sigaction(SIGALRM, &previous, nullptr);
  ASSERT_TRUE(filled) << filled.error();
  EXPECT_GT(g_alarms.load(), 0) << "no signal arrived during the draw";
  // Each 1 MiB slice holds ~4096 zero bytes when filled, 1 MiB when left alone.
  for (std::size_t at = 0; at < bytes.size(); at += std::size_t{1} << 20) {
    const auto zeroes =
        std::count(bytes.begin() + static_cast<long>(at),
                   bytes.begin() + static_cast<long>(at + (std::size_t{1} << 20)), std::byte{0});
    ASSERT_LT(zeroes, 8192) << "the slice at " << at << " was not filled";
  }
}

TEST(SecretSource, TokensAre256BitsOfLowerCaseHex) {
  auto source = SystemSecretSource::open();
  ASSERT_TRUE(source);
  std::set<std::string> seen;
  std::array<int, 16> digit_counts{};
  for (int i = 0; i < 2000; ++i) {
    const std::string token = draw_token(*source);
    ASSERT_EQ(token.size(), 64u);
    ASSERT_TRUE(token_shaped(token)) << token;
    for (char c : token) ++digit_counts[c <= '9' ? c - '0' : c - 'a' + 10];
    seen.insert(token);
  }
  EXPECT_EQ(seen.size(), 2000u);
  // 128,000 digits: each of the 16 appears ~8000 times (sd ~87); 7000..9000 is > 10 sd.
  for (int count : digit_counts) {
    EXPECT_GT(count, 7000);
    EXPECT_LT(count, 9000);
  }
}

TEST(SecretSource, TokenShape) {
  EXPECT_TRUE(token_shaped(std::string(64, 'f')));
  EXPECT_TRUE(token_shaped("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"));
  EXPECT_FALSE(token_shaped(std::string(63, 'a')));
  EXPECT_FALSE(token_shaped(std::string(65, 'a')));
  EXPECT_FALSE(token_shaped(std::string(32, 'a')));  // the old 128-bit shape
  EXPECT_FALSE(token_shaped(std::string(63, 'a') + "A"));
  EXPECT_FALSE(token_shaped(std::string(63, 'a') + "g"));
  EXPECT_FALSE(token_shaped(""));
}

TEST(SecretSource, SeedsAre128BitsFromOneDraw) {
  FakeSecretSource fake;
  const auto seed = draw_seed(fake);
  EXPECT_EQ(fake.calls, 1u);
  EXPECT_EQ(fake.bytes, 16u);
  // Little-endian words of the 16 bytes drawn.
  FakeSecretSource replay;
  std::array<std::byte, 16> bytes{};
  replay.fill(bytes);
  std::uint64_t lo = 0, hi = 0;
  for (int i = 7; i >= 0; --i) {
    lo = (lo << 8) | std::to_integer<std::uint64_t>(bytes[i]);
    hi = (hi << 8) | std::to_integer<std::uint64_t>(bytes[8 + i]);
  }
  EXPECT_EQ(seed[0], lo);
  EXPECT_EQ(seed[1], hi);

  auto source = SystemSecretSource::open();
  ASSERT_TRUE(source);
  const auto a = draw_seed(*source), b = draw_seed(*source);
  EXPECT_NE(a, b);
  EXPECT_NE(a[0], a[1]);
}

// Two processes forked at the same instant (same clock, neighbouring pids) draw
// tokens that share nothing: ~60 of 64 hex digits differ between random tokens
// (each differs with p = 15/16); fewer than 40 would mean a common origin.
TEST(SecretSource, TwoProcessesAtOnceDrawUnrelatedTokens) {
  int pipes[2][2];
  pid_t children[2];
  for (int k = 0; k < 2; ++k) ASSERT_EQ(pipe(pipes[k]), 0);
  for (int k = 0; k < 2; ++k) {
    children[k] = fork();
    ASSERT_GE(children[k], 0);
    if (children[k] == 0) {
      auto source = SystemSecretSource::open();
      std::string line = source ? draw_token(*source) : std::string("no source");
      const auto seed = source ? draw_seed(*source) : std::array<std::uint64_t, 2>{};
      // (appended piece by piece: g++ 12 warns falsely on " " + std::string)
      for (std::uint64_t word : seed) {
        line.push_back(' ');
        line.append(std::to_string(word));
      }
      _exit(write(pipes[k][1], line.data(), line.size()) == ssize_t(line.size()) ? 0 : 1);
    }
  }
  std::string out[2];
  for (int k = 0; k < 2; ++k) {
    close(pipes[k][1]);
    char buffer[256];
    ssize_t got = 0;
    while ((got = read(pipes[k][0], buffer, sizeof buffer)) > 0) out[k].append(buffer, got);
    close(pipes[k][0]);
    int status = 0;
    ASSERT_EQ(waitpid(children[k], &status, 0), children[k]);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  const std::string token0 = out[0].substr(0, 64), token1 = out[1].substr(0, 64);
  ASSERT_TRUE(token_shaped(token0)) << out[0];
  ASSERT_TRUE(token_shaped(token1)) << out[1];
  EXPECT_GE(differing_hex_digits(token0, token1), 40) << token0 << "\n" << token1;
  EXPECT_NE(out[0].substr(65), out[1].substr(65)) << "the seeds are equal";
}

// A scripted getrandom(2): the calls a healthy kernel never makes fail, on
// demand. Plain functions (the wrapper takes a function pointer) over this state.
struct ScriptedKernel {
  int calls = 0;
  int interrupt_first = 0;      // this many calls fail with EINTR
  std::size_t short_reads = 0;  // then each call delivers at most this many (0: all)
  int fail_from_call = -1;      // from this call on (0-based), fail with fail_errno
  int fail_errno = EIO;
};
ScriptedKernel g_kernel;

ssize_t scripted_getrandom(void* buffer, std::size_t length, unsigned int flags) {
  EXPECT_EQ(flags, 0u);  // the urandom pool, blocking only before it is seeded
  const int call = g_kernel.calls++;
  if (call < g_kernel.interrupt_first) {
    errno = EINTR;
    return -1;
  }
  if (g_kernel.fail_from_call >= 0 && call >= g_kernel.fail_from_call) {
    errno = g_kernel.fail_errno;
    return -1;
  }
  const std::size_t n = g_kernel.short_reads ? std::min(length, g_kernel.short_reads) : length;
  std::memset(buffer, 0xab, n);
  return static_cast<ssize_t>(n);
}

TEST(SecretSource, InterruptionsAndShortReadsAreRetriedUntilEveryByteIsFilled) {
  g_kernel = {.interrupt_first = 3, .short_reads = 7};
  std::vector<std::byte> bytes(100, std::byte{0});
  const auto filled = read_system_random(bytes, scripted_getrandom);
  ASSERT_TRUE(filled) << filled.error();
  EXPECT_EQ(g_kernel.calls, 3 + 15);  // 3 interrupted, then ceil(100 / 7)
  EXPECT_EQ(std::count(bytes.begin(), bytes.end(), std::byte{0xab}), 100);
}

TEST(SecretSource, AKernelRefusalIsAnErrorNamingTheReason) {
  g_kernel = {.fail_from_call = 0, .fail_errno = ENOSYS};
  std::array<std::byte, 32> bytes{};
  const auto filled = read_system_random(bytes, scripted_getrandom);
  ASSERT_FALSE(filled);
  EXPECT_EQ(filled.error(), std::string("getrandom(2) failed: ") + std::strerror(ENOSYS));
  // At start: open() reports it, so the server stops with that message (exit 1).
  g_kernel = {.fail_from_call = 0, .fail_errno = ENOSYS};
  const auto source = SystemSecretSource::open(scripted_getrandom);
  ASSERT_FALSE(source);
  EXPECT_NE(source.error().find(std::strerror(ENOSYS)), std::string::npos) << source.error();
}

// Draws a token from `source` with the log on stderr (the default logger writes
// to stdout; a death test reads stderr). Returns only if fill() returned.
void draw_a_token_logging_to_stderr(SystemSecretSource& source) {
  spdlog::set_default_logger(spdlog::stderr_color_st("death"));
  std::array<std::byte, kTokenBytes> bytes{};
  source.fill(bytes);
}

// After a good start the kernel refuses (EIO): the source must not hand out
// weaker bytes, and cannot return an error through fill(): the process stops
// with a critical log line naming the reason.
TEST(SecretSourceDeathTest, AKernelRefusalAfterStartStopsTheProcessWithACriticalLine) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  g_kernel = {.fail_from_call = 1, .fail_errno = EIO};  // call 0 is open()'s probe
  auto source = SystemSecretSource::open(scripted_getrandom);
  ASSERT_TRUE(source) << source.error();
  const std::string expected =
      "no secure random bytes for a token or a seed: "
      "getrandom\\(2\\) failed: " +
      std::string(std::strerror(EIO)) + "; stopping";
  EXPECT_EXIT(
      {
        draw_a_token_logging_to_stderr(*source);
        std::_Exit(0);  // not reached: fill() must not return
      },
      ::testing::KilledBySignal(SIGABRT), expected);
}

}  // namespace
}  // namespace eryantis::server
