// metrics_text() in the Prometheus text exposition format (0.0.4), checked line
// by line by a parser of that format: every family has HELP and TYPE before
// its samples, every sample line parses, histograms are cumulative and end
// with +Inf, _count and _sum; and the values are what was recorded.
#include "eryantis/metrics/metrics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace eryantis::metrics {
namespace {

struct Exposition {
  std::map<std::string, std::string> types;  // family -> counter/gauge/histogram
  std::map<std::string, double> samples;     // "name{labels}" -> value
  std::vector<std::string> problems;
};

// The family a sample belongs to: a histogram's _bucket/_sum/_count are its own.
std::string family_of(const std::string& name, const std::map<std::string, std::string>& types) {
  for (const char* suffix : {"_bucket", "_sum", "_count"}) {
    const std::string s(suffix);
    if (name.size() > s.size() && name.ends_with(s)) {
      const std::string base = name.substr(0, name.size() - s.size());
      if (auto it = types.find(base); it != types.end() && it->second == "histogram") return base;
    }
  }
  return name;
}

Exposition parse(const std::string& text) {
  Exposition e;
  static const std::regex kHelp(R"(# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .+)");
  static const std::regex kType(
      R"(# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped))");
  static const std::regex kSample(
      R"(([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*")*)?\})? (-?[0-9.eE+-]+|\+Inf|-Inf|NaN)( -?[0-9]+)?)");
  std::set<std::string> helped;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::smatch m;
    if (line.empty()) continue;
    if (std::regex_match(line, m, kHelp)) {
      helped.insert(m[1]);
    } else if (std::regex_match(line, m, kType)) {
      if (!helped.count(m[1])) e.problems.push_back("TYPE before HELP: " + line);
      e.types[m[1]] = m[2];
    } else if (std::regex_match(line, m, kSample)) {
      const std::string family = family_of(m[1], e.types);
      if (!e.types.count(family)) e.problems.push_back("sample before its TYPE: " + line);
      e.samples[std::string(m[1]) + std::string(m[2])] = std::stod(m[5]);
    } else {
      e.problems.push_back("line " + std::to_string(number) + " does not parse: " + line);
    }
  }
  return e;
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

TEST(Metrics, TheParserRejectsBrokenLines) {
  const Exposition e = parse("# HELP x a\n# TYPE x gauge\nx{a=b} 1\ny 2\nx 1 2 3\n");
  EXPECT_EQ(e.problems.size(), 3u) << ::testing::PrintToString(e.problems);
}

}  // namespace
}  // namespace eryantis::metrics
