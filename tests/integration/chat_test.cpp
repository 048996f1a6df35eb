// Each match's two chats against the real server and its SQLite file (docs/protocol.md,
// "chat"): a message reaches its channel and never the other one, is stored before
// anyone sees it (readable in sqlite3), every refusal has its code, a sender is
// rate-limited, and who joins, resumes or watches later — after a restart too —
// gets the channel's history, without the messages an operator deleted.
#include <gtest/gtest.h>

#include <fstream>

#include "fixture.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;

constexpr std::string_view kInjection = "<img src=x onerror=alert(1)>";

class ChatTest : public ServerFixture {
 protected:
  // The test's configuration plus a [chat] section.
  void start_with_chat(const std::string& chat_section) {
    const std::string path = write_config(dir_, "eryantis.toml", db_, TestConfig{});
    std::ofstream(path, std::ios::app) << "\n[chat]\n" << chat_section << "\n";
    start_with(path);
  }

  std::unique_ptr<Client> logged_in(const std::string& nickname, std::string* token = nullptr) {
    auto c = Client::connect(port(), nickname);
    if (!c || !c->hello()) return nullptr;
    auto in = c->login(nickname);
    if (!in || in->type != "logged_in") return nullptr;
    if (token) *token = in->str("token");
    return c;
  }

  static std::string code_of(const std::optional<Message>& reply) {
    if (!reply) return "(no reply)";
    return reply->type == "error" ? reply->str("code") : reply->type;
  }

  // Sends a chat line and returns the reply (chat_sent or error).
  static std::optional<Message> say(Client& c, std::string_view text) {
    return c.request(R"("type":"chat","text":)" + quote(text));
  }

  // The `chat` pushes in the inbox (after pumping briefly), removed from it.
  static std::vector<Message> chat_pushes(Client& c, Millis wait = 300ms) {
    c.pump(wait);
    std::vector<Message> out;
    for (auto it = c.inbox().begin(); it != c.inbox().end();) {
      if (it->type == "chat") {
        out.push_back(*it);
        it = c.inbox().erase(it);
      } else {
        ++it;
      }
    }
    return out;
  }

  // The texts of a chat_history message's messages, in order.
  static std::vector<std::string> history_texts(const Message& m) {
    std::vector<std::string> out;
    const rapidjson::Value* messages = m.get("messages");
    if (!messages || !messages->IsArray()) return out;
    for (const auto& each : messages->GetArray()) out.emplace_back(each["text"].GetString());
    return out;
  }
};

using Texts = std::vector<std::string>;

TEST_F(ChatTest, PlayersAndSpectatorsEachHearOnlyTheirOwnChannel) {
  start_with_chat("");
  auto alice = logged_in("alice");
  auto bob = logged_in("bob");
  auto eve = logged_in("eve");
  auto fred = logged_in("fred");
  ASSERT_TRUE(alice && bob && eve && fred);
  auto created = alice->create(2, "simple");
  ASSERT_TRUE(created && created->type == "joined") << (created ? created->line : "");
  const std::int64_t match = created->i64("match");
  ASSERT_EQ(code_of(bob->join(match)), "joined");
  ASSERT_EQ(code_of(eve->spectate(match)), "spectating");
  ASSERT_EQ(code_of(fred->spectate(match)), "spectating");
  for (Client* c : {alice.get(), bob.get(), eve.get(), fred.get()}) {
    ASSERT_TRUE(c->wait_type("chat_history", 5s)) << c->name() << " got no chat_history";
    c->pump(200ms);
    c->inbox().clear();
  }

  auto sent = say(*alice, "good luck, bob");
  ASSERT_TRUE(sent && sent->type == "chat_sent") << (sent ? sent->line : "no reply");
  EXPECT_EQ(sent->i64("match"), match);
  EXPECT_EQ(sent->str("channel"), "players");
  EXPECT_GT(sent->i64("message"), 0);
  EXPECT_EQ(sent->str("from"), "alice");
  EXPECT_EQ(sent->str("text"), "good luck, bob");
  for (Client* c : {alice.get(), bob.get()}) {
    auto pushes = chat_pushes(*c);
    ASSERT_EQ(pushes.size(), 1u) << c->name();
    EXPECT_EQ(pushes[0].str("channel"), "players");
    EXPECT_EQ(pushes[0].i64("message"), sent->i64("message"));
    EXPECT_EQ(pushes[0].str("from"), "alice");
    EXPECT_EQ(pushes[0].i64("time"), sent->i64("time"));
    EXPECT_EQ(pushes[0].str("text"), "good luck, bob");
  }
  for (Client* c : {eve.get(), fred.get()})
    EXPECT_TRUE(chat_pushes(*c).empty()) << c->name() << " read the players' chat";

  // Markup is text: stored and sent as these very characters.
  auto spoken = say(*eve, kInjection);
  ASSERT_TRUE(spoken && spoken->type == "chat_sent") << (spoken ? spoken->line : "no reply");
  EXPECT_EQ(spoken->str("channel"), "spectators");
  for (Client* c : {eve.get(), fred.get()}) {
    auto pushes = chat_pushes(*c);
    ASSERT_EQ(pushes.size(), 1u) << c->name();
    EXPECT_EQ(pushes[0].str("text"), kInjection);
    EXPECT_EQ(pushes[0].str("channel"), "spectators");
  }
  for (Client* c : {alice.get(), bob.get()})
    EXPECT_TRUE(chat_pushes(*c).empty()) << c->name() << " read the spectators' chat";

  // Stored before anyone saw it, readable with sqlite3.
  EXPECT_EQ(sql_text("SELECT sender || ' ' || channel || ' ' || text FROM chat WHERE match_id = " +
                     std::to_string(match) + " ORDER BY id LIMIT 1"),
            "alice players good luck, bob");
  EXPECT_EQ(sql_text("SELECT text FROM chat_messages WHERE channel = 'spectators'"), kInjection);
  EXPECT_EQ(sql_text("SELECT count(*) FROM chat_messages"), "2");
}

