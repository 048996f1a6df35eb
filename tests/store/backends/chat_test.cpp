// A match's chat in the store (chat.hpp), on both backends: messages stored in
// one transaction with increasing ids, read back per channel (newest `limit`,
// oldest first), an operator's delete that hides a message from every later read
// but keeps it for the record, a restart that keeps everything, read-only opens
// that refuse writes, and the text kept byte for byte (markup and all).
#include "backend_fixture.hpp"
#include "eryantis/store/chat.hpp"

namespace eryantis::store::testing {
namespace {

constexpr rules::MatchOptions kTwoPlayers{2, rules::Mode::Simple};

class ChatStoreTest : public BackendTest {
 protected:
  MatchId new_match(EventStore& store) {
    return store.create_match(NewMatch{test::handle(kTwoPlayers), MatchStatus::Running}).value();
  }
  static NewChatMessage message(MatchId match, ChatChannel channel, std::string sender,
                                std::int64_t at, std::string text) {
    return NewChatMessage{match, channel, std::move(sender), at, std::move(text)};
  }
  static std::vector<std::string> texts(const std::vector<ChatMessage>& messages) {
    std::vector<std::string> out;
    for (const ChatMessage& m : messages) out.push_back(m.text);
    return out;
  }
};

using Texts = std::vector<std::string>;

TEST_P(ChatStoreTest, MessagesReadBackPerChannelInOrderWithTheirIds) {
  auto store = open();
  ASSERT_TRUE(store);
  const MatchId match = new_match(*store);
  const MatchId other = new_match(*store);
  const std::vector<NewChatMessage> batch = {
      message(match, ChatChannel::Players, "ada", 1000, "hello"),
      message(match, ChatChannel::Spectators, "eve", 1001, "<img src=x onerror=alert(1)>"),
      message(999, ChatChannel::Players, "bob", 1002, "to no match"),
      message(match, ChatChannel::Players, "bob", 1003, "héllo ✓ 🎲"),
      message(other, ChatChannel::Players, "cy", 1004, "elsewhere"),
  };
  auto ids = store->append_chat(batch);
  ASSERT_TRUE(ids) << ids.error().message;
  ASSERT_EQ(ids->size(), 5u);
  ASSERT_TRUE((*ids)[0] && (*ids)[1] && (*ids)[3] && (*ids)[4]);
  EXPECT_LT(*(*ids)[0], *(*ids)[1]);
  EXPECT_LT(*(*ids)[1], *(*ids)[3]);
  ASSERT_FALSE((*ids)[2]) << "a message to no match was stored";
  EXPECT_EQ((*ids)[2].error().code, StoreCode::NotFound);

  auto players = store->chat_messages({match, ChatChannel::Players}).value();
  ASSERT_EQ(players.size(), 2u);
  EXPECT_EQ(players[0],
            (ChatMessage{*(*ids)[0], match, ChatChannel::Players, "ada", 1000, "hello", {}, ""}));
  EXPECT_EQ(players[1].text, "héllo ✓ 🎲");
  EXPECT_EQ(players[1].sender_name, "bob");
  EXPECT_EQ(texts(store->chat_messages({match, ChatChannel::Spectators}).value()),
            Texts{"<img src=x onerror=alert(1)>"});
  EXPECT_EQ(texts(store->chat_messages({match, std::nullopt}).value()),
            (Texts{"hello", "<img src=x onerror=alert(1)>", "héllo ✓ 🎲"}));
  // The newest `limit`, oldest first.
  EXPECT_EQ(texts(store->chat_messages({match, std::nullopt, false, 2}).value()),
            (Texts{"<img src=x onerror=alert(1)>", "héllo ✓ 🎲"}));
  EXPECT_TRUE(store->chat_messages({12345, std::nullopt}).value().empty());
  EXPECT_TRUE(store->append_chat({}).value().empty());
}

TEST_P(ChatStoreTest, ADeletedMessageIsHiddenFromReadsButKeptForTheRecord) {
  auto store = open();
  ASSERT_TRUE(store);
  const MatchId match = new_match(*store);
  const std::vector<NewChatMessage> batch = {
      message(match, ChatChannel::Players, "ada", 1000, "first"),
      message(match, ChatChannel::Players, "bob", 1001, "rude"),
      message(match, ChatChannel::Players, "ada", 1002, "third"),
  };
  auto ids = store->append_chat(batch).value();
  const ChatMessageId rude = *ids[1];
  auto deleted = store->delete_chat(rude, "operator", 5000);
  ASSERT_TRUE(deleted) << deleted.error().message;
  EXPECT_EQ(deleted->text, "rude");
  EXPECT_EQ(deleted->deleted_ms, 5000);
  EXPECT_EQ(deleted->deleted_by, "operator");
  EXPECT_EQ(texts(store->chat_messages({match, ChatChannel::Players}).value()),
            (Texts{"first", "third"}));
  auto all = store->chat_messages({match, ChatChannel::Players, true}).value();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[1].deleted_ms, 5000);
  EXPECT_FALSE(all[0].deleted_ms);
  // Deleting again keeps the first deletion.
  auto again = store->delete_chat(rude, "someone else", 9000);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->deleted_ms, 5000);
  EXPECT_EQ(again->deleted_by, "operator");
  auto unknown = store->delete_chat(rude + 100, "operator", 5000);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, StoreCode::NotFound);
  // The limit counts what is returned: the newest visible ones.
  EXPECT_EQ(texts(store->chat_messages({match, ChatChannel::Players, false, 1}).value()),
            Texts{"third"});
}

