#include "eryantis/main/metered.hpp"

#include <unistd.h>

#include <cstdio>

namespace eryantis::app {

namespace {
// The server writes "type" first in every message it sends (protocol::JsonLine).
constexpr std::string_view kAck = R"({"type":"ack")";
constexpr std::string_view kError = R"({"type":"error")";
constexpr std::string_view kCode = R"("code":")";
}  // namespace

void MeteredTransport::send(transport::ConnectionId id, std::string line) {
  const std::string_view l(line);
  const bool ack = l.starts_with(kAck);
  const bool error = !ack && l.starts_with(kError);
  if (ack || error) {
    if (ack) {
      metrics_.command_accepted();
    } else if (auto at = l.find(kCode); at != std::string_view::npos) {
      const auto start = at + kCode.size();
      const std::string_view code = l.substr(start, l.find('"', start) - start);
      metrics_.command_refused(code);
      if (code == "RATE_LIMITED") metrics_.rate_limited();
    }
    if (auto it = play_read_at_.find(id); it != play_read_at_.end()) {
      metrics_.observe_ack_latency(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - it->second).count());
      play_read_at_.erase(it);
    }
  }
  inner_.send(id, std::move(line));
}

void MeteredEvents::on_line(transport::ConnectionId id, std::string_view line) {
  if (line.find(R"("type":"play")") != std::string_view::npos) transport_.play_read(id);
  inner_.on_line(id, line);
}

std::size_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  const int read = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  if (read != 2) return 0;
  return static_cast<std::size_t>(resident) * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace eryantis::app
