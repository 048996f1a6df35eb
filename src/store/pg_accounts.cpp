// The PostgreSQL store's accounts (event_store.hpp, accounts.hpp): rows of
// accounts, sessions and password_resets.
#include <spdlog/fmt/fmt.h>

#include "eryantis/store/accounts.hpp"
#include "eryantis/util/expected.hpp"
#include "pg_impl.hpp"

namespace eryantis::store {

namespace {

// `disabled` as 0/1, like SQLite's.
constexpr std::string_view kAccountColumns =
    "id, name, name_key, password_hash, created_ms, password_changed_ms, "
    "CASE WHEN disabled THEN 1 ELSE 0 END";

AccountRecord account_from_row(const pg::Rows& rows, int r, int first = 0) {
  AccountRecord a;
  a.id = rows.integer(r, first + 0);
  a.name = std::string(rows.text(r, first + 1));
  a.name_key = std::string(rows.text(r, first + 2));
  a.password_hash = std::string(rows.text(r, first + 3));
  a.created_ms = rows.integer(r, first + 4);
  a.password_changed_ms = rows.integer(r, first + 5);
  a.disabled = rows.integer(r, first + 6) != 0;
  return a;
}

Result<std::optional<AccountRecord>> find_in(pg::Connection& conn, std::string_view name_key,
                                             bool for_update) {
  auto rows = conn.query(fmt::format("SELECT {} FROM accounts WHERE name_key = $1{}",
                                     kAccountColumns, for_update ? " FOR UPDATE" : ""),
                         pg::Params().add(name_key));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return std::optional<AccountRecord>();
  return std::optional<AccountRecord>(account_from_row(*rows, 0));
}

}  // namespace

Result<std::optional<AccountRecord>> PgStore::find_account(std::string_view name_key) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  return find_in(impl_->conn, name_key, false);
}

Result<AccountRecord> PgStore::create_account(const NewAccount& account) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "INSERT INTO accounts (name, name_key, password_hash, created_ms, password_changed_ms) "
      "VALUES ($1, $2, $3, $4, $4) ON CONFLICT (name_key) DO NOTHING RETURNING id",
      pg::Params()
          .add(account.name)
          .add(account.name_key)
          .add(account.password_hash)
          .add(account.created_ms));
  if (!rows) return util::forward_error(rows);
  if (rows->empty())
    return fail(StoreCode::Conflict, fmt::format("the name {} is taken", account.name));
  return AccountRecord{rows->integer(0, 0), account.name,        account.name_key,
                       account.password_hash, account.created_ms, account.created_ms, false};
}

Result<std::vector<AccountRecord>> PgStore::list_accounts() {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows =
      impl_->conn.query(fmt::format("SELECT {} FROM accounts ORDER BY id", kAccountColumns));
  if (!rows) return util::forward_error(rows);
  std::vector<AccountRecord> out;
  for (int r = 0; r < rows->size(); ++r) out.push_back(account_from_row(*rows, r));
  return out;
}

Result<void> PgStore::set_password(AccountId id, std::string_view password_hash,
                                   std::int64_t at_ms) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "UPDATE accounts SET password_hash = $2, password_changed_ms = $3 WHERE id = $1 "
      "RETURNING id",
      pg::Params().add(id).add(password_hash).add(at_ms));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return fail(StoreCode::NotFound, fmt::format("no account {}", id));
  return {};
}

Result<AccountRecord> PgStore::set_disabled(std::string_view name_key, bool disabled) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto tx = pg::Transaction::begin(impl_->conn);
  if (!tx) return util::forward_error(tx);
  auto found = find_in(impl_->conn, name_key, true);
  if (!found) return util::forward_error(found);
  if (!*found) return fail(StoreCode::NotFound, fmt::format("no account {}", name_key));
  auto update = impl_->conn.query("UPDATE accounts SET disabled = $2 WHERE id = $1",
                                  pg::Params().add((*found)->id).add(disabled ? "true" : "false"));
  if (!update) return util::forward_error(update);
  if (disabled) {
    auto remove = impl_->conn.query("DELETE FROM sessions WHERE account_id = $1",
                                    pg::Params().add((*found)->id));
    if (!remove) return util::forward_error(remove);
  }
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  AccountRecord now = **found;
  now.disabled = disabled;
  return now;
}

