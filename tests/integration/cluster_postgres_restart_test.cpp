// A cluster node through restarts of its PostgreSQL under the real eryantis-bot
// (docs/cluster.md, "PostgreSQL restarts"; docs/reliability.md): a fast shutdown
// then a start, and a SIGKILL of the postmaster then a start (crash recovery).
// Each time the node reports degraded (/readyz 503) while PostgreSQL is away,
// reconnects by itself and is ready again, and the bots play on; at the end every
// command the bots saw acknowledged (--acks) is stored once, at its seq, with its
// command id, and every match verifies.
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "db_check.hpp"
#include "eryantis/json/json.hpp"
#include "support/child_process.hpp"
#include "support/network.hpp"
#include "support/polling.hpp"
#include "support/postgres_cluster.hpp"
#include "support/server_process.hpp"
#include "support/temp_dir.hpp"
#include "support/websocket_client.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;

struct Ack {
  std::int64_t match = 0;
  std::int64_t seq = 0;
  std::string command_id;
};

std::vector<Ack> read_acks(const std::string& path) {
  std::vector<Ack> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::int64_t at = 0;
    std::string node;
    Ack a;
    if (words >> at >> a.match >> a.seq >> a.command_id >> node) out.push_back(a);
  }
  return out;
}

// The web listener's port from the node's log ("web listening on http://127.0.0.1:P/").
int web_port(const std::string& log) {
  static constexpr std::string_view kWeb = "web listening on http://127.0.0.1:";
  const std::size_t at = log.find(kWeb);
  return at == std::string::npos ? 0 : std::atoi(log.c_str() + at + kWeb.size());
}

int readyz(int port) {
  auto c = test::WsClient::connect(port);
  if (!c) return 0;
  auto reply = c->get("/readyz");
  return reply ? reply->status : 0;
}

class PostgresRestartUnderLoadTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (HasFailure() && node_) std::cerr << "---- node (tail) ----\n" << node_->log_tail(60);
    if (const char* keep = std::getenv("ERYANTIS_KEEP_LOG"); keep && node_)
      test::write_file(keep, node_->log());
    if (HasFailure()) std::cerr << "---- bot ----\n" << test::read_file(dir_.file("bot.log"));
  }

  test::TempDir dir_{"eryantis-pg-restart"};
  std::unique_ptr<test::ServerProcess> node_;
};

