// Accounts through the real server and a real SQLite file (docs/accounts.md): a
// player registers over TCP and creates a match; logging in from a second
// connection with the name and password (no resume token) gives the seat back; the
// session secret logs in a third without a password; logout ends it. The operator's
// side with eryantis-admin: `accounts` lists them, `reset-password` prints a code
// the player uses once, `disable` ends the account's sessions.
#include <gtest/gtest.h>

#include <fstream>

#include "fixture.hpp"
#include "support/websocket_client.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;
using test::WsClient;

class AccountsTest : public ServerFixture {
 protected:
  void SetUp() override {
    const std::string path = write_config(dir_, "eryantis.toml", db_, TestConfig{});
    // libsodium's smallest Argon2id: the test checks the wiring, not the cost.
    std::ofstream(path, std::ios::app) << "\n[accounts]\npasses = 1\nmemory_kib = 8\n"
                                       << "\n[web]\nenabled = true\nport = 0\n";
    start_with(path);
    static constexpr std::string_view kListening = "web listening on http://127.0.0.1:";
    const std::string log = server_->log();
    const std::size_t at = log.find(kListening);
    ASSERT_NE(at, std::string::npos) << log;
    web_port_ = std::atoi(log.c_str() + at + kListening.size());
  }
  // A WebSocket connection past hello; the next text holding `part` after sending `line`.
  std::optional<WsClient> websocket() {
    auto c = WsClient::connect(web_port_);
    if (!c) return std::nullopt;
    auto upgraded = c->upgrade();
    if (!upgraded || upgraded->status != 101) return std::nullopt;
    c->send_text(R"({"type":"hello","id":1,"protocol":1})");
    auto welcome = c->read_text();
    if (!welcome || welcome->find("welcome") == std::string::npos) return std::nullopt;
    return c;
  }
  static std::string answer(WsClient& c, const std::string& line) {
    c.send_text(line);
    auto text = c.read_text();
    return text ? *text : "(no answer)";
  }
  int web_port_ = 0;
  std::string admin(std::vector<std::string> words, int* code = nullptr) {
    std::vector<std::string> argv = {ERYANTIS_ADMIN_BINARY, "--socket", db_ + ".sock"};
    argv.insert(argv.end(), words.begin(), words.end());
    std::string out;
    const int exit = run_program(argv, &out, 30s);
    if (code) *code = exit;
    return out.substr(0, out.find('\n'));
  }
  std::unique_ptr<Client> connect(const std::string& name) {
    auto c = Client::connect(port(), name);
    EXPECT_TRUE(c && c->hello());
    return c;
  }
};

TEST_F(AccountsTest, ASeatBelongsToTheAccountOnEveryConnection) {
  auto first = connect("first");
  ASSERT_TRUE(first);
  auto registered = first->request(R"("type":"register","name":"Alice","password":"correct horse")");
  ASSERT_TRUE(registered && registered->type == "logged_in")
      << (registered ? registered->line : "no reply") << server_->log_tail();
  EXPECT_EQ(registered->str("account"), "Alice");
  const std::string secret = registered->str("session");
  ASSERT_EQ(secret.size(), 64u);
  auto created = first->create(2, "simple");
  ASSERT_TRUE(created && created->type == "joined") << (created ? created->line : "");
  const std::int64_t match = created->i64("match");

  // Another device: name (any case) and password, no token: the seat comes back.
  auto second = connect("second");
  auto back = second->request(R"("type":"login","name":"alice","password":"correct horse")");
  ASSERT_TRUE(back && back->type == "logged_in") << (back ? back->line : "no reply");
  EXPECT_EQ(back->str("nickname"), "Alice");
  EXPECT_EQ(back->i64("match"), match);
  EXPECT_EQ(back->i64("seat"), 0);
  // Wrong password and unknown name: one answer.
  auto third = connect("third");
  auto wrong = third->request(R"("type":"login","name":"Alice","password":"battery staple")");
  auto unknown = third->request(R"("type":"login","name":"Zoe","password":"battery staple")");
  ASSERT_TRUE(wrong && unknown);
  EXPECT_EQ(wrong->str("code"), "BAD_LOGIN");
  EXPECT_EQ(unknown->str("code"), "BAD_LOGIN");
  EXPECT_EQ(wrong->str("message"), unknown->str("message"));
  // The session secret: no password needed.
  auto resumed = third->request(R"("type":"login","session":")" + secret + "\"");
  ASSERT_TRUE(resumed && resumed->type == "logged_in") << (resumed ? resumed->line : "no reply");
  EXPECT_EQ(resumed->i64("match"), match);
  // Log out everywhere: the secret stops working, the seat stays the account's.
  auto out = third->request(R"("type":"logout","all":true)");
  ASSERT_TRUE(out && out->type == "logged_out") << (out ? out->line : "no reply");
  auto fourth = connect("fourth");
  auto ended = fourth->request(R"("type":"login","session":")" + secret + "\"");
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->str("code"), "BAD_SESSION");
  // A guest cannot take the name.
  auto guest = fourth->login("ALICE");
  ASSERT_TRUE(guest);
  EXPECT_EQ(guest->str("code"), "NICKNAME_TAKEN");
  // Stored: the account, and no secret in clear.
  EXPECT_EQ(sql_text("SELECT name FROM accounts WHERE name_key = 'alice'"), "Alice");
  EXPECT_EQ(sql_text("SELECT count(*) FROM sessions WHERE token_digest = '" + secret + "'"), "0");
}