TEST_F(ChatTest, EveryRefusalHasItsCodeAndStoresNothing) {
  start_with_chat("max_chars = 20\ncontrols = \"refuse\"");
  auto alice = logged_in("alice");
  auto bob = logged_in("bob");
  ASSERT_TRUE(alice && bob);
  EXPECT_EQ(code_of(say(*alice, "hello")), "NOT_IN_MATCH");  // in the lobby
  auto created = alice->create(2, "simple");
  ASSERT_TRUE(created && created->type == "joined");
  const std::int64_t match = created->i64("match");

  EXPECT_EQ(code_of(say(*alice, "   ")), "CHAT_EMPTY");
  EXPECT_EQ(code_of(say(*alice, std::string(21, 'x'))), "CHAT_TOO_LONG");
  EXPECT_EQ(code_of(say(*alice, std::string(20, 'x'))), "chat_sent");   // the cap itself
  EXPECT_EQ(code_of(say(*alice, "ééééééééééééééééééé✓")), "chat_sent");  // characters, not bytes
  EXPECT_EQ(code_of(say(*alice, "bell\x07")), "CHAT_CONTROL");
  EXPECT_EQ(code_of(say(*alice, "a\xe2\x80\xae" "b")), "CHAT_CONTROL");  // a bidi override
  // A NUL (escaped: JSON carries it) is not text.
  EXPECT_EQ(code_of(alice->request(R"("type":"chat","text":"a\u0000b")")), "BAD_TEXT");
  // Invalid UTF-8 raw on the wire never reaches the chat: the line is not JSON (no id).
  ASSERT_TRUE(alice->send_line("{\"type\":\"chat\",\"id\":\"u\",\"text\":\"caf\xc3\"}"));
  EXPECT_EQ(code_of(alice->wait_type("error", 5s)), "BAD_JSON");
  EXPECT_EQ(code_of(alice->request(R"("type":"chat")")), "MISSING_FIELD");
  EXPECT_EQ(code_of(alice->request(R"("type":"chat","text":7)")), "INVALID_FIELD");
  EXPECT_EQ(code_of(alice->request(R"("type":"chat","match":)" + std::to_string(match + 1) +
                                   R"(,"text":"hi")")),
            "NOT_IN_MATCH");
  EXPECT_EQ(code_of(alice->request(R"("type":"chat","match":)" + std::to_string(match) +
                                   R"(,"text":"hi")")),
            "chat_sent");
  // A huge line is refused as any other (max_line_bytes), the connection kept.
  ASSERT_TRUE(alice->send_line(R"({"type":"chat","text":")" + std::string(70'000, 'x') + "\"}"));
  EXPECT_EQ(code_of(alice->wait_type("error", 5s)), "LINE_TOO_LONG");
  EXPECT_EQ(code_of(alice->ping()), "pong");
  // A spectator who did not log in may read the spectators' chat, not write to it.
  auto anonymous = Client::connect(port(), "anonymous");
  ASSERT_TRUE(anonymous && anonymous->hello());
  ASSERT_EQ(code_of(anonymous->spectate(match)), "spectating");
  EXPECT_EQ(code_of(say(*anonymous, "hi")), "NOT_LOGGED_IN");
  EXPECT_EQ(sql_text("SELECT count(*) FROM chat_messages"), "3");
}

