// The terminal client's session, driven by scripted server lines and typed lines
// through a fake host: what it sends, prints, schedules, and when it ends. No
// terminal, no socket, no thread.
#include "session.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "eryantis/client/match_mirror.hpp"
#include "eryantis/codec/codec.hpp"
#include "eryantis/rules/decider.hpp"
#include "games/games.hpp"
#include "support/temp_dir.hpp"

namespace eryantis::cli {
namespace {

class FakeHost final : public SessionHost {
 public:
  void connect(const std::string& host, int port) override {
    ++connects;
    connected_to = host + ":" + std::to_string(port);
  }
  void send(std::string_view line) override { sent.emplace_back(line); }
  void print(const std::string& text) override { printed += text + "\n"; }
  void after(std::uint64_t delay_ms, std::function<void()> callback) override {
    timers.push_back({delay_ms, std::move(callback)});
  }
  void quit() override { ++quits; }
  std::uint64_t now_ms() override { return clock_ms; }

  bool printed_text(const std::string& needle) const {
    return printed.find(needle) != std::string::npos;
  }
  bool sent_type(const std::string& type) const {
    for (const auto& l : sent)
      if (l.find("\"type\":\"" + type + "\"") != std::string::npos) return true;
    return false;
  }
  // Runs the timers scheduled so far (not the ones they schedule).
  void fire_timers() {
    auto due = std::move(timers);
    timers.clear();
    for (auto& t : due) t.second();
  }

  int connects = 0;
  std::string connected_to;  // the last connect's host:port
  int quits = 0;
  std::uint64_t clock_ms = 1000000;
  std::vector<std::string> sent;
  std::string printed;
  std::vector<std::pair<std::uint64_t, std::function<void()>>> timers;
};

class SessionTest : public ::testing::Test {
 protected:
  std::unique_ptr<Session> make(bool interactive, const game::Registry* games = nullptr) {
    SessionOptions o;
    o.games = games;
    o.host = "127.0.0.1";
    o.port = 7777;
    o.nickname = "alice";
    o.color = false;
    o.interactive = interactive;
    return std::make_unique<Session>(host_, o, client::TokenStore(dir_.path() / "tokens"), 1);
  }
  // Connected and logged in (no match), the lobby asked for.
  std::unique_ptr<Session> logged_in(bool interactive, const game::Registry* games = nullptr) {
    auto s = make(interactive, games);
    s->start();
    s->connected();
    s->line(R"({"type":"welcome","protocol":1,"server":"eryantis"})");
    s->line(R"({"type":"logged_in","id":"login","nickname":"alice","token":"tok-1"})");
    host_.sent.clear();
    return s;
  }

