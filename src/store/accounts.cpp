// The SQLite store's accounts (event_store.hpp, accounts.hpp): rows of accounts,
// sessions and password_resets.
#include <spdlog/fmt/fmt.h>

#include "eryantis/store/accounts.hpp"
#include "eryantis/util/expected.hpp"
#include "fold_source.hpp"
#include "sqlite_impl.hpp"

namespace eryantis::store {

namespace {

constexpr std::string_view kAccountColumns =
    "id, name, name_key, password_hash, created_ms, password_changed_ms, disabled";

AccountRecord account_from_row(const sqlite::Statement& row, int first = 0) {
  AccountRecord a;
  a.id = row.column_int(first + 0);
  a.name = std::string(row.column_text(first + 1));
  a.name_key = std::string(row.column_text(first + 2));
  a.password_hash = std::string(row.column_text(first + 3));
  a.created_ms = row.column_int(first + 4);
  a.password_changed_ms = row.column_int(first + 5);
  a.disabled = row.column_int(first + 6) != 0;
  return a;
}

}  // namespace

Result<std::optional<AccountRecord>> SqliteStore::find_account(std::string_view name_key) {
  auto select = impl_->db.cached(
      fmt::format("SELECT {} FROM accounts WHERE name_key = ?1", kAccountColumns));
  if (!select) return util::forward_error(select);
  (*select)->bind(1, name_key);
  auto row = (*select)->step();
  if (!row) return util::forward_error(row);
  if (!*row) return std::optional<AccountRecord>();
  return std::optional<AccountRecord>(account_from_row(**select));
}

Result<AccountRecord> SqliteStore::create_account(const NewAccount& account) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Immediate);
  if (!tx) return util::forward_error(tx);
  {
    // A taken key inserts nothing: Conflict, rather than a constraint failure.
    auto insert = impl_->db.cached(
        "INSERT INTO accounts (name, name_key, password_hash, created_ms, password_changed_ms) "
        "SELECT ?1, ?2, ?3, ?4, ?4 WHERE NOT EXISTS (SELECT 1 FROM accounts WHERE name_key = ?2)");
    if (!insert) return util::forward_error(insert);
    (*insert)->bind(1, account.name).bind(2, account.name_key).bind(3, account.password_hash).bind(
        4, account.created_ms);
    if (auto done = (*insert)->run(); !done) return util::forward_error(done);
    if (sqlite3_changes(impl_->db.handle()) == 0)
      return fail(StoreCode::Conflict, fmt::format("the name {} is taken", account.name));
  }
  AccountRecord made{impl_->db.last_insert_rowid(), account.name, account.name_key,
                     account.password_hash, account.created_ms, account.created_ms, false};
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  return made;
}

Result<std::vector<AccountRecord>> SqliteStore::list_accounts() {
  auto select =
      impl_->db.cached(fmt::format("SELECT {} FROM accounts ORDER BY id", kAccountColumns));
  if (!select) return util::forward_error(select);
  std::vector<AccountRecord> out;
  while (true) {
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    out.push_back(account_from_row(**select));
  }
  return out;
}

Result<void> SqliteStore::set_password(AccountId id, std::string_view password_hash,
                                       std::int64_t at_ms) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  auto update = impl_->db.cached(
      "UPDATE accounts SET password_hash = ?2, password_changed_ms = ?3 WHERE id = ?1");
  if (!update) return util::forward_error(update);
  (*update)->bind(1, id).bind(2, password_hash).bind(3, at_ms);
  if (auto done = (*update)->run(); !done) return util::forward_error(done);
  if (sqlite3_changes(impl_->db.handle()) == 0)
    return fail(StoreCode::NotFound, fmt::format("no account {}", id));
  return {};
}

Result<AccountRecord> SqliteStore::set_disabled(std::string_view name_key, bool disabled) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Immediate);
  if (!tx) return util::forward_error(tx);
  auto found = find_account(name_key);
  if (!found) return util::forward_error(found);
  if (!*found) return fail(StoreCode::NotFound, fmt::format("no account {}", name_key));
  {
    auto update = impl_->db.cached("UPDATE accounts SET disabled = ?2 WHERE id = ?1");
    if (!update) return util::forward_error(update);
    (*update)->bind(1, (*found)->id).bind(2, std::int64_t{disabled ? 1 : 0});
    if (auto done = (*update)->run(); !done) return util::forward_error(done);
  }
  if (disabled) {
    auto remove = impl_->db.cached("DELETE FROM sessions WHERE account_id = ?1");
    if (!remove) return util::forward_error(remove);
    (*remove)->bind(1, (*found)->id);
    if (auto done = (*remove)->run(); !done) return util::forward_error(done);
  }
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  AccountRecord now = **found;
  now.disabled = disabled;
  return now;
}

