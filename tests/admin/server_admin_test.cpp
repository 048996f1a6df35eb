// The operator's actions on the server's logic, with a fake transport and a fake
// store (deterministic): listing, ending a match as an event, kicking, draining.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <deque>
#include <sstream>
#include <map>
#include <set>

#include "eryantis/server/server.hpp"
#include "fake_secret_source.hpp"
#include "fakes.hpp"

namespace eryantis::server {
namespace {

// Routes the default logger into a string while it lives.
class LogCapture {
 public:
  LogCapture() : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out_);
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("capture", sink));
  }
  ~LogCapture() { spdlog::set_default_logger(previous_); }
  std::string text() const { return out_.str(); }

 private:
  std::ostringstream out_;
  std::shared_ptr<spdlog::logger> previous_;
};

class AdminTest : public ::testing::Test {
 protected:
  AdminTest()
      : server(
            config(), transport, store, [this] { return now; }, secrets) {}
  static ServerConfig config() {
    ServerConfig c = test_server_config();
    c.limits.commands_per_second = 1000;
    return c;
  }
  void say(ConnectionId c, const std::string& line) {
    server.on_line(c, line);
    store.complete_all();
  }
  void connect(ConnectionId c, const std::string& nickname) {
    server.on_open(c, "127.0.0.1:" + std::to_string(c));
    say(c, R"({"type":"hello","protocol":1})");
    say(c, R"({"type":"login","nickname":")" + nickname + "\"}");
  }
  // Two players seated in match 1: status running once both chose.
  store::MatchId two_player_match() {
    connect(1, "alice");
    connect(2, "bob");
    say(1, R"({"type":"create_match","players":2,"mode":"simple"})");
    const store::MatchId m = server.admin_matches().at(0).id;
    say(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
    return m;
  }
  // two_player_match(), both seats chosen: planning.
  store::MatchId running_match() {
    const store::MatchId m = two_player_match();
    say(1, R"({"type":"play","command":{"type":"choose_wizard","wizard":0}})");
    say(1, R"({"type":"play","command":{"type":"choose_tower_color","color":"black"}})");
    say(2, R"({"type":"play","command":{"type":"choose_wizard","wizard":1}})");
    say(2, R"({"type":"play","command":{"type":"choose_tower_color","color":"white"}})");
    EXPECT_EQ(server.room(m)->status, store::MatchStatus::Running);
    return m;
  }
  void tick() {
    server.tick();
    store.complete_all();
  }
  bool event_written(std::string_view type) const {
    for (const MatchWrite& w : store.written)
      for (const store::NewEvent& e : w.events)
        if (rules::command_type(test::eriantys_event(e.event).command) == type) return true;
    return false;
  }

  std::int64_t now = 1'000'000;
  FakeTransport transport;
  FakePersistence store;
  FakeSecretSource secrets;
  Server server;
};

TEST_F(AdminTest, ListsSessionsAndMatches) {
  const store::MatchId m = two_player_match();
  connect(3, "carol");
  now += 2500;
  say(3, R"({"type":"ping"})");
  const auto sessions = server.admin_sessions();
  ASSERT_EQ(sessions.size(), 3u);
  EXPECT_EQ(sessions[0].nickname, "alice");
  EXPECT_EQ(sessions[0].match, m);
  EXPECT_EQ(sessions[0].seat, 0);
  EXPECT_EQ(sessions[0].idle_ms, 2500);
  EXPECT_EQ(sessions[1].seat, 1);
  EXPECT_EQ(sessions[2].nickname, "carol");
  EXPECT_EQ(sessions[2].match, 0u);
  EXPECT_EQ(sessions[2].idle_ms, 0);
  const auto matches = server.admin_matches();
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].players, 2);
  EXPECT_EQ(matches[0].connected, 2);
  EXPECT_EQ(matches[0].phase, "setup");
  EXPECT_EQ(matches[0].nicknames, (std::vector<std::string>{"alice", "bob"}));
}

