// Accounts driven through the server (fakes.hpp, fake_accounts.hpp) with a real
// password pool at libsodium's smallest parameters: register and login answered
// with a session, a seat that belongs to the account on every connection, and every
// refusal with its code. The pool's threads are waited for by a bounded loop on a
// condition variable, never by a sleep.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "eryantis/accounts/session_secret.hpp"
#include "fake_accounts.hpp"
#include "fake_secret_source.hpp"
#include "fakes.hpp"

namespace eryantis::server {
namespace {

ServerConfig accounts_config(bool guests = true) {
  ServerConfig c = test_server_config();
  c.accounts.guests = guests;
  c.accounts.pool.params = accounts::min_password_params();
  c.accounts.pool.threads = 1;
  c.accounts.pool.capacity = 1;
  return c;
}

class ServerAccountsTest : public ::testing::Test {
 protected:
  explicit ServerAccountsTest(ServerConfig config = accounts_config())
      : pool(config.accounts.pool,
             [this] {
               std::unique_lock lock(mutex);
               ++woken;
               woke.notify_all();
               // A test may hold the worker here (its wake-up), to fill the queue.
               woke.wait(lock, [this] { return !hold; });
             }),
        server(config, transport, store, [this] { return now; }, secrets) {
    server.set_accounts(&accounts, &pool);
  }
  ~ServerAccountsTest() override { release(); }

  void release() {
    std::lock_guard lock(mutex);
    hold = false;
    woke.notify_all();
  }

  // Sends `line` and runs everything it causes (the pool's work too) until `c` was
  // answered; the lines `c` got meanwhile.
  std::vector<std::string> say(ConnectionId c, const std::string& line) {
    const std::size_t before = transport.sent[c].size();
    server.on_line(c, line);
    for (int round = 0; round < 1000 && transport.sent[c].size() == before; ++round) {
      bool any = accounts.complete();
      store.complete_all();
      server.password_work_done();
      if (transport.sent[c].size() != before || any) continue;
      std::unique_lock lock(mutex);
      woke.wait_for(lock, std::chrono::milliseconds(10));
    }
    accounts.complete();
    store.complete_all();
    return {transport.sent[c].begin() + static_cast<long>(before), transport.sent[c].end()};
  }
  void open(ConnectionId c, const std::string& peer = "127.0.0.1:1") {
    server.on_open(c, peer);
    ASSERT_EQ(type_of(say(c, R"({"type":"hello","protocol":1})").at(0)), "welcome");
  }
  // The first line's error code ("" when it is not an error).
  static std::string code(const std::vector<std::string>& lines) {
    if (lines.empty()) return "(nothing)";
    auto d = parse(lines[0]);
    return d.HasMember("code") ? d["code"].GetString() : "";
  }
  static std::string message(const std::vector<std::string>& lines) {
    auto d = parse(lines.at(0));
    return d.HasMember("message") ? d["message"].GetString() : "";
  }
  std::vector<std::string> register_as(ConnectionId c, const std::string& name,
                                       const std::string& password = "correct horse") {
    return say(c, R"({"type":"register","name":")" + name + R"(","password":")" + password +
                      "\"}");
  }
  std::vector<std::string> login_as(ConnectionId c, const std::string& name,
                                    const std::string& password = "correct horse") {
    return say(c, R"({"type":"login","name":")" + name + R"(","password":")" + password + "\"}");
  }

  FakeTransport transport;
  FakePersistence store;
  FakeAccounts accounts;
  FakeSecretSource secrets;
  std::int64_t now = 1'000'000;
  std::mutex mutex;
  std::condition_variable woke;
  int woken = 0;
  bool hold = false;
  accounts::PasswordPool pool;
  Server server;
};

