// The server's chat driven directly (fakes.hpp): a message nobody may see unless it
// was stored, the channels kept apart, and a history that goes only to a connection
// still in that match and channel when it is read.
#include <gtest/gtest.h>

#include "fake_secret_source.hpp"
#include "fakes.hpp"

namespace eryantis::server {
namespace {

class ServerChatTest : public ::testing::Test {
 protected:
  ServerChatTest() : server(test_server_config(), transport, store, [this] { return now; }, secrets) {}

  std::vector<std::string> say(ConnectionId c, const std::string& line) {
    const std::size_t before = transport.sent[c].size();
    server.on_line(c, line);
    store.complete_all();
    return {transport.sent[c].begin() + static_cast<long>(before), transport.sent[c].end()};
  }
  void connect(ConnectionId c, const std::string& nickname) {
    server.on_open(c, "127.0.0.1:1");
    ASSERT_EQ(type_of(say(c, R"({"type":"hello","protocol":1})").at(0)), "welcome");
    ASSERT_EQ(type_of(say(c, R"({"type":"login","nickname":")" + nickname + "\"}").at(0)),
              "logged_in");
  }
  int count(ConnectionId c, std::string_view type) {
    int n = 0;
    for (const std::string& line : transport.sent[c]) n += type_of(line) == type ? 1 : 0;
    return n;
  }

  FakeTransport transport;
  FakePersistence store;
  FakeSecretSource secrets;
  std::int64_t now = 1'000'000;
  Server server;
};

TEST_F(ServerChatTest, AMessageTheStoreRefusedReachesNobody) {
  connect(1, "alice");
  connect(2, "bob");
  auto created = say(1, R"({"type":"create_match","players":2})");
  const auto m = parse(created.at(0))["match"].GetInt64();
  say(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  store.fail_all = true;  // a full disk
  auto refused = say(1, R"({"type":"chat","id":7,"text":"hello"})");
  ASSERT_EQ(refused.size(), 1u);
  auto error = parse(refused[0]);
  EXPECT_STREQ(error["code"].GetString(), "STORE_FAILURE");
  EXPECT_EQ(error["id"].GetInt(), 7);
  EXPECT_EQ(count(1, "chat"), 0);
  EXPECT_EQ(count(2, "chat"), 0);
  EXPECT_TRUE(store.chat.empty());
  store.fail_all = false;
  auto sent = say(1, R"({"type":"chat","id":8,"text":"hello"})");
  EXPECT_EQ(type_of(sent.at(0)), "chat_sent");
  EXPECT_EQ(count(2, "chat"), 1);
}

TEST_F(ServerChatTest, AHistoryGoesOnlyToWhoIsStillInItsChannel) {
  connect(1, "alice");
  connect(3, "eve");
  auto created = say(1, R"({"type":"create_match","players":2})");
  const auto m = parse(created.at(0))["match"].GetInt64();
  say(1, R"({"type":"chat","text":"players only"})");
  // eve starts watching, and leaves before the history is read: she gets none.
  server.on_line(3, R"({"type":"spectate","match":)" + std::to_string(m) + "}");
  ASSERT_EQ(store.chat_reads.size(), 1u);
  EXPECT_EQ(store.chat_reads.front().first.channel, store::ChatChannel::Spectators);
  server.on_line(3, R"({"type":"leave_match"})");
  store.complete_all();
  EXPECT_EQ(count(3, "chat_history"), 0);
  // Watching again: the spectators' history, which does not hold the players' message.
  auto watched = say(3, R"({"type":"spectate","match":)" + std::to_string(m) + "}");
  ASSERT_EQ(type_of(watched.back()), "chat_history");
  EXPECT_EQ(parse(watched.back())["messages"].Size(), 0u);
  EXPECT_STREQ(parse(watched.back())["channel"].GetString(), "spectators");
}

// 1,000 matches starting at once filled the reader's queue: each history read refused as
// Busy reached its player as a STORE_FAILURE error (bench/load.sh a: 240-436 unexpected
// errors). A busy reader is not the player's failure: no error, and the next tick asks again.
TEST_F(ServerChatTest, AHistoryTheBusyReaderRefusedIsAskedAgainWithoutAnError) {
  connect(1, "alice");
  server.on_line(1, R"({"type":"create_match","players":2})");
  store.complete_writes();  // the match is created; its chat's read waits
  ASSERT_EQ(store.chat_reads.size(), 1u);
  auto [query, done] = std::move(store.chat_reads.front());
  store.chat_reads.pop_front();
  done(std::unexpected(store::StoreError{store::StoreCode::Busy, "64 reads are waiting already", -1}));
  EXPECT_EQ(count(1, "error"), 0);
  EXPECT_EQ(count(1, "chat_history"), 0);
  server.tick();
  ASSERT_EQ(store.chat_reads.size(), 1u);
  store.complete_all();
  EXPECT_EQ(count(1, "chat_history"), 1);
  EXPECT_EQ(count(1, "error"), 0);
}

}  // namespace
}  // namespace eryantis::server