TEST_F(AdminTest, EndingAMatchIsAnEventAndEveryoneIsTold) {
  const store::MatchId m = two_player_match();
  ASSERT_TRUE(server.admin_end_match(m, "stuck after a bug report").has_value());
  store.complete_all();
  EXPECT_TRUE(event_written("end_match"));
  ASSERT_FALSE(store.written.empty());
  EXPECT_EQ(store.written.back().status, store::MatchStatus::Finished);
  for (ConnectionId c : {1, 2}) {
    EXPECT_TRUE(transport.got(c, R"("type":"end_match")")) << c;
    EXPECT_TRUE(transport.got(c, R"("reason":"ended")")) << c;
  }
  const Room* room = server.room(m);
  EXPECT_TRUE(room == nullptr || room->status == store::MatchStatus::Finished);
  // A second end, or an unknown match, is refused with a sentence.
  EXPECT_FALSE(server.admin_end_match(m, "again").has_value());
  auto unknown = server.admin_end_match(999, "x");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().find("match 999"), std::string::npos);
}

TEST_F(AdminTest, KickClosesTheConnectionAndKeepsTheSeat) {
  const store::MatchId m = two_player_match();
  EXPECT_TRUE(server.admin_kick("bob", "spamming"));
  EXPECT_TRUE(transport.closed.count(2));
  EXPECT_TRUE(transport.got(2, "an operator disconnected you: spamming"));
  server.on_closed(2);
  EXPECT_EQ(server.room(m)->seats[1]->nickname, "bob");
  EXPECT_FALSE(server.admin_kick("bob", "again"));  // not connected any more
  EXPECT_FALSE(server.admin_kick("nobody", "x"));
}

TEST_F(AdminTest, DrainRefusesNewMatchesAndEndsWhenTheLastOneIsOver) {
  const store::MatchId m = two_player_match();
  connect(3, "carol");
  connect(4, "dave");
  say(3, R"({"type":"create_match","players":2,"mode":"simple"})");  // a lobby, waiting
  server.admin_drain();
  EXPECT_TRUE(server.draining());
  say(4, R"({"type":"quick_join","players":2,"mode":"simple"})");
  say(4, R"({"type":"create_match","players":3,"mode":"simple"})");
  EXPECT_TRUE(transport.got(4, "SHUTTING_DOWN"));
  EXPECT_EQ(server.admin_matches().size(), 2u);  // nothing new
  EXPECT_FALSE(server.drained());                // alice and bob still play
  ASSERT_TRUE(server.admin_end_match(m, "drain test").has_value());
  store.complete_all();
  EXPECT_TRUE(server.drained());  // carol's lobby waits in the database for the restart
}

TEST_F(AdminTest, ADrainFinishesWhenADesertedMatchRunsOutAndSaysWhatItWaitsFor) {
  LogCapture log;
  const store::MatchId m = running_match();
  server.on_closed(1);
  server.on_closed(2);  // nobody plays it any more (seen: drains waiting for 22 minutes)
  tick();
  server.admin_drain();
  EXPECT_FALSE(server.drained());
  const auto waiting = server.admin_in_play();
  ASSERT_EQ(waiting.size(), 1u);
  EXPECT_EQ(waiting[0].id, m);
  EXPECT_EQ(waiting[0].connected, 0);
  EXPECT_NE(waiting[0].deadline.find(R"("action":"abandon")"), std::string::npos)
      << waiting[0].deadline;
  // The server log names it at once, then every 30 s.
  const std::string line = "drain: waiting for 1 match(es) in play: match " + std::to_string(m) +
                           " (running, planning, 0 of 2 player(s) connected, abandon in 600 s)";
  EXPECT_NE(log.text().find(line), std::string::npos) << log.text();
  now += 29'000;
  tick();
  EXPECT_EQ(log.text().find("abandon in 571 s"), std::string::npos);
  now += 1'000;
  tick();
  EXPECT_NE(log.text().find("abandon in 570 s"), std::string::npos) << log.text();
  now += 570'000;
  tick();
  EXPECT_TRUE(event_written("abandon_match"));
  EXPECT_TRUE(server.drained());
  EXPECT_TRUE(server.admin_in_play().empty());
}

TEST_F(AdminTest, NotDrainedUntilAsked) {
  EXPECT_FALSE(server.drained());
  server.admin_drain();
  EXPECT_TRUE(server.drained());
}

}  // namespace
}  // namespace eryantis::server