TEST_F(ServerAccountsTest, RegisterLogsInWithASessionWhoseDigestAloneIsStored) {
  open(1);
  auto lines = register_as(1, "Alice");
  ASSERT_EQ(type_of(lines.at(0)), "logged_in") << lines.at(0);
  auto reply = parse(lines[0]);
  EXPECT_STREQ(reply["nickname"].GetString(), "Alice");
  EXPECT_STREQ(reply["account"].GetString(), "Alice");
  const std::string secret = reply["session"].GetString();
  EXPECT_TRUE(accounts::secret_shaped(secret));
  ASSERT_EQ(accounts.accounts.size(), 1u);
  EXPECT_EQ(accounts.accounts.begin()->first, "alice");
  EXPECT_TRUE(accounts.accounts.begin()->second.password_hash.starts_with("$argon2id$"));
  ASSERT_EQ(accounts.sessions.size(), 1u);
  EXPECT_EQ(accounts.sessions.begin()->first, accounts::secret_digest(secret));
  EXPECT_EQ(transport.sent[1].back().find("correct horse"), std::string::npos);
}

// The web page's cookie (docs/accounts.md): a "cookie":true login answers a ticket, not
// the secret; the ticket gives the secret once, and not after 60 s; a cookie that came
// with the upgrade logs in only after hello (welcome says so, id "cookie", no secret).
TEST_F(ServerAccountsTest, ACookieLoginAnswersATicketRedeemedOnceAndTheCookieLogsInAfterHello) {
  open(1);
  auto lines = say(1, R"({"type":"register","id":2,"name":"Alice","password":"correct horse","cookie":true})");
  ASSERT_EQ(type_of(lines.at(0)), "logged_in") << lines.at(0);
  auto reply = parse(lines[0]);
  EXPECT_FALSE(reply.HasMember("session"));
  const std::string ticket = reply["ticket"].GetString();
  auto grant = server.redeem_cookie_ticket(ticket);
  ASSERT_TRUE(grant);
  EXPECT_EQ(grant->name, "Alice");
  EXPECT_EQ(grant->max_age_s, 30LL * 24 * 3600);
  ASSERT_EQ(accounts.sessions.size(), 1u);
  EXPECT_EQ(accounts.sessions.begin()->first, accounts::secret_digest(grant->secret));
  EXPECT_FALSE(server.redeem_cookie_ticket(ticket)) << "a ticket works once";
  EXPECT_FALSE(server.redeem_cookie_ticket("")) << "nor does an empty one";
  // A ticket not taken within a minute is gone.
  open(2, "10.0.0.2:1");
  auto late = say(2, R"({"type":"login","name":"alice","password":"correct horse","cookie":true})");
  ASSERT_EQ(type_of(late.at(0)), "logged_in") << late.at(0);
  now += Server::kCookieTicketMs;
  EXPECT_FALSE(server.redeem_cookie_ticket(parse(late[0])["ticket"].GetString()));

  // An upgrade with the cookie: nothing before hello, then welcome and the login.
  server.on_open(3, "10.0.0.3:1");
  server.on_session_cookie(3, grant->secret);
  accounts.complete();
  EXPECT_TRUE(transport.sent[3].empty());
  auto hello = say(3, R"({"type":"hello","id":1,"protocol":1})");
  for (int i = 0; i < 10 && hello.size() < 2; ++i) {
    accounts.complete();
    store.complete_all();
    hello.assign(transport.sent[3].begin(), transport.sent[3].end());
  }
  ASSERT_GE(hello.size(), 2u);
  EXPECT_EQ(type_of(hello[0]), "welcome");
  EXPECT_TRUE(parse(hello[0])["cookie"].GetBool());
  auto in = parse(hello[1]);
  EXPECT_STREQ(in["type"].GetString(), "logged_in") << hello[1];
  EXPECT_STREQ(in["id"].GetString(), "cookie");
  EXPECT_STREQ(in["account"].GetString(), "Alice");
  EXPECT_FALSE(in.HasMember("session"));
  EXPECT_FALSE(in.HasMember("ticket"));
  // A cookie that opens nothing: BAD_SESSION with id "cookie"; a welcome without one
  // says nothing of cookies.
  server.on_open(4, "10.0.0.4:1");
  server.on_session_cookie(4, std::string(64, 'f'));
  say(4, R"({"type":"hello","id":1,"protocol":1})");
  for (int i = 0; i < 10 && transport.sent[4].size() < 2; ++i) {
    accounts.complete();
    store.complete_all();
  }
  ASSERT_GE(transport.sent[4].size(), 2u);
  EXPECT_EQ(code({transport.sent[4][1]}), "BAD_SESSION") << transport.sent[4][1];
  EXPECT_STREQ(parse(transport.sent[4][1])["id"].GetString(), "cookie");
  open(5, "10.0.0.5:1");
  EXPECT_FALSE(parse(transport.sent[5][0]).HasMember("cookie"));
}

