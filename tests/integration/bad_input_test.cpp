// Hostile and broken input over a real socket: every bad line gets an error with
// a code and a message, the connection stays usable, and another client keeps
// being served meanwhile (a ping from a second connection is answered between
// every two bad lines).
#include <gtest/gtest.h>

#include <iostream>
#include <thread>

#include "eryantis/rules/decider.hpp"
#include "eryantis/codec/codec.hpp"
#include "fixture.hpp"

namespace eryantis::integration {
namespace {

class BadInputTest : public ServerFixture {
 protected:
  // The stock configuration (64 KiB lines, 50 requests/s), on a port and database of ours.
  void SetUp() override {
    start_with(ERYANTIS_CONFIG);
    ASSERT_FALSE(HasFatalFailure());
    bystander_ = Client::connect(port(), "bystander");
    ASSERT_TRUE(bystander_);
    ASSERT_TRUE(bystander_->hello());
  }

  // Another connection is still served promptly.
  void expect_bystander_served() {
    auto pong = bystander_->ping();
    ASSERT_TRUE(pong) << "the other client got no pong";
    EXPECT_EQ(pong->type, "pong") << pong->line;
  }

  // Sends `line` (plus '\n') and expects exactly one error with `code`.
  void expect_error(Client& c, const std::string& line, const std::string& code,
                    const std::string& id = {}) {
    SCOPED_TRACE("line: " + line.substr(0, 120));
    ASSERT_TRUE(c.send_line(line));
    auto reply = c.wait_type("error", Millis(3000));
    ASSERT_TRUE(reply) << "no error reply";
    EXPECT_EQ(reply->str("code"), code) << reply->line;
    EXPECT_FALSE(reply->str("message").empty()) << reply->line;
    EXPECT_EQ(reply->id, id) << reply->line;
    expect_bystander_served();
  }

  std::unique_ptr<Client> bystander_;
};

TEST_F(BadInputTest, MalformedLinesGetErrorsAndTheSessionGoesOn) {
  auto c = Client::connect(port(), "bad");
  ASSERT_TRUE(c);
  expect_error(*c, R"({"type":"login","nickname":"early"})", "HELLO_FIRST");
  expect_error(*c, R"({"type":"hello","protocol":99,"id":1})", "UNSUPPORTED_PROTOCOL", "1");
  ASSERT_TRUE(c->hello());
  expect_error(*c, "this is not json", "BAD_JSON");
  expect_error(*c, R"({"type":"ping")", "BAD_JSON");  // cut short
  expect_error(*c, R"({"type":"ping"} trailing)", "BAD_JSON");
  expect_error(*c, "[1,2,3]", "BAD_JSON");  // not an object
  expect_error(*c, "42", "BAD_JSON");
  expect_error(*c, R"("ping")", "BAD_JSON");
  expect_error(*c, "   ", "BAD_JSON");
  expect_error(*c, "{\"type\":\"ping\",\"id\":\"\xff\xfe\"}", "BAD_JSON");  // not UTF-8
  expect_error(*c, R"({"type":5})", "INVALID_FIELD");
  expect_error(*c, R"({"id":"x"})", "MISSING_FIELD", "x");
  expect_error(*c, R"({"type":"ping","id":1.5})", "INVALID_FIELD");
  expect_error(*c, R"({"type":"ping","id":{"a":1}})", "INVALID_FIELD");
  expect_error(*c, R"({"type":"fly_to_the_moon","id":7})", "UNKNOWN_TYPE", "7");
  expect_error(*c, R"({"type":"hello","protocol":"one","id":"h"})", "INVALID_FIELD", "h");
  expect_error(*c, R"({"type":"login","id":2})", "MISSING_FIELD", "2");
  expect_error(*c, R"({"type":"login","nickname":42,"id":3})", "INVALID_FIELD", "3");
  expect_error(*c, R"({"type":"login","nickname":"no spaces!","id":4})", "INVALID_NICKNAME", "4");
  expect_error(*c, R"({"type":"create_match","players":2})", "NOT_LOGGED_IN");
  auto logged = c->login("badinput");
  ASSERT_TRUE(logged && logged->type == "logged_in");
  expect_error(*c, R"({"type":"create_match","players":9,"id":5})", "INVALID_FIELD", "5");
  expect_error(*c, R"({"type":"create_match","players":"2","id":6})", "INVALID_FIELD", "6");
  // A mode the game does not have is the game's refusal; a mode that is no word at all, the protocol's.
  expect_error(*c, R"({"type":"create_match","players":2,"mode":"hard","id":8})", "BAD_OPTIONS",
               "8");
  expect_error(*c, R"({"type":"join_match","match":"abc","id":9})", "INVALID_FIELD", "9");
  expect_error(*c, R"({"type":"join_match","match":12345,"id":10})", "NO_SUCH_MATCH", "10");
  expect_error(*c, R"({"type":"play","id":11})", "MISSING_FIELD", "11");
  expect_error(*c, R"({"type":"play","command":"move","id":12})", "INVALID_FIELD", "12");
  expect_error(*c, R"({"type":"play","command":{"type":"teleport"},"id":13})", "INVALID_FIELD",
               "13");
  expect_error(*c, R"({"type":"play","command":{"type":"choose_wizard","wizard":"2"},"id":14})",
               "INVALID_FIELD", "14");
  expect_error(*c, R"({"type":"play","command":{"type":"choose_wizard","wizard":0},"id":15})",
               "NOT_IN_MATCH", "15");
  expect_error(*c, R"({"type":"sync","id":16})", "NOT_IN_MATCH", "16");
  // Still the same, usable session.
  auto pong = c->ping();
  ASSERT_TRUE(pong);
  EXPECT_EQ(pong->type, "pong");
  auto again = c->login("someone_else");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->str("code"), "ALREADY_LOGGED_IN") << again->line;
  // Nothing else was sent: exactly one reply per line.
  c->pump(Millis(100));
  EXPECT_TRUE(c->inbox().empty()) << "unexpected extra message: " << c->inbox().front().line;
  EXPECT_FALSE(c->closed());
}

TEST_F(BadInputTest, OneMebibyteLineIsRefusedAndTheConnectionStaysUsable) {
  auto c = Client::connect(port(), "big");
  ASSERT_TRUE(c && c->hello());
  std::string pad(1 << 20, 'x');
  const std::string line = R"({"type":"ping","id":"big","pad":")" + pad + "\"}\n";
  // Half of it, a ping from somebody else, the rest.
  ASSERT_TRUE(c->send_raw(std::string_view(line).substr(0, line.size() / 2)));
  expect_bystander_served();
  ASSERT_TRUE(c->send_raw(std::string_view(line).substr(line.size() / 2)));
  auto error = c->wait_type("error", Millis(5000));
  ASSERT_TRUE(error) << "no LINE_TOO_LONG";
  EXPECT_EQ(error->str("code"), "LINE_TOO_LONG") << error->line;
  EXPECT_FALSE(error->str("message").empty());
  EXPECT_FALSE(error->has("id")) << "the long line was never read: no id";
  // The next line is read normally, and the long one produced nothing else.
  auto pong = c->ping();
  ASSERT_TRUE(pong) << "the connection is not usable after the long line";
  EXPECT_EQ(pong->type, "pong");
  EXPECT_TRUE(c->inbox().empty()) << "unexpected extra message: " << c->inbox().front().line;
  EXPECT_FALSE(c->closed());
  expect_bystander_served();
}

