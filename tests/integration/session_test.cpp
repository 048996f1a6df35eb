// Sessions over real sockets: a player drops mid-turn and comes back with its
// token, a wrong token is refused and changes nothing, one nickname cannot be
// claimed twice, and a spectator sees every event but cannot act.
#include <gtest/gtest.h>

#include <iostream>
#include <thread>

#include "eryantis/rules/decider.hpp"
#include "fixture.hpp"

namespace eryantis::integration {
namespace {

class SessionTest : public ServerFixture {
 protected:
  void SetUp() override {
    start(TestConfig{});  // long timers: nothing is skipped or forfeited behind our back
    seed_ = test_seed();
    std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed_ << "\n";
    RecordProperty("seed", std::to_string(seed_));
  }

  // The seat objects of a state/seats message: seat -> connected.
  static std::map<int, bool> connected_seats(const Message& m) {
    std::map<int, bool> out;
    const rapidjson::Value* seats = m.get("seats");
    if (!seats || !seats->IsArray()) return out;
    for (const auto& s : seats->GetArray())
      if (s.IsObject() && s.HasMember("seat") && s["seat"].IsInt() && s.HasMember("connected") &&
          s["connected"].IsBool())
        out[s["seat"].GetInt()] = s["connected"].GetBool();
    return out;
  }

