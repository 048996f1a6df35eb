#include "eryantis/main/store_accounts.hpp"

#include "eryantis/store/event_store.hpp"

namespace eryantis::app {

template <class T, class Work>
void StoreAccounts::run(Work work, server::AccountDone<T> done) {
  committer_.run_on_writer([work = std::move(work), done = std::move(done)](
                               store::EventStore& db) mutable -> std::function<void()> {
    store::Result<T> result = work(db);
    return [done = std::move(done), result = std::move(result)]() mutable {
      done(std::move(result));
    };
  });
}

void StoreAccounts::create_account(store::NewAccount account,
                                   server::AccountDone<store::AccountRecord> done) {
  run<store::AccountRecord>(
      [account = std::move(account)](store::EventStore& db) { return db.create_account(account); },
      std::move(done));
}

void StoreAccounts::find_account(std::string name_key,
                                 server::AccountDone<std::optional<store::AccountRecord>> done) {
  run<std::optional<store::AccountRecord>>(
      [key = std::move(name_key)](store::EventStore& db) { return db.find_account(key); },
      std::move(done));
}

void StoreAccounts::add_session(store::NewSession session, server::AccountDone<void> done) {
  run<void>([session = std::move(session)](store::EventStore& db) { return db.add_session(session); },
            std::move(done));
}

void StoreAccounts::find_session(std::string token_digest, std::int64_t now_ms,
                                 server::AccountDone<std::optional<store::SessionLookup>> done) {
  run<std::optional<store::SessionLookup>>(
      [digest = std::move(token_digest), now_ms](store::EventStore& db) {
        return db.find_session(digest, now_ms);
      },
      std::move(done));
}

void StoreAccounts::end_sessions(store::AccountId account, std::optional<std::string> token_digest,
                                 server::AccountDone<std::int64_t> done) {
  run<std::int64_t>([account, digest = std::move(token_digest)](
                        store::EventStore& db) { return db.end_sessions(account, digest); },
                    std::move(done));
}

void StoreAccounts::reset_password(std::string code_digest, std::string name_key,
                                   std::string password_hash, std::int64_t now_ms,
                                   server::AccountDone<store::AccountRecord> done) {
  run<store::AccountRecord>(
      [digest = std::move(code_digest), key = std::move(name_key), hash = std::move(password_hash),
       now_ms](store::EventStore& db) { return db.reset_password(digest, key, hash, now_ms); },
      std::move(done));
}

void StoreAccounts::list_accounts(server::AccountDone<std::vector<store::AccountRecord>> done) {
  run<std::vector<store::AccountRecord>>([](store::EventStore& db) { return db.list_accounts(); },
                                         std::move(done));
}

void StoreAccounts::set_disabled(std::string name_key, bool disabled,
                                 server::AccountDone<store::AccountRecord> done) {
  run<store::AccountRecord>([key = std::move(name_key), disabled](store::EventStore& db) {
    return db.set_disabled(key, disabled);
  },
                            std::move(done));
}

void StoreAccounts::add_password_reset(store::NewPasswordReset reset,
                                       server::AccountDone<void> done) {
  run<void>([reset = std::move(reset)](store::EventStore& db) { return db.add_password_reset(reset); },
            std::move(done));
}

}  // namespace eryantis::app