  test::TempDir dir_{"eryantis-cli-session"};
  FakeHost host_;
};

TEST_F(SessionTest, ConnectsLogsInAndKeepsTheToken) {
  auto s = make(false);
  s->start();
  EXPECT_EQ(host_.connects, 1);
  s->connected();
  ASSERT_EQ(host_.sent.size(), 2u);
  EXPECT_TRUE(host_.sent_type("hello"));
  EXPECT_EQ(host_.sent[1], R"({"type":"login","id":"login","nickname":"alice"})");
  s->line(R"({"type":"logged_in","id":"login","nickname":"alice","token":"tok-1"})");
  EXPECT_TRUE(host_.printed_text("logged in as alice. Type help for the commands."));
  EXPECT_TRUE(host_.sent_type("list_matches"));
  EXPECT_EQ(client::TokenStore(dir_.path() / "tokens").get("127.0.0.1:7777", "alice"), "tok-1");

  // The next connection logs in with the saved token.
  s->closed("reset by peer");
  EXPECT_TRUE(host_.printed_text("connection lost (reset by peer); reconnecting in 250 ms"));
  ASSERT_EQ(host_.timers.size(), 1u);
  host_.fire_timers();
  EXPECT_EQ(host_.connects, 2);
  host_.sent.clear();
  s->connected();
  ASSERT_EQ(host_.sent.size(), 2u);
  EXPECT_NE(host_.sent[1].find(R"("token":"tok-1")"), std::string::npos) << host_.sent[1];
  EXPECT_FALSE(s->quitting());
}

TEST_F(SessionTest, ARefusedLoginEndsWithItsOwnExitCode) {
  for (const char* code : {"NICKNAME_TAKEN", "BAD_TOKEN"}) {
    FakeHost host;
    SessionOptions o;
    o.nickname = "alice";
    Session s(host, o, client::TokenStore(dir_.path() / "tokens"), 1);
    s.start();
    s.connected();
    s.line(std::string(R"({"type":"error","id":"login","code":")") + code + R"(","message":"no"})");
    EXPECT_TRUE(s.quitting()) << code;
    EXPECT_EQ(s.exit_code(), kExitLoginRefused) << code;
    EXPECT_EQ(host.quits, 1);
    EXPECT_NE(host.printed.find("cannot log in as alice; quitting"), std::string::npos);
  }
}

// A nickname the server refuses: nothing typed could ever run (every command
// needs the login), so the session ends at once with a sentence and the login
// exit code, also with lines of a script still queued.
TEST_F(SessionTest, AnInvalidNicknameEndsTheSessionWithASentence) {
  for (const bool interactive : {false, true}) {
    FakeHost host;
    SessionOptions o;
    o.nickname = "no spaces!";
    o.interactive = interactive;
    Session s(host, o, client::TokenStore(dir_.path() / "tokens"), 1);
    s.start();
    s.typed("list");
    s.connected();
    s.line(R"({"type":"welcome","protocol":1,"server":"eryantis"})");
    s.line(
        R"({"type":"error","id":"login","code":"INVALID_NICKNAME","message":"a nickname has 1 to 24 letters, digits, '_', '-' or '.'"})");
    EXPECT_TRUE(s.quitting()) << interactive;
    EXPECT_EQ(s.exit_code(), kExitLoginRefused);
    EXPECT_EQ(host.quits, 1);
    EXPECT_TRUE(host.printed_text("cannot log in: \"no spaces!\" is not a nickname this server "
                                  "accepts"))
        << host.printed;
    EXPECT_FALSE(host.sent_type("list_matches")) << "the queued line ran without a login";
  }
}

// Any other refusal of the login (a field the server cannot read, ...) ends it
// too; a refusal for now (the server shuts down, its database is failing) tries
// the same login again after a backoff, on the same connection only.
TEST_F(SessionTest, ALoginRefusedForGoodEndsItAndOneRefusedForNowIsRetried) {
  {
    FakeHost host;
    SessionOptions o;
    o.nickname = "alice";
    Session s(host, o, client::TokenStore(dir_.path() / "tokens"), 1);
    s.start();
    s.connected();
    s.line(R"({"type":"error","id":"login","code":"INVALID_FIELD","message":"token: a string"})");
    EXPECT_TRUE(s.quitting());
    EXPECT_EQ(s.exit_code(), kExitLoginRefused);
  }
  {
    // A cluster node whose build lacks the game of our seat's match: asking it
    // again cannot help, so the sentence is shown and the session ends.
    FakeHost host;
    SessionOptions o;
    o.nickname = "alice";
    Session s(host, o, client::TokenStore(dir_.path() / "tokens"), 1);
    s.start();
    s.connected();
    host.sent.clear();
    s.line(R"({"type":"error","id":"login","code":"UNSERVED_GAME","message":"your seat is in a )"
           R"(match no node of the cluster serves now: match 7 plays goofspiel version 1, which )"
           R"(this node does not serve; log in on a node that serves it"})");
    EXPECT_TRUE(s.quitting());
    EXPECT_EQ(s.exit_code(), kExitLoginRefused);
    EXPECT_TRUE(host.printed_text("UNSERVED_GAME")) << host.printed;
    EXPECT_TRUE(host.printed_text("goofspiel")) << host.printed;
    EXPECT_TRUE(host.timers.empty());
    EXPECT_FALSE(host.sent_type("login"));
  }
  FakeHost host;
  SessionOptions o;
  o.nickname = "alice";
  Session s(host, o, client::TokenStore(dir_.path() / "tokens"), 1);
  s.start();
  s.connected();
  host.sent.clear();
  s.line(R"({"type":"error","id":"login","code":"STORE_FAILURE","message":"try later"})");
  EXPECT_FALSE(s.quitting());
  EXPECT_TRUE(host.printed_text("the login is refused for now; trying again in 250 ms"))
      << host.printed;
  ASSERT_EQ(host.timers.size(), 1u);
  host.fire_timers();
  ASSERT_EQ(host.sent.size(), 1u);
  EXPECT_TRUE(host.sent_type("login"));
  // Refused again, then the connection drops and comes back before the retry is due:
  // the new connection's own login is the only one sent.
  s.line(R"({"type":"error","id":"login","code":"SHUTTING_DOWN","message":"later"})");
  EXPECT_TRUE(host.printed_text("trying again in 500 ms")) << host.printed;
  s.closed("reset by peer");
  host.sent.clear();
  s.connected();
  EXPECT_EQ(host.sent.size(), 2u);  // hello and login
  host.fire_timers();               // the retry of the old connection, and the reconnect
  EXPECT_EQ(host.sent.size(), 2u);
  s.line(R"({"type":"logged_in","id":"login","nickname":"alice","token":"tok-1"})");
  EXPECT_FALSE(s.quitting());
}

// Lines a broken or hostile server might send: each is reported or ignored, none
// ends the session, and the session still works afterwards.
TEST_F(SessionTest, MalformedServerLinesAreReportedAndSkipped) {
  auto s = logged_in(false);
  const std::vector<std::string> hostile = {
      "",
      "not json",
      "[1,2,3]",
      R"({"type":7})",
      R"({"no_type":"joined"})",
      R"({"type":"joined","match":"one","seat":0})",
      R"({"type":"joined","seat":0})",
      R"({"type":"joined","match":1})",
      R"({"type":"spectating"})",
      R"({"type":"left","match":[]})",
      R"({"type":"state","match":1,"seq":"x","view":{}})",
      R"({"type":"state","match":1,"seq":3,"view":{"garbage":true},"hash":"0"})",
      R"({"type":"state","match":1,"seq":3,"view":[1,2],"seats":[{"seat":99,"nickname":"x"},{"seat":-5},7]})",
      R"({"type":"seats","seats":[{"seat":1e99,"nickname":{}},{"seat":2,"nickname":"bob","connected":"yes"}]})",
      R"({"type":"event","match":1,"seq":4,"event":{"type":"nonsense"},"hash":"zz"})",
      R"({"type":"event","match":1,"seq":4,"event":"text"})",
      R"({"type":"event"})",
      R"({"type":"game_over","match":1,"result":"alice won"})",
      R"({"type":"game_over","result":{"nicknames":[1,null],"draw":"no","reason":5}})",
      R"({"type":"match_list","open":[{"match":"1"},{"players":2},5,null],"running":"none"})",
      R"({"type":"match_list","open":[{"match":9007199254740993,"players":-1,"mode":null,"seats":[{"nickname":3}]}]})",
      R"({"type":"logged_in"})",
      R"({"type":"error"})",
      R"({"type":"error","code":17,"message":[]})",
      R"({"type":"ack","seq":"five"})",
      R"({"type":"ping","id":{"x":1}})",
      R"({"type":"shutdown","message":5})",
      R"({"type":"match_abandoned","match":"x"})",
      R"({"type":"hologram"})",
      std::string(100000, '{'),
  };
  for (const auto& line : hostile) {
    s->line(line);
    EXPECT_FALSE(s->quitting()) << line;
  }
  EXPECT_TRUE(host_.printed_text("(unreadable line from the server: "));
  EXPECT_TRUE(host_.printed_text("(ignored a joined from the server without match)"));
  EXPECT_TRUE(host_.printed_text("(ignored a joined from the server without seat)"));
  EXPECT_TRUE(host_.printed_text("(ignored a game_over from the server without result)"));
  EXPECT_TRUE(host_.printed_text("(ignored a error from the server without code)"));
  EXPECT_TRUE(host_.printed_text("(the state could not be read: "));
  EXPECT_TRUE(host_.printed_text("#9007199254740993"));  // the odd summary, listed as sent

  // Still alive: a typed request goes out.
  host_.sent.clear();
  s->typed("list");
  ASSERT_EQ(host_.sent.size(), 1u);
  EXPECT_TRUE(host_.sent_type("list_matches"));
}

TEST_F(SessionTest, PipedInputWaitsForEachReplyThenQuitsAtTheEnd) {
  auto s = logged_in(false);
  s->typed("list");
  s->typed("list");
  s->input_closed();
  ASSERT_EQ(host_.sent.size(), 1u);  // the second waits for the first reply
  EXPECT_FALSE(s->quitting());
  s->line(R"({"type":"match_list","id":1,"open":[],"running":[]})");
  ASSERT_EQ(host_.sent.size(), 2u);
  EXPECT_NE(host_.sent[1].find(R"("id":2)"), std::string::npos);
  EXPECT_FALSE(s->quitting());
  s->line(R"({"type":"match_list","id":2,"open":[],"running":[]})");
  EXPECT_TRUE(s->quitting());
  EXPECT_EQ(s->exit_code(), kExitOk);
  EXPECT_TRUE(host_.printed_text("none open: create one"));
}

TEST_F(SessionTest, APersonIsObeyedAtOnce) {
  {
    auto s = logged_in(true);
    s->typed("list");  // its reply never comes
    s->typed("quit");
    EXPECT_TRUE(s->quitting());
    EXPECT_EQ(host_.quits, 1);
  }
  {
    auto s = logged_in(true);
    s->closed("server gone");  // not logged in: a script would wait for the reconnection
    s->input_closed();         // Ctrl-D
    EXPECT_TRUE(s->quitting());
    EXPECT_EQ(host_.quits, 2);
    // A late timer (the reconnection) does nothing once quitting.
    const int connects = host_.connects;
    host_.fire_timers();
    EXPECT_EQ(host_.connects, connects);
  }
}

TEST_F(SessionTest, AnswersPingsWithAKeepAlive) {
  auto s = logged_in(false);
  s->line(R"({"type":"ping"})");
  ASSERT_EQ(host_.sent.size(), 1u);
  EXPECT_EQ(host_.sent[0], client::ClientProtocol::pong());
}

TEST_F(SessionTest, JoinsAMatchShowsTheBoardAndPlaysALegalMove) {
  auto s = logged_in(false);
  s->typed("join 4 1");
  ASSERT_EQ(host_.sent.size(), 1u);
  EXPECT_EQ(host_.sent[0], R"({"type":"join_match","id":1,"match":4,"seat":1})");
  s->line(R"({"type":"joined","id":1,"match":4,"seat":1})");
  EXPECT_TRUE(host_.printed_text("joined match 4 as seat 1"));

  auto created = rules::create_match(rules::MatchOptions{2, rules::Mode::Simple}, 3);
  ASSERT_TRUE(created);
  const rules::State state = rules::apply(rules::State{}, *created);
  const rules::View view = rules::view(state, 1);
  s->line(R"({"type":"state","match":4,"seq":1,"seat":1,"status":"lobby","hash":")" +
          client::hash_hex(rules::hash(view.state)) + R"(","seats":[{"seat":0,"nickname":"bob",)" +
          R"("connected":true},{"seat":1,"nickname":"alice","connected":true}],"view":)" +
          codec::view_to_json(view) + "}");
  EXPECT_TRUE(host_.printed_text("bob took seat 0"));
  EXPECT_TRUE(host_.printed_text("ERYANTIS | 2 players, simple"));

  host_.sent.clear();
  s->typed("auto");  // setup: choose a wizard or a tower, no expected_seq
  ASSERT_EQ(host_.sent.size(), 1u);
  EXPECT_TRUE(host_.sent_type("play"));
  EXPECT_EQ(host_.sent[0].find("expected_seq"), std::string::npos) << host_.sent[0];
}

// The terminal client knows a match's game only through game::Game: a match of
// Goofspiel (the tests' game, named by the state message) is drawn, its words
// typed, listed, completed and played at random, its events said in its words.
TEST_F(SessionTest, PlaysAMatchOfAnyGameThroughItsInterface) {
  const game::Game& g = *test::games().find("goofspiel");
  auto s = logged_in(false, &test::games());
  auto created = g.create_match(*g.options_from_request(2, nullptr), game::Seed{4, 5});
  ASSERT_TRUE(created);
  const game::State state = g.apply(g.empty_state(), *created);
  const game::State view = g.view(state, 1);
  s->line(R"({"type":"state","match":4,"game":"goofspiel","seq":1,"seat":1,"status":"running",)"
          R"("hash":")" + client::hash_hex(g.hash(view)) +
          R"(","seats":[{"seat":0,"nickname":"bob","connected":true},)"
          R"({"seat":1,"nickname":"alice","connected":true}],"view":)" +
          g.view_to_json(view, 1) + "}");
  EXPECT_TRUE(host_.printed_text("Goofspiel, 5 cards")) << host_.printed;
  EXPECT_TRUE(host_.printed_text("alice (you)")) << host_.printed;