  std::uint64_t seed_ = 0;
};

TEST_F(SessionTest, DisconnectMidTurnAndResumeWithTheToken) {
  GameOptions options;
  options.players = 3;
  options.mode = rules::Mode::Expert;
  Game game("resume", options, seed_);
  game.connect_all(port());
  ASSERT_FALSE(HasFatalFailure());
  game.create_and_join();
  ASSERT_FALSE(HasFatalFailure());

  // Play until a seat is in the middle of its action turn (a student moved, more to go).
  auto mid_turn = [&] {
    const rules::State& s = game.player(0).state;
    return game.idle() && s.phase == rules::Phase::Action && s.turn.students_moved >= 1 &&
           !s.turn.mother_nature_moved;
  };
  ASSERT_TRUE(drive({&game}, std::chrono::seconds(30), mid_turn));
  ASSERT_FALSE(HasFatalFailure());
  ASSERT_TRUE(mid_turn()) << "the game ended before an action turn";
  const rules::Seat acting = game.player(0).state.current_seat();
  int x = 0;
  while (game.player(x).seat != acting) ++x;
  Player& away = game.player(x);
  const int other = (x + 1) % game.players();
  const store::Seq seq_before = game.max_seq();
  const std::string hash_before = view_hash(away.state);
  std::cout << "[ resume   ] " << away.nickname << " drops at seq " << seq_before << "\n";

  game.disconnect(x);
  // The others see the seat disconnected.
  auto seats = game.player(other).client->wait_for(
      [&](const Message& m) { return m.type == "seats" && !connected_seats(m)[x]; }, Millis(5000));
  ASSERT_TRUE(seats) << "no seats push showing the drop";

  // A wrong token is refused and changes nothing; no token is NICKNAME_TAKEN.
  {
    auto thief = Client::connect(port(), "thief");
    ASSERT_TRUE(thief);
    ASSERT_TRUE(thief->hello());
    auto bad = thief->login(away.nickname, "00000000000000000000000000000000");
    ASSERT_TRUE(bad);
    EXPECT_EQ(bad->type, "error") << bad->line;
    EXPECT_EQ(bad->str("code"), "BAD_TOKEN") << bad->line;
    EXPECT_FALSE(bad->str("message").empty());
    auto none = thief->login(away.nickname);
    ASSERT_TRUE(none);
    EXPECT_EQ(none->str("code"), "NICKNAME_TAKEN") << none->line;
    // Still not logged in: a play is refused as such.
    auto play =
        thief->request(R"("type":"play","command":{"type":"move_to_dining","color":"red"})");
    ASSERT_TRUE(play);
    EXPECT_EQ(play->str("code"), "NOT_LOGGED_IN") << play->line;
  }
  auto sync = game.player(other).client->request(R"("type":"sync")");
  ASSERT_TRUE(sync);
  ASSERT_EQ(sync->type, "state") << sync->line;
  EXPECT_EQ(sync->i64("seq"), seq_before) << "the refused login changed the match";
  EXPECT_EQ(sync->str("hash"), hash_before);
  EXPECT_FALSE(connected_seats(*sync)[x]) << "the seat must stay disconnected: " << sync->line;

  // The real player comes back: the same seat, the same seq, the same state.
  auto logged = game.reconnect(x, port());
  ASSERT_TRUE(logged);
  ASSERT_TRUE(logged->has("match")) << logged->line;
  auto state = away.client->wait_type("state", Millis(5000));
  ASSERT_TRUE(state) << "no state after resuming";
  EXPECT_EQ(state->i64("seq"), seq_before);
  EXPECT_EQ(state->str("hash"), hash_before);
  EXPECT_EQ(state->i64("seat"), away.seat);
  EXPECT_TRUE(connected_seats(*state)[x]) << state->line;
  auto resumed = state_of_view(*state);
  ASSERT_TRUE(resumed);
  EXPECT_TRUE(*resumed == away.state) << "the resumed view differs from the one before the drop";
  away.client->inbox().push_front(*state);
  // The others see it back.
  auto back = game.player(other).client->wait_for(
      [&](const Message& m) { return m.type == "seats" && connected_seats(m)[x]; }, Millis(5000));
  ASSERT_TRUE(back) << "no seats push showing the return";

  // And the game goes on to its end, the resumed player finishing its turn.
  ASSERT_TRUE(drive({&game}, std::chrono::seconds(60)));
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_GT(game.max_seq(), seq_before);
  game.lost_server();
  stop_gracefully();
  auto db = read_database();
  expect_finished_in_db(db, game);
}

TEST_F(SessionTest, OneNicknameCannotBeClaimedTwice) {
  auto first = Client::connect(port(), "first");
  auto second = Client::connect(port(), "second");
  ASSERT_TRUE(first && second);
  ASSERT_TRUE(first->hello());
  ASSERT_TRUE(second->hello());
  auto a = first->login("twin");
  ASSERT_TRUE(a);
  ASSERT_EQ(a->type, "logged_in") << a->line;
  auto b = second->login("twin");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->type, "error");
  EXPECT_EQ(b->str("code"), "NICKNAME_TAKEN") << b->line;
  EXPECT_FALSE(b->str("message").empty());
  // Even with the first one's token: it holds no seat, and it is still connected.
  auto c = second->login("twin", a->str("token"));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->str("code"), "NICKNAME_TAKEN") << c->line;
  // The first connection is untouched.
  auto pong = first->ping();
  ASSERT_TRUE(pong);
  EXPECT_EQ(pong->type, "pong");
  auto list = first->request(R"("type":"list_matches")");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->type, "match_list") << list->line;
  // The second one may log in under another name.
  auto d = second->login("twin2");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->type, "logged_in") << d->line;
  // Once the first hangs up, the name is free again (the server notices the close soon).
  first.reset();
  auto third = Client::connect(port(), "third");
  ASSERT_TRUE(third && third->hello());
  bool ok = false;
  for (int attempt = 0; attempt < 100 && !ok; ++attempt) {
    auto r = third->login("twin");
    ASSERT_TRUE(r);
    ok = r->type == "logged_in";
    if (!ok) {
      EXPECT_EQ(r->str("code"), "NICKNAME_TAKEN") << r->line;
      std::this_thread::sleep_for(Millis(20));
    }
  }
  EXPECT_TRUE(ok) << "the nickname stayed taken after its connection closed";
}

