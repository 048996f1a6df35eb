// Issue 16's failover test: three real eryantis-server nodes on one throwaway
// PostgreSQL under the real eryantis-bot (docs/cluster.md section 4). Each table's
// creator starts on another node than its other seat (--nodes), so matches are
// created on every node and played through redirects. One node at a time is
// SIGKILLed at a random moment and restarted, K times; then the bots finish their
// games. The bots' record of every acknowledged command (--acks: match, seq,
// command id, the node that acknowledged it) is checked against the database:
//   - every acknowledged command is stored exactly once, at the seq acknowledged;
//   - every match finishes and verifies (the store's verify and eryantis-replay);
//   - no match ever had two writers: the events table keeps no writer column, so
//     the writers' history comes from the nodes' logs ("created by" = epoch 1,
//     "adopted by node X (lease epoch E, N events)"): per match the epochs are
//     distinct, each new writer starts where the previous one stopped, and every
//     acknowledged seq was acknowledged by the node holding the epoch it falls in.
// It also measures each failover: kill -> every table that was playing on the
// killed node acknowledges a command again.
//
// ERYANTIS_FAILOVER_KILLS sets K (default 5, 2 in a sanitizer run); the long run
// of docs/cluster.md is ERYANTIS_FAILOVER_KILLS=24.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <regex>
#include <sstream>
#include <thread>

#include "db_check.hpp"
#include "eryantis/json/json.hpp"
#include "support/child_process.hpp"
#include "support/cluster_nodes.hpp"
#include "support/polling.hpp"
#include "support/postgres_cluster.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;
using Ms = std::int64_t;  // unix milliseconds (the bot writes them)

constexpr int kLeaseMs = 1000;
constexpr int kTables = 6;  // two per node as creators

Ms unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// One line of the bot's --acks file.
struct Ack {
  Ms at = 0;
  std::int64_t match = 0;
  std::int64_t seq = 0;
  std::string command_id;  // "<nickname>-<n>", nickname "fot<table>s<seat>"
  std::string node;        // host:port that acknowledged it
  std::string table() const { return command_id.substr(0, command_id.rfind('s')); }
};

// The --acks file as the bot writes it, read incrementally (whole lines only).
class AckLog {
 public:
  explicit AckLog(std::string path) : path_(std::move(path)) {}
  const std::vector<Ack>& read() {
    std::ifstream in(path_);
    in.seekg(static_cast<std::streamoff>(offset_));
    std::string line;
    while (std::getline(in, line) && !in.eof()) {  // the last line may still be written
      offset_ += line.size() + 1;
      std::istringstream words(line);
      Ack a;
      if (words >> a.at >> a.match >> a.seq >> a.command_id >> a.node) acks_.push_back(a);
    }
    return acks_;
  }

 private:
  std::string path_;
  std::size_t offset_ = 0;
  std::vector<Ack> acks_;
};

std::string client_command_id(const std::string& stored) {
  return stored.substr(stored.find(':') + 1);
}

int kills_to_run() {
  if (const char* k = std::getenv("ERYANTIS_FAILOVER_KILLS"); k && *k)
    return std::max(1, std::atoi(k));
  return test::sanitizer_run() ? 2 : 5;
}

// A match's writers from the nodes' logs: epoch -> (node, events when it began).
struct Writer {
  std::string node;
  std::int64_t from_seq = 0;
};

class ClusterFailoverTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (HasFailure() && nodes_)
      for (int i = 0; i < nodes_->size(); ++i)
        std::cerr << "---- node " << test::ClusterNodes::name(i) << " (tail) ----\n"
                  << nodes_->node(i).log_tail(40);
    if (HasFailure()) std::cerr << "---- bot ----\n" << test::read_file(dir_.file("bot.log"));
  }

  test::TempDir dir_{"eryantis-failover"};
  std::unique_ptr<test::ClusterNodes> nodes_;
};