TEST_F(ServerAccountsTest, ALoginFromAnotherConnectionGetsTheSeatBackWithoutAToken) {
  open(1);
  ASSERT_EQ(type_of(register_as(1, "Alice").at(0)), "logged_in");
  auto created = say(1, R"({"type":"create_match","players":2})");
  const auto m = parse(created.at(0))["match"].GetInt64();
  // The seat is written with the account (schema 14: it is the seat's rating key).
  ASSERT_FALSE(store.written.empty());
  ASSERT_FALSE(store.written.back().seats.empty());
  EXPECT_TRUE(store.written.back().seats[0].account_id.has_value());
  EXPECT_EQ(store.written.back().seats[0].account_id, server.room(m)->seats[0]->account_id);
  // Another device: the name (any case) and the password, no resume token.
  open(2, "10.0.0.2:1");
  auto lines = login_as(2, "ALICE");
  ASSERT_EQ(type_of(lines.at(0)), "logged_in") << lines.at(0);
  auto reply = parse(lines[0]);
  EXPECT_STREQ(reply["nickname"].GetString(), "Alice");
  EXPECT_EQ(reply["match"].GetInt64(), m);
  EXPECT_EQ(reply["seat"].GetInt(), 0);
  EXPECT_TRUE(transport.closed.contains(1)) << "the older connection is closed";
  // The session secret logs in a third connection, no password.
  open(3, "10.0.0.3:1");
  auto again = say(3, R"({"type":"login","session":")" +
                          std::string(reply["session"].GetString()) + "\"}");
  ASSERT_EQ(type_of(again.at(0)), "logged_in") << again.at(0);
  EXPECT_EQ(parse(again[0])["match"].GetInt64(), m);
}

TEST_F(ServerAccountsTest, AWrongPasswordAndAnUnknownNameGetTheSameAnswer) {
  open(1);
  ASSERT_EQ(type_of(register_as(1, "Alice").at(0)), "logged_in");
  open(2);
  auto wrong = login_as(2, "Alice", "battery staple");
  auto unknown = login_as(2, "Nobody", "battery staple");
  EXPECT_EQ(code(wrong), "BAD_LOGIN");
  EXPECT_EQ(code(unknown), "BAD_LOGIN");
  EXPECT_EQ(message(wrong), message(unknown));
}

TEST_F(ServerAccountsTest, RegisterRefusesATakenNameAShortPasswordAndABadName) {
  open(1);
  ASSERT_EQ(type_of(register_as(1, "Alice").at(0)), "logged_in");
  open(2);
  EXPECT_EQ(code(register_as(2, "ALICE")), "NAME_TAKEN");
  EXPECT_EQ(code(register_as(2, "Bob", "short")), "PASSWORD_LENGTH");
  EXPECT_EQ(code(register_as(2, "B")), "NAME_LENGTH");
  EXPECT_EQ(code(register_as(2, "bob smith")), "NAME_CHARACTER");
  EXPECT_EQ(code(register_as(2, "admin")), "NAME_RESERVED");
  EXPECT_EQ(accounts.accounts.size(), 1u);
  // A guest playing under a name keeps it from registering.
  open(3);
  ASSERT_EQ(type_of(say(3, R"({"type":"login","nickname":"carol"})").at(0)), "logged_in");
  EXPECT_EQ(code(register_as(2, "Carol")), "NAME_TAKEN");
}

TEST_F(ServerAccountsTest, AGuestNeverTakesAnAccountsName) {
  open(1);
  ASSERT_EQ(type_of(register_as(1, "Alice").at(0)), "logged_in");
  say(1, R"({"type":"logout"})");
  open(2);
  EXPECT_EQ(code(say(2, R"({"type":"login","nickname":"alice"})")), "NICKNAME_TAKEN");
  EXPECT_EQ(type_of(say(2, R"({"type":"login","nickname":"bob"})").at(0)), "logged_in");
}