TEST_F(BadInputTest, LinesSplitByteByByteOrJoinedAreFramedRight) {
  auto c = Client::connect(port(), "slow");
  ASSERT_TRUE(c && c->hello());
  const std::string line = R"({"type":"ping","id":"slow-one"})"
                           "\n";
  for (std::size_t i = 0; i < line.size(); ++i) {
    ASSERT_TRUE(c->send_raw(line.substr(i, 1)));
    std::this_thread::sleep_for(Millis(2));
    if (i % 8 == 0) expect_bystander_served();
  }
  auto pong = c->reply("slow-one", Millis(3000));
  ASSERT_TRUE(pong);
  EXPECT_EQ(pong->type, "pong");
  // Three requests in one write (one with CRLF), and an empty keep-alive line: three replies.
  ASSERT_TRUE(
      c->send_raw("{\"type\":\"ping\",\"id\":\"a\"}\n\n{\"type\":\"ping\",\"id\":\"b\"}\r\n"
                  "{\"type\":\"ping\",\"id\":\"c\"}\n"));
  for (const char* id : {"a", "b", "c"}) {
    auto r = c->next(Millis(3000));
    ASSERT_TRUE(r) << "no reply for " << id;
    EXPECT_EQ(r->type, "pong") << r->line;
    EXPECT_EQ(r->id, id) << "replies out of order: " << r->line;
  }
  c->pump(Millis(100));
  EXPECT_TRUE(c->inbox().empty()) << "unexpected extra message: " << c->inbox().front().line;
}

