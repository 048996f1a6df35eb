#include "eryantis/main/metrics_feed.hpp"

#include <algorithm>

#include "eryantis/protocol/message.hpp"

namespace eryantis::app {

std::vector<std::string> request_results(const game::Registry& games) {
  std::vector<std::string> out = {"accepted"};
  for (int i = 0; i < protocol::kErrorCodeCount; ++i)
    out.emplace_back(protocol::error_code_name(static_cast<protocol::ErrorCode>(i)));
  // Every game's own codes, each once (games share "WRONG_PHASE", ...).
  for (const game::Game* g : games.games())
    for (std::string& code : g->rule_codes())
      if (std::find(out.begin(), out.end(), code) == out.end()) out.push_back(std::move(code));
  return out;
}

MetricsFeed::MetricsFeed(metrics::Metrics& metrics, store::StatusCounts at_start, bool cluster,
                         const game::Registry& games)
    : metrics_(metrics), cluster_(cluster) {
  for (std::size_t i = 0; i < store::kMatchStatusCount; ++i)
    base_[i] = static_cast<std::int64_t>(at_start[i]);
  metrics_.declare_results(request_results(games));
  metrics_.set_matches_created(0);
  for (auto status : {store::MatchStatus::Finished, store::MatchStatus::Abandoned})
    metrics_.set_matches_ended(store::status_name(status), 0);
}

void MetricsFeed::recount(const store::StatusCounts& counted, const server::ServerStats& st) {
  for (std::size_t i = 0; i < store::kMatchStatusCount; ++i)
    base_[i] = static_cast<std::int64_t>(counted[i]) - static_cast<std::int64_t>(st.entered[i]) +
               static_cast<std::int64_t>(st.left[i]);
}

void MetricsFeed::sample(const server::ServerStats& st, std::int64_t now_ms) {
  metrics_.set_connections("logged_in", static_cast<double>(st.logged_in));
  metrics_.set_connections("anonymous", static_cast<double>(st.connections - st.logged_in));
  metrics_.set_sessions(static_cast<double>(st.logged_in));
  for (std::size_t i = 0; i < store::kMatchStatusCount; ++i) {
    const std::int64_t now = base_[i] + static_cast<std::int64_t>(st.entered[i]) -
                             static_cast<std::int64_t>(st.left[i]);
    metrics_.set_matches(store::status_name(static_cast<store::MatchStatus>(i)),
                         static_cast<double>(std::max<std::int64_t>(0, now)));
  }
  metrics_.set_matches_created(st.entered[static_cast<std::size_t>(store::MatchStatus::Lobby)]);
  for (auto status : {store::MatchStatus::Finished, store::MatchStatus::Abandoned})
    metrics_.set_matches_ended(store::status_name(status),
                               st.entered[static_cast<std::size_t>(status)]);
  if (!cluster_) return;
  const server::ClusterStats& c = st.cluster;
  metrics::ClusterSample s;
  s.leases = static_cast<double>(c.leases);
  if (first_sample_ms_ == 0) first_sample_ms_ = now_ms;
  const std::int64_t renewed = c.last_renewal_ms != 0 ? c.last_renewal_ms : first_sample_ms_;
  s.renewal_lag_seconds = static_cast<double>(std::max<std::int64_t>(0, now_ms - renewed)) / 1000.0;
  s.renewals = c.renewals;
  s.renewals_failed = c.renewals_failed;
  s.adoptions = c.adoptions;
  s.fenced = c.fenced;
  s.lost = c.lost;
  s.redirects = c.redirects;
  s.postgresql_up = c.postgresql_up;
  s.listen_up = c.notices_live;
  metrics_.set_cluster(s);
}

}  // namespace eryantis::app
