// metrics_text() in the Prometheus text exposition format (0.0.4), checked line
// by line by a strict parser of that format (tests/support/exposition.hpp): every
// family has HELP and TYPE before its samples, every sample line parses,
// histograms are cumulative and end with +Inf, _count and _sum; and the values
// are what was recorded.
#include "eryantis/metrics/metrics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>
#include <sstream>

#include "support/exposition.hpp"

namespace eryantis::metrics {
namespace {

// The strict reader the real-scrape test uses too (tests/support/exposition.hpp).
using test::Exposition;
Exposition parse(const std::string& text) {
  return test::parse_exposition(text);
}

TEST(Metrics, EveryLineIsValidExpositionFormatAndValuesAreRecorded) {
  Metrics m;
  m.set_connections("logged_in", 3);
  m.set_connections("anonymous", 1);
  m.set_sessions(3);
  m.set_matches("running", 2);
  m.set_matches("lobby", 1);
  m.set_queued_outgoing_bytes(4096);
  m.set_resident_bytes(12345678);
  for (int i = 0; i < 5; ++i) m.command_accepted();
  m.command_refused("NOT_YOUR_TURN");
  m.command_refused("RATE_LIMITED");
  m.rate_limited();
  m.events_appended(7);
  m.restored(4, 1);
  m.heap_trimmed();
  m.observe_commit_batch(3);
  m.observe_commit_latency(0.002);
  m.observe_ack_latency(0.0003);
  m.observe_ack_latency(0.02);
  m.observe_loop_lag(0.0);

  const Exposition e = parse(m.metrics_text());
  EXPECT_TRUE(e.problems.empty()) << ::testing::PrintToString(e.problems) << m.metrics_text();
  EXPECT_EQ(e.types.at("eryantis_connections"), "gauge");
  EXPECT_EQ(e.types.at("eryantis_commands_total"), "counter");
  EXPECT_EQ(e.types.at("eryantis_ack_latency_seconds"), "histogram");
  EXPECT_EQ(e.samples.at(R"(eryantis_connections{state="logged_in"})"), 3);
  EXPECT_EQ(e.samples.at(R"(eryantis_matches{status="running"})"), 2);
  EXPECT_EQ(e.samples.at(R"(eryantis_commands_total{result="accepted"})"), 5);
  EXPECT_EQ(e.samples.at(R"(eryantis_commands_total{result="NOT_YOUR_TURN"})"), 1);
  EXPECT_EQ(e.samples.at("eryantis_rate_limit_hits_total"), 1);
  EXPECT_EQ(e.samples.at("eryantis_events_appended_total"), 7);
  EXPECT_EQ(e.samples.at(R"(eryantis_restored_matches_total{outcome="quarantined"})"), 1);
  EXPECT_EQ(e.samples.at("eryantis_heap_trims_total"), 1);
  EXPECT_EQ(e.samples.at("eryantis_resident_memory_bytes"), 12345678);
  EXPECT_EQ(e.samples.at("eryantis_ack_latency_seconds_count"), 2);
  EXPECT_NEAR(e.samples.at("eryantis_ack_latency_seconds_sum"), 0.0203, 1e-9);
  EXPECT_EQ(e.samples.at(R"(eryantis_ack_latency_seconds_bucket{le="0.0005"})"), 1);
  EXPECT_EQ(e.samples.at(R"(eryantis_ack_latency_seconds_bucket{le="+Inf"})"), 2);
  EXPECT_EQ(e.samples.at(R"(eryantis_commit_batch_writes_bucket{le="4"})"), 1);
  // Every histogram's buckets only grow with `le`, and +Inf equals _count.
  for (const auto& [family, type] : e.types) {
    if (type != "histogram") continue;
    std::vector<std::pair<double, double>> buckets;  // (le, count)
    const std::string prefix = family + "_bucket{le=\"";
    for (const auto& [key, value] : e.samples) {
      if (key.rfind(prefix, 0) != 0) continue;
      const std::string le = key.substr(prefix.size(), key.size() - prefix.size() - 2);
      buckets.emplace_back(le == "+Inf" ? INFINITY : std::stod(le), value);
    }
    ASSERT_FALSE(buckets.empty()) << family;
    std::sort(buckets.begin(), buckets.end());
    for (std::size_t i = 1; i < buckets.size(); ++i)
      EXPECT_GE(buckets[i].second, buckets[i - 1].second) << family << " le=" << buckets[i].first;
    EXPECT_TRUE(std::isinf(buckets.back().first)) << family;
    EXPECT_EQ(buckets.back().second, e.samples.at(family + "_count")) << family;
  }
}

TEST(Metrics, DeclaredResultsExistAtZeroBeforeTheirFirstIncrease) {
  Metrics m;
  m.declare_results({"accepted", "STORE_FAILURE", "NOT_YOUR_TURN"});
  Exposition e = parse(m.metrics_text());
  EXPECT_TRUE(e.problems.empty()) << ::testing::PrintToString(e.problems);
  // The first failure must be an increase from 0, visible to increase() and rate().
  EXPECT_EQ(e.samples.at(R"(eryantis_commands_total{result="STORE_FAILURE"})"), 0);
  EXPECT_EQ(e.samples.at(R"(eryantis_commands_total{result="NOT_YOUR_TURN"})"), 0);
  EXPECT_EQ(e.samples.at(R"(eryantis_commands_total{result="accepted"})"), 0);
  m.command_refused("STORE_FAILURE");
  e = parse(m.metrics_text());
  EXPECT_EQ(e.samples.at(R"(eryantis_commands_total{result="STORE_FAILURE"})"), 1);
}

TEST(Metrics, SampledTotalsBuildInfoAndTheClusterSeries) {
  Metrics m;
  m.set_build_info("0.1.0", "0123456789ab");
  m.set_matches_created(0);
  m.set_matches_ended("finished", 0);
  m.set_matches_ended("abandoned", 0);
  Exposition e = parse(m.metrics_text());
  EXPECT_TRUE(e.problems.empty()) << ::testing::PrintToString(e.problems);
  EXPECT_EQ(e.samples.at(R"(eryantis_build_info{commit="0123456789ab",version="0.1.0"})"), 1);
  EXPECT_EQ(e.samples.at("eryantis_matches_created_total"), 0);
  EXPECT_EQ(e.samples.at(R"(eryantis_matches_ended_total{status="abandoned"})"), 0);
  EXPECT_EQ(e.types.count("eryantis_cluster_leases"), 0u) << "no cluster, no cluster series";
  // Totals move the counters by their difference, never back.
  m.set_matches_created(5);
  m.set_matches_created(7);
  m.set_matches_ended("finished", 3);
  ClusterSample c;
  c.leases = 4;
  c.renewal_lag_seconds = 0.25;
  c.renewals = 10;
  c.renewals_failed = 1;
  c.adoptions = 2;
  c.fenced = 1;
  c.redirects = 6;
  c.postgresql_up = true;
  m.set_cluster(c);
  c.renewals = 12;
  m.set_cluster(c);
  e = parse(m.metrics_text());
  EXPECT_TRUE(e.problems.empty()) << ::testing::PrintToString(e.problems) << m.metrics_text();
  EXPECT_EQ(e.samples.at("eryantis_matches_created_total"), 7);
  EXPECT_EQ(e.samples.at(R"(eryantis_matches_ended_total{status="finished"})"), 3);
  EXPECT_EQ(e.samples.at("eryantis_cluster_leases"), 4);
  EXPECT_EQ(e.samples.at("eryantis_cluster_lease_renewal_lag_seconds"), 0.25);
  EXPECT_EQ(e.samples.at(R"(eryantis_cluster_lease_renewals_total{result="ok"})"), 12);
  EXPECT_EQ(e.samples.at(R"(eryantis_cluster_lease_renewals_total{result="failed"})"), 1);
  EXPECT_EQ(e.samples.at("eryantis_cluster_adoptions_total"), 2);
  EXPECT_EQ(e.samples.at(R"(eryantis_cluster_matches_dropped_total{reason="fenced"})"), 1);
  EXPECT_EQ(e.samples.at(R"(eryantis_cluster_matches_dropped_total{reason="lease_lost"})"), 0);
  EXPECT_EQ(e.samples.at("eryantis_cluster_redirects_total"), 6);
  EXPECT_EQ(e.samples.at(R"(eryantis_cluster_postgresql_up{connection="writer"})"), 1);
  EXPECT_EQ(e.samples.at(R"(eryantis_cluster_postgresql_up{connection="listen"})"), 0);
}

TEST(Metrics, TheProcessSeriesComeFromProc) {
  const ProcessSample p = read_process();
  EXPECT_GE(p.cpu_seconds, 0);
  EXPECT_GT(p.resident_bytes, 1 << 20);
  EXPECT_GE(p.virtual_bytes, p.resident_bytes);
  EXPECT_GE(p.open_fds, 3);  // standard input, output and error at least
  EXPECT_GE(p.max_fds, p.open_fds);
  const double now = static_cast<double>(std::time(nullptr));
  EXPECT_LE(p.start_time_seconds, now + 1);
  EXPECT_GT(p.start_time_seconds, now - 3600) << "this test process started within the hour";
  // An extra descriptor shows at the next scrape.
  std::FILE* f = std::fopen("/proc/self/stat", "r");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(read_process().open_fds, p.open_fds + 1);
  std::fclose(f);
  Metrics m;
  const Exposition e = parse(m.metrics_text());
  EXPECT_TRUE(e.problems.empty()) << ::testing::PrintToString(e.problems);
  for (const char* name : {"process_cpu_seconds_total", "process_resident_memory_bytes",
                           "process_virtual_memory_bytes", "process_open_fds", "process_max_fds",
                           "process_start_time_seconds"})
    EXPECT_EQ(e.samples.count(name), 1u) << name;
  EXPECT_EQ(e.types.at("process_cpu_seconds_total"), "counter");
  EXPECT_EQ(e.types.at("process_open_fds"), "gauge");
}

TEST(Metrics, TheParserRejectsBrokenLines) {
  const Exposition e = parse("# HELP x a\n# TYPE x gauge\nx{a=b} 1\ny 2\nx 1 2 3\n");
  EXPECT_EQ(e.problems.size(), 3u) << ::testing::PrintToString(e.problems);
  // What promtool refuses beyond the grammar: each of these texts has one problem.
  for (const char* text : {
           "# HELP c a\n# TYPE c counter\nc 1\n",                                 // not *_total
           "# HELP c_total a\n# TYPE c_total counter\nc_total -1\n",              // negative
           "# HELP g a\n# TYPE g gauge\ng{a=\"1\"} 1\ng{a=\"1\"} 2\n",            // twice
           "# HELP g a\n# TYPE g gauge\ng{a=\"\\q\"} 1\n",                        // bad escape
           "# HELP g a\n# TYPE g gauge\n# HELP h a\n# TYPE h gauge\nh 1\ng 1\n",  // split
           "# TYPE g gauge\ng 1\n",                                               // no HELP
           "# HELP g a\n# TYPE g gauge\ng 1",  // no final newline
           "# HELP h a\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\n"
           "h_sum 1\nh_count 1\n",  // not cumulative
           "# HELP h a\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n",  // no +Inf
       }) {
    const Exposition bad = parse(text);
    EXPECT_EQ(bad.problems.size(), 1u) << text << ::testing::PrintToString(bad.problems);
  }
}

}  // namespace
}  // namespace eryantis::metrics