// A review found that a name was the account's only once its register was stored: a
// guest logging in under it while it was hashed kept the seat. It is reserved from the
// moment the register is accepted until it is stored, or let go if the register stops.
TEST_F(ServerAccountsTest, ANameIsReservedWhileItsRegisterIsHashed) {
  hold = true;
  open(1, "10.0.0.1:1");
  {
    std::lock_guard lock(mutex);
    woken = 0;
  }
  server.on_line(1, R"({"type":"register","name":"Alice","password":"correct horse"})");
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(woke.wait_for(lock, std::chrono::seconds(30), [this] { return woken > 0; }));
  }
  open(2, "10.0.0.2:1");
  EXPECT_EQ(code(say(2, R"({"type":"login","nickname":"ALICE"})")), "NICKNAME_TAKEN");
  open(3, "10.0.0.3:1");
  EXPECT_EQ(code(register_as(3, "alice")), "NAME_TAKEN");
  // Dora registers, then goes before her password is hashed: the name is let go.
  open(4, "10.0.0.4:1");
  server.on_line(4, R"({"type":"register","name":"Dora","password":"correct horse"})");
  EXPECT_EQ(code(say(2, R"({"type":"login","nickname":"dora"})")), "NICKNAME_TAKEN");
  server.on_closed(4);
  release();
  for (int round = 0; round < 1000 && transport.sent[1].size() < 2; ++round) {
    server.password_work_done();
    accounts.complete();
    store.complete_all();
    std::unique_lock lock(mutex);
    woke.wait_for(lock, std::chrono::milliseconds(10));
  }
  ASSERT_EQ(type_of(transport.sent[1].back()), "logged_in") << transport.sent[1].back();
  // Dora's hash finishes after she left: nothing is stored, the name is free.
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(woke.wait_for(lock, std::chrono::seconds(30), [this] { return woken >= 2; }));
  }
  server.password_work_done();
  EXPECT_EQ(type_of(say(2, R"({"type":"login","nickname":"dora"})").at(0)), "logged_in");
  EXPECT_FALSE(accounts.accounts.contains("dora"));
  EXPECT_EQ(code(say(3, R"({"type":"login","nickname":"alice"})")), "NICKNAME_TAKEN");
}

// Names that could not be read at start: guests are refused rather than risk one taking
// an account's name; accounts still log in.
TEST_F(ServerAccountsTest, UnreadAccountNamesRefuseGuests) {
  open(1);
  ASSERT_EQ(type_of(register_as(1, "Alice").at(0)), "logged_in");
  say(1, R"({"type":"logout"})");
  server.load_account_names(std::nullopt);
  open(2);
  EXPECT_EQ(code(say(2, R"({"type":"login","nickname":"bob"})")), "STORE_FAILURE");
  EXPECT_EQ(type_of(login_as(2, "Alice").at(0)), "logged_in");
  server.load_account_names(std::vector<std::string>{});
  open(3);
  EXPECT_EQ(type_of(say(3, R"({"type":"login","nickname":"bob"})").at(0)), "logged_in");
}

TEST_F(ServerAccountsTest, LogoutEndsThisSessionOrAllOfThem) {
  open(1);
  auto first = register_as(1, "Alice");
  const std::string one = parse(first.at(0))["session"].GetString();
  open(2);
  auto second = login_as(2, "Alice");
  const std::string two = parse(second.at(0))["session"].GetString();
  ASSERT_EQ(accounts.sessions.size(), 2u);
  auto out = say(2, R"({"type":"logout"})");
  ASSERT_EQ(type_of(out.at(0)), "logged_out");
  EXPECT_EQ(parse(out[0])["ended"].GetInt(), 1);
  EXPECT_EQ(accounts.sessions.size(), 1u);
  EXPECT_EQ(code(say(2, R"({"type":"create_match","players":2})")), "NOT_LOGGED_IN");
  EXPECT_EQ(code(say(2, R"({"type":"login","session":")" + two + "\"}")), "BAD_SESSION");
  ASSERT_EQ(type_of(say(2, R"({"type":"login","session":")" + one + "\"}").at(0)), "logged_in");
  auto all = say(2, R"({"type":"logout","all":true})");
  ASSERT_EQ(type_of(all.at(0)), "logged_out");
  EXPECT_TRUE(accounts.sessions.empty());
  EXPECT_EQ(code(say(2, R"({"type":"login","session":")" + one + "\"}")), "BAD_SESSION");
}