  host_.printed.clear();
  s->typed("moves");
  EXPECT_TRUE(host_.printed_text("you may type:\n  bid 1\n  bid 2\n  bid 3\n  bid 4\n  bid 5\n"))
      << host_.printed;
  EXPECT_EQ(s->completions("bid ", ""), (std::vector<std::string>{"1", "2", "3", "4", "5"}));
  EXPECT_EQ(s->completions("", "bi"), (std::vector<std::string>{"bid"}));
  s->typed("help");
  EXPECT_TRUE(host_.printed_text("create ... --game NAME")) << host_.printed;

  // A random legal bid, sent as the game's JSON with the seq it was chosen at.
  host_.sent.clear();
  s->typed("auto");
  ASSERT_EQ(host_.sent.size(), 1u);
  const std::string& play = host_.sent[0];
  EXPECT_NE(play.find(R"("command":{"type":"bid","card":)"), std::string::npos) << play;
  EXPECT_NE(play.find(R"("expected_seq":1)"), std::string::npos) << play;
  s->line(R"({"type":"error","id":1,"code":"RATE_LIMITED","message":"slow down"})");

  // Typed words of the game.
  host_.sent.clear();
  s->typed("bid 3");
  ASSERT_EQ(host_.sent.size(), 1u);
  EXPECT_NE(host_.sent[0].find(R"("command":{"type":"bid","card":3})"), std::string::npos)
      << host_.sent[0];
  s->line(R"({"type":"ack","id":2,"match":4,"seq":2})");

