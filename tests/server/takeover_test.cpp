// A computer takes the seat (docs/accounts.md): create_match's `takeover`, refused
// for fewer than 3 seats or a server without computer players; leave_match in a
// started match hands the seat to a computer that then plays; without takeover the
// seat stays theirs; a store failure keeps it theirs; an absent player past the
// turn grace is replaced and told at their next login.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <thread>

#include "eryantis/codec/codec.hpp"
#include "eryantis/server/computer_pool.hpp"
#include "eryantis/server/server.hpp"
#include "fake_secret_source.hpp"
#include "fakes.hpp"
#include "games/handles.hpp"

namespace eryantis::server {
namespace {

// Keeps each decision asked until the test answers it (as computer_test.cpp's).
struct FakeRunner : DecisionRunner {
  std::vector<std::pair<DecisionRequest, Done>> pending;
  void submit(DecisionRequest request, Done done) override {
    pending.emplace_back(std::move(request), std::move(done));
  }
  std::size_t answer_all() {
    auto batch = std::move(pending);
    pending.clear();
    for (auto& [request, done] : batch) {
      DecisionResult result;
      std::thread([&] { result = run_decision(request); }).join();
      done(std::move(result));
    }
    return batch.size();
  }
};

ServerConfig takeover_config() {
  ServerConfig c;
  c.games = &test::games();
  c.turn_grace_ms = 1000;
  c.forfeit_after_ms = 500000;
  c.abandon_after_ms = 5000000;
  c.heartbeat_interval_ms = 60000;
  c.heartbeat_timeout_ms = 120000;
  c.limits.commands_per_second = 100000;
  c.computer.pause_ms = 0;
  c.computer.playouts = 20;
  return c;
}

class TakeoverTest : public ::testing::Test {
 protected:
  TakeoverTest()
      : server(
            takeover_config(), transport, store, [this] { return now; }, secrets) {
    server.set_decision_runner(&runner);
  }
  std::vector<std::string> say(ConnectionId c, const std::string& line) {
    const std::size_t before = transport.sent[c].size();
    server.on_line(c, line);
    store.complete_all();
    return {transport.sent[c].begin() + static_cast<long>(before), transport.sent[c].end()};
  }
  std::string reply(ConnectionId c, const std::string& line) {
    auto lines = say(c, line);
    return lines.empty() ? "" : lines.front();
  }
  std::vector<std::string> login(ConnectionId c, const std::string& nickname,
                                 const std::string& token = {}) {
    server.on_open(c, "127.0.0.1:1");
    EXPECT_EQ(type_of(reply(c, R"({"type":"hello","protocol":1,"updates":"events"})")), "welcome");
    std::string line = R"({"type":"login","nickname":")" + nickname + "\"";
    if (!token.empty()) line += R"(,"token":")" + token + "\"";
    auto lines = say(c, line + "}");
    EXPECT_FALSE(lines.empty());
    if (!lines.empty() && type_of(lines[0]) == "logged_in")
      tokens[c] = parse(lines[0])["token"].GetString();
    return lines;
  }
  void answer_computers() {
    for (int i = 0; i < 1000 && runner.answer_all() > 0; ++i) store.complete_all();
    store.complete_all();
  }
  void tick() {
    server.tick();
    store.complete_all();
  }
  static std::string code_of(const std::string& line) {
    if (type_of(line) != "error") return type_of(line);
    return parse(line)["code"].GetString();
  }
  std::string last_of(ConnectionId c, std::string_view type) {
    for (auto it = transport.sent[c].rbegin(); it != transport.sent[c].rend(); ++it)
      if (type_of(*it) == type) return *it;
    return {};
  }
  const rules::State& rules_state() { return test::eriantys_state(server.room(match)->state); }
  // Alice (seat 0), bob (1) and carol (2) in a 3-seat match, `takeover` as given.
  void three_players(const std::string& takeover) {
    login(1, "alice");
    login(2, "bob");
    login(3, "carol");
    std::string create = R"({"type":"create_match","players":3)";
    if (!takeover.empty()) create += R"(,"takeover":")" + takeover + "\"";
    auto joined = reply(1, create + "}");
    ASSERT_EQ(type_of(joined), "joined") << joined;
    match = parse(joined)["match"].GetInt64();
    for (ConnectionId c : {2, 3})
      ASSERT_EQ(type_of(reply(c, R"({"type":"join_match","match":)" + std::to_string(match) + "}")),
                "joined");
  }
  // Plays a legal command for each person's seat to act until `done` holds.
  template <typename Done>
  void play_until(Done done) {
    for (int step = 0; step < 2000; ++step) {
      answer_computers();
      if (done()) return;
      const Room* room = server.room(match);
      ASSERT_TRUE(room) << "the match ended";
      ASSERT_NE(rules_state().phase, rules::Phase::GameOver);
      bool played = false;
      for (rules::Seat seat : rules::seats_to_act(rules_state())) {
        if (room->is_computer(seat)) continue;
        auto legal = rules::legal_commands(rules_state(), seat);
        ASSERT_FALSE(legal.empty());
        auto r =
            reply(static_cast<ConnectionId>(seat + 1),
                  R"({"type":"play","id":1,"command":)" + codec::command_to_json(legal[0]) + "}");
        ASSERT_EQ(type_of(r), "ack") << r;
        played = true;
        break;
      }
      ASSERT_TRUE(played || !runner.pending.empty()) << "nobody can move";
    }
    FAIL() << "not reached in 2000 steps";
  }
  bool running() { return server.room(match)->status == store::MatchStatus::Running; }

  std::int64_t now = 1'000'000;
  FakeTransport transport;
  FakePersistence store;
  FakeSecretSource secrets;
  FakeRunner runner;
  Server server;
  std::map<ConnectionId, std::string> tokens;
  store::MatchId match = 0;
};

