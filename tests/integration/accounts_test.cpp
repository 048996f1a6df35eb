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
  // The seat records its account (schema 14): the key its rating is kept under.
  EXPECT_EQ(sql_text("SELECT s.account_id = a.id FROM seats s JOIN accounts a "
                     "ON a.name_key = 'alice' WHERE s.match_id = " + std::to_string(match) +
                     " AND s.seat = 0"),
            "1");
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

// The web page's cookie (docs/accounts.md, "The web page's cookie"): a login with
// "cookie":true answers a one-time ticket, never the secret; POST /account/session
// turns it into an HttpOnly, SameSite=Strict cookie (not from another site's page);
// a WebSocket upgrade carrying the cookie is logged in, its seat back; logout ends
// the session and POST /account/logout clears the cookie, which then logs in nobody.
TEST_F(AccountsTest, TheWebPageKeepsItsSessionInAnHttpOnlyCookie) {
  auto web = websocket();
  ASSERT_TRUE(web);
  const Message registered = parse_message(answer(
      *web, R"({"type":"register","id":2,"name":"Dora","password":"correct horse","cookie":true})"));
  ASSERT_EQ(registered.type, "logged_in") << registered.line;
  EXPECT_FALSE(registered.has("session")) << registered.line;
  const std::string ticket = registered.str("ticket");
  ASSERT_EQ(ticket.size(), 64u) << registered.line;
  web->send_text(R"({"type":"create_match","id":3,"players":2})");
  std::int64_t match = 0;
  for (int i = 0; i < 10 && match == 0; ++i) {
    auto text = web->read_text();
    ASSERT_TRUE(text);
    const Message m = parse_message(*text);
    if (m.type == "joined") match = m.i64("match");
  }
  ASSERT_GT(match, 0);

  const std::string host = "127.0.0.1:" + std::to_string(web_port_);
  auto post = [&](std::string_view path, std::string_view origin, std::string_view type,
                  std::string_view body, std::string_view cookie = {}) -> test::HttpReply {
    auto c = WsClient::connect(web_port_);
    if (!c) return {};
    std::string request = "POST ";
    request.append(path).append(" HTTP/1.1\r\nHost: ").append(host).append("\r\n");
    if (!origin.empty()) request.append("Origin: ").append(origin).append("\r\n");
    if (!type.empty()) request.append("Content-Type: ").append(type).append("\r\n");
    if (!cookie.empty()) request.append("Cookie: ").append(cookie).append("\r\n");
    request.append("Content-Length: ").append(std::to_string(body.size())).append("\r\n");
    request.append("Connection: close\r\n\r\n").append(body);
    if (!c->send_all(request)) return {};
    auto reply = c->read_reply();
    return reply ? *reply : test::HttpReply{};
  };
  const std::string own = "http://" + host;
  const std::string body = R"({"ticket":")" + ticket + "\"}";
  // Refusals, each before the ticket is taken.
  test::HttpReply refused = post("/account/session", "http://evil.example", "application/json", body);
  EXPECT_EQ(refused.status, 403);
  EXPECT_NE(refused.body.find("BAD_ORIGIN"), std::string::npos) << refused.body;
  EXPECT_EQ(refused.header("set-cookie"), nullptr);
  refused = post("/account/session", own, "text/plain", body);
  EXPECT_EQ(refused.status, 415);
  EXPECT_NE(refused.body.find("BAD_CONTENT_TYPE"), std::string::npos) << refused.body;
  refused = post("/account/session", own, "application/json", std::string(2000, ' '));
  EXPECT_EQ(refused.status, 413);
  EXPECT_NE(refused.body.find("TOO_LARGE"), std::string::npos) << refused.body;
  refused = post("/account/session", own, "application/json", "{\"ticket\":");
  EXPECT_EQ(refused.status, 400);
  EXPECT_NE(refused.body.find("BAD_JSON"), std::string::npos) << refused.body;
  // The cookie.
  const test::HttpReply granted = post("/account/session", own, "application/json", body);
  ASSERT_EQ(granted.status, 200) << granted.body;
  EXPECT_NE(granted.body.find(R"("name":"Dora")"), std::string::npos) << granted.body;
  const std::string* set = granted.header("set-cookie");
  ASSERT_NE(set, nullptr);
  EXPECT_TRUE(set->starts_with("eryantis_session=")) << *set;
  EXPECT_NE(set->find("; HttpOnly"), std::string::npos) << *set;
  EXPECT_NE(set->find("; SameSite=Strict"), std::string::npos) << *set;
  EXPECT_NE(set->find("; Path=/"), std::string::npos) << *set;
  // Until the session expires: 30 days (session_days), less the time since it was drawn.
  const std::size_t age = set->find("; Max-Age=");
  ASSERT_NE(age, std::string::npos) << *set;
  const long max_age = std::atol(set->c_str() + age + 10);
  EXPECT_LE(max_age, 30L * 24 * 3600) << *set;
  EXPECT_GT(max_age, 30L * 24 * 3600 - 60) << *set;
  EXPECT_EQ(set->find("Secure"), std::string::npos) << *set;  // [web] secure_cookie = false
  const std::string cookie = set->substr(0, set->find(';'));
  EXPECT_EQ(cookie.size(), std::string("eryantis_session=").size() + 64);
  // A ticket works once.
  refused = post("/account/session", own, "application/json", body);
  EXPECT_EQ(refused.status, 401);
  EXPECT_NE(refused.body.find("BAD_TICKET"), std::string::npos) << refused.body;

  // A reload: the upgrade carries the cookie; the welcome says so and the login follows.
  auto upgrade_with = [&](const std::string& with) -> std::optional<WsClient> {
    auto c = WsClient::connect(web_port_);
    if (!c) return std::nullopt;
    // (WsClient's upgrade names Host 127.0.0.1, without the port.)
    auto upgraded =
        c->upgrade("/ws", "Origin: http://127.0.0.1\r\nCookie: theme=dark; " + with + "\r\n");
    if (!upgraded || upgraded->status != 101) return std::nullopt;
    c->send_text(R"({"type":"hello","id":1,"protocol":1})");
    return c;
  };
  auto reload = upgrade_with(cookie);
  ASSERT_TRUE(reload);
  const Message welcome = parse_message(reload->read_text().value_or(""));
  ASSERT_EQ(welcome.type, "welcome") << welcome.line;
  EXPECT_EQ(welcome.json("cookie"), "true") << welcome.line;
  const Message back = parse_message(reload->read_text().value_or(""));
  ASSERT_EQ(back.type, "logged_in") << back.line << server_->log_tail();
  EXPECT_EQ(back.id, "cookie");
  EXPECT_EQ(back.str("account"), "Dora");
  EXPECT_EQ(back.i64("match"), match);
  EXPECT_FALSE(back.has("session"));
  EXPECT_FALSE(back.has("ticket"));
  // A wrong password is BAD_LOGIN, cookie or not.
  auto other = websocket();
  ASSERT_TRUE(other);
  const Message wrong = parse_message(answer(
      *other, R"({"type":"login","id":2,"name":"Dora","password":"battery staple","cookie":true})"));
  EXPECT_EQ(wrong.str("code"), "BAD_LOGIN") << wrong.line;

  // Logging out: the WebSocket's logout ends this session, the route clears the cookie.
  reload->send_text(R"({"type":"logout","id":5})");
  Message out;
  for (int i = 0; i < 20 && out.id != "5"; ++i)  // the seat's pushes come first
    out = parse_message(reload->read_text().value_or(""));
  ASSERT_EQ(out.type, "logged_out") << out.line;
  EXPECT_EQ(out.i64("ended"), 1);
  refused = post("/account/logout", "http://evil.example", "application/json", "{}", cookie);
  EXPECT_EQ(refused.status, 403);
  const test::HttpReply cleared = post("/account/logout", own, "application/json", "{}", cookie);
  ASSERT_EQ(cleared.status, 200) << cleared.body;
  const std::string* clear = cleared.header("set-cookie");
  ASSERT_NE(clear, nullptr);
  EXPECT_TRUE(clear->starts_with("eryantis_session=;")) << *clear;
  EXPECT_NE(clear->find("; Max-Age=0"), std::string::npos) << *clear;
  EXPECT_NE(clear->find("; HttpOnly"), std::string::npos) << *clear;
  // The old cookie logs in nobody: the welcome says a cookie came, its login fails.
  auto stale = upgrade_with(cookie);
  ASSERT_TRUE(stale);
  const Message again = parse_message(stale->read_text().value_or(""));
  ASSERT_EQ(again.type, "welcome") << again.line;
  const Message ended = parse_message(stale->read_text().value_or(""));
  EXPECT_EQ(ended.id, "cookie");
  EXPECT_EQ(ended.str("code"), "BAD_SESSION") << ended.line;
  // The page may then play as a guest on that connection.
  const Message guest = parse_message(answer(*stale, R"({"type":"login","id":6,"nickname":"visitor"})"));
  EXPECT_EQ(guest.type, "logged_in") << guest.line;
  // The routes answer only POST.
  auto c = WsClient::connect(web_port_);
  ASSERT_TRUE(c);
  auto got = c->get("/account/session");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->status, 405);
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
