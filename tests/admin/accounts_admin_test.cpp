// The operator's account actions on the server's logic (fake transport, fake
// accounts store): the list, a one-time reset code of which only the digest is
// stored, and disable, which ends the account's sessions and its connection.
#include <gtest/gtest.h>

#include "eryantis/accounts/session_secret.hpp"
#include "eryantis/server/server.hpp"
#include "fake_accounts.hpp"
#include "fake_secret_source.hpp"
#include "fakes.hpp"

namespace eryantis::server {
namespace {

class AccountsAdminTest : public ::testing::Test {
 protected:
  AccountsAdminTest()
      : pool(pool_config(), [] {}),
        server(test_server_config(), transport, store, [this] { return now; }, secrets) {
    server.set_accounts(&accounts, &pool);
    accounts.accounts["alice"] = {1, "Alice", "alice", "$argon2id$x", 10, 10, false};
    accounts.accounts["bob"] = {2, "Bob", "bob", "$argon2id$y", 20, 20, false};
    accounts.sessions[accounts::secret_digest(secret)] = {accounts::secret_digest(secret), 1, 10,
                                                          now + 60'000, "", "", ""};
    server.load_account_names(std::vector<std::string>{"alice", "bob"});
  }
  static accounts::PasswordPoolConfig pool_config() {
    accounts::PasswordPoolConfig c;
    c.params = accounts::min_password_params();
    c.threads = 1;
    return c;
  }
  void say(ConnectionId c, const std::string& line) {
    server.on_line(c, line);
    for (int i = 0; i < 10 && accounts.complete(); ++i) store.complete_all();
    store.complete_all();
  }
  void login_alice(ConnectionId c) {
    server.on_open(c, "127.0.0.1:1");
    say(c, R"({"type":"hello","protocol":1})");
    say(c, R"({"type":"login","session":")" + secret + "\"}");
    ASSERT_EQ(type_of(transport.sent[c].back()), "logged_in") << transport.sent[c].back();
  }

  FakeTransport transport;
  FakePersistence store;
  FakeAccounts accounts;
  FakeSecretSource secrets;
  std::int64_t now = 1'000'000;
  const std::string secret = std::string(64, 'a');
  accounts::PasswordPool pool;
  Server server;
};

TEST_F(AccountsAdminTest, ListsEveryAccountInOrder) {
  std::optional<std::expected<std::vector<store::AccountRecord>, std::string>> got;
  server.admin_accounts([&](auto r) { got = std::move(r); });
  accounts.complete();
  ASSERT_TRUE(got && got->has_value());
  ASSERT_EQ((*got)->size(), 2u);
  EXPECT_EQ((**got)[0].name, "Alice");
  EXPECT_EQ((**got)[1].name, "Bob");
}

TEST_F(AccountsAdminTest, AResetCodeIsPrintedOnceAndOnlyItsDigestStored) {
  std::optional<std::expected<std::string, std::string>> got;
  server.admin_reset_password("ALICE", [&](auto r) { got = std::move(r); });
  while (accounts.complete()) {
  }
  ASSERT_TRUE(got && got->has_value()) << (got ? got->error() : "no answer");
  const std::string code = **got;
  EXPECT_TRUE(accounts::secret_shaped(code));
  ASSERT_EQ(accounts.resets.size(), 1u);
  EXPECT_EQ(accounts.resets.begin()->first, accounts::secret_digest(code));
  EXPECT_EQ(accounts.resets.begin()->second.reset.account, 1);
  EXPECT_EQ(accounts.resets.begin()->second.reset.expires_ms, now + Server::kResetCodeMs);

  got.reset();
  server.admin_reset_password("nobody", [&](auto r) { got = std::move(r); });
  while (accounts.complete()) {
  }
  ASSERT_TRUE(got && !got->has_value());
  EXPECT_EQ(got->error(), "no such account");
}

TEST_F(AccountsAdminTest, DisableEndsTheSessionsAndClosesTheConnection) {
  login_alice(1);
  std::optional<std::expected<store::AccountRecord, std::string>> got;
  server.admin_disable("alice", true, [&](auto r) { got = std::move(r); });
  accounts.complete();
  ASSERT_TRUE(got && got->has_value());
  EXPECT_TRUE((*got)->disabled);
  EXPECT_TRUE(transport.closed.contains(1));
  EXPECT_TRUE(accounts.sessions.empty());
  // The secret no longer logs in; enabling again does not bring it back.
  server.on_open(2, "127.0.0.1:2");
  say(2, R"({"type":"hello","protocol":1})");
  say(2, R"({"type":"login","session":")" + secret + "\"}");
  EXPECT_EQ(parse(transport.sent[2].back())["code"].GetString(), std::string("BAD_SESSION"));
  got.reset();
  server.admin_disable("Alice", false, [&](auto r) { got = std::move(r); });
  accounts.complete();
  ASSERT_TRUE(got && got->has_value());
  EXPECT_FALSE((*got)->disabled);
  got.reset();
  server.admin_disable("nobody", true, [&](auto r) { got = std::move(r); });
  accounts.complete();
  ASSERT_TRUE(got && !got->has_value());
}

TEST(AccountsAdminOff, WithoutAccountsEachActionSaysSo) {
  FakeTransport transport;
  FakePersistence store;
  FakeSecretSource secrets;
  Server server(test_server_config(), transport, store, [] { return std::int64_t{1}; }, secrets);
  std::string error;
  server.admin_accounts([&](auto r) { error = r ? "" : r.error(); });
  EXPECT_EQ(error, "this server has no accounts");
  server.admin_disable("alice", true, [&](auto r) { error = r ? "" : r.error(); });
  EXPECT_EQ(error, "this server has no accounts");
}

}  // namespace
}  // namespace eryantis::server
