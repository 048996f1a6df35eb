#pragma once
// Keeps a fault from flooding the log: the first line of a kind is written at
// once, the repeats within the next window are only counted, and one line sums
// them up ("... (repeated 412 times in the last 10 s)"). A full disk refusing
// ~300 requests a second then writes one line per kind every 10 s instead of
// ~600 lines a second. One thread per instance (no locking).
#include <spdlog/spdlog.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace eryantis::logging {

class LogThrottle {
 public:
  using Clock = std::function<std::int64_t()>;  // milliseconds, monotonic

  static constexpr std::int64_t kDefaultWindowMs = 10'000;
  static std::int64_t steady_ms();

  explicit LogThrottle(std::int64_t window_ms = kDefaultWindowMs, Clock clock = steady_ms);
  LogThrottle(const LogThrottle&) = delete;
  LogThrottle& operator=(const LogThrottle&) = delete;
  ~LogThrottle();  // sums up what is still counted

  // `kind` names the line's category and must come from a fixed set (a literal
  // at the call site, never data): it bounds the memory kept to one entry per
  // call site. `message` is the whole line; a summary repeats the last one.
  void log(spdlog::level::level_enum level, std::string_view kind, std::string message);
  // Writes the summary of every window that has ended. Call it now and then
  // (the server's tick), so the count appears even if the fault stops.
  void flush();

 private:
  struct Kind {
    spdlog::level::level_enum level = spdlog::level::info;
    bool open = false;  // a line was written less than a window ago (or repeats are counted)
    std::int64_t window_start = 0;
    std::uint64_t repeated = 0;  // lines counted, not written, since window_start
    std::string last;            // the last of them
  };
  void summarize(Kind& kind, std::int64_t now);

  std::int64_t window_ms_;
  Clock clock_;
  std::map<std::string, Kind, std::less<>> kinds_;
};

}  // namespace eryantis::logging