  // Our bid's event (full updates: with the view), said in the game's words.
  auto d = g.decide(state, 1, g.legal_commands(state, 1)[2]);
  ASSERT_TRUE(d);
  const game::State after = g.view(d->next, 1);
  host_.printed.clear();
  s->line(R"({"type":"event","match":4,"seq":2,"hash":")" + client::hash_hex(g.hash(after)) +
          R"(","event":)" + g.event_to_json(g.event_for(d->event, 1)) + R"(,"view":)" +
          g.view_to_json(after, 1) + "}");
  EXPECT_TRUE(host_.printed_text("#2 alice")) << host_.printed;
  host_.printed.clear();
  s->typed("moves");
  EXPECT_TRUE(host_.printed_text("nothing to do: it is not your turn")) << host_.printed;
}

// The lobby names the game of a match that is not Eriantys (match summaries carry `game`).
TEST(LobbyText, NamesTheGameOfAMatchOfAnotherGame) {
  auto m = client::parse_server_message(
      R"({"type":"match_list","open":[{"match":3,"game":"goofspiel","players":2,"status":"lobby",)"
      R"("seats":[{"seat":0,"nickname":"bob","connected":true}]},{"match":4,"game":"eriantys",)"
      R"("players":3,"mode":"expert","status":"lobby","seats":[]}],"running":[]})");
  ASSERT_TRUE(m) << m.error();
  ASSERT_EQ(m->open.size(), 2u);
  EXPECT_EQ(m->open[0].game, "goofspiel");
  const std::string text = lobby_text(*m);
  EXPECT_NE(text.find("#3     2p goofspiel lobby    bob"), std::string::npos) << text;
  EXPECT_NE(text.find("#4     3p expert lobby"), std::string::npos) << text;
}

// Private matches (docs/accounts.md, "Invite links and private matches"): create
// --private, the invite code the server sends shown with the words to share, join and
// watch with a code or a whole link (its case kept), revoke, and --join at start.
TEST_F(SessionTest, PrivateMatchesAndInviteCodes) {
  auto s = logged_in(false);
  s->typed("create 2 --private");
  ASSERT_EQ(host_.sent.size(), 1u);
  EXPECT_EQ(host_.sent[0], R"({"type":"create_match","id":1,"players":2,"mode":"simple","private":true})");
  s->line(R"({"type":"joined","id":1,"match":7,"seat":0})");
  s->line(R"({"type":"invite","match":7,"code":"AbCdEfGhIjKlMnOpQrSt_-"})");
  EXPECT_TRUE(host_.printed_text("join 7 AbCdEfGhIjKlMnOpQrSt_-"));
  EXPECT_TRUE(host_.printed_text("#join=7&code=AbCdEfGhIjKlMnOpQrSt_-"));
  host_.sent.clear();
  s->typed("revoke");
  ASSERT_EQ(host_.sent.size(), 1u);
  EXPECT_EQ(host_.sent[0], R"({"type":"revoke_invite","id":2})");
  s->line(R"({"type":"invite","id":2,"match":7,"code":null})");
  EXPECT_TRUE(host_.printed_text("match 7 has no invite code now"));
  host_.sent.clear();
  s->typed("revoke --none");
  EXPECT_EQ(host_.sent.at(0), R"({"type":"revoke_invite","id":3,"renew":false})");
}

