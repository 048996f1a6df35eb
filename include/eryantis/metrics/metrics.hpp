#pragma once
// The server's measurements in one prometheus-cpp registry, written out in the
// Prometheus text format by metrics_text() (for /metrics). Every call is cheap:
// a counter add or a histogram observe is a few atomic operations, and the
// families and label sets are made once. Loop thread, except where noted.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace eryantis::metrics {

class Metrics {
 public:
  Metrics();
  ~Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  // Gauges, set by a periodic sample.
  void set_connections(std::string_view state, double count);  // "anonymous", "logged_in"
  void set_sessions(double count);                             // logged-in players
  void set_matches(std::string_view status, double count);     // "lobby", "running", ...
  void set_queued_outgoing_bytes(double bytes);
  void set_resident_bytes(double bytes);

  // Counters.
  void command_accepted();
  void command_refused(std::string_view code);  // the error code ("NOT_YOUR_TURN", ...)
  void rate_limited();
  void events_appended(std::uint64_t count);
  void restored(std::uint64_t matches, std::uint64_t quarantined);
  void heap_trimmed();

  // Histograms (seconds, or writes).
  void observe_commit_batch(std::size_t writes);  // writes completed by one group commit
  void observe_commit_latency(double seconds);    // submit -> durable, on the loop
  void observe_ack_latency(double seconds);       // a play line read -> its reply queued
  void observe_loop_lag(double seconds);          // a timer's lateness

  // Everything, in the Prometheus text exposition format (version 0.0.4).
  std::string metrics_text() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace eryantis::metrics