Result<void> SqliteStore::add_session(const NewSession& session) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Immediate);
  if (!tx) return util::forward_error(tx);
  {
    auto insert = impl_->db.cached(
        "INSERT INTO sessions (token_digest, account_id, created_ms, last_seen_ms, expires_ms, "
        "label) SELECT ?1, ?2, ?3, ?3, ?4, ?5 WHERE ?6 = '' OR EXISTS (SELECT 1 FROM accounts "
        "WHERE id = ?2 AND password_hash = ?6 AND disabled = 0)");
    if (!insert) return util::forward_error(insert);
    (*insert)
        ->bind(1, session.token_digest)
        .bind(2, session.account)
        .bind(3, session.created_ms)
        .bind(4, session.expires_ms)
        .bind(5, session.label)
        .bind(6, session.if_password_hash);
    if (auto done = (*insert)->run(); !done) return util::forward_error(done);
    if (sqlite3_changes(impl_->db.handle()) == 0)
      return fail(StoreCode::NotFound, "the account changed since its password was verified");
  }
  if (!session.rehash.empty()) {
    auto update = impl_->db.cached(
        "UPDATE accounts SET password_hash = ?3 WHERE id = ?1 AND password_hash = ?2");
    if (!update) return util::forward_error(update);
    (*update)->bind(1, session.account).bind(2, session.if_password_hash).bind(3, session.rehash);
    if (auto done = (*update)->run(); !done) return util::forward_error(done);
  }
  return tx->commit();
}

Result<std::optional<SessionLookup>> SqliteStore::find_session(std::string_view token_digest,
                                                               std::int64_t now_ms) {
  std::optional<SessionLookup> found;
  {
    auto select = impl_->db.cached(fmt::format(
        "SELECT s.expires_ms, {} FROM sessions s JOIN accounts a ON a.id = s.account_id "
        "WHERE s.token_digest = ?1 AND s.expires_ms > ?2",
        "a.id, a.name, a.name_key, a.password_hash, a.created_ms, a.password_changed_ms, "
        "a.disabled"));
    if (!select) return util::forward_error(select);
    (*select)->bind(1, token_digest).bind(2, now_ms);
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (*row) found = SessionLookup{account_from_row(**select, 1), (*select)->column_int(0)};
  }
  if (found && !impl_->options.read_only) {
    auto touch = impl_->db.cached("UPDATE sessions SET last_seen_ms = ?2 WHERE token_digest = ?1");
    if (!touch) return util::forward_error(touch);
    (*touch)->bind(1, token_digest).bind(2, now_ms);
    if (auto done = (*touch)->run(); !done) return util::forward_error(done);
  }
  return found;
}

Result<std::int64_t> SqliteStore::end_sessions(AccountId account,
                                               const std::optional<std::string>& token_digest) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  auto remove = impl_->db.cached(
      "DELETE FROM sessions WHERE account_id = ?1 AND (?2 IS NULL OR token_digest = ?2)");
  if (!remove) return util::forward_error(remove);
  (*remove)->bind(1, account).bind_optional(2, token_digest);
  if (auto done = (*remove)->run(); !done) return util::forward_error(done);
  return static_cast<std::int64_t>(sqlite3_changes(impl_->db.handle()));
}

Result<void> SqliteStore::add_password_reset(const NewPasswordReset& reset) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  auto insert = impl_->db.cached(
      "INSERT INTO password_resets (code_digest, account_id, expires_ms) VALUES (?1, ?2, ?3)");
  if (!insert) return util::forward_error(insert);
  (*insert)->bind(1, reset.code_digest).bind(2, reset.account).bind(3, reset.expires_ms);
  return (*insert)->run();
}

Result<AccountRecord> SqliteStore::reset_password(std::string_view code_digest,
                                                  std::string_view name_key,
                                                  std::string_view password_hash,
                                                  std::int64_t now_ms) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Immediate);
  if (!tx) return util::forward_error(tx);
  auto found = find_account(name_key);
  if (!found) return util::forward_error(found);
  const auto refused = [] {
    return fail(StoreCode::NotFound, "no such reset code for this account, or it expired");
  };
  if (!*found) return refused();
  const AccountId id = (*found)->id;
  {
    auto use = impl_->db.cached(
        "UPDATE password_resets SET used_ms = ?3 WHERE code_digest = ?1 AND account_id = ?2 "
        "AND used_ms IS NULL AND expires_ms > ?3");
    if (!use) return util::forward_error(use);
    (*use)->bind(1, code_digest).bind(2, id).bind(3, now_ms);
    if (auto done = (*use)->run(); !done) return util::forward_error(done);
    if (sqlite3_changes(impl_->db.handle()) == 0) return refused();
  }
  if (auto done = set_password(id, password_hash, now_ms); !done)
    return util::forward_error(done);
  if (auto done = end_sessions(id, std::nullopt); !done) return util::forward_error(done);
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  AccountRecord now = **found;
  now.password_hash = std::string(password_hash);
  now.password_changed_ms = now_ms;
  return now;
}

}  // namespace eryantis::store
