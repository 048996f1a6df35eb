#pragma once
// What the server's metrics are fed every second (docs/operations.md, Monitor):
// the server's gauges, the matches the database holds (counted once at the
// start, then moved by the server's own durable status changes: no query per
// sample), its totals as counters, and a cluster node's own series.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "eryantis/game/registry.hpp"
#include "eryantis/metrics/metrics.hpp"
#include "eryantis/server/server.hpp"
#include "eryantis/store/records.hpp"

namespace eryantis::app {

// Every result a request can be answered with: "accepted", each protocol error
// code and each code of the games' rules (Metrics::declare_results).
std::vector<std::string> request_results(const game::Registry& games);

class MetricsFeed {
 public:
  // `at_start`: the database's count per status when the server started. `cluster`:
  // the node's cluster series are fed too.
  MetricsFeed(metrics::Metrics& metrics, store::StatusCounts at_start, bool cluster,
              const game::Registry& games);

  // One sample; `now_ms` in the server's clock (unix ms).
  void sample(const server::ServerStats& stats, std::int64_t now_ms);
  // The database counted again (a cluster, whose other nodes change statuses too):
  // the count is `counted` now, whatever this server changed since its start.
  void recount(const store::StatusCounts& counted, const server::ServerStats& stats);

 private:
  metrics::Metrics& metrics_;
  // The database's count minus this server's moves: + entered - left is the count now.
  std::array<std::int64_t, store::kMatchStatusCount> base_{};
  bool cluster_;
  std::int64_t first_sample_ms_ = 0;  // the renewal lag's origin before the first renewal
};

}  // namespace eryantis::app
