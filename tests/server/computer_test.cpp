// Computer seats driven through the server's logic with a fake transport and store:
// creating and changing them in the lobby, playing a match to its end against one,
// the timers treating them as present, scheduling only while a person is connected,
// what a decision is given (the seat's view, never the seed) and the worker pool
// (computer_pool_test.cpp covers the worker pool).
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "eryantis/codec/codec.hpp"
#include "eryantis/eriantys/game/game.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/server/computer_pool.hpp"
#include "eryantis/server/server.hpp"
#include "computer_request.hpp"
#include "fake_secret_source.hpp"
#include "fakes.hpp"
#include "games/handles.hpp"

namespace eryantis::server {
namespace {

using testing::computer_request;
using testing::to_seed;

// Keeps each request until the test answers it; answers run the real decision on
// another thread, as the pool would, and come back on the test's thread.
struct FakeRunner : DecisionRunner {
  std::vector<std::pair<DecisionRequest, Done>> pending;
  std::vector<DecisionRequest> seen;
  void submit(DecisionRequest request, Done done) override {
    seen.push_back(request);
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

class ComputerTest : public ::testing::Test {
 protected:
  ComputerTest()
      : server(
            config(), transport, store, [this] { return now; }, secrets) {
    server.set_decision_runner(&runner);
  }
  static ServerConfig config() {
    ServerConfig c;
    c.games = &test::games();  // the tests' registry: the games handles.hpp makes handles of
    c.turn_grace_ms = 1000;
    c.forfeit_after_ms = 5000;
    c.heartbeat_interval_ms = 60000;
    c.heartbeat_timeout_ms = 120000;
    c.limits.commands_per_second = 100000;
    c.computer.pause_ms = 0;
    c.computer.playouts = 50;
    return c;
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
  void connect(ConnectionId c, const std::string& nickname) {
    server.on_open(c, "127.0.0.1:1");
    ASSERT_EQ(type_of(reply(c, R"({"type":"hello","protocol":1,"updates":"events"})")), "welcome");
    auto r = reply(c, R"({"type":"login","nickname":")" + nickname + "\"}");
    ASSERT_EQ(type_of(r), "logged_in") << r;
    tokens[c] = parse(r)["token"].GetString();
  }
  // Answers every decision asked (and those the answers lead to) until none is left.
  void answer_computers() {
    for (int i = 0; i < 1000 && runner.answer_all() > 0; ++i) store.complete_all();
    store.complete_all();
  }
  void tick() {
    server.tick();
    store.complete_all();
  }
  std::string last_of(ConnectionId c, std::string_view type) {
    for (auto it = transport.sent[c].rbegin(); it != transport.sent[c].rend(); ++it)
      if (type_of(*it) == type) return *it;
    return {};
  }

  std::int64_t now = 1'000'000;
  FakeTransport transport;
  FakePersistence store;
  FakeSecretSource secrets;
  FakeRunner runner;
  Server server;
  std::map<ConnectionId, std::string> tokens;
};

TEST_F(ComputerTest, CreateWithAComputerAndPlayToTheEnd) {
  connect(1, "alice");
  auto joined = reply(1, R"({"type":"create_match","players":2,"mode":"expert","computers":1,)"
                         R"("level":"random"})");
  ASSERT_EQ(type_of(joined), "joined") << joined;
  const store::MatchId m = parse(joined)["match"].GetInt64();
  const Room* room = server.room(m);
  ASSERT_TRUE(room && room->full());
  ASSERT_TRUE(room->is_computer(1));
  EXPECT_EQ(*room->seats[1]->computer, game::Level::Random);
  // The creation writes both seats, the computer's with its level.
  ASSERT_FALSE(store.written.empty());
  ASSERT_EQ(store.written.front().seats.size(), 2u);
  EXPECT_EQ(store.written.front().seats[1].computer, std::optional<std::string>("random"));
  EXPECT_EQ(store.written.front().seats[1].resume_token_hash, "");
  // The state's seats say which seat is a computer.
  auto state = parse(last_of(1, "state"));
  EXPECT_TRUE(state["seats"][0]["computer"].IsNull());
  EXPECT_STREQ(state["seats"][1]["computer"].GetString(), "random");
  EXPECT_TRUE(state["seats"][1]["connected"].GetBool());

  std::mt19937_64 rng(15);
  int human_moves = 0;
  for (int turn = 0; turn < 2000; ++turn) {
    answer_computers();
    room = server.room(m);
    if (!room || test::eriantys_state(room->state).phase == rules::Phase::GameOver) break;
    auto seats = rules::seats_to_act(test::eriantys_state(room->state));
    ASSERT_FALSE(seats.empty());
    ASSERT_TRUE(std::find(seats.begin(), seats.end(), 0) != seats.end())
        << "the computer did not move and alice may not";
    auto legal = rules::legal_commands(test::eriantys_state(room->state), 0);
    ASSERT_FALSE(legal.empty());
    auto r = reply(1, R"({"type":"play","id":1,"command":)" +
                          codec::command_to_json(legal[rng() % legal.size()]) + "}");
    ASSERT_EQ(type_of(r), "ack") << r;
    ++human_moves;
  }
  room = server.room(m);  // dropped by the next tick once over
  EXPECT_TRUE(!room || room->status == store::MatchStatus::Finished) << "the match did not end";
  EXPECT_EQ(type_of(last_of(1, "game_over")), "game_over");
  EXPECT_GT(human_moves, 10);
  // The computer's commands went through the same path: stored as seat 1's.
  int by_computer = 0;
  for (const MatchWrite& w : store.written)
    for (const store::NewEvent& e : w.events) by_computer += e.actor == store::Actor::player(1);
  EXPECT_GT(by_computer, 10);
  // A computer's seat never gets a stored game ending (it never logs in).
  EXPECT_FALSE(runner.seen.empty());
}

TEST_F(ComputerTest, CreateRefusesAComputerInEverySeat) {
  connect(1, "alice");
  auto r = parse(reply(1, R"({"type":"create_match","players":2,"computers":2})"));
  EXPECT_STREQ(r["code"].GetString(), "INVALID_FIELD");
  r = parse(reply(1, R"({"type":"create_match","players":2,"computers":1,"level":"expert"})"));
  EXPECT_STREQ(r["code"].GetString(), "INVALID_FIELD");
}

TEST_F(ComputerTest, AddAndRemoveInTheLobbyByTheCreatorOnly) {
  connect(1, "alice");
  connect(2, "bob");
  auto joined = parse(reply(1, R"({"type":"create_match","players":3})"));
  const store::MatchId m = joined["match"].GetInt64();
  ASSERT_EQ(type_of(reply(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}")),
            "joined");
  // Bob holds a seat but did not create the match.
  auto refused = parse(reply(2, R"({"type":"add_computer","level":"strong"})"));
  EXPECT_STREQ(refused["code"].GetString(), "NOT_CREATOR");
  EXPECT_EQ(server.room(m)->computers(), 0);

  // Removing a seat no computer holds.
  refused = parse(reply(1, R"({"type":"remove_computer","seat":1})"));
  EXPECT_STREQ(refused["code"].GetString(), "NOT_A_COMPUTER");

  // Alice adds one: everybody gets the seats push.
  auto lines = say(1, R"({"type":"add_computer","level":"strong"})");
  ASSERT_FALSE(lines.empty());
  auto seats = parse(lines.back());
  ASSERT_EQ(type_of(lines.back()), "seats") << lines.back();
  EXPECT_STREQ(seats["seats"][2]["computer"].GetString(), "strong");
  EXPECT_STREQ(seats["seats"][2]["nickname"].GetString(), "Computer 2");
  EXPECT_EQ(type_of(last_of(2, "seats")), "seats");
  EXPECT_TRUE(server.room(m)->is_computer(2));
  EXPECT_EQ(store.written.back().seats.at(0).computer, std::optional<std::string>("strong"));

  // Full now (the setup started): no more changes.
  refused = parse(reply(1, R"({"type":"add_computer"})"));
  EXPECT_STREQ(refused["code"].GetString(), "MATCH_FULL");
  refused = parse(reply(1, R"({"type":"remove_computer","seat":2})"));
  EXPECT_STREQ(refused["code"].GetString(), "MATCH_STARTED");
}

TEST_F(ComputerTest, RemoveFreesTheSeatAndFullIsRefused) {
  connect(1, "alice");
  auto joined = parse(reply(1, R"({"type":"create_match","players":4})"));
  const store::MatchId m = joined["match"].GetInt64();
  EXPECT_EQ(type_of(reply(1, R"({"type":"add_computer"})")), "seats");
  EXPECT_EQ(type_of(reply(1, R"({"type":"add_computer","level":"random"})")), "seats");
  EXPECT_EQ(*server.room(m)->seats[1]->computer, game::Level::Greedy);  // the default level
  auto lines = say(1, R"({"type":"remove_computer","seat":1})");
  ASSERT_EQ(type_of(lines.back()), "seats");
  EXPECT_TRUE(parse(lines.back())["seats"][1]["nickname"].IsNull());
  EXPECT_EQ(store.written.back().remove_seats, std::vector<int>{1});
  EXPECT_FALSE(server.room(m)->seats[1].has_value());
  // A person takes the free seat; the last one goes to a computer; then it is full.
  connect(2, "bob");
  ASSERT_EQ(type_of(reply(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}")),
            "joined");
  EXPECT_EQ(type_of(reply(1, R"({"type":"add_computer"})")), "seats");
  EXPECT_TRUE(server.room(m)->full());
  auto refused = parse(reply(1, R"({"type":"add_computer"})"));
  EXPECT_STREQ(refused["code"].GetString(), "MATCH_FULL");
  // Outside any match.
  connect(3, "carol");
  refused = parse(reply(3, R"({"type":"add_computer"})"));
  EXPECT_STREQ(refused["code"].GetString(), "NOT_IN_MATCH");
}

TEST_F(ComputerTest, MatchListCountsComputers) {
  connect(1, "alice");
  reply(1, R"({"type":"create_match","players":3,"computers":1})");
  auto list = parse(reply(1, R"({"type":"list_matches"})"));
  ASSERT_EQ(list["open"].Size(), 1u);
  EXPECT_EQ(list["open"][0]["computers"].GetInt(), 1);
}

TEST_F(ComputerTest, ComputersChooseInSetupAndCountAsPresentForTimers) {
  connect(1, "alice");
  auto joined = parse(reply(1, R"({"type":"create_match","players":2,"computers":1})"));
  const store::MatchId m = joined["match"].GetInt64();
  answer_computers();
  // The computer chose its wizard and towers; alice still has to.
  const rules::State& st = test::eriantys_state(server.room(m)->state);
  auto to_act = rules::seats_to_act(st);
  EXPECT_EQ(to_act, std::vector<rules::Seat>{0});
  reply(1, R"({"type":"play","command":{"type":"choose_wizard","wizard":0}})");
  answer_computers();
  auto colours = rules::legal_commands(test::eriantys_state(server.room(m)->state), 0);
  ASSERT_FALSE(colours.empty());
  reply(1, R"({"type":"play","command":)" + codec::command_to_json(colours.front()) + "}");
  answer_computers();
  ASSERT_EQ(server.room(m)->status, store::MatchStatus::Running);
  // Alice alone with a computer, each waiting long past the forfeit (5 s) and grace
  // (1 s) times in turn: nobody wins by forfeit and no turn is skipped.
  std::mt19937_64 rng(3);
  int waits = 0;
  for (int i = 0; i < 60; ++i) {
    const Room* room = server.room(m);
    ASSERT_NE(room, nullptr);
    if (room->status != store::MatchStatus::Running) break;
    now += 1500;
    tick();
    ++waits;
    if (i % 4 != 3) continue;  // the computer's decision (or alice) keeps everyone waiting
    answer_computers();
    room = server.room(m);
    auto to_act = rules::seats_to_act(test::eriantys_state(room->state));
    if (std::find(to_act.begin(), to_act.end(), 0) != to_act.end()) {
      auto legal = rules::legal_commands(test::eriantys_state(room->state), 0);
      reply(1, R"({"type":"play","command":)" +
                   codec::command_to_json(legal[rng() % legal.size()]) + "}");
    }
  }
  EXPECT_GE(waits, 12);
  for (const MatchWrite& w : store.written)
    for (const store::NewEvent& e : w.events) {
      EXPECT_FALSE(std::holds_alternative<rules::AwardForfeit>(test::eriantys_event(e.event).command));
      EXPECT_FALSE(std::holds_alternative<rules::SkipTurn>(test::eriantys_event(e.event).command));
    }
  const Room* after = server.room(m);
  EXPECT_TRUE(!after || after->clocks.deadline.kind == DeadlineKind::None);
}

TEST_F(ComputerTest, NoConnectedPersonNoDecisions) {
  connect(1, "alice");
  auto joined = parse(reply(1, R"({"type":"create_match","players":2,"computers":1})"));
  const store::MatchId m = joined["match"].GetInt64();
  answer_computers();
  reply(1, R"({"type":"play","command":{"type":"choose_wizard","wizard":0}})");
  auto colours = rules::legal_commands(test::eriantys_state(server.room(m)->state), 0);
  reply(1, R"({"type":"play","command":)" + codec::command_to_json(colours.front()) + "}");
  answer_computers();
  // Play until the computer has just been asked to move.
  std::mt19937_64 rng(5);
  for (int i = 0; i < 500 && runner.pending.empty(); ++i) {
    const Room* room = server.room(m);
    auto to_act = rules::seats_to_act(test::eriantys_state(room->state));
    ASSERT_FALSE(to_act.empty());
    if (std::find(to_act.begin(), to_act.end(), 0) == to_act.end()) {
      answer_computers();
      continue;
    }
    auto legal = rules::legal_commands(test::eriantys_state(room->state), 0);
    reply(1, R"({"type":"play","command":)" + codec::command_to_json(legal[rng() % legal.size()]) +
                 "}");
  }
  ASSERT_FALSE(runner.pending.empty());
  // Alice leaves while the decision is being made: its answer is kept, not played.
  server.on_closed(1);
  const std::uint32_t position = test::eriantys_state(server.room(m)->state).events_applied;
  runner.answer_all();
  store.complete_all();
  const std::size_t asked = runner.seen.size();
  for (int i = 0; i < 20; ++i) {
    now += 500;
    tick();
  }
  EXPECT_EQ(runner.seen.size(), asked) << "a decision was asked with nobody connected";
  EXPECT_EQ(test::eriantys_state(server.room(m)->state).events_applied, position) << "a move was played to nobody";
  // Alice comes back: the kept move is played and the computer goes on.
  server.on_open(9, "p");
  server.on_line(9, R"({"type":"hello","protocol":1})");
  server.on_line(9, R"({"type":"login","nickname":"alice","token":")" + tokens[1] + "\"}");
  store.complete_all();
  tick();
  EXPECT_GT(test::eriantys_state(server.room(m)->state).events_applied, position);
}

TEST_F(ComputerTest, AMatchOfComputersWhosePersonLeftIsAbandoned) {
  connect(1, "alice");
  auto joined = parse(reply(1, R"({"type":"create_match","players":3,"computers":2})"));
  const store::MatchId m = joined["match"].GetInt64();
  answer_computers();
  // Alice's setup: whatever is left to her (a computer may have taken wizard 0 first).
  for (int i = 0; i < 4 && server.room(m)->status == store::MatchStatus::Lobby; ++i) {
    auto legal = rules::legal_commands(test::eriantys_state(server.room(m)->state), 0);
    ASSERT_FALSE(legal.empty());
    auto r = reply(1, R"({"type":"play","command":)" + codec::command_to_json(legal.front()) + "}");
    ASSERT_EQ(type_of(r), "ack") << r;
    answer_computers();
  }
  ASSERT_EQ(server.room(m)->status, store::MatchStatus::Running);
  // The computers are always present, but they play nobody's game once alice is gone.
  server.on_closed(1);
  tick();
  EXPECT_EQ(server.room(m)->clocks.deserted.kind, DeadlineKind::Abandon);
  EXPECT_EQ(server.room(m)->clocks.forfeit.kind, DeadlineKind::None);
  now += 600'000;  // abandon_after_ms
  tick();
  const MatchWrite& last = store.written.back();
  ASSERT_EQ(last.events.size(), 1u);
  EXPECT_EQ(rules::command_type(test::eriantys_event(last.events[0].event).command), "abandon_match");
  EXPECT_EQ(last.status, store::MatchStatus::Abandoned);
}

TEST_F(ComputerTest, PauseDelaysTheMoveUntilATick) {
  ServerConfig c = config();
  c.computer.pause_ms = 800;
  Server paused(
      c, transport, store, [this] { return now; }, secrets);
  paused.set_decision_runner(&runner);
  paused.on_open(1, "p");
  paused.on_line(1, R"({"type":"hello","protocol":1})");
  paused.on_line(1, R"({"type":"login","nickname":"alice"})");
  paused.on_line(1, R"({"type":"create_match","players":2,"computers":1})");
  store.complete_all();
  const store::MatchId m = 1;
  ASSERT_NE(paused.room(m), nullptr);
  const std::uint32_t before = test::eriantys_state(paused.room(m)->state).events_applied;
  runner.answer_all();
  store.complete_all();
  EXPECT_EQ(test::eriantys_state(paused.room(m)->state).events_applied, before) << "played before its pause";
  now += 799;
  paused.tick();
  store.complete_all();
  EXPECT_EQ(test::eriantys_state(paused.room(m)->state).events_applied, before);
  now += 1;
  paused.tick();
  store.complete_all();
  EXPECT_GT(test::eriantys_state(paused.room(m)->state).events_applied, before);
}

TEST_F(ComputerTest, RestoredComputerSeatGoesOnPlaying) {
  connect(1, "alice");
  auto joined = parse(reply(1, R"({"type":"create_match","players":2,"computers":1})"));
  const store::MatchId m = joined["match"].GetInt64();
  answer_computers();
  // A restart: the stored seats (the computer's with its level) and the state.
  const Room* room = server.room(m);
  LoadedMatch rm;
  rm.id = 50;
  rm.status = room->status;
  rm.last_seq = room->seq;
  rm.game = room->game;
  rm.state = room->state;
  for (const MatchWrite& w : store.written)
    for (store::SeatRecord r : w.seats)
      if (r.match_id == m) {
        r.match_id = 50;
        rm.seats.push_back(r);
      }
  store.seqs[50] = room->seq;
  FakeRunner second_runner;
  Server second(
      config(), transport, store, [this] { return now; }, secrets);
  second.set_decision_runner(&second_runner);
  second.load_matches({rm}, 51);
  ASSERT_TRUE(second.room(50)->is_computer(1));
  EXPECT_EQ(*second.room(50)->seats[1]->computer, game::Level::Greedy);
  second.on_open(7, "p");
  second.on_line(7, R"({"type":"hello","protocol":1})");
  second.on_line(7, R"({"type":"login","nickname":"alice","token":")" + tokens[1] + "\"}");
  store.complete_all();
  second.on_line(7, R"({"type":"play","command":{"type":"choose_wizard","wizard":0}})");
  store.complete_all();
  auto colours = rules::legal_commands(test::eriantys_state(second.room(50)->state), 0);
  second.on_line(7, R"({"type":"play","command":)" + codec::command_to_json(colours.front()) + "}");
  store.complete_all();
  ASSERT_EQ(second.room(50)->status, store::MatchStatus::Running);
  // Planning: both choose an assistant; the computer is asked and answers.
  const std::uint32_t before = test::eriantys_state(second.room(50)->state).events_applied;
  second.tick();
  for (int i = 0; i < 10 && second_runner.answer_all() > 0; ++i) store.complete_all();
  auto legal = rules::legal_commands(test::eriantys_state(second.room(50)->state), 0);
  if (!legal.empty()) {
    second.on_line(7, R"({"type":"play","command":)" + codec::command_to_json(legal.front()) + "}");
    store.complete_all();
  }
  for (int i = 0; i < 10 && second_runner.answer_all() > 0; ++i) store.complete_all();
  EXPECT_GE(test::eriantys_state(second.room(50)->state).events_applied, before + 2);
  bool computer_moved = false;
  for (const MatchWrite& w : store.written)
    if (w.match == 50)
      for (const store::NewEvent& e : w.events)
        computer_moved |= e.actor == store::Actor::player(1);
  EXPECT_TRUE(computer_moved);
}

// What the server hands a computer: the seat's view (no seed, the bag as counts) and a
// bot seed that is a one-way function of the match's seed, the seat and the seq.
TEST(ComputerRequest, CarriesOnlyTheSeatsViewAndADerivedSeed) {
  const rules::MatchSeed seed{0x0123456789abcdefULL, 0xfedcba9876543210ULL};
  auto created = rules::create_match(rules::MatchOptions{3, rules::Mode::Expert}, seed);
  ASSERT_TRUE(created);
  const rules::State state = rules::apply(rules::State{}, *created);
  ASSERT_EQ(state.seed, seed);
  const auto request = computer_request(7, state, 1, 2, game::Level::Strong, 123);
  EXPECT_EQ(request.match, 7);
  EXPECT_EQ(request.position, 1);
  EXPECT_EQ(request.seat, 2);
  EXPECT_EQ(request.level, game::Level::Strong);
  EXPECT_EQ(request.playouts, 123u);
  EXPECT_EQ(request.view.get<rules::State>(), rules::view(state, 2).state);
  EXPECT_EQ(request.view.get<rules::State>().seed, rules::MatchSeed{});
  // Nothing else in the request equals either half of the seed.
  EXPECT_NE(request.bot_seed, seed.lo);
  EXPECT_NE(request.bot_seed, seed.hi);
  EXPECT_NE(request.bot_seed, seed.lo ^ seed.hi);
  // Deterministic, and different per seat and per seq.
  EXPECT_EQ(request.bot_seed, computer_request(7, state, 1, 2, game::Level::Strong, 1).bot_seed);
  std::set<std::uint64_t> seeds;
  for (rules::Seat seat = 0; seat < 3; ++seat)
    for (store::Seq seq = 1; seq < 50; ++seq) seeds.insert(computer_bot_seed(to_seed(seed), seat, seq));
  EXPECT_EQ(seeds.size(), 3u * 49u);
  // Another match's seed gives other bot seeds.
  EXPECT_NE(computer_bot_seed(to_seed(rules::MatchSeed{seed.lo + 1, seed.hi}), 2, 1), request.bot_seed);
}

// The server builds every request it sends with computer_request: checked on what it
// actually sent during a game.
TEST_F(ComputerTest, EveryRequestSentHoldsNoSeed) {
  connect(1, "alice");
  auto joined = parse(reply(1, R"({"type":"create_match","players":2,"computers":1})"));
  const store::MatchId m = joined["match"].GetInt64();
  const rules::MatchSeed secret = test::eriantys_state(server.room(m)->state).seed;
  ASSERT_NE(secret, rules::MatchSeed{});
  answer_computers();
  ASSERT_FALSE(runner.seen.empty());
  for (const DecisionRequest& r : runner.seen) {
    EXPECT_EQ(r.view.get<rules::State>().seed, rules::MatchSeed{});
    ASSERT_NE(r.game, nullptr);
    EXPECT_EQ(r.game->name(), "eriantys");  // the match's game decides
    EXPECT_NE(r.bot_seed, secret.lo);
    EXPECT_NE(r.bot_seed, secret.hi);
  }
}

}  // namespace
}  // namespace eryantis::server