TEST_F(PostgresRestartUnderLoadTest, ANodeCarriesOnThroughFastAndKilledRestartsLosingNothing) {
  std::string why_not;
  test::PostgresCluster* postgres = test::PostgresCluster::shared(&why_not);
  if (!postgres) {
    if (test::PostgresCluster::required())
      FAIL() << "CI is set, so PostgreSQL must be: " << why_not;
    GTEST_SKIP() << "PostgreSQL restarts not tested: " << why_not;
  }
  const std::string uri = postgres->fresh_uri();
  test::TestConfig config;
  config.durability = "full";
  config.snapshot_every = 8;
  std::string toml =
      test::read_file(test::write_config(dir_, "base.toml", dir_.file("node.db"), config));
  const std::string storage = "[storage]\n";
  toml.insert(toml.find(storage) + storage.size(),
              "backend = \"postgresql\"\npostgresql = \"" + uri + "\"\n");
  const int port = test::free_port();
  toml += "\n[web]\nenabled = true\nlisten = \"127.0.0.1\"\nport = 0\n";
  toml += "\n[cluster]\nnode = \"a\"\npublic_address = \"127.0.0.1:" + std::to_string(port) +
          "\"\nlease_ms = 3000\n";
  const std::string path = dir_.file("node.toml");
  test::write_file(path, toml);
  node_ = std::make_unique<test::ServerProcess>(path, dir_.file("node.db"), port);
  ASSERT_TRUE(node_->start()) << node_->log_tail();
  int web = 0;
  ASSERT_TRUE(test::eventually(5s, [&] { return (web = web_port(node_->log())) > 0; }));
  ASSERT_EQ(readyz(web), 200);

  const std::string acks_path = dir_.file("acks.txt");
  test::ChildProcess bot(test::Spawn{.argv = {ERYANTIS_BOT_BINARY,
                                              "--json",
                                              "--quiet",
                                              "--port",
                                              std::to_string(port),
                                              "--matches",
                                              "6",
                                              "--players",
                                              "2",
                                              "--mode",
                                              "simple",
                                              "--seed",
                                              "7",
                                              "--name-prefix",
                                              "pr",
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
  ASSERT_TRUE(test::eventually(
      20s, [&] { return read_acks(acks_path).size() >= 40; }, 50ms))
      << "the bots did not start playing";

  // A short outage (the leases outlive it) after each way of stopping; then one
  // longer than the lease: the node stops serving its matches (fenced by time),
  // and once PostgreSQL is back the bots' resuming logins have them adopted again.
  struct Outage {
    int signum;
    std::chrono::milliseconds away;
  };
  for (const Outage outage : {Outage{SIGINT, 300ms}, Outage{SIGKILL, 300ms}, Outage{SIGINT, 4s}}) {
    const int signum = outage.signum;
    const std::string how =
        std::string(signum == SIGINT ? "fast shutdown" : "SIGKILL of the postmaster") + ", away " +
        std::to_string(outage.away.count()) + " ms";
    SCOPED_TRACE(how);
    postgres->stop(signum);
    // The bots' next commands find PostgreSQL gone: degraded, said by /readyz.
    EXPECT_TRUE(test::eventually(
        10s, [&] { return readyz(web) == 503; }, 20ms))
        << "/readyz said " << readyz(web) << " with PostgreSQL stopped (" << how << ")";
    std::this_thread::sleep_for(outage.away);
    postgres->start_again();
    EXPECT_TRUE(test::eventually(
        20s, [&] { return readyz(web) == 200; }, 50ms))
        << "not ready again after PostgreSQL came back (" << how << ")";
    const std::size_t before = read_acks(acks_path).size();
    EXPECT_TRUE(test::eventually(
        30s, [&] { return read_acks(acks_path).size() >= before + 40; }, 50ms))
        << "the bots did not play on after the restart (" << how << ")";
    std::cout << "[ restart  ] " << how << ": ready again, the bots play on\n";
  }

  bot.signal(SIGINT);
  ASSERT_TRUE(bot.wait_exit(test::scaled(90s))) << "the bot did not finish its games";
  std::istringstream out(test::read_file(dir_.file("bot.out")));
  std::string last_line;
  for (std::string l; std::getline(out, l);)
    if (!l.empty()) last_line = l;
  rapidjson::Document report;
  report.Parse(last_line.c_str());
  ASSERT_TRUE(!report.HasParseError() && report.IsObject()) << last_line;
  EXPECT_EQ(report["games_unfinished"].GetUint64(), 0u) << last_line;
  // While PostgreSQL was away a write was answered STORE_FAILURE (nothing
  // acknowledged), and a command whose outcome was unknown STALE_SEQ on its
  // retry: the only errors the bots may have seen.
  for (const auto& error : report["errors"].GetObject()) {
    const std::string code = error.name.GetString();
    EXPECT_TRUE(code == "STORE_FAILURE" || code == "STALE_SEQ")
        << code << " x" << error.value.GetUint64() << ": " << last_line;
  }

  const std::vector<Ack> acks = read_acks(acks_path);
  std::string error;
  auto db = read_db(uri, &error);
  ASSERT_TRUE(error.empty()) << error;
  std::size_t lost = 0;
  std::map<std::pair<std::int64_t, std::int64_t>, std::string> acked;
  for (const Ack& a : acks) {
    auto [it, fresh] = acked.emplace(std::pair{a.match, a.seq}, a.command_id);
    EXPECT_TRUE(fresh || it->second == a.command_id)
        << "match " << a.match << " seq " << a.seq << " acknowledged twice";
    const auto m = db.find(a.match);
    // The server stores "<seat>:<the client's command id>" (match_flow.cpp).
    const bool stored = m != db.end() && m->second.command_ids.contains(a.seq) &&
                        m->second.command_ids.at(a.seq).substr(
                            m->second.command_ids.at(a.seq).find(':') + 1) == a.command_id;
    if (!stored && ++lost <= 5)
      ADD_FAILURE() << "acknowledged but not stored: match " << a.match << " seq " << a.seq;
  }
  EXPECT_EQ(lost, 0u) << "of " << acks.size() << " acknowledged commands";
  for (const auto& [id, m] : db) EXPECT_TRUE(m.verified) << "match " << id << ": " << m.problem;
  std::cout << "[ figures  ] " << acks.size() << " acknowledged commands, " << db.size()
            << " matches, 0 lost\n";
}

}  // namespace
}  // namespace eryantis::integration
