#pragma once
// The server's AccountStore faked (account_store.hpp): accounts, sessions and resets
// in memory, each answer held until the test calls complete(), like the store's writer.
#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <string>

#include "eryantis/server/account_store.hpp"

namespace eryantis::server {

struct FakeAccounts final : AccountStore {
  std::map<std::string, store::AccountRecord> accounts;  // by name key
  std::map<std::string, store::NewSession> sessions;  // by digest
  struct Reset {
    store::NewPasswordReset reset;
    bool used = false;
  };
  std::map<std::string, Reset> resets;  // by digest
  std::deque<std::function<void()>> answers;
  bool fail_all = false;

  // Runs every answer waiting (and those they cause); false when there was none.
  bool complete() {
    bool any = false;
    while (!answers.empty()) {
      auto next = std::move(answers.front());
      answers.pop_front();
      next();
      any = true;
    }
    return any;
  }
  template <class T>
  void answer(AccountDone<T> done, store::Result<T> result) {
    if (fail_all) result = std::unexpected(store::StoreError{store::StoreCode::Io, "disk on fire", -1});
    answers.push_back([done = std::move(done), result = std::move(result)]() mutable {
      done(std::move(result));
    });
  }
  store::AccountRecord* by_id(store::AccountId id) {
    for (auto& [key, a] : accounts)
      if (a.id == id) return &a;
    return nullptr;
  }

  void create_account(store::NewAccount a, AccountDone<store::AccountRecord> done) override {
    if (accounts.contains(a.name_key)) {
      answer<store::AccountRecord>(std::move(done),
                                   store::fail(store::StoreCode::Conflict, "taken"));
      return;
    }
    store::AccountRecord r{static_cast<store::AccountId>(accounts.size() + 1),
                           a.name, a.name_key, a.password_hash, a.created_ms, a.created_ms, false};
    accounts[a.name_key] = r;
    answer<store::AccountRecord>(std::move(done), r);
  }
  void find_account(std::string key, AccountDone<std::optional<store::AccountRecord>> done) override {
    auto it = accounts.find(key);
    answer<std::optional<store::AccountRecord>>(
        std::move(done), it == accounts.end() ? std::nullopt
                                               : std::optional<store::AccountRecord>(it->second));
  }
  void add_session(store::NewSession s, AccountDone<void> done) override {
    store::AccountRecord* a = by_id(s.account);
    if (!s.if_password_hash.empty() &&
        (!a || a->password_hash != s.if_password_hash || a->disabled)) {
      answer<void>(std::move(done), store::fail(store::StoreCode::NotFound, "changed"));
      return;
    }
    if (!s.rehash.empty() && a) a->password_hash = s.rehash;
    sessions[s.token_digest] = s;
    answer<void>(std::move(done), {});
  }
  void find_session(std::string digest, std::int64_t now,
                    AccountDone<std::optional<store::SessionLookup>> done) override {
    std::optional<store::SessionLookup> found;
    if (auto it = sessions.find(digest); it != sessions.end() && it->second.expires_ms > now)
      if (auto* a = by_id(it->second.account)) found = store::SessionLookup{*a, it->second.expires_ms};
    answer<std::optional<store::SessionLookup>>(std::move(done), found);
  }
  void end_sessions(store::AccountId account, std::optional<std::string> digest,
                    AccountDone<std::int64_t> done) override {
    std::int64_t n = 0;
    for (auto it = sessions.begin(); it != sessions.end();)
      if (it->second.account == account && (!digest || it->first == *digest)) {
        it = sessions.erase(it);
        ++n;
      } else {
        ++it;
      }
    answer<std::int64_t>(std::move(done), n);
  }
  void list_accounts(AccountDone<std::vector<store::AccountRecord>> done) override {
    std::vector<store::AccountRecord> all;
    for (const auto& [key, a] : accounts) all.push_back(a);
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    answer<std::vector<store::AccountRecord>>(std::move(done), all);
  }
  void set_disabled(std::string key, bool disabled, AccountDone<store::AccountRecord> done) override {
    auto a = accounts.find(key);
    if (a == accounts.end()) {
      answer<store::AccountRecord>(std::move(done), store::fail(store::StoreCode::NotFound, "no"));
      return;
    }
    a->second.disabled = disabled;
    if (disabled)
      for (auto it = sessions.begin(); it != sessions.end();)
        it = it->second.account == a->second.id ? sessions.erase(it) : std::next(it);
    answer<store::AccountRecord>(std::move(done), a->second);
  }
  void add_password_reset(store::NewPasswordReset reset, AccountDone<void> done) override {
    resets[reset.code_digest] = {reset, false};
    answer<void>(std::move(done), {});
  }
  void reset_password(std::string digest, std::string key, std::string hash, std::int64_t now,
                      AccountDone<store::AccountRecord> done) override {
    auto a = accounts.find(key);
    auto r = resets.find(digest);
    if (a == accounts.end() || r == resets.end() || r->second.used ||
        r->second.reset.account != a->second.id || r->second.reset.expires_ms <= now) {
      answer<store::AccountRecord>(std::move(done), store::fail(store::StoreCode::NotFound, "no"));
      return;
    }
    r->second.used = true;
    a->second.password_hash = hash;
    for (auto it = sessions.begin(); it != sessions.end();)
      it = it->second.account == a->second.id ? sessions.erase(it) : std::next(it);
    answer<store::AccountRecord>(std::move(done), a->second);
  }
};

}  // namespace eryantis::server