TEST_F(SessionTest, JoinsAndWatchesWithACodeOrALink) {
  auto s = logged_in(false);
  s->typed("join 7 AbCdEfGhIjKlMnOpQrSt_-");
  ASSERT_EQ(host_.sent.size(), 1u);
  EXPECT_EQ(host_.sent[0], R"({"type":"join_match","id":1,"match":7,"code":"AbCdEfGhIjKlMnOpQrSt_-"})");
  s->line(R"({"type":"error","id":1,"code":"INVITE_UNKNOWN","message":"this invite code opens no match here: ask for a new link"})");
  EXPECT_TRUE(host_.printed_text("ask for a new link"));
  host_.sent.clear();
  s->typed("join http://127.0.0.1:8080/#join=9&code=XyZ-abc_DEFghiJKLmnoPQ");
  ASSERT_EQ(host_.sent.size(), 1u);
  EXPECT_EQ(host_.sent[0], R"({"type":"join_match","id":2,"match":9,"code":"XyZ-abc_DEFghiJKLmnoPQ"})");
  s->line(R"({"type":"error","id":2,"code":"NO_SUCH_MATCH","message":"there is no open match 9"})");
  host_.sent.clear();
  s->typed("join 9 1 XyZ-abc_DEFghiJKLmnoPQ");
  EXPECT_EQ(host_.sent.at(0), R"({"type":"join_match","id":3,"match":9,"seat":1,"code":"XyZ-abc_DEFghiJKLmnoPQ"})");
  s->line(R"({"type":"error","id":3,"code":"NO_SUCH_MATCH","message":"there is no open match 9"})");
  host_.sent.clear();
  s->typed("watch 9 XyZ-abc_DEFghiJKLmnoPQ");
  EXPECT_EQ(host_.sent.at(0), R"({"type":"spectate","id":4,"match":9,"code":"XyZ-abc_DEFghiJKLmnoPQ"})");
}

TEST_F(SessionTest, AJoinLinkGivenAtStartIsFollowedAfterTheLogin) {
  SessionOptions o;
  o.host = "127.0.0.1";
  o.port = 7777;
  o.nickname = "bob";
  o.color = false;
  o.join = cli::parse_join_link("http://127.0.0.1:8080/#join=7&code=AbCdEfGhIjKlMnOpQrSt_-");
  ASSERT_TRUE(o.join);
  Session s(host_, o, client::TokenStore(dir_.path() / "tokens"), 1);
  s.start();
  s.connected();
  s.line(R"({"type":"welcome","protocol":1,"server":"eryantis"})");
  host_.sent.clear();
  s.line(R"({"type":"logged_in","id":"login","nickname":"bob","token":"tok-1"})");
  ASSERT_EQ(host_.sent.size(), 1u);
  EXPECT_NE(host_.sent[0].find(R"("type":"join_match")"), std::string::npos) << host_.sent[0];
  EXPECT_NE(host_.sent[0].find(R"("match":7,"code":"AbCdEfGhIjKlMnOpQrSt_-")"), std::string::npos);
}

TEST_F(SessionTest, GameCommandsNeedAMatch) {
  auto s = logged_in(false);
  s->typed("play 3");
  EXPECT_TRUE(host_.printed_text("? you are not in a match"));
  s->typed("fly away");
  EXPECT_TRUE(host_.printed_text("? unknown command \"fly\""));
  EXPECT_TRUE(host_.sent.empty());
}

// A `state` line for match 4 in setup, alice (me) in seat 1 and bob in seat 0,
// with `extra` fields (",\"deadline\":...") added.
std::string state_line(std::int64_t seq, const std::string& status, const std::string& extra) {
  auto created = rules::create_match(rules::MatchOptions{2, rules::Mode::Simple}, 3);
  const rules::State state = rules::apply(rules::State{}, *created);
  const rules::View view = rules::view(state, 1);
  return R"({"type":"state","match":4,"seq":)" + std::to_string(seq) + R"(,"seat":1,"status":")" +
         status + R"(","hash":")" + client::hash_hex(rules::hash(view.state)) +
         R"(","seats":[{"seat":0,"nickname":"bob",)" +
         R"("connected":false},{"seat":1,"nickname":"alice","connected":true}],"view":)" +
         codec::view_to_json(view) + extra + "}";
}

// A spectator is one again after the connection drops (or the server restarts):
// the client asks to watch the same match as soon as it is logged in again.
TEST_F(SessionTest, ASpectatorWatchesAgainAfterReconnecting) {
  auto s = logged_in(false);
  // A spectating nobody asked for does not make this client a spectator.
  s->line(R"({"type":"spectating","match":9})");
  s->typed("watch 4");
  ASSERT_EQ(host_.sent.size(), 1u);
  EXPECT_EQ(host_.sent[0], R"({"type":"spectate","id":1,"match":4})");
  s->line(R"({"type":"spectating","id":1,"match":4})");
  s->line(state_line(1, "running", ""));
  EXPECT_TRUE(host_.printed_text("ERYANTIS"));

  for (int round = 0; round < 2; ++round) {
    host_.sent.clear();
    s->closed("server restarted");
    EXPECT_TRUE(host_.printed_text("(you will watch match 4 again once back)"));
    host_.fire_timers();
    s->connected();
    s->line(R"({"type":"logged_in","id":"login","nickname":"alice","token":"tok-1"})");
    ASSERT_EQ(host_.sent.size(), 3u) << round;  // hello, login, spectate
    EXPECT_NE(host_.sent[2].find(R"("type":"spectate")"), std::string::npos);
    EXPECT_NE(host_.sent[2].find(R"("match":4)"), std::string::npos);
    EXPECT_TRUE(host_.printed_text("logged in as alice, watching match 4 again"));
    const auto id_at = host_.sent[2].find(R"("id":)") + 5;
    const std::string id = host_.sent[2].substr(id_at, host_.sent[2].find(',', id_at) - id_at);
    if (round == 0) {
      s->line(R"({"type":"spectating","id":)" + id + R"(,"match":4})");
    } else {
      // The match is gone: say so, and stop trying.
      s->line(R"({"type":"error","id":)" + id +
              R"(,"code":"NO_SUCH_MATCH","message":"no match 4"})");
      EXPECT_TRUE(host_.printed_text("(match 4 can no longer be watched"));
    }
  }
  host_.sent.clear();
  s->closed("again");
  host_.fire_timers();
  s->connected();
  s->line(R"({"type":"logged_in","id":"login","nickname":"alice","token":"tok-1"})");
  EXPECT_FALSE(host_.sent_type("spectate"));
}