TEST_P(ChatStoreTest, MessagesSurviveReopeningAndReadOnlyOpensRefuseWrites) {
  MatchId match = 0;
  ChatMessageId id = 0;
  {
    auto store = open();
    ASSERT_TRUE(store);
    match = new_match(*store);
    const std::vector<NewChatMessage> one = {
        message(match, ChatChannel::Spectators, "eve", 1000, "kept")};
    id = *store->append_chat(one).value()[0];
  }
  Options read_only;
  read_only.read_only = true;
  auto reader = open(read_only);
  ASSERT_TRUE(reader);
  auto kept = reader->chat_messages({match, ChatChannel::Spectators}).value();
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].id, id);
  EXPECT_EQ(kept[0].text, "kept");
  const std::vector<NewChatMessage> more = {
      message(match, ChatChannel::Spectators, "eve", 1001, "more")};
  auto refused = reader->append_chat(more);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, StoreCode::ReadOnly);
  auto not_deleted = reader->delete_chat(id, "operator", 2000);
  ASSERT_FALSE(not_deleted);
  EXPECT_EQ(not_deleted.error().code, StoreCode::ReadOnly);
}

// The table's CHECKs stand behind the server's rules: an empty text, an unknown
// channel or a deletion without its author are refused by the database itself.
TEST_P(ChatStoreTest, TheTableRefusesRowsTheServerWouldNeverWrite) {
  auto store = open();
  ASSERT_TRUE(store);
  const MatchId match = new_match(*store);
  const std::vector<NewChatMessage> empty = {message(match, ChatChannel::Players, "ada", 1, "")};
  EXPECT_FALSE(store->append_chat(empty));
  const std::vector<NewChatMessage> huge = {
      message(match, ChatChannel::Players, "ada", 1, std::string(kMaxChatChars + 1, 'x'))};
  EXPECT_FALSE(store->append_chat(huge));
  const std::vector<NewChatMessage> longest = {
      message(match, ChatChannel::Players, "ada", 1, std::string(kMaxChatChars, 'x'))};
  EXPECT_TRUE(store->append_chat(longest));
  EXPECT_EQ(store->chat_messages({match, std::nullopt}).value().size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Backends, ChatStoreTest,
                         ::testing::Values(Backend::Sqlite, Backend::Postgresql),
                         backend_test_name);

}  // namespace
}  // namespace eryantis::store::testing
