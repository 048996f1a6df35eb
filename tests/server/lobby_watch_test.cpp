// Lobby push (watch_lobby / unwatch_lobby) driven directly: a fake transport
// records what each connection is sent, a fake store completes writes at once,
// and a manual clock decides when the 250 ms coalescing window has passed.
#include <gtest/gtest.h>

#include "eryantis/json/json.hpp"

#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "eryantis/server/server.hpp"
#include "fake_secret_source.hpp"
#include "fakes.hpp"

namespace eryantis::server {
namespace {

class LobbyWatchTest : public ::testing::Test {
 protected:
  static constexpr ConnectionId kWatcher = 10;
  static constexpr ConnectionId kAlice = 1;
  static constexpr ConnectionId kBob = 2;

  LobbyWatchTest()
      : server(
            config(), transport, store, [this] { return now; }, secrets) {}
  static ServerConfig config() {
    ServerConfig c = test_server_config();
    c.heartbeat_interval_ms = 60'000;  // no pings in the lines these tests count
    c.heartbeat_timeout_ms = 120'000;
    c.limits.commands_per_second = 1000;
    return c;
  }
  void say(ConnectionId c, const std::string& line) {
    server.on_line(c, line);
    store.complete_all();
  }
  void open(ConnectionId c, const std::string& nickname = {}) {
    server.on_open(c, "127.0.0.1:1");
    say(c, R"({"type":"hello","protocol":1,"updates":"events"})");
    if (!nickname.empty()) say(c, R"({"type":"login","nickname":")" + nickname + "\"}");
  }
  // Lets `ms` pass in 100 ms ticks, as eryantis-server does.
  void pass(std::int64_t ms) {
    for (std::int64_t t = 0; t < ms; t += 100) {
      now += 100;
      server.tick();
      store.complete_all();
    }
  }
  // The match_list messages `c` received since `from` (index into its lines).
  std::vector<std::string> lists(ConnectionId c, std::size_t from = 0) {
    std::vector<std::string> out;
    const auto& lines = transport.sent[c];
    for (std::size_t i = from; i < lines.size(); ++i)
      if (lines[i].find(R"("type":"match_list")") != std::string::npos) out.push_back(lines[i]);
    return out;
  }
  std::size_t mark(ConnectionId c) { return transport.sent[c].size(); }
  // The one push `c` got since `from`; fails the test when there is not exactly one.
  rapidjson::Document only_push(ConnectionId c, std::size_t from) {
    auto got = lists(c, from);
    EXPECT_EQ(got.size(), 1u);
    if (got.empty()) return parse("{}");
    auto d = parse(got.back());
    EXPECT_FALSE(d.HasMember("id")) << "a push has no id: " << got.back();
    return d;
  }
  void play(ConnectionId c, const std::string& command) {
    say(c, R"({"type":"play","command":)" + command + "}");
  }

  std::int64_t now = 1'000'000;
  FakeTransport transport;
  FakePersistence store;
  FakeSecretSource secrets;
  Server server;
};

TEST_F(LobbyWatchTest, TheWatcherIsAnsweredWithTheListThenToldOfCreateJoinLeaveAndStart) {
  open(kAlice, "alice");
  open(kBob, "bob");
  open(kWatcher);  // not logged in: like list_matches, watching needs only hello
  say(kWatcher, R"({"type":"watch_lobby","id":7})");
  auto first = lists(kWatcher);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0], R"({"type":"match_list","id":7,"open":[],"running":[]})");

  pass(1000);  // nothing changed: nothing pushed
  EXPECT_EQ(lists(kWatcher).size(), 1u);

  auto at = mark(kWatcher);
  say(kAlice, R"({"type":"create_match","players":2})");
  pass(300);
  auto created = only_push(kWatcher, at);
  ASSERT_TRUE(created.HasMember("open"));
  ASSERT_EQ(created["open"].Size(), 1u);
  EXPECT_STREQ(created["open"][0]["seats"][0]["nickname"].GetString(), "alice");

  at = mark(kWatcher);
  say(kBob, R"({"type":"join_match","match":1})");
  pass(300);
  auto joined = only_push(kWatcher, at);
  ASSERT_TRUE(joined.HasMember("running"));
  EXPECT_EQ(joined["open"].Size(), 0u);  // full: listed as running (still in setup)
  ASSERT_EQ(joined["running"].Size(), 1u);
  EXPECT_STREQ(joined["running"][0]["seats"][1]["nickname"].GetString(), "bob");

  at = mark(kWatcher);
  say(kBob, R"({"type":"leave_match"})");
  pass(300);
  auto left = only_push(kWatcher, at);
  ASSERT_TRUE(left.HasMember("open"));
  ASSERT_EQ(left["open"].Size(), 1u);
  EXPECT_TRUE(left["open"][0]["seats"][1]["nickname"].IsNull());

  say(kBob, R"({"type":"join_match","match":1})");
  pass(300);
  at = mark(kWatcher);
  play(kAlice, R"({"type":"choose_wizard","wizard":0})");
  play(kBob, R"({"type":"choose_wizard","wizard":1})");
  play(kAlice, R"({"type":"choose_tower_color","color":"black"})");
  play(kBob, R"({"type":"choose_tower_color","color":"white"})");
  ASSERT_EQ(server.room(1)->status, store::MatchStatus::Running);
  pass(300);
  auto started = only_push(kWatcher, at);
  ASSERT_TRUE(started.HasMember("running"));
  ASSERT_EQ(started["running"].Size(), 1u);
  EXPECT_STREQ(started["running"][0]["status"].GetString(), "running");
  EXPECT_STREQ(started["running"][0]["phase"].GetString(), "planning");

  // The players never asked: they got no list at all.
  EXPECT_TRUE(lists(kAlice).empty());
  EXPECT_TRUE(lists(kBob).empty());
}

