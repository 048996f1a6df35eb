#pragma once
// The server's measurements in one prometheus-cpp registry, written out in the
// Prometheus text format by metrics_text() (for /metrics). Every call is cheap:
// a counter add or a histogram observe is a few atomic operations, and the
// families and label sets are made once. Loop thread, except where noted.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace eryantis::metrics {

// The process as /proc shows it, read at each scrape (process_* series; prometheus-
// cpp's core has none). A field that cannot be read is negative and left out.
struct ProcessSample {
  double cpu_seconds = -1;      // user + system time
  double resident_bytes = -1;
  double virtual_bytes = -1;
  double open_fds = -1;
  double max_fds = -1;          // the soft RLIMIT_NOFILE
  double start_time_seconds = -1;  // unix time
};
ProcessSample read_process();

// This node as one of a cluster (docs/cluster.md). Totals: the counters move by
// the difference since the last sample.
struct ClusterSample {
  double leases = 0;
  // Since the node's leases were last renewed (or it held none to renew).
  double renewal_lag_seconds = 0;
  std::uint64_t renewals = 0;
  std::uint64_t renewals_failed = 0;
  std::uint64_t adoptions = 0;
  std::uint64_t fenced = 0;
  std::uint64_t lost = 0;
  std::uint64_t redirects = 0;
  bool postgresql_up = false;
  bool listen_up = false;
};

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
  // eryantis_build_info{version,commit} 1.
  void set_build_info(std::string_view version, std::string_view commit);
  // The cluster's series, registered by the first call (a single server has none).
  void set_cluster(const ClusterSample& sample);

  // Counters.
  // Every result a request can be answered with (each error code; "accepted" is
  // always there): their series exist from the start at 0, so the first
  // STORE_FAILURE is an increase that increase() and rate() can see.
  void declare_results(const std::vector<std::string>& codes);
  // Totals the server keeps (sampled): the counters move by the difference.
  void set_matches_created(std::uint64_t total);
  void set_matches_ended(std::string_view status, std::uint64_t total);  // "finished", "abandoned"
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

  // Everything, in the Prometheus text exposition format (version 0.0.4), the
  // process_* series read now.
  std::string metrics_text() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace eryantis::metrics