TEST_F(TakeoverTest, RefusedBelowThreeSeatsAndShownBeforeJoining) {
  login(1, "alice");
  auto refused = parse(reply(1, R"({"type":"create_match","players":2,"takeover":"greedy"})"));
  EXPECT_STREQ(refused["code"].GetString(), "INVALID_FIELD");
  EXPECT_NE(std::string(refused["message"].GetString()).find("3 or 4 seats"), std::string::npos);
  EXPECT_EQ(code_of(reply(1, R"({"type":"create_match","players":3,"takeover":"expert"})")),
            "INVALID_FIELD");
  // null is the same as absent.
  auto plain = reply(1, R"({"type":"create_match","players":3,"takeover":null})");
  ASSERT_EQ(type_of(plain), "joined") << plain;
  EXPECT_FALSE(parse(last_of(1, "state")).HasMember("takeover"));
  ASSERT_EQ(type_of(reply(1, R"({"type":"leave_match"})")), "left");
  auto joined = reply(1, R"({"type":"create_match","players":3,"takeover":"greedy"})");
  ASSERT_EQ(type_of(joined), "joined") << joined;
  EXPECT_STREQ(parse(last_of(1, "state"))["takeover"].GetString(), "greedy");
  ASSERT_TRUE(store.written.back().create || !store.written.empty());
  bool stored = false;
  for (const MatchWrite& w : store.written)
    if (w.create && w.create->takeover == std::optional<std::string>("greedy")) stored = true;
  EXPECT_TRUE(stored);
  // The lobby lists it with its takeover level.
  login(2, "bob");
  auto list = parse(reply(2, R"({"type":"list_matches"})"));
  ASSERT_EQ(list["open"].Size(), 1u);
  EXPECT_STREQ(list["open"][0]["takeover"].GetString(), "greedy");
}

TEST_F(TakeoverTest, RefusedWithoutComputerPlayers) {
  FakeTransport t;
  FakePersistence s;
  FakeSecretSource sec;
  Server plain(
      takeover_config(), t, s, [this] { return now; }, sec);
  plain.on_open(1, "127.0.0.1:1");
  plain.on_line(1, R"({"type":"hello","protocol":1})");
  plain.on_line(1, R"({"type":"login","nickname":"alice"})");
  plain.on_line(1, R"({"type":"create_match","players":3,"takeover":"random"})");
  s.complete_all();
  auto refused = parse(t.sent[1].back());
  EXPECT_STREQ(refused["code"].GetString(), "INVALID_FIELD");
  EXPECT_NE(std::string(refused["message"].GetString()).find("no computer"), std::string::npos);
}

TEST_F(TakeoverTest, LeavingAStartedMatchHandsTheSeatToAComputerThatPlays) {
  three_players("random");
  play_until([&] { return running(); });
  const std::size_t before = store.written.size();
  auto lines = say(2, R"({"type":"leave_match","id":"l"})");
  ASSERT_FALSE(lines.empty());
  auto left = parse(lines[0]);
  ASSERT_EQ(type_of(lines[0]), "left") << lines[0];
  EXPECT_STREQ(left["id"].GetString(), "l");
  EXPECT_EQ(left["match"].GetInt64(), match);
  // One write: the seat upsert, a computer of the match's level.
  ASSERT_GT(store.written.size(), before);
  const MatchWrite& w = store.written[before];
  ASSERT_EQ(w.seats.size(), 1u);
  EXPECT_EQ(w.seats[0].seat, 1);
  EXPECT_EQ(w.seats[0].nickname, "Computer 1");
  EXPECT_EQ(w.seats[0].computer, std::optional<std::string>("random"));
  EXPECT_EQ(w.seats[0].resume_token_hash, "");
  // Who left is kept with the seat: their rating counts the match (schema 14).
  EXPECT_EQ(w.seats[0].left_by, std::optional<std::string>("name:bob"));
  EXPECT_EQ(w.seats[0].account_id, std::nullopt);
  EXPECT_TRUE(server.room(match)->is_computer(1));
  // The others see it.
  for (ConnectionId c : {1, 3}) {
    auto seats = parse(last_of(c, "seats"));
    EXPECT_STREQ(seats["seats"][1]["computer"].GetString(), "random") << c;
    EXPECT_STREQ(seats["seats"][1]["nickname"].GetString(), "Computer 1");
    EXPECT_STREQ(seats["takeover"].GetString(), "random");
  }
  // Bob is free: he may open another match.
  EXPECT_EQ(type_of(reply(2, R"({"type":"create_match","players":2})")), "joined");
  // The computer plays seat 1 when its turn comes.
  auto computer_moved = [&] {
    for (std::size_t i = before; i < store.written.size(); ++i)
      for (const store::NewEvent& e : store.written[i].events)
        if (e.actor == store::Actor::player(1)) return true;
    return false;
  };
  play_until(computer_moved);
  EXPECT_TRUE(computer_moved());
}

