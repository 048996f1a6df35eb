// Issue 14 through the real processes: a backup taken with eryantis-admin while
// matches are in play restores into a server on which every match resumes from
// exactly the state it had and plays on; a player who lost their token gets a
// new one from `eryantis-admin reissue-token` and takes their seat back in the
// running match; and /metrics, scraped while a match is played, is valid
// Prometheus text to a strict reader of the format (tests/support/exposition.hpp:
// promtool itself, Debian's `prometheus` package, installs 96 MB).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "fixture.hpp"
#include "support/exposition.hpp"
#include "support/websocket_client.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;

struct AdminReply {
  int code = -1;
  std::string out;
};

class OperationsTest : public ServerFixture {
 protected:
  AdminReply admin(std::vector<std::string> words) {
    std::vector<std::string> argv = {ERYANTIS_ADMIN_BINARY, "--socket", db_ + ".sock"};
    argv.insert(argv.end(), words.begin(), words.end());
    AdminReply r;
    r.code = run_program(argv, &r.out, 30s);
    return r;
  }
  // Plays until every game has `events` more events than now (or fails).
  void play_on(const std::vector<Game*>& games, store::Seq events) {
    std::vector<store::Seq> target;
    for (Game* g : games) {
      g->options().paused = false;
      target.push_back(g->max_seq() + events);
    }
    const bool reached = drive(games, 20s, [&] {
      for (std::size_t i = 0; i < games.size(); ++i)
        if (!games[i]->over() && games[i]->max_seq() < target[i]) return false;
      return true;
    });
    ASSERT_TRUE(reached) << "the games did not move on";
    for (std::size_t i = 0; i < games.size(); ++i)
      EXPECT_TRUE(games[i]->over() || games[i]->max_seq() >= target[i]) << games[i]->name();
  }
  // Stops sending commands and waits until nothing is in flight and every
  // connected player has caught up.
  void settle(const std::vector<Game*>& games) {
    for (Game* g : games) g->options().paused = true;
    const bool idle = drive(games, 10s, [&] {
      for (Game* g : games)
        if (!g->idle()) return false;
      return true;
    });
    ASSERT_TRUE(idle) << "the games did not settle";
  }
  // Each seat's own view of its match: (seq, hash) from a sync.
  static std::vector<std::pair<std::int64_t, std::string>> views(Game& g) {
    std::vector<std::pair<std::int64_t, std::string>> out;
    for (int i = 0; i < g.players(); ++i) {
      auto state = g.player(i).client->request(R"("type":"sync")");
      EXPECT_TRUE(state && state->type == "state") << (state ? state->line : "no reply");
      if (!state) return out;
      EXPECT_EQ(state->i64("match"), g.match());
      out.emplace_back(state->i64("seq"), state->str("hash"));
    }
    return out;
  }
};

TEST_F(OperationsTest, ARestoredBackupResumesEveryMatchFromItsExactState) {
  start(TestConfig{});
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  Game two("2s", GameOptions{.players = 2, .mode = rules::Mode::Simple}, seed);
  Game three("3e", GameOptions{.players = 3, .mode = rules::Mode::Expert}, seed + 1);
  Game four("4s", GameOptions{.players = 4, .mode = rules::Mode::Simple}, seed + 2);
  Game four_expert("4e", GameOptions{.players = 4, .mode = rules::Mode::Expert}, seed + 3);
  const std::vector<Game*> games = {&two, &three, &four, &four_expert};
  for (Game* g : games) {
    g->connect_all(port());
    ASSERT_FALSE(HasFatalFailure());
    g->create_and_join();
    ASSERT_FALSE(HasFatalFailure());
  }
  play_on(games, 12);  // setup done, well into the first rounds
  ASSERT_FALSE(HasFatalFailure());
  settle(games);
  ASSERT_FALSE(HasFatalFailure());
  std::vector<std::vector<std::pair<std::int64_t, std::string>>> before;
  for (Game* g : games) {
    ASSERT_FALSE(g->over()) << g->name() << " ended before the backup";
    before.push_back(views(*g));
  }

  const std::string copy = dir_.file("backup.db");
  const AdminReply backup = admin({"backup", copy});
  ASSERT_EQ(backup.code, 0) << backup.out << server_->log_tail();
  EXPECT_NE(backup.out.find("\"integrity_check\":\"ok\""), std::string::npos) << backup.out;
  for (Game* g : games) g->lost_server();
  stop_gracefully();

  // The original is set aside: a server started on the restored copy.
  std::filesystem::rename(db_, dir_.file("original.db"));
  ServerProcess restored(write_config(dir_, "restored.toml", copy, TestConfig{}), copy);
  ASSERT_TRUE(restored.start()) << restored.log_tail();
  EXPECT_NE(restored.log().find("restored 4 unfinished match(es)"), std::string::npos)
      << restored.log_tail();
  for (std::size_t k = 0; k < games.size(); ++k) {
    Game& g = *games[k];
    SCOPED_TRACE(g.name());
    for (int i = 0; i < g.players(); ++i) {
      auto back = g.reconnect(i, restored.port());
      ASSERT_TRUE(back && back->type == "logged_in");
      EXPECT_EQ(back->i64("match"), g.match());
    }
    EXPECT_EQ(views(g), before[k]);  // every seat's view: the same seq and hash
  }
  play_on(games, 6);  // and every match plays on
  ASSERT_FALSE(HasFatalFailure());
  for (Game* g : games) g->lost_server();
}