TEST_F(BadInputTest, RulesErrorsOutOfTurnAndOutOfPhase) {
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  Game game("rules", GameOptions{}, seed);
  game.connect_all(port());
  ASSERT_FALSE(HasFatalFailure());
  game.create();
  ASSERT_FALSE(HasFatalFailure());
  Client& first = *game.player(0).client;
  Client& second = *game.player(1).client;
  auto rules_error = [&](Client& c, const std::string& command, const std::string& code) {
    SCOPED_TRACE(c.name() + " sends " + command);
    auto r = c.request(R"("type":"play","command":)" + command);
    ASSERT_TRUE(r) << "no reply";
    EXPECT_EQ(r->type, "error") << r->line;
    EXPECT_EQ(r->str("code"), code) << r->line;
    EXPECT_FALSE(r->str("message").empty()) << r->line;
    EXPECT_EQ(r->i64("match"), game.match()) << r->line;
    EXPECT_EQ(r->i64("seq"), game.max_seq()) << "an error reports the match's seq: " << r->line;
    expect_bystander_served();
  };
  // Waiting for the second player: nothing may be played yet.
  game.pump();
  rules_error(first, R"({"type":"choose_wizard","wizard":0})", "WRONG_PHASE");
  game.join_others();
  ASSERT_FALSE(HasFatalFailure());
  // Setup: an assistant is out of phase; a server-only command is refused.
  rules_error(first, R"({"type":"play_assistant","value":5})", "WRONG_PHASE");
  rules_error(second, R"({"type":"skip_turn"})", "SERVER_ONLY");
  // Planning: play until it starts.
  ASSERT_TRUE(drive({&game}, std::chrono::seconds(20), [&] {
    return game.idle() && game.player(0).state.phase == rules::Phase::Planning;
  }));
  ASSERT_FALSE(HasFatalFailure());
  const rules::State& planning = game.player(0).state;
  ASSERT_EQ(planning.phase, rules::Phase::Planning);
  const rules::Seat current = planning.current_seat();
  int mover = 0;
  while (game.player(mover).seat != current) ++mover;
  Client& to_act = *game.player(mover).client;
  Client& waiting = *game.player(1 - mover).client;
  // The other seat sends a command that would be legal on its turn: not its turn.
  auto legal = rules::legal_commands(planning, current);
  ASSERT_FALSE(legal.empty());
  rules_error(waiting, codec::command_to_json(legal.front()), "NOT_YOUR_TURN");
  // The seat to act sends an action-phase command: wrong phase.
  rules_error(to_act, R"({"type":"move_mother_nature","steps":1})", "WRONG_PHASE");
  rules_error(to_act, R"({"type":"choose_wizard","wizard":1})", "WRONG_PHASE");
  // expected_seq from the past: STALE_SEQ, and nothing applied.
  {
    auto r = to_act.request(R"("type":"play","expected_seq":1,"command":)" +
                            codec::command_to_json(legal.front()));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->str("code"), "STALE_SEQ") << r->line;
    EXPECT_EQ(r->i64("seq"), game.max_seq()) << r->line;
  }
  // Nothing changed, and the game can still be played to its end.
  auto sync = to_act.request(R"("type":"sync")");
  ASSERT_TRUE(sync && sync->type == "state");
  EXPECT_EQ(sync->i64("seq"), game.max_seq());
  EXPECT_EQ(sync->str("hash"), view_hash(game.player(0).state));
  const store::Seq before = game.max_seq();
  ASSERT_TRUE(drive({&game}, std::chrono::seconds(10),
                    [&] { return game.idle() && game.max_seq() >= before + 3; }));
  EXPECT_GE(game.max_seq(), before + 3) << "the match does not go on after the refusals";
}

// A small rate limit (5 requests per second) and a client that floods.
class FloodTest : public ServerFixture {};

TEST_F(FloodTest, FloodingIsRateLimitedPerConnection) {
  TestConfig config;
  config.commands_per_second = 5;
  start(config);
  auto flood = Client::connect(port(), "flood");
  auto calm = Client::connect(port(), "calm");
  ASSERT_TRUE(flood && calm);
  ASSERT_TRUE(flood->hello());
  ASSERT_TRUE(calm->hello());
  constexpr int kRequests = 40;
  std::string burst;
  for (int i = 0; i < kRequests; ++i)
    burst += R"({"type":"ping","id":)" + std::to_string(i) + "}\n";
  ASSERT_TRUE(flood->send_raw(burst));
  // The other connection has its own budget.
  auto pong = calm->ping();
  ASSERT_TRUE(pong);
  EXPECT_EQ(pong->type, "pong") << pong->line;
  // One reply per request: a few pongs, the rest RATE_LIMITED.
  int pongs = 0;
  int limited = 0;
  for (int i = 0; i < kRequests; ++i) {
    auto r = flood->next(Millis(3000));
    ASSERT_TRUE(r) << "only " << i << " replies to " << kRequests << " requests";
    if (r->type == "pong") {
      ++pongs;
    } else {
      EXPECT_EQ(r->type, "error") << r->line;
      EXPECT_EQ(r->str("code"), "RATE_LIMITED") << r->line;
      EXPECT_FALSE(r->str("message").empty()) << r->line;
      ++limited;
    }
  }
  std::cout << "[ flood    ] " << pongs << " served, " << limited << " rate-limited\n";
  EXPECT_GE(pongs, 1);
  EXPECT_LE(pongs, 8) << "the limit is 5 per second (the hello used one)";
  EXPECT_GE(limited, kRequests - 8);
  EXPECT_FALSE(flood->closed()) << "flooding is refused, not punished by a disconnect";
  // After a second the budget is back.
  std::this_thread::sleep_for(Millis(1100));
  auto later = flood->ping();
  ASSERT_TRUE(later);
  EXPECT_EQ(later->type, "pong") << later->line;
}

}  // namespace
}  // namespace eryantis::integration
