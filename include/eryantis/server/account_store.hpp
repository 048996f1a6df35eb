#pragma once
// Where the server keeps accounts (docs/accounts.md): the store's accounts, sessions
// and password_resets, reached off the event loop. Every call answers later, on the
// server's thread (main runs them on the store's writer; the tests on a fake).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "eryantis/store/accounts.hpp"
#include "eryantis/store/error.hpp"

namespace eryantis::server {

template <class T>
using AccountDone = std::function<void(store::Result<T>)>;

class AccountStore {
 public:
  virtual ~AccountStore() = default;
  // Conflict when the name key is taken.
  virtual void create_account(store::NewAccount account, AccountDone<store::AccountRecord> done) = 0;
  virtual void find_account(std::string name_key,
                            AccountDone<std::optional<store::AccountRecord>> done) = 0;
  virtual void add_session(store::NewSession session, AccountDone<void> done) = 0;
  virtual void find_session(std::string token_digest, std::int64_t now_ms,
                            AccountDone<std::optional<store::SessionLookup>> done) = 0;
  virtual void end_sessions(store::AccountId account, std::optional<std::string> token_digest,
                            AccountDone<std::int64_t> done) = 0;
  // eryantis-admin's: every account; an account disabled (its sessions ended) or
  // enabled (NotFound without one); a one-time reset code's digest stored.
  virtual void list_accounts(AccountDone<std::vector<store::AccountRecord>> done) = 0;
  virtual void set_disabled(std::string name_key, bool disabled,
                            AccountDone<store::AccountRecord> done) = 0;
  virtual void add_password_reset(store::NewPasswordReset reset, AccountDone<void> done) = 0;
  // NotFound for a code that opens nothing (unknown, used, expired, another name's).
  virtual void reset_password(std::string code_digest, std::string name_key,
                              std::string password_hash, std::int64_t now_ms,
                              AccountDone<store::AccountRecord> done) = 0;
};

}  // namespace eryantis::server