TEST_F(OperationsTest, APlayerWhoLostTheirTokenTakesTheirSeatBackWithAReissuedOne) {
  start(TestConfig{});
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  Game game("lost", GameOptions{.players = 2, .mode = rules::Mode::Simple}, seed);
  game.connect_all(port());
  ASSERT_FALSE(HasFatalFailure());
  game.create_and_join();
  ASSERT_FALSE(HasFatalFailure());
  play_on({&game}, 8);
  ASSERT_FALSE(HasFatalFailure());
  settle({&game});
  ASSERT_FALSE(HasFatalFailure());

  // bob's client loses its token: his nickname is held by the seat.
  Player& bob = game.player(1);
  const std::string lost = bob.token;
  game.disconnect(1);
  auto attempt = Client::connect(port(), "bob without token");
  ASSERT_TRUE(attempt && attempt->hello());
  auto refused = attempt->login(bob.nickname);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->str("code"), "NICKNAME_TAKEN") << refused->line;

  // The operator reissues it.
  const AdminReply reissued = admin({"reissue-token", bob.nickname});
  ASSERT_EQ(reissued.code, 0) << reissued.out << server_->log_tail();
  const Message reply = parse_message(reissued.out.substr(0, reissued.out.find('\n')));
  ASSERT_TRUE(reply.valid) << reissued.out;
  EXPECT_EQ(reply.i64("match"), game.match());
  EXPECT_EQ(reply.i64("seat"), 1);
  const std::string token = reply.str("token");
  ASSERT_EQ(token.size(), 64u) << reissued.out;
  EXPECT_NE(token, lost);

  // The old token no longer works; the new one gives bob his seat back.
  auto old = attempt->login(bob.nickname, lost);
  ASSERT_TRUE(old);
  EXPECT_EQ(old->str("code"), "BAD_TOKEN") << old->line;
  attempt.reset();
  bob.token = token;
  auto back = game.reconnect(1, port());
  ASSERT_TRUE(back && back->type == "logged_in");
  EXPECT_EQ(back->i64("match"), game.match());
  EXPECT_EQ(back->i64("seat"), 1);
  play_on({&game}, 6);  // and the match goes on with him
  ASSERT_FALSE(HasFatalFailure());
  game.lost_server();
}

TEST_F(OperationsTest, MetricsScrapedWhileAMatchIsPlayedAreValidExpositionText) {
  const std::string path = write_config(dir_, "eryantis.toml", db_, TestConfig{});
  std::ofstream(path, std::ios::app) << "\n[web]\nenabled = true\nport = 0\n";
  start_with(path);
  static constexpr std::string_view kListening = "web listening on http://127.0.0.1:";
  const std::string log = server_->log();
  const std::size_t at = log.find(kListening);
  ASSERT_NE(at, std::string::npos) << log;
  const int web_port = std::atoi(log.c_str() + at + kListening.size());

  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  Game game("m", GameOptions{.players = 3, .mode = rules::Mode::Expert}, seed);
  game.connect_all(port());
  ASSERT_FALSE(HasFatalFailure());
  game.create_and_join();
  ASSERT_FALSE(HasFatalFailure());
  play_on({&game}, 10);
  ASSERT_FALSE(HasFatalFailure());
  settle({&game});
  ASSERT_FALSE(HasFatalFailure());

  // Gauges are refreshed every second: scrape until they show the match (<= 3 s).
  std::string body;
  test::Exposition e;
  const auto deadline = std::chrono::steady_clock::now() + 3s;
  do {
    auto web = test::WsClient::connect(web_port);
    ASSERT_TRUE(web);
    auto scraped = web->get("/metrics");
    ASSERT_TRUE(scraped);
    ASSERT_EQ(scraped->status, 200);
    body = scraped->body;
    e = test::parse_exposition(body);
    ASSERT_TRUE(e.problems.empty()) << ::testing::PrintToString(e.problems) << body;
    if (e.samples.contains("eryantis_sessions") && e.samples.at("eryantis_sessions") == 3) break;
    std::this_thread::sleep_for(100ms);
  } while (std::chrono::steady_clock::now() < deadline);
  // The families an operator alarms on (docs/operations.md), with the play in them.
  for (const char* histogram :
       {"eryantis_event_loop_lag_seconds", "eryantis_commit_latency_seconds",
        "eryantis_ack_latency_seconds", "eryantis_commit_batch_writes"})
    EXPECT_EQ(e.types.count(histogram) ? e.types.at(histogram) : "", "histogram") << histogram;
  auto value = [&](const std::string& series) {
    auto it = e.samples.find(series);
    return it == e.samples.end() ? -1.0 : it->second;
  };
  EXPECT_GE(value(R"(eryantis_commands_total{result="accepted"})"), 10);
  EXPECT_GE(value("eryantis_events_appended_total"), 10);
  EXPECT_GE(value("eryantis_ack_latency_seconds_count"), 10);
  EXPECT_EQ(value(R"(eryantis_matches{status="running"})"), 1);
  EXPECT_EQ(value("eryantis_sessions"), 3);
  EXPECT_GT(value("eryantis_resident_memory_bytes"), 0);
  game.lost_server();
}

}  // namespace
}  // namespace eryantis::integration
