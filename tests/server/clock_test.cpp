// Clocks for everyone (docs/protocol.md, "Clocks") on the server with a manual clock:
// the refusals, the steps written with the match (a pause at creation, a resume when
// it runs, the events' times), a timeout skipped exactly when the bank runs out (not a
// millisecond before), and a command that arrives after the timeout waiting behind it.
#include <gtest/gtest.h>

#include "eryantis/codec/codec.hpp"
#include "eryantis/server/server.hpp"
#include "fake_secret_source.hpp"
#include "fakes.hpp"
#include "games/handles.hpp"

namespace eryantis::server {
namespace {

ServerConfig clock_config() {
  ServerConfig c;
  c.games = &test::games();
  c.turn_grace_ms = 10'000'000;  // only the clocks act in these tests
  c.forfeit_after_ms = 10'000'000;
  c.abandon_after_ms = 10'000'000;
  c.heartbeat_interval_ms = 10'000'000;
  c.heartbeat_timeout_ms = 20'000'000;
  c.limits.commands_per_second = 100000;
  return c;
}

class ClockTest : public ::testing::Test {
 protected:
  ClockTest()
      : server(
            clock_config(), transport, store, [this] { return now; }, secrets) {}
  std::string reply(ConnectionId c, const std::string& line) {
    const std::size_t before = transport.sent[c].size();
    server.on_line(c, line);
    store.complete_all();
    return transport.sent[c].size() > before ? transport.sent[c][before] : "";
  }
  void login(ConnectionId c, const std::string& nickname) {
    server.on_open(c, "127.0.0.1:1");
    EXPECT_EQ(type_of(reply(c, R"({"type":"hello","protocol":1,"updates":"events"})")), "welcome");
    EXPECT_EQ(type_of(reply(c, R"({"type":"login","nickname":")" + nickname + "\"}")), "logged_in");
  }
  static std::string code_of(const std::string& line) {
    if (type_of(line) != "error") return type_of(line);
    return parse(line)["code"].GetString();
  }
  const rules::State& rules_state() { return test::eriantys_state(server.room(match)->state); }
  // alice (seat 0) and bob (1) in a 2-seat match with `clock`, played until it runs.
  void running_match(const std::string& clock) {
    login(1, "alice");
    login(2, "bob");
    auto joined = reply(1, R"({"type":"create_match","players":2,"clock":")" + clock + "\"}");
    ASSERT_EQ(type_of(joined), "joined") << joined;
    match = parse(joined)["match"].GetInt64();
    ASSERT_EQ(type_of(reply(2, R"({"type":"join_match","match":)" + std::to_string(match) + "}")),
              "joined");
    for (int step = 0; step < 100 && server.room(match)->status != store::MatchStatus::Running;
         ++step) {
      const rules::Seat seat = rules::seats_to_act(rules_state()).front();
      auto legal = rules::legal_commands(rules_state(), seat);
      ASSERT_FALSE(legal.empty());
      now += 100;
      auto r =
          reply(static_cast<ConnectionId>(seat + 1),
                R"({"type":"play","id":1,"command":)" + codec::command_to_json(legal[0]) + "}");
      ASSERT_EQ(type_of(r), "ack") << r;
    }
    ASSERT_EQ(server.room(match)->status, store::MatchStatus::Running);
  }
  int server_events() const {
    int n = 0;
    for (const MatchWrite& w : store.written)
      for (const store::NewEvent& e : w.events) n += e.actor == store::Actor::server();
    return n;
  }
  std::vector<std::string> step_kinds() const {
    std::vector<std::string> kinds;
    for (const MatchWrite& w : store.written)
      for (const store::ClockStepRecord& s : w.clock_steps) kinds.push_back(s.kind);
    return kinds;
  }

  std::int64_t now = 1'000'000;
  FakeTransport transport;
  FakePersistence store;
  FakeSecretSource secrets;
  Server server;
  store::MatchId match = 0;
};

TEST_F(ClockTest, RefusalsAreCoded) {
  login(1, "alice");
  for (const char* fields : {R"("clock":"10")", R"("clock":"9s")", R"("clock":"soon")",
                             R"("clock":"10m","on_timeout":"later")"})
    EXPECT_EQ(
        code_of(reply(1, std::string(R"({"type":"create_match","players":2,)") + fields + "}")),
        "BAD_TIME_CONTROL")
        << fields;
  // This server has no computer players: none can take a seat out of time.
  const std::string computer =
      reply(1, R"({"type":"create_match","players":2,"clock":"10m","on_timeout":"computer"})");
  EXPECT_EQ(code_of(computer), "BAD_TIME_CONTROL");
  EXPECT_NE(computer.find("no computer players"), std::string::npos) << computer;
  EXPECT_TRUE(store.written.empty());
}

TEST_F(ClockTest, TheBankRunsOutExactlyAndTheTurnIsSkipped) {
  running_match("10s");
  // Stored with the match: the control, a pause at creation, a resume at the start,
  // and every event of the match with the time it was charged.
  ASSERT_TRUE(store.written.front().create);
  EXPECT_EQ(store.written.front().create->clock, std::optional<std::string>("10s+0s"));
  EXPECT_EQ(store.written.front().create->on_timeout, std::optional<std::string>("skip"));
  EXPECT_EQ(step_kinds(), (std::vector<std::string>{"pause", "resume"}));
  for (const MatchWrite& w : store.written)
    if (!w.events.empty()) {
      EXPECT_TRUE(w.time_ms.has_value());
    }
  const Room& room = *server.room(match);
  ASSERT_TRUE(room.clock);
  const int before = server_events();
  // Nobody plays: 1 ms short of the bank nothing happens, at the bank the turn is skipped.
  now += 9'999;
  server.tick();
  store.complete_all();
  EXPECT_EQ(server_events(), before);
  now += 1;
  server.tick();
  store.complete_all();
  EXPECT_EQ(server_events(), before + 1);
  // The push says so: the seat that ran out has a timeout and 0 left.
  const auto event = parse(transport.sent[1].back());
  ASSERT_TRUE(event.HasMember("clocks")) << transport.sent[1].back();
  int timeouts = 0;
  for (const auto& c : event["clocks"].GetArray()) timeouts += c["timeouts"].GetInt();
  EXPECT_EQ(timeouts, 1);
}

TEST_F(ClockTest, ACommandAfterTheTimeoutWaitsBehindIt) {
  running_match("10s");
  const rules::Seat seat = rules::seats_to_act(rules_state()).front();
  auto legal = rules::legal_commands(rules_state(), seat);
  ASSERT_FALSE(legal.empty());
  const int before = server_events();
  // No tick ran since the bank ran out: the command's arrival handles the timeout first.
  now += 10'500;
  server.on_line(static_cast<ConnectionId>(seat + 1),
                 R"({"type":"play","id":7,"command":)" + codec::command_to_json(legal[0]) + "}");
  store.complete_all();
  EXPECT_EQ(server_events(), before + 1) << "the turn was skipped first";
  // The command came too late for that turn: refused by the rules, not applied.
  std::string answer;
  for (const std::string& l : transport.sent[static_cast<ConnectionId>(seat + 1)])
    if (l.find(R"("id":7)") != std::string::npos) answer = l;
  EXPECT_EQ(type_of(answer), "error") << answer;
}

}  // namespace
}  // namespace eryantis::server