TEST_F(TakeoverTest, WithoutTakeoverTheSeatStaysTheirs) {
  three_players("");
  play_until([&] { return running(); });
  EXPECT_EQ(code_of(reply(2, R"({"type":"leave_match"})")), "ALREADY_IN_MATCH");
  EXPECT_FALSE(server.room(match)->is_computer(1));
  EXPECT_EQ(server.room(match)->seats[1]->nickname, "bob");
}

TEST_F(TakeoverTest, AStoreFailureKeepsTheSeatTheirs) {
  three_players("strong");
  play_until([&] { return running(); });
  store.fail_next = true;
  EXPECT_EQ(code_of(reply(2, R"({"type":"leave_match"})")), "STORE_FAILURE");
  const Room* room = server.room(match);
  ASSERT_FALSE(room->is_computer(1));
  EXPECT_EQ(room->seats[1]->nickname, "bob");
  EXPECT_EQ(room->seats[1]->connection, 2u);
  // Still seated: no other match for bob; the leave works once the store does.
  EXPECT_EQ(code_of(reply(2, R"({"type":"create_match","players":2})")), "ALREADY_IN_MATCH");
  EXPECT_EQ(type_of(reply(2, R"({"type":"leave_match"})")), "left");
  EXPECT_TRUE(server.room(match)->is_computer(1));
}

TEST_F(TakeoverTest, AnAbsentPlayerPastTheGraceIsReplacedAndToldAtLogin) {
  three_players("random");
  // Bob's turn in the action phase (planning skips an absent seat at once).
  play_until([&] {
    const auto to_act = rules::seats_to_act(rules_state());
    return running() && rules_state().phase == rules::Phase::Action && to_act.size() == 1 &&
           to_act[0] == 1;
  });
  const std::string token = tokens[2];
  server.on_closed(2);
  store.complete_all();
  tick();
  EXPECT_FALSE(server.room(match)->is_computer(1));  // the grace runs
  auto seats = parse(last_of(1, "seats"));
  ASSERT_TRUE(seats["deadline"].IsObject()) << last_of(1, "seats");
  EXPECT_STREQ(seats["deadline"]["action"].GetString(), "take_over");
  EXPECT_EQ(seats["deadline"]["seat"].GetInt(), 1);
  now += 1001;
  const std::size_t before = store.written.size();
  tick();
  answer_computers();
  ASSERT_TRUE(server.room(match)->is_computer(1));
  // The ending is stored with the seat for bob, who is away.
  bool kept = false;
  for (const MatchWrite& w : store.written)
    for (const store::UnseenEnding& e : w.keep_endings)
      if (e.nickname == "bob" && e.match_id == match &&
          e.line.find("\"reason\":\"taken_over\"") != std::string::npos)
        kept = true;
  EXPECT_TRUE(kept);
  // The computer plays bob's turn (no skip_turn): the match goes on.
  int by_computer = 0;
  for (std::size_t i = before; i < store.written.size(); ++i)
    for (const store::NewEvent& e : store.written[i].events)
      by_computer += e.actor == store::Actor::player(1);
  EXPECT_GT(by_computer, 0);
  // Bob logs in again: told once, and free.
  auto lines = login(4, "bob", token);
  ASSERT_FALSE(lines.empty());
  ASSERT_EQ(type_of(lines[0]), "logged_in") << lines[0];
  bool told = false;
  for (const std::string& line : lines)
    if (type_of(line) == "left" && parse(line)["reason"].GetString() == std::string("taken_over"))
      told = true;
  EXPECT_TRUE(told);
  EXPECT_EQ(type_of(reply(4, R"({"type":"create_match","players":2})")), "joined");
}

}  // namespace
}  // namespace eryantis::server