// The same messages over WebSocket: register there, the seat comes back over TCP
// with the password, and over WebSocket again with the session.
TEST_F(AccountsTest, TheSameMessagesWorkOverWebSocket) {
  auto web = websocket();
  ASSERT_TRUE(web);
  const std::string registered =
      answer(*web, R"({"type":"register","id":2,"name":"Carol","password":"correct horse"})");
  const Message reply = parse_message(registered);
  ASSERT_EQ(reply.type, "logged_in") << registered;
  const std::string secret = reply.str("session");
  web->send_text(R"({"type":"create_match","id":3,"players":2})");
  std::int64_t match = 0;
  for (int i = 0; i < 10 && match == 0; ++i) {
    auto text = web->read_text();
    ASSERT_TRUE(text);
    const Message m = parse_message(*text);
    if (m.type == "joined") match = m.i64("match");
  }
  ASSERT_GT(match, 0);
  auto tcp = connect("tcp");
  auto back = tcp->request(R"("type":"login","name":"carol","password":"correct horse")");
  ASSERT_TRUE(back && back->type == "logged_in") << (back ? back->line : "no reply");
  EXPECT_EQ(back->i64("match"), match);
  auto again = websocket();
  ASSERT_TRUE(again);
  const Message resumed =
      parse_message(answer(*again, R"({"type":"login","id":2,"session":")" + secret + "\"}"));
  EXPECT_EQ(resumed.type, "logged_in") << resumed.line;
  EXPECT_EQ(resumed.i64("match"), match);
}

TEST_F(AccountsTest, TheOperatorListsResetsAndDisablesAccounts) {
  auto player = connect("player");
  auto registered = player->request(R"("type":"register","name":"Bob","password":"correct horse")");
  ASSERT_TRUE(registered && registered->type == "logged_in");
  int exit = -1;
  const std::string listed = admin({"accounts"}, &exit);
  EXPECT_EQ(exit, 0) << listed;
  EXPECT_NE(listed.find(R"("name":"Bob")"), std::string::npos) << listed;
  EXPECT_EQ(listed.find("argon2"), std::string::npos) << "never a hash";

  const Message reset = parse_message(admin({"reset-password", "bob"}, &exit));
  ASSERT_EQ(exit, 0) << reset.line;
  const std::string code = reset.str("code");
  ASSERT_EQ(code.size(), 64u) << reset.line;
  auto other = connect("other");
  const std::string use = R"("type":"reset_password","name":"Bob","code":")" + code +
                          R"(","password":"new password")";
  auto done = other->request(use);
  ASSERT_TRUE(done && done->type == "password_reset") << (done ? done->line : "no reply");
  auto again = other->request(use);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->str("code"), "BAD_RESET_CODE");
  auto with_new = other->request(R"("type":"login","name":"Bob","password":"new password")");
  ASSERT_TRUE(with_new && with_new->type == "logged_in") << (with_new ? with_new->line : "");

  const std::string disabled = admin({"disable", "Bob"}, &exit);
  EXPECT_EQ(exit, 0) << disabled;
  EXPECT_NE(disabled.find(R"("disabled":true)"), std::string::npos) << disabled;
  EXPECT_TRUE(other->wait_closed(5000ms)) << "its connection ends";
  auto late = connect("late");
  auto refused = late->request(R"("type":"login","name":"Bob","password":"new password")");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->str("code"), "ACCOUNT_DISABLED");
  admin({"disable", "nobody"}, &exit);
  EXPECT_EQ(exit, 1);
}

}  // namespace
}  // namespace eryantis::integration