TEST_F(ClusterFailoverTest, RandomKillsOfThreeNodesLoseNoAcknowledgedCommand) {
  std::string why_not;
  if (!test::PostgresCluster::shared(&why_not)) {
    if (test::PostgresCluster::required())
      FAIL() << "CI is set, so PostgreSQL must be: " << why_not;
    GTEST_SKIP() << "cluster failover not tested: " << why_not;
  }
  const std::uint64_t seed = test::test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  std::mt19937_64 rng(seed);
  const int kills = kills_to_run();

  test::ClusterOptions options;
  options.lease_ms = kLeaseMs;
  options.config.durability = "full";
  options.config.snapshot_every = 8;  // adoptions rebuild from snapshots too
  nodes_ = test::ClusterNodes::start(options, &why_not);
  ASSERT_TRUE(nodes_) << why_not;
  ASSERT_TRUE(nodes_->cluster_section()) << "this server does not take a [cluster] section";
  std::string node_list;
  std::map<std::string, std::string> name_of;  // public address -> node name
  for (int i = 0; i < nodes_->size(); ++i) {
    node_list += (i ? "," : "") + nodes_->public_address(i);
    name_of[nodes_->public_address(i)] = test::ClusterNodes::name(i);
  }

  const std::string acks_path = dir_.file("acks.txt");
  test::ChildProcess bot(test::Spawn{.argv = {ERYANTIS_BOT_BINARY,
                                              "--json",
                                              "--quiet",
                                              "--nodes",
                                              node_list,
                                              "--matches",
                                              std::to_string(kTables),
                                              "--players",
                                              "2",
                                              "--mode",
                                              "simple",
                                              "--seed",
                                              std::to_string(rng() % 1'000'000),
                                              "--name-prefix",
                                              "fo",
                                              "--duration",
                                              "600",
                                              "--drain",
                                              "60",
                                              "--give-up",
                                              "60",
                                              "--acks",
                                              acks_path},
                                     .stdout_file = dir_.file("bot.out"),
                                     .stderr_file = dir_.file("bot.log")});
  AckLog log(acks_path);
  ASSERT_TRUE(test::eventually(
      20s, [&] { return log.read().size() >= 40; }, 50ms))
      << "the bots did not start playing";

  struct Failover {
    int node = 0;
    Ms killed_at = 0;
    std::set<std::string> tables;  // playing on the killed node just before
    Ms recovered_ms = -1;          // kill -> the last of them acknowledged again
    Ms restart_delay_ms = 0;       // kill -> restart begins
  };
  std::vector<Failover> failovers;
  for (int k = 0; k < kills; ++k) {
    // A random moment: the bots are mid-game, some with a command in flight.
    std::this_thread::sleep_for(std::chrono::milliseconds(200 + rng() % 1300));
    Failover f;
    f.node = static_cast<int>(rng() % static_cast<std::uint64_t>(nodes_->size()));
    f.killed_at = unix_ms();
    nodes_->kill_hard(f.node);
    const std::string address = nodes_->public_address(f.node);
    // Tables whose latest acknowledged command (in the last 2 s) came from that node.
    std::map<std::string, const Ack*> last;
    for (const Ack& a : log.read())
      if (a.at < f.killed_at && a.at >= f.killed_at - 2000) last[a.table()] = &a;
    for (const auto& [table, a] : last)
      if (a->node == address) f.tables.insert(table);
    // Back at once (it takes its own leases again) or after up to twice the lease
    // (the other nodes adopt its matches once the leases expire).
    if (rng() % 2) {
      f.restart_delay_ms = static_cast<Ms>(rng() % (2 * kLeaseMs));
      std::this_thread::sleep_for(std::chrono::milliseconds(f.restart_delay_ms));
    }
    ASSERT_TRUE(nodes_->restart(f.node)) << nodes_->node(f.node).log_tail();
    // Every one of them plays again (on any node) before the next kill.
    auto all_back = [&] {
      std::set<std::string> waiting = f.tables;
      Ms latest = f.killed_at;
      for (const Ack& a : log.read())
        if (a.at > f.killed_at && waiting.erase(a.table())) latest = std::max(latest, a.at);
      if (!waiting.empty()) return false;
      f.recovered_ms = latest - f.killed_at;
      return true;
    };
    EXPECT_TRUE(test::eventually(30s, all_back, 20ms))
        << "kill " << k << " of node " << test::ClusterNodes::name(f.node)
        << ": a table did not play again within 30 s";
    std::cout << "[ kill " << k << "    ] node " << test::ClusterNodes::name(f.node) << ", "
              << f.tables.size() << " table(s) playing there";
    if (!f.tables.empty()) std::cout << ", all playing again after " << f.recovered_ms << " ms";
    std::cout << " (restarted after " << f.restart_delay_ms << " ms)";
    std::cout << "\n";
    failovers.push_back(f);
  }

  // The bots finish their games (--drain) and report.
  bot.signal(SIGINT);
  const auto code = bot.wait_exit(test::scaled(90s));
  ASSERT_TRUE(code) << "the bot did not finish its games";
  std::istringstream out(test::read_file(dir_.file("bot.out")));
  std::string last_line;
  for (std::string l; std::getline(out, l);)
    if (!l.empty()) last_line = l;
  rapidjson::Document report;
  report.Parse(last_line.c_str());
  ASSERT_TRUE(!report.HasParseError() && report.IsObject()) << last_line;
  EXPECT_EQ(*code, 0);
  EXPECT_EQ(report["unexpected_errors"].GetUint64(), 0u);
  EXPECT_EQ(report["games_unfinished"].GetUint64(), 0u);
  EXPECT_GE(report["redirects"].GetUint64(), 1u);  // matches played through other nodes
  const std::vector<Ack>& acks = log.read();

  // 1. Every acknowledged command is stored once, at its seq, with its command id;
  // no seq of a match was acknowledged to two commands.
  std::string error;
  auto db = read_db(nodes_->uri(), &error);
  ASSERT_TRUE(error.empty()) << error;
  std::map<std::pair<std::int64_t, std::int64_t>, std::string> acked;
  std::size_t lost = 0, twice = 0;
  for (const Ack& a : acks) {
    auto [it, fresh] = acked.emplace(std::pair{a.match, a.seq}, a.command_id);
    if (!fresh && it->second != a.command_id && ++twice <= 5)
      ADD_FAILURE() << "match " << a.match << " seq " << a.seq << " acknowledged to " << it->second
                    << " and to " << a.command_id;
    const auto m = db.find(a.match);
    // The server stores "<seat>:<the client's command id>" (match_flow.cpp).
    const bool stored = m != db.end() && m->second.command_ids.contains(a.seq) &&
                        client_command_id(m->second.command_ids.at(a.seq)) == a.command_id;
    if (!stored && ++lost <= 5)
      ADD_FAILURE() << "acknowledged but not stored: match " << a.match << " seq " << a.seq
                    << " command " << a.command_id << " (acked by " << a.node << ")";
  }
  EXPECT_EQ(lost, 0u) << "of " << acks.size() << " acknowledged commands";
  EXPECT_EQ(twice, 0u);
  for (const auto& [id, m] : db) {
    std::set<std::string> ids;
    for (const auto& [seq, cid] : m.command_ids)
      EXPECT_TRUE(ids.insert(cid).second) << "match " << id << ": command " << cid << " twice";
  }

  // 2. Every match finished and verifies.
  ASSERT_GE(db.size(), static_cast<std::size_t>(kTables));
  for (const auto& [id, m] : db) {
    EXPECT_EQ(m.status, store::MatchStatus::Finished) << "match " << id << " did not finish";
    EXPECT_TRUE(m.verified) << "match " << id << ": " << m.problem;
  }
  std::string output;
  if (auto verified = replay_verify_all(nodes_->uri(), &output)) {
    EXPECT_EQ(*verified, 0) << "eryantis-replay verify --all:\n" << output;
  }

  // 3. One writer at a time, from the nodes' logs.
  std::map<std::int64_t, std::map<std::int64_t, Writer>> writers;  // match -> epoch -> writer
  const std::regex created(R"(match (\d+): created by )");
  const std::regex adopted(
      R"(match (\d+): adopted by node (\w+) \(lease epoch (\d+), (\d+) events\))");
  for (int i = 0; i < nodes_->size(); ++i) {
    const std::string text = nodes_->node(i).log();
    for (std::sregex_iterator it(text.begin(), text.end(), created), end; it != end; ++it) {
      auto& w = writers[std::stoll((*it)[1])];
      EXPECT_FALSE(w.contains(1)) << "match " << (*it)[1] << " created twice";
      w[1] = Writer{test::ClusterNodes::name(i), 0};
    }
    for (std::sregex_iterator it(text.begin(), text.end(), adopted), end; it != end; ++it) {
      const std::string node = (*it)[2];
      EXPECT_EQ(node, test::ClusterNodes::name(i));
      auto [at, fresh] = writers[std::stoll((*it)[1])].emplace(std::stoll((*it)[3]),
                                                               Writer{node, std::stoll((*it)[4])});
      EXPECT_TRUE(fresh) << "match " << (*it)[1] << ": lease epoch " << (*it)[3]
                         << " taken twice (nodes " << at->second.node << " and " << node << ")";
    }
  }
  for (const auto& [match, epochs] : writers) {
    std::int64_t from = 0;
    for (const auto& [epoch, w] : epochs) {
      EXPECT_GE(w.from_seq, from) << "match " << match << ": epoch " << epoch << " (node " << w.node
                                  << ") began before its predecessor's events";
      from = w.from_seq;
    }
  }
  std::size_t foreign = 0;
  for (const Ack& a : acks) {
    const auto m = writers.find(a.match);
    ASSERT_NE(m, writers.end()) << "match " << a.match << ": no node logged creating it";
    // The writer of seq s: the newest epoch that began before s.
    const Writer* writer = nullptr;
    for (const auto& [epoch, w] : m->second)
      if (w.from_seq < a.seq) writer = &w;
    const bool ok = writer && name_of[a.node] == writer->node;
    if (!ok && ++foreign <= 5)
      ADD_FAILURE() << "match " << a.match << " seq " << a.seq << " acknowledged by node "
                    << name_of[a.node] << " while node " << (writer ? writer->node : "?")
                    << " held the lease";
  }
  EXPECT_EQ(foreign, 0u);

  // The figures (docs/cluster.md section 4).
  // Median and max of kill -> playing again, over the kills that hit a playing table.
  auto figure = [&](auto&& which) {
    std::vector<Ms> t;
    for (const Failover& f : failovers)
      if (!f.tables.empty() && f.recovered_ms >= 0 && which(f)) t.push_back(f.recovered_ms);
    std::sort(t.begin(), t.end());
    if (t.empty()) return std::string("none");
    return "median " + std::to_string(t[t.size() / 2]) + " ms, max " + std::to_string(t.back()) +
           " ms over " + std::to_string(t.size()) + " kills";
  };
  std::size_t affected = 0;
  for (const Failover& f : failovers) affected += f.tables.size();
  // Matches were created on every node, and adopted by the restarted node itself
  // (its own lease, at once) or by another one (after the lease expired).
  std::map<std::string, int> created_on;
  std::size_t adoptions = 0, by_another = 0;
  for (const auto& [match, epochs] : writers) {
    if (epochs.contains(1)) ++created_on[epochs.at(1).node];
    std::string previous;
    for (const auto& [epoch, w] : epochs) {
      if (epoch > 1) ++adoptions;
      if (epoch > 1 && !previous.empty() && w.node != previous) ++by_another;
      previous = w.node;
    }
  }
  for (int i = 0; i < nodes_->size(); ++i)
    EXPECT_GE(created_on[test::ClusterNodes::name(i)], 1)
        << "no match was created on node " << test::ClusterNodes::name(i);
  std::cout << "[ figures  ] " << kills << " kills, " << db.size() << " matches, " << acks.size()
            << " acknowledged commands, " << report["redirects"].GetUint64() << " redirects, "
            << adoptions << " adoptions (" << by_another << " by another node), " << affected
            << " table outages (lease " << kLeaseMs
            << " ms); kill -> every table playing there playing again: all: "
            << figure([](const Failover&) { return true; }) << "; node restarted at once: "
            << figure([](const Failover& f) { return f.restart_delay_ms == 0; })
            << "; restarted 0-2 s later: "
            << figure([](const Failover& f) { return f.restart_delay_ms > 0; }) << "\n";
}

}  // namespace
}  // namespace eryantis::integration