TEST_F(ServerAccountsTest, LoginsAreRateLimitedPerAccountWithARetryTime) {
  open(1);
  ASSERT_EQ(type_of(register_as(1, "Alice").at(0)), "logged_in");
  say(1, R"({"type":"logout"})");
  // Five attempts back to back (each from its own address), then RATE_LIMITED.
  for (int i = 0; i < 5; ++i) {
    open(10 + i, "10.0.1." + std::to_string(i) + ":1");
    EXPECT_EQ(code(login_as(10 + i, "Alice", "battery staple")), "BAD_LOGIN");
  }
  open(20, "10.0.2.1:1");
  auto limited = login_as(20, "alice", "correct horse");
  ASSERT_EQ(code(limited), "RATE_LIMITED");
  EXPECT_GT(parse(limited[0])["retry_after_ms"].GetInt64(), 0);
  now += 20'000;  // one token back
  EXPECT_EQ(type_of(login_as(20, "alice").at(0)), "logged_in");
}

// The address bucket is the address's, not the connection's: a client that opens a new
// connection (another port) for each attempt does not get a fresh bucket.
TEST_F(ServerAccountsTest, TheAddressLimitCountsEveryConnectionOfOneAddress) {
  for (int i = 0; i < 20; ++i) {
    open(100 + i, "10.9.9.9:" + std::to_string(40000 + i));
    EXPECT_EQ(code(login_as(100 + i, "nobody" + std::to_string(i), "battery staple")),
              "BAD_LOGIN");
  }
  open(200, "10.9.9.9:50000");
  EXPECT_EQ(code(login_as(200, "nobody99", "battery staple")), "RATE_LIMITED");
  open(201, "10.9.9.8:50000");  // another address has its own bucket
  EXPECT_EQ(code(login_as(201, "nobody99", "battery staple")), "BAD_LOGIN");
  open(202, "[2001:db8::1]:50000");
  EXPECT_EQ(code(login_as(202, "nobody98", "battery staple")), "BAD_LOGIN");
}

TEST_F(ServerAccountsTest, ADisabledAccountIsToldOnlyWithItsPassword) {
  open(1);
  ASSERT_EQ(type_of(register_as(1, "Alice").at(0)), "logged_in");
  say(1, R"({"type":"logout"})");
  accounts.accounts["alice"].disabled = true;
  open(2);
  EXPECT_EQ(code(login_as(2, "Alice", "battery staple")), "BAD_LOGIN");
  EXPECT_EQ(code(login_as(2, "Alice")), "ACCOUNT_DISABLED");
}

// A review found that a login read the account's row before its password was verified
// (tens of milliseconds), so a disable or a reset landing meanwhile did not stop it. The
// session is now stored only if the row is still the one verified.
TEST_F(ServerAccountsTest, ADisableOrAResetDuringTheVerifyWins) {
  open(1);
  ASSERT_EQ(type_of(register_as(1, "Alice").at(0)), "logged_in");
  say(1, R"({"type":"logout"})");
  for (const bool disable : {true, false}) {
    SCOPED_TRACE(disable ? "disabled meanwhile" : "reset meanwhile");
    const ConnectionId c = disable ? 2 : 3;
    open(c);
    const std::size_t sessions_before = accounts.sessions.size();
    {
      std::lock_guard lock(mutex);
      woken = 0;
    }
    server.on_line(c, R"({"type":"login","name":"Alice","password":"correct horse"})");
    accounts.complete();  // the row is read and the verify submitted
    {
      std::unique_lock lock(mutex);
      ASSERT_TRUE(woke.wait_for(lock, std::chrono::seconds(30), [this] { return woken > 0; }));
    }
    // The password is verified (its outcome not yet taken by the loop); now the row changes.
    store::AccountRecord& row = accounts.accounts["alice"];
    const std::string verified = row.password_hash;
    if (disable)
      row.disabled = true;
    else
      row.password_hash = "$argon2id$a-new-password";
    const std::size_t before = transport.sent[c].size();
    for (int round = 0; round < 1000 && transport.sent[c].size() == before; ++round) {
      server.password_work_done();
      accounts.complete();
      store.complete_all();
    }
    const std::vector<std::string> answer(transport.sent[c].begin() + static_cast<long>(before),
                                          transport.sent[c].end());
    ASSERT_FALSE(answer.empty());
    EXPECT_EQ(code(answer), "BAD_LOGIN") << answer.at(0);
    EXPECT_EQ(accounts.sessions.size(), sessions_before) << "no session was stored";
    row.disabled = false;
    row.password_hash = verified;
  }
}

