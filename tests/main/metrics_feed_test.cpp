// What the server's metrics are fed (src/main/metrics_feed.cpp): the matches the
// database holds, counted at the start and moved by the server's own durable
// status changes; every request result at 0 from the start; a cluster node's series.
#include "eryantis/main/metrics_feed.hpp"

#include <gtest/gtest.h>

#include "games/handles.hpp"
#include "support/exposition.hpp"

namespace eryantis::app {
namespace {

double sample_of(const metrics::Metrics& m, const std::string& series) {
  const test::Exposition e = test::parse_exposition(m.metrics_text());
  EXPECT_TRUE(e.problems.empty()) << ::testing::PrintToString(e.problems);
  auto it = e.samples.find(series);
  return it == e.samples.end() ? -1 : it->second;
}

std::size_t at(store::MatchStatus s) {
  return static_cast<std::size_t>(s);
}

TEST(MetricsFeed, MatchesAreTheDatabasesCountMovedByTheServersStatusChanges) {
  metrics::Metrics m;
  store::StatusCounts start{};
  start[at(store::MatchStatus::Lobby)] = 2;
  start[at(store::MatchStatus::Running)] = 3;
  start[at(store::MatchStatus::Finished)] = 100;
  start[at(store::MatchStatus::Quarantined)] = 1;
  MetricsFeed feed(m, start, false, test::games());
  server::ServerStats st;
  feed.sample(st, 1000);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches{status="running"})"), 3);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches{status="finished"})"), 100);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches{status="abandoned"})"), 0);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches{status="quarantined"})"), 1);
  EXPECT_EQ(sample_of(m, "eryantis_matches_created_total"), 0);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches_ended_total{status="finished"})"), 0);
  // One match created and started, one running match finished, one deserted one abandoned.
  st.entered[at(store::MatchStatus::Lobby)] = 1;
  st.left[at(store::MatchStatus::Lobby)] = 1;
  st.entered[at(store::MatchStatus::Running)] = 1;
  st.left[at(store::MatchStatus::Running)] = 2;
  st.entered[at(store::MatchStatus::Finished)] = 1;
  st.entered[at(store::MatchStatus::Abandoned)] = 1;
  feed.sample(st, 2000);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches{status="lobby"})"), 2);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches{status="running"})"), 2);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches{status="finished"})"), 101);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches{status="abandoned"})"), 1);
  EXPECT_EQ(sample_of(m, "eryantis_matches_created_total"), 1);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches_ended_total{status="finished"})"), 1);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches_ended_total{status="abandoned"})"), 1);
  // A recount (a cluster: other nodes finished 10 more) replaces the base.
  store::StatusCounts counted{};
  counted[at(store::MatchStatus::Lobby)] = 2;
  counted[at(store::MatchStatus::Running)] = 2;
  counted[at(store::MatchStatus::Finished)] = 111;
  counted[at(store::MatchStatus::Abandoned)] = 1;
  feed.recount(counted, st);
  feed.sample(st, 3000);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches{status="finished"})"), 111);
  st.entered[at(store::MatchStatus::Finished)] = 2;
  st.left[at(store::MatchStatus::Running)] = 3;
  feed.sample(st, 4000);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches{status="finished"})"), 112);
  EXPECT_EQ(sample_of(m, R"(eryantis_matches{status="running"})"), 1);
  EXPECT_EQ(sample_of(m, R"(eryantis_cluster_leases)"), -1) << "not a cluster node";
}

TEST(MetricsFeed, EveryRequestResultExistsFromTheStart) {
  metrics::Metrics m;
  MetricsFeed feed(m, store::StatusCounts{}, false, test::games());
  const test::Exposition e = test::parse_exposition(m.metrics_text());
  const auto results = request_results(test::games());
  EXPECT_GT(results.size(), 60u);
  for (const std::string& r : results)
    EXPECT_EQ(e.samples.count("eryantis_commands_total{result=\"" + r + "\"}"), 1u) << r;
  for (const char* r : {"STORE_FAILURE", "SERVER_DEGRADED", "RATE_LIMITED", "NOT_A_COMPUTER",
                        "NOT_YOUR_TURN", "ABSENT_THIS_ROUND", "accepted"})
    EXPECT_EQ(e.samples.at("eryantis_commands_total{result=\"" + std::string(r) + "\"}"), 0) << r;
}

TEST(MetricsFeed, AClusterNodesSeries) {
  metrics::Metrics m;
  MetricsFeed feed(m, store::StatusCounts{}, true, test::games());
  server::ServerStats st;
  st.cluster.leases = 3;
  st.cluster.postgresql_up = true;
  st.cluster.notices_live = true;
  st.cluster.adoptions = 2;
  feed.sample(st, 10'000);
  // No renewal yet: the lag counts from the first sample.
  EXPECT_EQ(sample_of(m, "eryantis_cluster_lease_renewal_lag_seconds"), 0);
  feed.sample(st, 12'500);
  EXPECT_EQ(sample_of(m, "eryantis_cluster_lease_renewal_lag_seconds"), 2.5);
  st.cluster.last_renewal_ms = 12'000;
  st.cluster.renewals = 1;
  feed.sample(st, 13'000);
  EXPECT_EQ(sample_of(m, "eryantis_cluster_lease_renewal_lag_seconds"), 1);
  EXPECT_EQ(sample_of(m, "eryantis_cluster_leases"), 3);
  EXPECT_EQ(sample_of(m, "eryantis_cluster_adoptions_total"), 2);
  EXPECT_EQ(sample_of(m, R"(eryantis_cluster_postgresql_up{connection="listen"})"), 1);
}

}  // namespace
}  // namespace eryantis::app