TEST_F(ChatTest, ASenderIsRateLimitedWithTheWaitAndOthersAreNot) {
  start_with_chat("burst = 3\nevery_ms = 60000");
  auto alice = logged_in("alice");
  auto bob = logged_in("bob");
  ASSERT_TRUE(alice && bob);
  auto created = alice->create(2, "simple");
  ASSERT_TRUE(created && created->type == "joined");
  ASSERT_EQ(code_of(bob->join(created->i64("match"))), "joined");
  // A refused text takes no token.
  EXPECT_EQ(code_of(say(*alice, "")), "CHAT_EMPTY");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(code_of(say(*alice, "spam " + std::to_string(i))), "chat_sent");
  auto limited = say(*alice, "spam 3");
  ASSERT_EQ(code_of(limited), "RATE_LIMITED") << (limited ? limited->line : "");
  EXPECT_GT(limited->i64("retry_after_ms"), 50'000);
  EXPECT_LE(limited->i64("retry_after_ms"), 60'000);
  // Only alice is limited.
  EXPECT_EQ(code_of(say(*bob, "calm down")), "chat_sent");
  // Her game goes on: other requests are not limited by the chat's bucket.
  EXPECT_EQ(code_of(alice->request(R"("type":"sync")")), "state");
  EXPECT_EQ(sql_text("SELECT count(*) FROM chat_messages"), "4");
}

TEST_F(ChatTest, WhoComesLaterGetsTheHistoryAfterARestartTooButNotDeletedMessages) {
  start_with_chat("history = 3");
  std::string alice_token;
  auto alice = logged_in("alice", &alice_token);
  auto bob = logged_in("bob");
  auto eve = logged_in("eve");
  ASSERT_TRUE(alice && bob && eve);
  auto created = alice->create(2, "simple");
  ASSERT_TRUE(created && created->type == "joined");
  const std::int64_t match = created->i64("match");
  auto first = alice->wait_type("chat_history", 5s);
  ASSERT_TRUE(first);
  EXPECT_TRUE(history_texts(*first).empty());
  for (const char* text : {"one", "two", "three", "four"})
    ASSERT_EQ(code_of(say(*alice, text)), "chat_sent");
  ASSERT_EQ(code_of(eve->spectate(match)), "spectating");
  ASSERT_TRUE(eve->wait_type("chat_history", 5s));
  ASSERT_EQ(code_of(say(*eve, "watching")), "chat_sent");

  // Bob joins late: the state, then the players' newest 3 (never the spectators').
  ASSERT_EQ(code_of(bob->join(match)), "joined");
  auto state = bob->wait_for(
      [](const Message& m) { return m.type == "state" || m.type == "chat_history"; }, 5s);
  ASSERT_TRUE(state);
  EXPECT_EQ(state->type, "state") << "the history came before the state";
  auto history = bob->wait_type("chat_history", 5s);
  ASSERT_TRUE(history);
  EXPECT_EQ(history->i64("match"), match);
  EXPECT_EQ(history->str("channel"), "players");
  EXPECT_EQ(history_texts(*history), (Texts{"two", "three", "four"}));
  const rapidjson::Value& one = (*history->get("messages"))[0];
  EXPECT_EQ(std::string(one["from"].GetString()), "alice");
  EXPECT_TRUE(one["message"].IsInt64() && one["time"].IsInt64());
  // A late spectator gets the spectators' history only.
  auto late = Client::connect(port(), "late");
  ASSERT_TRUE(late && late->hello());
  ASSERT_EQ(code_of(late->spectate(match)), "spectating");
  auto watched = late->wait_type("chat_history", 5s);
  ASSERT_TRUE(watched);
  EXPECT_EQ(watched->str("channel"), "spectators");
  EXPECT_EQ(history_texts(*watched), Texts{"watching"});

  // An operator deletes "three" (as eryantis-admin does); the server dies and comes back.
  sql_text("UPDATE chat_messages SET deleted_ms = 1, deleted_by = 'operator' WHERE text = 'three'");
  server_->kill_hard();
  alice.reset();
  bob.reset();
  eve.reset();
  late.reset();
  restart();
  auto back = Client::connect(port(), "alice");
  ASSERT_TRUE(back && back->hello());
  auto resumed = back->login("alice", alice_token);
  ASSERT_TRUE(resumed && resumed->type == "logged_in") << (resumed ? resumed->line : "");
  ASSERT_EQ(resumed->i64("match"), match);
  auto kept = back->wait_type("chat_history", 5s);
  ASSERT_TRUE(kept);
  EXPECT_EQ(history_texts(*kept), (Texts{"one", "two", "four"}));
  ASSERT_EQ(code_of(say(*back, "after the restart")), "chat_sent");
  EXPECT_EQ(sql_text("SELECT count(*) FROM chat_messages WHERE deleted_ms IS NULL"), "5");
}

// eryantis-admin: `chat MATCH` lists both channels (deleted ones marked), `chat-delete`
// marks a message deleted once durable and tells the channel's connections; a resumed
// player's history no longer has it; unknown ids and bad usage are refused (exit 1).
TEST_F(ChatTest, AnOperatorListsAndDeletesAMessage) {
  start_with_chat("");
  std::string bob_token;
  auto alice = logged_in("alice");
  auto bob = logged_in("bob", &bob_token);
  auto eve = logged_in("eve");
  ASSERT_TRUE(alice && bob && eve);
  auto created = alice->create(2, "simple");
  ASSERT_TRUE(created && created->type == "joined");
  const std::int64_t match = created->i64("match");
  ASSERT_EQ(code_of(bob->join(match)), "joined");
  ASSERT_EQ(code_of(eve->spectate(match)), "spectating");
  ASSERT_EQ(code_of(say(*alice, "hello")), "chat_sent");
  auto rude = say(*bob, "something rude");
  ASSERT_EQ(code_of(rude), "chat_sent");
  ASSERT_EQ(code_of(say(*eve, "go alice")), "chat_sent");
  const std::int64_t rude_id = rude->i64("message");

  auto admin = [&](std::vector<std::string> words) {
    std::vector<std::string> argv = {ERYANTIS_ADMIN_BINARY, "--socket", db_ + ".sock"};
    argv.insert(argv.end(), words.begin(), words.end());
    std::string out;
    const int code = run_program(argv, &out, 30s);
    return std::make_pair(code, parse_message(out));
  };
  auto [listed_code, listed] = admin({"chat", std::to_string(match)});
  ASSERT_EQ(listed_code, 0) << listed.line;
  ASSERT_TRUE(listed.get("messages") && listed.get("messages")->IsArray()) << listed.line;
  ASSERT_EQ(listed.get("messages")->Size(), 3u) << listed.line;
  const rapidjson::Value& second = (*listed.get("messages"))[1];
  EXPECT_EQ(second["message"].GetInt64(), rude_id);
  EXPECT_STREQ(second["channel"].GetString(), "players");
  EXPECT_STREQ(second["from"].GetString(), "bob");
  EXPECT_TRUE(second["deleted_ms"].IsNull());

  alice->inbox().clear();
  eve->pump(200ms);
  eve->inbox().clear();
  auto [deleted_code, deleted] = admin({"chat-delete", std::to_string(rude_id), "insults"});
  ASSERT_EQ(deleted_code, 0) << deleted.line;
  EXPECT_EQ(deleted.i64("match"), match);
  EXPECT_EQ(deleted.str("channel"), "players");
  EXPECT_GT(deleted.i64("deleted_ms"), 0);
  // The players connected now are told; the spectators never had it.
  auto told = alice->wait_type("chat_deleted", 5s);
  ASSERT_TRUE(told);
  EXPECT_EQ(told->i64("message"), rude_id);
  EXPECT_EQ(told->str("channel"), "players");
  eve->pump(300ms);
  for (const Message& m : eve->inbox()) EXPECT_NE(m.type, "chat_deleted") << m.line;
  EXPECT_EQ(sql_text("SELECT deleted_by FROM chat WHERE id = " + std::to_string(rude_id)),
            "operator");
  EXPECT_EQ(sql_text("SELECT text FROM chat WHERE id = " + std::to_string(rude_id)),
            "something rude");  // kept for the record

  // Listed as deleted; gone from a resumed player's history.
  auto [again_code, again] = admin({"chat", std::to_string(match)});
  ASSERT_EQ(again_code, 0);
  EXPECT_TRUE((*again.get("messages"))[1]["deleted_ms"].IsInt64()) << again.line;
  bob.reset();
  auto back = Client::connect(port(), "bob");
  ASSERT_TRUE(back && back->hello());
  auto resumed = back->login("bob", bob_token);
  ASSERT_TRUE(resumed && resumed->type == "logged_in") << (resumed ? resumed->line : "");
  auto history = back->wait_type("chat_history", 5s);
  ASSERT_TRUE(history);
  EXPECT_EQ(history_texts(*history), Texts{"hello"});

  EXPECT_EQ(admin({"chat-delete", "999999"}).first, 1);
  EXPECT_EQ(admin({"chat-delete", "x"}).first, 1);
  EXPECT_EQ(admin({"chat"}).first, 1);
  EXPECT_EQ(admin({"chat", std::to_string(match + 100)}).second.get("messages")->Size(), 0u);
}

}  // namespace
}  // namespace eryantis::integration