TEST_F(ServerAccountsTest, AResetCodeSetsANewPasswordOnce) {
  open(1);
  ASSERT_EQ(type_of(register_as(1, "Alice").at(0)), "logged_in");
  say(1, R"({"type":"logout"})");
  const std::string code_text = accounts::random_secret();
  accounts.resets[accounts::secret_digest(code_text)] = {
      {accounts::secret_digest(code_text), accounts.accounts["alice"].id, now + 60'000}, false};
  open(2);
  const std::string reset = R"({"type":"reset_password","name":"Alice","code":")" + code_text +
                            R"(","password":"new password"})";
  auto done = say(2, reset);
  ASSERT_EQ(type_of(done.at(0)), "password_reset") << done.at(0);
  EXPECT_EQ(code(say(2, reset)), "BAD_RESET_CODE");
  EXPECT_EQ(code(login_as(2, "Alice")), "BAD_LOGIN");
  EXPECT_EQ(type_of(login_as(2, "Alice", "new password").at(0)), "logged_in");
}

// A reset with the operator's code lets go of whoever is logged in to the account
// elsewhere (perhaps with the old password), as disabling it does.
TEST_F(ServerAccountsTest, AResetEndsTheAccountsOtherConnection) {
  open(1);
  ASSERT_EQ(type_of(register_as(1, "Alice").at(0)), "logged_in");
  const std::string code_text = accounts::random_secret();
  accounts.resets[accounts::secret_digest(code_text)] = {
      {accounts::secret_digest(code_text), accounts.accounts["alice"].id, now + 60'000}, false};
  open(2, "10.0.3.1:1");
  auto done = say(2, R"({"type":"reset_password","name":"Alice","code":")" + code_text +
                         R"(","password":"new password"})");
  ASSERT_EQ(type_of(done.at(0)), "password_reset") << done.at(0);
  EXPECT_TRUE(transport.closed.contains(1)) << "the connection logged in before the reset";
  EXPECT_FALSE(transport.closed.contains(2));
}

TEST_F(ServerAccountsTest, AFullPasswordQueueAnswersBusyAtOnce) {
  hold = true;  // the worker stays in its wake-up once it has hashed
  open(1, "10.0.0.1:1");
  open(2, "10.0.0.2:1");
  open(3, "10.0.0.3:1");
  server.on_line(1, R"({"type":"register","name":"Alice","password":"correct horse"})");
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(woke.wait_for(lock, std::chrono::seconds(30), [this] { return woken > 0; }));
  }
  // The worker is held: one request may wait (capacity 1), the next is refused.
  server.on_line(2, R"({"type":"register","name":"Bob","password":"correct horse"})");
  server.on_line(3, R"({"type":"register","name":"Carol","password":"correct horse"})");
  ASSERT_FALSE(transport.sent[3].empty());
  EXPECT_EQ(code({transport.sent[3].back()}), "BUSY");
  release();
  EXPECT_EQ(type_of(say(1, R"({"type":"ping"})").at(0)), "pong");
}

