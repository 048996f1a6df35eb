#include "eryantis/log/log_throttle.hpp"

#include <chrono>

namespace eryantis::logging {

std::int64_t LogThrottle::steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

LogThrottle::LogThrottle(std::int64_t window_ms, Clock clock)
    : window_ms_(window_ms), clock_(std::move(clock)) {}

LogThrottle::~LogThrottle() {
  const std::int64_t now = clock_();
  for (auto& [name, kind] : kinds_)
    if (kind.repeated > 0) summarize(kind, now);
}

void LogThrottle::log(spdlog::level::level_enum level, std::string_view kind_name,
                      std::string message) {
  if (!spdlog::should_log(level)) return;
  const std::int64_t now = clock_();
  auto it = kinds_.find(kind_name);
  if (it == kinds_.end()) it = kinds_.emplace(std::string(kind_name), Kind{}).first;
  Kind& kind = it->second;
  kind.level = level;
  if (kind.open && now - kind.window_start < window_ms_) {
    ++kind.repeated;
    kind.last = std::move(message);
    return;
  }
  if (kind.repeated > 0) summarize(kind, now);  // its window ended before a flush()
  spdlog::log(level, "{}", message);
  kind.open = true;
  kind.window_start = now;
}

void LogThrottle::flush() {
  const std::int64_t now = clock_();
  for (auto& [name, kind] : kinds_) {
    if (!kind.open || now - kind.window_start < window_ms_) continue;
    if (kind.repeated > 0) {
      // The summary opens the next window: a steady fault writes one line per window.
      summarize(kind, now);
      kind.window_start = now;
    } else {
      kind.open = false;  // quiet for a whole window: the next line is written at once
    }
  }
}

void LogThrottle::summarize(Kind& kind, std::int64_t now) {
  const std::int64_t seconds = (now - kind.window_start + 500) / 1000;
  spdlog::log(kind.level, "{} (repeated {} times in the last {} s)", kind.last, kind.repeated,
              seconds);
  kind.repeated = 0;
  kind.last.clear();
}

}  // namespace eryantis::logging