Result<void> PgStore::add_session(const NewSession& session) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto tx = pg::Transaction::begin(impl_->conn);
  if (!tx) return util::forward_error(tx);
  // The account's row locked: a reset or a disable waits for this session, or this
  // session sees it and opens nothing.
  auto rows = impl_->conn.query(
      "INSERT INTO sessions (token_digest, account_id, created_ms, last_seen_ms, expires_ms, "
      "label) SELECT $1, $2, $3, $3, $4, $5 FROM (SELECT id FROM accounts WHERE id = $2::bigint AND "
      "($6::text = '' OR (password_hash = $6::text AND NOT disabled)) FOR UPDATE) AS ok RETURNING account_id",
      pg::Params()
          .add(session.token_digest)
          .add(session.account)
          .add(session.created_ms)
          .add(session.expires_ms)
          .add(session.label)
          .add(session.if_password_hash));
  if (!rows) return util::forward_error(rows);
  if (rows->empty())
    return fail(StoreCode::NotFound, "the account changed since its password was verified");
  if (!session.rehash.empty()) {
    auto update = impl_->conn.query(
        "UPDATE accounts SET password_hash = $3 WHERE id = $1 AND password_hash = $2",
        pg::Params().add(session.account).add(session.if_password_hash).add(session.rehash));
    if (!update) return util::forward_error(update);
  }
  return tx->commit();
}

Result<std::optional<SessionLookup>> PgStore::find_session(std::string_view token_digest,
                                                           std::int64_t now_ms) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "SELECT s.expires_ms, a.id, a.name, a.name_key, a.password_hash, a.created_ms, "
      "a.password_changed_ms, CASE WHEN a.disabled THEN 1 ELSE 0 END "
      "FROM sessions s JOIN accounts a ON a.id = s.account_id "
      "WHERE s.token_digest = $1 AND s.expires_ms > $2",
      pg::Params().add(token_digest).add(now_ms));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return std::optional<SessionLookup>();
  SessionLookup found{account_from_row(*rows, 0, 1), rows->integer(0, 0)};
  if (!impl_->options.read_only) {
    auto touch = impl_->conn.query("UPDATE sessions SET last_seen_ms = $2 WHERE token_digest = $1",
                                   pg::Params().add(token_digest).add(now_ms));
    if (!touch) return util::forward_error(touch);
  }
  return std::optional<SessionLookup>(std::move(found));
}

Result<std::int64_t> PgStore::end_sessions(AccountId account,
                                           const std::optional<std::string>& token_digest) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "DELETE FROM sessions WHERE account_id = $1 AND ($2::text IS NULL OR token_digest = "
      "$2::text) RETURNING 1",
      pg::Params().add(account).add_optional(token_digest));
  if (!rows) return util::forward_error(rows);
  return static_cast<std::int64_t>(rows->size());
}

Result<void> PgStore::add_password_reset(const NewPasswordReset& reset) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "INSERT INTO password_resets (code_digest, account_id, expires_ms) VALUES ($1, $2, $3)",
      pg::Params().add(reset.code_digest).add(reset.account).add(reset.expires_ms));
  if (!rows) return util::forward_error(rows);
  return {};
}

Result<AccountRecord> PgStore::reset_password(std::string_view code_digest,
                                              std::string_view name_key,
                                              std::string_view password_hash,
                                              std::int64_t now_ms) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto tx = pg::Transaction::begin(impl_->conn);
  if (!tx) return util::forward_error(tx);
  const auto refused = [] {
    return fail(StoreCode::NotFound, "no such reset code for this account, or it expired");
  };
  auto found = find_in(impl_->conn, name_key, true);
  if (!found) return util::forward_error(found);
  if (!*found) return refused();
  const AccountId id = (*found)->id;
  auto used = impl_->conn.query(
      "UPDATE password_resets SET used_ms = $3 WHERE code_digest = $1 AND account_id = $2 "
      "AND used_ms IS NULL AND expires_ms > $3 RETURNING 1",
      pg::Params().add(code_digest).add(id).add(now_ms));
  if (!used) return util::forward_error(used);
  if (used->empty()) return refused();
  auto update = impl_->conn.query(
      "UPDATE accounts SET password_hash = $2, password_changed_ms = $3 WHERE id = $1",
      pg::Params().add(id).add(password_hash).add(now_ms));
  if (!update) return util::forward_error(update);
  auto remove =
      impl_->conn.query("DELETE FROM sessions WHERE account_id = $1", pg::Params().add(id));
  if (!remove) return util::forward_error(remove);
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  AccountRecord now = **found;
  now.password_hash = std::string(password_hash);
  now.password_changed_ms = now_ms;
  return now;
}

}  // namespace eryantis::store