// BUSY tried no password: it must not cost the name one of its login attempts, or a
// client retrying BUSY during a burst would be locked out (RATE_LIMITED) by the retries.
TEST_F(ServerAccountsTest, BusyTakesNoLoginAttempt) {
  open(1, "10.0.0.1:1");
  ASSERT_EQ(type_of(register_as(1, "Alice").at(0)), "logged_in");
  say(1, R"({"type":"logout"})");
  hold = true;  // the worker stays in its wake-up once it has worked
  open(2, "10.0.0.2:1");
  open(3, "10.0.0.3:1");
  open(4, "10.0.0.4:1");
  {
    std::lock_guard lock(mutex);
    woken = 0;
  }
  server.on_line(2, R"({"type":"register","name":"Bob","password":"correct horse"})");
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(woke.wait_for(lock, std::chrono::seconds(30), [this] { return woken > 0; }));
  }
  server.on_line(3, R"({"type":"register","name":"Carol","password":"correct horse"})");
  // The queue (capacity 1) is full: Alice's logins are refused BUSY, more times than her
  // name's burst (5).
  for (int i = 0; i < 8; ++i) {
    const std::size_t before = transport.sent[4].size();
    server.on_line(4, R"({"type":"login","name":"Alice","password":"correct horse"})");
    ASSERT_EQ(transport.sent[4].size(), before + 1);
    EXPECT_EQ(code({transport.sent[4].back()}), "BUSY");
  }
  release();
  // Bob's and Carol's registers finish (each connection gets its answer).
  for (int round = 0; round < 1000 && (transport.sent[2].size() < 2 || transport.sent[3].size() < 2);
       ++round) {
    server.password_work_done();
    accounts.complete();
    store.complete_all();
    std::unique_lock lock(mutex);
    woke.wait_for(lock, std::chrono::milliseconds(10));
  }
  auto login = login_as(4, "Alice");
  EXPECT_EQ(type_of(login.at(0)), "logged_in") << login.at(0);
}

// Logins that passed the limits together, before the queue filled, and were then refused
// BUSY by the pool get their attempts back.
TEST_F(ServerAccountsTest, ALoginRefusedBusyByThePoolGivesItsAttemptBack) {
  open(1, "10.0.0.1:1");
  ASSERT_EQ(type_of(register_as(1, "Alice").at(0)), "logged_in");
  say(1, R"({"type":"logout"})");
  hold = true;
  open(2, "10.0.0.2:1");
  {
    std::lock_guard lock(mutex);
    woken = 0;
  }
  server.on_line(2, R"({"type":"register","name":"Bob","password":"correct horse"})");
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(woke.wait_for(lock, std::chrono::seconds(30), [this] { return woken > 0; }));
  }
  // Five logins of Alice (her name's whole burst) pass the limits while the account rows
  // are read; then one fills the queue (capacity 1) and four are refused BUSY.
  for (ConnectionId c = 10; c < 15; ++c) {
    open(c, "10.0.1.1:" + std::to_string(c));
    server.on_line(c, R"({"type":"login","name":"Alice","password":"correct horse"})");
  }
  accounts.complete();
  int busy = 0;
  for (ConnectionId c = 10; c < 15; ++c)
    if (!transport.sent[c].empty() && code({transport.sent[c].back()}) == "BUSY") ++busy;
  EXPECT_EQ(busy, 4);
  release();
  for (int round = 0; round < 1000 && transport.sent[2].size() < 2; ++round) {
    server.password_work_done();
    accounts.complete();
    store.complete_all();
    std::unique_lock lock(mutex);
    woke.wait_for(lock, std::chrono::milliseconds(10));
  }
  // Four attempts were given back: Alice logs in again at once, not RATE_LIMITED.
  open(20, "10.0.2.1:1");
  auto login = login_as(20, "Alice");
  EXPECT_EQ(type_of(login.at(0)), "logged_in") << login.at(0);
}

class ServerWithoutGuestsTest : public ServerAccountsTest {
 protected:
  ServerWithoutGuestsTest() : ServerAccountsTest(accounts_config(false)) {}
};

TEST_F(ServerWithoutGuestsTest, AGuestIsRefusedAndAnAccountPlays) {
  open(1);
  EXPECT_EQ(code(say(1, R"({"type":"login","nickname":"bob"})")), "GUESTS_OFF");
  ASSERT_EQ(type_of(register_as(1, "Bob").at(0)), "logged_in");
}

TEST(ServerAccountsOff, WithoutAPoolRegisterIsRefused) {
  FakeTransport transport;
  FakePersistence store;
  FakeSecretSource secrets;
  Server server(test_server_config(), transport, store, [] { return std::int64_t{1}; }, secrets);
  server.on_open(1, "127.0.0.1:1");
  server.on_line(1, R"({"type":"hello","protocol":1})");
  server.on_line(1, R"({"type":"register","name":"Alice","password":"correct horse"})");
  EXPECT_EQ(parse(transport.sent[1].back())["code"].GetString(), std::string("ACCOUNTS_OFF"));
}

}  // namespace
}  // namespace eryantis::server
