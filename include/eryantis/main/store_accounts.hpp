#pragma once
// The server's AccountStore on the event store (docs/accounts.md): every call runs
// on the group committer's writer thread, between two append batches, and answers
// on the loop's thread with the store's deliveries. Account work is rare (register,
// login, logout) and small (one indexed row): the writer serves its reads too, so
// a login sees the register that came before it.
#include "eryantis/server/account_store.hpp"
#include "eryantis/store/group_committer.hpp"

namespace eryantis::app {

class StoreAccounts final : public server::AccountStore {
 public:
  explicit StoreAccounts(store::GroupCommitter& committer) : committer_(committer) {}

  void create_account(store::NewAccount account,
                      server::AccountDone<store::AccountRecord> done) override;
  void find_account(std::string name_key,
                    server::AccountDone<std::optional<store::AccountRecord>> done) override;
  void add_session(store::NewSession session, server::AccountDone<void> done) override;
  void find_session(std::string token_digest, std::int64_t now_ms,
                    server::AccountDone<std::optional<store::SessionLookup>> done) override;
  void end_sessions(store::AccountId account, std::optional<std::string> token_digest,
                    server::AccountDone<std::int64_t> done) override;
  void list_accounts(server::AccountDone<std::vector<store::AccountRecord>> done) override;
  void set_disabled(std::string name_key, bool disabled,
                    server::AccountDone<store::AccountRecord> done) override;
  void add_password_reset(store::NewPasswordReset reset, server::AccountDone<void> done) override;
  void reset_password(std::string code_digest, std::string name_key, std::string password_hash,
                      std::int64_t now_ms, server::AccountDone<store::AccountRecord> done) override;

 private:
  // Runs `work(db)` on the writer; `done` gets its result on the loop's thread.
  template <class T, class Work>
  void run(Work work, server::AccountDone<T> done);

  store::GroupCommitter& committer_;
};

}  // namespace eryantis::app