TEST_F(SessionTest, SpectatorSeesEveryEventAndCannotAct) {
  GameOptions options;
  options.players = 2;
  options.mode = rules::Mode::Expert;
  Game game("watched", options, seed_);
  game.connect_all(port());
  ASSERT_FALSE(HasFatalFailure());
  // The spectator watches from the creation.
  game.create();
  ASSERT_FALSE(HasFatalFailure());
  auto eve = Client::connect(port(), "eve");
  ASSERT_TRUE(eve && eve->hello());
  // A spectator's play is NOT_A_PLAYER, logged in or not (docs/protocol.md, Sessions).
  auto logged = eve->login("eve");
  ASSERT_TRUE(logged && logged->type == "logged_in") << (logged ? logged->line : "");
  auto watching = eve->spectate(game.match());
  ASSERT_TRUE(watching);
  ASSERT_EQ(watching->type, "spectating") << watching->line;
  auto first_state = eve->wait_type("state", Millis(5000));
  ASSERT_TRUE(first_state);
  EXPECT_TRUE(first_state->get("seat") && first_state->get("seat")->IsNull()) << first_state->line;
  EXPECT_EQ(first_state->json("allowed"), "[]");
  store::Seq seq = first_state->i64("seq");
  EXPECT_EQ(seq, 1);
  game.join_others();
  ASSERT_FALSE(HasFatalFailure());

  // Cannot act, neither before nor during play.
  auto refused = eve->request(R"("type":"play","command":{"type":"choose_wizard","wizard":0})");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->str("code"), "NOT_A_PLAYER") << refused->line;
  EXPECT_FALSE(refused->str("message").empty());

  bool refused_midgame = false;
  ASSERT_TRUE(drive({&game}, std::chrono::seconds(60), [&] {
    if (!refused_midgame && game.max_seq() >= 20) {
      refused_midgame = true;
      auto r = eve->request(R"("type":"play","command":{"type":"play_assistant","value":1})");
      EXPECT_TRUE(r && r->str("code") == "NOT_A_PLAYER") << (r ? r->line : "(no reply)");
    }
    return false;
  }));
  ASSERT_FALSE(HasFatalFailure());

  // Everything the spectator got, in order: every event once, dense, hashes right, then game_over.
  auto over = eve->wait_type("game_over", Millis(5000));
  ASSERT_TRUE(over) << "the spectator got no game_over";
  rules::State mirror = *state_of_view(*first_state);
  std::int64_t events = 0;
  for (const Message& m : eve->inbox()) {
    if (m.type != "event") continue;
    EXPECT_EQ(m.i64("seq"), seq + 1) << "the spectator missed an event: " << m.line;
    seq = m.i64("seq");
    ++events;
    auto view = state_of_view(m);
    ASSERT_TRUE(view) << m.line;
    EXPECT_EQ(m.str("hash"), view_hash(*view));
    EXPECT_EQ(m.json("allowed"), "[]");
    mirror = *view;
  }
  EXPECT_EQ(seq, game.max_seq()) << "the spectator did not see the last event";
  EXPECT_EQ(events, game.max_seq() - 1);
  EXPECT_EQ(mirror.phase, rules::Phase::GameOver);
}

// spectate works without login (docs/protocol.md 3, "spectate"); logging in later
// takes no seat, so it must not end the watching (the doc: a spectator "must spectate
// another match or disconnect to stop watching").
TEST_F(SessionTest, LoginWithoutASeatKeepsSpectating) {
  GameOptions options;
  Game game("login_watch", options, seed_);
  game.connect_all(port());
  ASSERT_FALSE(HasFatalFailure());
  game.create();
  ASSERT_FALSE(HasFatalFailure());
  auto eve = Client::connect(port(), "eve");
  ASSERT_TRUE(eve && eve->hello());
  auto watching = eve->spectate(game.match());
  ASSERT_TRUE(watching && watching->type == "spectating") << (watching ? watching->line : "");
  auto logged = eve->login("eve");
  ASSERT_TRUE(logged && logged->type == "logged_in") << (logged ? logged->line : "");
  game.join_others();
  ASSERT_FALSE(HasFatalFailure());
  auto sync = eve->request(R"("type":"sync")");
  ASSERT_TRUE(sync);
  EXPECT_EQ(sync->type, "state") << "logging in ended the watching: " << sync->line;
  auto play = eve->request(R"("type":"play","command":{"type":"choose_wizard","wizard":0})");
  ASSERT_TRUE(play);
  EXPECT_EQ(play->str("code"), "NOT_A_PLAYER") << play->line;
  ASSERT_TRUE(drive({&game}, std::chrono::seconds(30)));
  EXPECT_TRUE(eve->wait_type("game_over", Millis(3000))) << "the spectator missed the game's end";
}

}  // namespace
}  // namespace eryantis::integration