TEST_F(LobbyWatchTest, ChangesWithin250MsAreCoalescedIntoOnePushOfTheLatestList) {
  open(kAlice, "alice");
  open(kBob, "bob");
  open(kWatcher);
  say(kWatcher, R"({"type":"watch_lobby"})");
  auto at = mark(kWatcher);
  // The watch reply counts as a push: a change 100 ms later waits for the window.
  pass(100);
  say(kAlice, R"({"type":"create_match","players":2})");
  pass(100);
  EXPECT_TRUE(lists(kWatcher, at).empty()) << "pushed 200 ms after the last list";
  pass(100);  // 300 ms after the watch reply
  auto pushed = lists(kWatcher, at);
  ASSERT_EQ(pushed.size(), 1u);

  // Three changes 50 ms apart, right after a push: one push, with the last state.
  at = mark(kWatcher);
  say(kBob, R"({"type":"join_match","match":1})");
  now += 50;
  say(kBob, R"({"type":"leave_match"})");
  now += 50;
  say(kBob, R"({"type":"join_match","match":1,"seat":1})");
  server.tick();  // 100 ms after the push
  EXPECT_TRUE(lists(kWatcher, at).empty());
  pass(100);  // 200 ms
  EXPECT_TRUE(lists(kWatcher, at).empty());
  pass(100);  // 300 ms
  auto latest = only_push(kWatcher, at);
  ASSERT_TRUE(latest.HasMember("running"));
  ASSERT_EQ(latest["running"].Size(), 1u);
  EXPECT_STREQ(latest["running"][0]["seats"][1]["nickname"].GetString(), "bob");
  pass(1000);
  EXPECT_EQ(lists(kWatcher, at).size(), 1u) << "the same list is not pushed twice";
}

TEST_F(LobbyWatchTest, NoPushAfterUnwatchOrDisconnect) {
  open(kAlice, "alice");
  open(kBob, "bob");
  open(kWatcher);
  constexpr ConnectionId kOther = 11;
  open(kOther);
  say(kWatcher, R"({"type":"watch_lobby"})");
  say(kOther, R"({"type":"watch_lobby"})");

  auto at = mark(kWatcher);
  say(kWatcher, R"({"type":"unwatch_lobby","id":"u"})");
  ASSERT_EQ(transport.sent[kWatcher].size(), at + 1);
  EXPECT_EQ(transport.sent[kWatcher].back(), R"({"type":"unwatched","id":"u"})");
  server.on_closed(kOther);
  const auto other_at = mark(kOther);

  say(kAlice, R"({"type":"create_match","players":2})");
  pass(500);
  say(kBob, R"({"type":"join_match","match":1})");
  pass(500);
  EXPECT_EQ(mark(kWatcher), at + 1) << "pushed after unwatch_lobby";
  EXPECT_EQ(mark(kOther), other_at) << "pushed to a closed connection";

  // Watching again starts from the current list.
  say(kWatcher, R"({"type":"watch_lobby","id":2})");
  auto again = lists(kWatcher, at);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(parse(again[0])["running"].Size(), 1u);
}

TEST_F(LobbyWatchTest, APlayersPushNamesTheirMatchAsYours) {
  open(kAlice, "alice");
  say(kAlice, R"({"type":"watch_lobby"})");
  auto at = mark(kAlice);
  say(kAlice, R"({"type":"create_match","players":3})");
  pass(300);
  auto pushed = only_push(kAlice, at);
  ASSERT_TRUE(pushed.HasMember("yours"));
  EXPECT_EQ(pushed["yours"].GetInt64(), 1);
}

}  // namespace
}  // namespace eryantis::server
