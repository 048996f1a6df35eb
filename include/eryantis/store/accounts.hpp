#pragma once
// Accounts as the store keeps them (migrations/0011_accounts.sql, docs/accounts.md):
// an account per name key, logged-in sessions and password resets, each kept by a
// digest of its secret only (a copy of the database logs nobody in). Platform rows,
// never events of a game. The password hash is libsodium's crypto_pwhash_str string.
#include <cstdint>
#include <optional>
#include <string>

namespace eryantis::store {

using AccountId = std::int64_t;

struct NewAccount {
  std::string name;           // as typed (accounts::AccountName::display)
  std::string name_key;       // case-folded (accounts::AccountName::key): unique
  std::string password_hash;  // at most 127 bytes
  std::int64_t created_ms = 0;
};

struct AccountRecord {
  AccountId id = 0;
  std::string name;
  std::string name_key;
  std::string password_hash;
  std::int64_t created_ms = 0;
  std::int64_t password_changed_ms = 0;
  bool disabled = false;
  friend bool operator==(const AccountRecord&, const AccountRecord&) = default;
};

struct NewSession {
  std::string token_digest;  // hex BLAKE2b-256 of the secret (64 characters)
  AccountId account = 0;
  std::int64_t created_ms = 0;
  std::int64_t expires_ms = 0;
  std::string label;  // what the client said it is ("" when nothing)
  // A login's condition: the session is stored only while the account's password_hash is
  // exactly this and the account is enabled (NotFound otherwise), so a login verified
  // against a row that a reset or a disable changed meanwhile opens nothing. "": none.
  std::string if_password_hash;
  // The verified password hashed again with the current parameters, stored on the same
  // condition in the same transaction (so it never overwrites a newer password). "": none.
  std::string rehash;
};

// A session found by its digest, with its account.
struct SessionLookup {
  AccountRecord account;
  std::int64_t expires_ms = 0;
};

struct NewPasswordReset {
  std::string code_digest;  // hex BLAKE2b-256 of the one-time code
  AccountId account = 0;
  std::int64_t expires_ms = 0;
};

}  // namespace eryantis::store
