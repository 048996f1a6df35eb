// Accounts in the store (accounts.hpp), on both backends: one account per name key
// (a taken key is Conflict), sessions found by digest until they expire or end,
// disabling that ends every session, a password reset that works once, and
// read-only opens that refuse writes.
#include "backend_fixture.hpp"
#include "eryantis/store/accounts.hpp"

namespace eryantis::store::testing {
namespace {

class AccountStoreTest : public BackendTest {
 protected:
  static std::string digest(char c) { return std::string(64, c); }
  static NewAccount account(std::string name, std::string key) {
    return NewAccount{std::move(name), std::move(key), "$argon2id$v=19$m=8,t=1,p=1$x$y", 1000};
  }
};

TEST_P(AccountStoreTest, OneAccountPerNameKeyFoundByItsKey) {
  auto store = open();
  ASSERT_TRUE(store);
  auto alice = store->create_account(account("Alice", "alice"));
  ASSERT_TRUE(alice) << alice.error().message;
  EXPECT_GT(alice->id, 0);
  EXPECT_EQ(alice->name, "Alice");
  EXPECT_EQ(alice->password_changed_ms, 1000);
  EXPECT_FALSE(alice->disabled);
  auto again = store->create_account(account("ALICE", "alice"));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, StoreCode::Conflict);
  auto bob = store->create_account(account("Bob", "bob"));
  ASSERT_TRUE(bob);
  EXPECT_NE(bob->id, alice->id);

  auto found = store->find_account("alice").value();
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, *alice);
  EXPECT_FALSE(store->find_account("carol").value());
  auto all = store->list_accounts().value();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, "Alice");
  EXPECT_EQ(all[1].name, "Bob");

  ASSERT_TRUE(store->set_password(alice->id, "$argon2id$new", 5000));
  found = store->find_account("alice").value();
  EXPECT_EQ(found->password_hash, "$argon2id$new");
  EXPECT_EQ(found->password_changed_ms, 5000);
  auto none = store->set_password(999, "$argon2id$new", 5000);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, StoreCode::NotFound);
}