// A clocked match: a clocks line under the board, the running clock counted down from
// the message that told it; an event's clocks replace it.
TEST_F(SessionTest, ClocksAreShownAndCountedDown) {
  auto s = logged_in(false);
  s->line(state_line(1, "running",
                     R"(,"clock":{"control":"10m+5s","on_timeout":"skip"},"clocks":[)"
                     R"({"left_ms":600000,"delay_ms":0,"running":true,"untimed":false,"timeouts":0},)"
                     R"({"left_ms":432000,"delay_ms":0,"running":false,"untimed":false,"timeouts":0}])"));
  EXPECT_EQ(s->clocks_text(), "Clock 10m+5s: bob 10 min 00 s (running), alice 7 min 12 s");
  EXPECT_TRUE(host_.printed_text("Clock 10m+5s: bob 10 min 00 s (running), alice 7 min 12 s"));
  host_.clock_ms += 2000;
  EXPECT_EQ(s->clocks_text(), "Clock 10m+5s: bob 9 min 58 s (running), alice 7 min 12 s");
  // A match without a clock: no line.
  s->line(state_line(2, "running", ""));
  EXPECT_EQ(s->clocks_text(), "");
}

// The deadline in force: announced once, counted down on the board, reminded
// 30 s and 10 s before, forgotten when the server says null, kept when an older
// server sends no `deadline` at all.
TEST_F(SessionTest, DeadlinesAreAnnouncedAndCountedDown) {
  auto s = logged_in(false);
  s->line(
      state_line(1, "running",
                 R"(,"deadline":{"action":"skip_turn","seat":0,"nickname":"bob","in_ms":42000})"));
  EXPECT_TRUE(host_.printed_text("⏱ bob is offline — their turn is skipped in 42 s"));
  EXPECT_EQ(s->deadline_text(), "bob is offline — their turn is skipped in 42 s");
  host_.clock_ms += 2000;
  host_.printed.clear();
  // The same deadline again, counted down: not announced again.
  s->line(R"({"type":"seats","match":4,"seats":[{"seat":0,"nickname":"bob","connected":false}],)"
          R"("deadline":{"action":"skip_turn","seat":0,"nickname":"bob","in_ms":40000}})");
  EXPECT_FALSE(host_.printed_text("⏱"));
  // An older server's message without the field changes nothing.
  s->line(R"({"type":"seats","match":4,"seats":[]})");
  host_.clock_ms += 30000;
  EXPECT_EQ(s->deadline_text(), "bob is offline — their turn is skipped in 10 s");
  host_.fire_timers();  // the reminders (due at 12 s and 32 s)
  EXPECT_TRUE(host_.printed_text("⏱ bob is offline — their turn is skipped in 10 s"));

  // A forfeit countdown for bob, then one for me.
  host_.printed.clear();
  s->line(R"({"type":"seats","match":4,"seats":[],)"
          R"("deadline":{"action":"forfeit","seat":0,"in_ms":120000}})");
  EXPECT_TRUE(host_.printed_text("⏱ bob is offline — they forfeit the match in 2 min 00 s"));
  s->line(R"({"type":"seats","match":4,"seats":[],)"
          R"("deadline":{"action":"remove","seat":1,"nickname":"alice","in_ms":20000}})");
  EXPECT_TRUE(host_.printed_text("⏱ choose now: you are removed from the match in 20 s"));

  // null: no deadline any more, and the old reminders stay silent.
  host_.printed.clear();
  s->line(R"({"type":"seats","match":4,"seats":[],"deadline":null})");
  EXPECT_EQ(s->deadline_text(), "");
  host_.fire_timers();
  EXPECT_FALSE(host_.printed_text("⏱"));
  s->typed("board");
  EXPECT_FALSE(host_.printed_text("⏱"));
}

// After a login, the result of a match that ended while I was away.
TEST_F(SessionTest, AResultThatCameWhileAwayIsToldAfterLogin) {
  auto s = logged_in(false);
  s->line(R"({"type":"game_over","match":7,"result":{"reason":"forfeit","winners":[0],)"
          R"("nicknames":["bob"],"draw":false}})");
  EXPECT_TRUE(
      host_.printed_text("match 7 ended while you were away:\n"
                         "*** game over: bob won (forfeit) ***"));
}

TEST_F(SessionTest, ResignAsksFirstThenSendsTheCommand) {
  auto s = logged_in(false);
  s->typed("resign");
  EXPECT_TRUE(host_.printed_text("? you are not playing a match"));
  s->line(state_line(1, "lobby", ""));
  EXPECT_TRUE(
      host_.printed_text("Waiting for players: 2 of 2 seats taken (leave gives your seat back)"));
  s->typed("resign yes");
  EXPECT_TRUE(host_.printed_text("? the match has not started: leave gives your seat back"));
  s->line(state_line(1, "running", ""));
  host_.sent.clear();
  s->typed("resign");
  EXPECT_TRUE(host_.printed_text("resigning ends the match: you lose. Type resign yes"));
  EXPECT_TRUE(host_.sent.empty());
  s->typed("resign yes");
  ASSERT_EQ(host_.sent.size(), 1u);
  EXPECT_NE(host_.sent[0].find(R"("type":"play")"), std::string::npos);
  EXPECT_NE(host_.sent[0].find(R"("command":{"type":"resign"})"), std::string::npos)
      << host_.sent[0];
}