TEST_P(AccountStoreTest, SessionsAreFoundByDigestUntilTheyExpireOrEnd) {
  auto store = open();
  ASSERT_TRUE(store);
  const AccountId alice = store->create_account(account("Alice", "alice")).value().id;
  ASSERT_TRUE(store->add_session({digest('a'), alice, 1000, 10'000, "phone", "", ""}));
  ASSERT_TRUE(store->add_session({digest('b'), alice, 1000, 10'000, "laptop", "", ""}));
  ASSERT_TRUE(store->add_session({digest('c'), alice, 1000, 10'000, "", "", ""}));
  auto found = store->find_session(digest('a'), 2000).value();
  ASSERT_TRUE(found);
  EXPECT_EQ(found->account.name, "Alice");
  EXPECT_EQ(found->expires_ms, 10'000);
  EXPECT_FALSE(store->find_session(digest('a'), 10'000).value()) << "expired";
  EXPECT_FALSE(store->find_session(digest('d'), 2000).value()) << "unknown";
  // Logging out here ends this session only; everywhere ends the rest.
  EXPECT_EQ(store->end_sessions(alice, digest('a')).value(), 1);
  EXPECT_FALSE(store->find_session(digest('a'), 2000).value());
  EXPECT_TRUE(store->find_session(digest('b'), 2000).value());
  EXPECT_EQ(store->end_sessions(alice, std::nullopt).value(), 2);
  EXPECT_FALSE(store->find_session(digest('b'), 2000).value());
  EXPECT_FALSE(store->find_session(digest('c'), 2000).value());
}

// A login verifies a password against the row it read; the session it opens (and a
// rehash) is stored only if the row still has that hash and is enabled, so a reset or a
// disable that landed meanwhile wins, and a rehash never overwrites a newer password.
TEST_P(AccountStoreTest, ALoginsSessionIsStoredOnlyIfTheAccountIsAsVerified) {
  auto store = open();
  ASSERT_TRUE(store);
  const AccountRecord alice = store->create_account(account("Alice", "alice")).value();
  const NewSession login{digest('a'), alice.id, 1000, 10'000, "", alice.password_hash,
                         "$argon2id$rehashed"};
  ASSERT_TRUE(store->add_session(login));
  EXPECT_EQ(store->find_account("alice").value()->password_hash, "$argon2id$rehashed");
  EXPECT_EQ(store->find_account("alice").value()->password_changed_ms, alice.password_changed_ms)
      << "a rehash is not a new password";

  // Verified against the old hash: the row changed since (the rehash above, or a reset).
  const NewSession stale{digest('b'), alice.id, 1000, 10'000, "", alice.password_hash,
                         "$argon2id$stale"};
  auto refused = store->add_session(stale);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, StoreCode::NotFound);
  EXPECT_FALSE(store->find_session(digest('b'), 2000).value());
  EXPECT_EQ(store->find_account("alice").value()->password_hash, "$argon2id$rehashed");

  // Disabled meanwhile: nothing is stored either.
  ASSERT_TRUE(store->set_disabled("alice", true));
  const NewSession disabled{digest('c'), alice.id, 1000, 10'000, "", "$argon2id$rehashed", ""};
  EXPECT_EQ(store->add_session(disabled).error().code, StoreCode::NotFound);
  EXPECT_FALSE(store->find_session(digest('c'), 2000).value());
}

TEST_P(AccountStoreTest, DisablingEndsEverySessionAndIsKept) {
  auto store = open();
  ASSERT_TRUE(store);
  const AccountId alice = store->create_account(account("Alice", "alice")).value().id;
  ASSERT_TRUE(store->add_session({digest('a'), alice, 1000, 10'000, "", "", ""}));
  auto disabled = store->set_disabled("alice", true);
  ASSERT_TRUE(disabled);
  EXPECT_TRUE(disabled->disabled);
  EXPECT_FALSE(store->find_session(digest('a'), 2000).value());
  EXPECT_TRUE(store->find_account("alice").value()->disabled);
  EXPECT_FALSE(store->set_disabled("alice", false).value().disabled);
  auto unknown = store->set_disabled("nobody", true);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, StoreCode::NotFound);
}

TEST_P(AccountStoreTest, APasswordResetWorksOnceForItsAccountBeforeItExpires) {
  auto store = open();
  ASSERT_TRUE(store);
  const AccountId alice = store->create_account(account("Alice", "alice")).value().id;
  ASSERT_TRUE(store->create_account(account("Bob", "bob")));
  ASSERT_TRUE(store->add_session({digest('s'), alice, 1000, 10'000, "", "", ""}));
  ASSERT_TRUE(store->add_password_reset({digest('r'), alice, 5000}));
  ASSERT_TRUE(store->add_password_reset({digest('e'), alice, 1500}));
  // Another name's, an unknown code, an expired one: the same NotFound, nothing changed.
  EXPECT_EQ(store->reset_password(digest('r'), "bob", "$new", 2000).error().code,
            StoreCode::NotFound);
  EXPECT_EQ(store->reset_password(digest('x'), "alice", "$new", 2000).error().code,
            StoreCode::NotFound);
  EXPECT_EQ(store->reset_password(digest('e'), "alice", "$new", 2000).error().code,
            StoreCode::NotFound);
  EXPECT_TRUE(store->find_session(digest('s'), 2000).value());
  auto reset = store->reset_password(digest('r'), "alice", "$new", 2000);
  ASSERT_TRUE(reset) << reset.error().message;
  EXPECT_EQ(reset->password_hash, "$new");
  EXPECT_EQ(store->find_account("alice").value()->password_hash, "$new");
  EXPECT_FALSE(store->find_session(digest('s'), 2000).value()) << "every session ended";
  EXPECT_EQ(store->reset_password(digest('r'), "alice", "$newer", 2001).error().code,
            StoreCode::NotFound)
      << "used once";
}

TEST_P(AccountStoreTest, ReadOnlyOpensReadButRefuseWrites) {
  {
    auto store = open();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->create_account(account("Alice", "alice")));
  }
  Options read_only;
  read_only.read_only = true;
  auto reader = open(read_only);
  ASSERT_TRUE(reader);
  EXPECT_EQ(reader->list_accounts().value().size(), 1u);
  EXPECT_EQ(reader->create_account(account("Bob", "bob")).error().code, StoreCode::ReadOnly);
  EXPECT_EQ(reader->set_disabled("alice", true).error().code, StoreCode::ReadOnly);
}

INSTANTIATE_TEST_SUITE_P(Backends, AccountStoreTest,
                         ::testing::Values(Backend::Sqlite, Backend::Postgresql),
                         backend_test_name);

}  // namespace
}  // namespace eryantis::store::testing