// Refusals name players, not seats; leaving a started match points to resign.
TEST_F(SessionTest, ErrorsNamePlayersAndLeavingExplainsItself) {
  auto s = logged_in(false);
  s->line(state_line(1, "running", ""));
  s->line(
      R"({"type":"error","code":"NOT_YOUR_TURN","message":"It is seat 0's turn; wait for yours."})");
  EXPECT_TRUE(host_.printed_text("✗ NOT_YOUR_TURN: It is bob's turn; wait for yours."));
  s->line(
      R"({"type":"error","code":"INVALID_SEAT","message":"Seat 1 is not free; seat 7 neither"})");
  EXPECT_TRUE(host_.printed_text("alice is not free; seat 7 neither"));
  host_.sent.clear();
  s->typed("leave");
  ASSERT_EQ(host_.sent.size(), 1u);
  s->line(
      R"({"type":"error","id":1,"code":"ALREADY_IN_MATCH","message":"match 4 has all its players"})");
  EXPECT_TRUE(host_.printed_text("(the match has started: to give it up, type resign)"));
}

// The server's `legal` is what `moves` lists and what completion offers.
TEST_F(SessionTest, TheServersLegalCommandsAreOffered) {
  auto s = logged_in(false);
  s->line(state_line(1, "running", ""));
  EXPECT_EQ(s->completions("wizard ", "").size(), 4u);  // from the mirror: any free wizard
  s->line(state_line(
      1, "running",
      ",\"legal\":[" + codec::command_to_json(rules::ChooseWizard{2}) + R"(,{"type":"fly"},7,)" +
          codec::command_to_json(rules::ChooseTowerColor{rules::TowerColor::Grey}) + "]"));
  EXPECT_EQ(s->completions("wizard ", ""), (std::vector<std::string>{"2"}));
  EXPECT_EQ(s->completions("tower ", ""), (std::vector<std::string>{"grey"}));
  EXPECT_EQ(s->completions("", "wi"), (std::vector<std::string>{"wizard"}));
  host_.printed.clear();
  s->typed("moves");
  EXPECT_TRUE(host_.printed_text("you may type:\n  wizard 2\n  tower grey\n")) << host_.printed;
}

TEST_F(SessionTest, HelpOnACharacterAndOnTheTurn) {
  auto s = logged_in(false);
  s->typed("help jester");
  EXPECT_TRUE(host_.printed_text("Jester (1 coin)"));
  EXPECT_TRUE(host_.printed_text("example:     char jester red,red for blue,green"));
  s->typed("help");
  EXPECT_TRUE(host_.printed_text("A round, for each player in turn:"));
  s->typed("help dragon");
  EXPECT_TRUE(host_.printed_text("? no help on \"dragon\""));
}

// issue 16: a node that does not serve the match redirects; the client moves
// there with its token, repeats the request with its id, and says so.
TEST_F(SessionTest, ARedirectIsFollowedAndTheRequestRepeated) {
  auto s = logged_in(false);
  s->typed("join 12");
  s->typed("list");  // waits for the join's answer, wherever it comes from
  ASSERT_EQ(host_.sent.size(), 1u);
  const std::string join = host_.sent[0];
  EXPECT_EQ(join, R"({"type":"join_match","id":1,"match":12})");
  host_.sent.clear();
  s->line(
      R"({"type":"redirect","id":1,"address":"127.0.0.1:7002","web":null,"match":12,"reason":"node b"})");
  EXPECT_TRUE(host_.printed_text("match 12 is served by 127.0.0.1:7002: moving there (node b)"));
  EXPECT_EQ(host_.connects, 2);
  EXPECT_EQ(host_.connected_to, "127.0.0.1:7002");
  EXPECT_TRUE(host_.sent.empty());
  s->connected();
  ASSERT_EQ(host_.sent.size(), 2u);  // hello, login with the token of the first node
  EXPECT_EQ(host_.sent[1], R"({"type":"login","id":"login","nickname":"alice","token":"tok-1"})");
  s->line(R"({"type":"logged_in","id":"login","nickname":"alice","token":"tok-1"})");
  ASSERT_EQ(host_.sent.size(), 3u);
  EXPECT_EQ(host_.sent[2], join);  // the same request, the same id
  EXPECT_TRUE(host_.printed_text("logged in as alice on 127.0.0.1:7002"));
  EXPECT_EQ(client::TokenStore(dir_.path() / "tokens").get("127.0.0.1:7002", "alice"), "tok-1");
  s->line(R"({"type":"joined","id":1,"match":12,"seat":1})");
  EXPECT_TRUE(host_.printed_text("joined match 12 as seat 1"));
  ASSERT_EQ(host_.sent.size(), 4u);  // now the next typed line goes
  EXPECT_TRUE(host_.sent_type("list_matches"));

  // A lost connection reconnects to the node it was on.
  s->closed("reset");
  host_.fire_timers();
  EXPECT_EQ(host_.connected_to, "127.0.0.1:7002");
}

// A resuming login answered with a redirect: log in there, nothing to repeat.
TEST_F(SessionTest, ARedirectedLoginLogsInAtTheOtherNode) {
  auto s = make(false);
  s->start();
  s->connected();
  host_.sent.clear();
  s->line(R"({"type":"redirect","id":"login","address":"127.0.0.1:7003","match":5})");
  EXPECT_TRUE(host_.printed_text("match 5 is served by 127.0.0.1:7003: moving there"));
  EXPECT_EQ(host_.connected_to, "127.0.0.1:7003");
  s->connected();
  ASSERT_EQ(host_.sent.size(), 2u);
  EXPECT_TRUE(host_.sent_type("login"));
  s->line(
      R"({"type":"logged_in","id":"login","nickname":"alice","token":"tok-9","match":5,"seat":0})");
  EXPECT_TRUE(host_.printed_text("back in match 5 (seat 0)"));
  EXPECT_EQ(host_.sent.size(), 2u);  // no repeat
  // The node a redirect named dies: after a failed reconnection, the first node again.
  s->closed("reset");
  host_.fire_timers();
  EXPECT_EQ(host_.connected_to, "127.0.0.1:7003");
  s->closed("connection refused");
  host_.fire_timers();
  EXPECT_EQ(host_.connected_to, "127.0.0.1:7777");
}

// Nodes that disagree must not bounce the client for ever: the 4th redirect in a
// row is an error shown to the person, and the input goes on.
TEST_F(SessionTest, ALoopOfRedirectsStopsAfterThree) {
  auto s = logged_in(false);
  s->typed("watch 3");
  s->typed("list");
  for (int hop = 1; hop <= 4; ++hop) {
    const std::string port = std::to_string(7000 + hop);
    s->line(R"({"type":"redirect","id":1,"address":"127.0.0.1:)" + port + R"(","match":3})");
    if (hop == 4) break;
    EXPECT_EQ(host_.connected_to, "127.0.0.1:" + port);
    s->connected();
    s->line(R"({"type":"logged_in","id":"login","nickname":"alice","token":"tok-1"})");
    EXPECT_EQ(host_.sent.back(), R"({"type":"spectate","id":1,"match":3})");
  }
  EXPECT_EQ(host_.connects, 4);  // the first node and three hops, not a fourth
  EXPECT_TRUE(host_.printed_text("✗ TOO_MANY_REDIRECTS: match 3 is served by 127.0.0.1:7004"));
  EXPECT_TRUE(host_.sent_type("list_matches"));  // the request is over
  EXPECT_FALSE(s->quitting());

  // A real answer starts the count again.
  host_.sent.clear();
  s->line(R"({"type":"match_list","id":2,"open":[],"running":[]})");
  s->typed("join 3");
  s->line(R"({"type":"redirect","id":3,"address":"127.0.0.1:7005","match":3})");
  EXPECT_EQ(host_.connected_to, "127.0.0.1:7005");
}

TEST_F(SessionTest, ARedirectWithoutAnAddressIsAnError) {
  auto s = logged_in(false);
  s->typed("join 2");
  s->line(R"({"type":"redirect","id":1,"address":"nowhere","match":2})");
  EXPECT_TRUE(host_.printed_text("✗ REDIRECT: bad \"address\" nowhere"));
  EXPECT_EQ(host_.connects, 1);
  s->typed("list");
  EXPECT_TRUE(host_.sent_type("list_matches"));
}

// `say`: one chat request with the text as typed; the channel's lines (the history
// after the state, then each push) are printed, a control byte as '?', markup as it is.
TEST_F(SessionTest, SaySendsAChatAndTheChannelsLinesArePrinted) {
  auto s = logged_in(false);
  s->typed("say Hello <b>Bob</b>");
  ASSERT_EQ(host_.sent.size(), 1u);
  EXPECT_NE(host_.sent[0].find(R"("type":"chat")"), std::string::npos) << host_.sent[0];
  EXPECT_NE(host_.sent[0].find(R"("text":"Hello <b>Bob</b>")"), std::string::npos) << host_.sent[0];
  const std::string id = host_.sent[0].substr(host_.sent[0].find(R"("id":)") + 5,
                                              host_.sent[0].find(',', host_.sent[0].find(R"("id":)")) -
                                                  host_.sent[0].find(R"("id":)") - 5);
  s->line(R"({"type":"chat_sent","id":)" + id +
          R"(,"match":3,"channel":"players","message":7,"from":"alice","time":1,"text":"Hello <b>Bob</b>"})");
  s->line(R"({"type":"chat","match":3,"channel":"players","message":7,"from":"alice","time":1,"text":"Hello <b>Bob</b>"})");
  EXPECT_TRUE(host_.printed_text("[players] alice: Hello <b>Bob</b>")) << host_.printed;
  s->line(R"({"type":"chat_history","match":3,"channel":"players","messages":[{"message":2,"from":"bob","time":1,"text":"hi\u001b[2J"}]})");
  EXPECT_TRUE(host_.printed_text("chat so far (players):")) << host_.printed;
  EXPECT_TRUE(host_.printed_text("[players] bob: hi?[2J")) << host_.printed;
  s->line(R"({"type":"chat_deleted","match":3,"channel":"players","message":2})");
  EXPECT_TRUE(host_.printed_text("an operator deleted a chat message")) << host_.printed;
  // A refusal is said, as any error.
  s->typed("say x");
  s->line(R"({"type":"error","id":2,"code":"RATE_LIMITED","message":"you are sending messages too fast; wait 1.5 s","retry_after_ms":1500})");
  EXPECT_TRUE(host_.printed_text("too fast")) << host_.printed;
}

}  // namespace
}  // namespace eryantis::cli
