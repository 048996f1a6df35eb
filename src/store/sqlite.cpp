#include "eryantis/store/sqlite.hpp"
#include "eryantis/util/expected.hpp"

#include <cerrno>
#include <string>

namespace eryantis::store::sqlite {

StoreError error_from(sqlite3* db, int rc, std::string_view what) {
  StoreCode code = StoreCode::Io;
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      code = StoreCode::Busy;
      break;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      code = StoreCode::Corrupt;
      break;
    case SQLITE_CONSTRAINT:
      code = StoreCode::Conflict;
      break;
    case SQLITE_READONLY:
      code = StoreCode::ReadOnly;
      break;
    case SQLITE_CANTOPEN:
      code = StoreCode::NotFound;
      break;
    case SQLITE_FULL:
      code = StoreCode::Full;
      break;
    case SQLITE_IOERR:
      // A sync or a -shm extension that found no space: the disk is full all the same.
      if (db != nullptr &&
          (sqlite3_system_errno(db) == ENOSPC || sqlite3_system_errno(db) == EDQUOT))
        code = StoreCode::Full;
      break;
    default:
      break;
  }
  // The connection's message is only meaningful if it reports this very error.
  const char* detail =
      (db != nullptr && sqlite3_errcode(db) == rc) ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  std::string message(what);
  message += ": ";
  message += detail;
  return StoreError{code, std::move(message), -1};
}

Statement& Statement::bind(int index, std::int64_t value) {
  int rc = sqlite3_bind_int64(stmt_.get(), index, value);
  if (rc != SQLITE_OK && bind_error_ == SQLITE_OK) bind_error_ = rc;
  return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
  int rc = sqlite3_bind_text64(stmt_.get(), index, text.data(), text.size(), SQLITE_TRANSIENT,
                               SQLITE_UTF8);
  if (rc != SQLITE_OK && bind_error_ == SQLITE_OK) bind_error_ = rc;
  return *this;
}

Statement& Statement::bind_optional(int index, const std::optional<std::string>& text) {
  return text ? bind(index, std::string_view(*text)) : bind_null(index);
}

Statement& Statement::bind_blob(int index, std::string_view bytes) {
  int rc = sqlite3_bind_blob64(stmt_.get(), index, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK && bind_error_ == SQLITE_OK) bind_error_ = rc;
  return *this;
}

Statement& Statement::bind_null(int index) {
  int rc = sqlite3_bind_null(stmt_.get(), index);
  if (rc != SQLITE_OK && bind_error_ == SQLITE_OK) bind_error_ = rc;
  return *this;
}

Result<bool> Statement::step() {
  if (bind_error_ != SQLITE_OK) {
    return std::unexpected(error_from(db_, bind_error_, "binding a parameter"));
  }
  int rc = sqlite3_step(stmt_.get());
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return std::unexpected(error_from(db_, rc, sqlite3_sql(stmt_.get())));
}

Result<void> Statement::run() {
  for (;;) {
    auto row = step();
    if (!row) return util::forward_error(row);
    if (!*row) return {};
  }
}

void Statement::reset() {
  sqlite3_reset(stmt_.get());
  sqlite3_clear_bindings(stmt_.get());
  bind_error_ = SQLITE_OK;
}

std::int64_t Statement::column_int(int index) const {
  return sqlite3_column_int64(stmt_.get(), index);
}

bool Statement::column_is_null(int index) const {
  return sqlite3_column_type(stmt_.get(), index) == SQLITE_NULL;
}

std::string_view Statement::column_text(int index) const {
  const auto* text = sqlite3_column_text(stmt_.get(), index);
  int size = sqlite3_column_bytes(stmt_.get(), index);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text), static_cast<std::size_t>(size)};
}

std::string_view Statement::column_blob(int index) const {
  const void* blob = sqlite3_column_blob(stmt_.get(), index);
  int size = sqlite3_column_bytes(stmt_.get(), index);
  if (blob == nullptr) return {};
  return {static_cast<const char*>(blob), static_cast<std::size_t>(size)};
}

std::optional<std::string> Statement::column_optional_text(int index) const {
  if (column_is_null(index)) return std::nullopt;
  return std::string(column_text(index));
}

StatementLease::StatementLease(Statement owned) : owned_(std::move(owned)) {
  statement_ = &owned_;
}

StatementLease::StatementLease(StatementLease&& other) noexcept
    : owned_(std::move(other.owned_)),
      statement_(other.statement_ == &other.owned_ ? &owned_ : other.statement_),
      in_use_(std::exchange(other.in_use_, nullptr)) {
  other.statement_ = nullptr;
}

StatementLease::~StatementLease() {
  if (statement_ != nullptr && statement_ != &owned_) statement_->reset();
  if (in_use_ != nullptr) *in_use_ = false;
}

Result<Database> Database::open(const std::string& path, int flags) {
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  // sqlite3_open_v2 hands out a handle even on failure: own it before anything else.
  Database db(raw);
  if (rc != SQLITE_OK) {
    return std::unexpected(error_from(raw, rc, "opening " + path));
  }
  sqlite3_extended_result_codes(raw, 1);
  return db;
}

Database::~Database() {
  cache_.clear();  // finalise statements before the connection (sqlite3_close_v2 tolerates either)
}

Result<void> Database::exec(std::string_view sql) {
  std::string text(sql);
  char* message = nullptr;
  int rc = sqlite3_exec(db_.get(), text.c_str(), nullptr, nullptr, &message);
  if (rc == SQLITE_OK) return {};
  std::string detail = message != nullptr ? message : sqlite3_errstr(rc);
  sqlite3_free(message);
  StoreError error = error_from(db_.get(), rc, "");
  error.message = detail;
  return std::unexpected(std::move(error));
}

Result<Statement> Database::prepare(std::string_view sql) {
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v3(db_.get(), sql.data(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &raw, nullptr);
  Statement statement(db_.get(), raw);
  if (rc != SQLITE_OK) {
    return std::unexpected(error_from(db_.get(), rc, "preparing " + std::string(sql)));
  }
  return statement;
}

Result<StatementLease> Database::cached(std::string_view sql) {
  auto found = cache_.find(std::string(sql));
  if (found == cache_.end()) {
    auto statement = prepare(sql);
    if (!statement) return util::forward_error(statement);
    auto entry = std::make_unique<CacheEntry>();
    entry->statement = std::move(*statement);
    found = cache_.emplace(std::string(sql), std::move(entry)).first;
  }
  CacheEntry& entry = *found->second;
  if (entry.in_use) {
    // Re-entrant use of the same SQL: a one-off statement keeps both uses correct.
    auto statement = prepare(sql);
    if (!statement) return util::forward_error(statement);
    return StatementLease(std::move(*statement));
  }
  entry.in_use = true;
  return StatementLease(&entry.statement, &entry.in_use);
}

Result<std::int64_t> Database::query_int(std::string_view sql) {
  auto statement = prepare(sql);
  if (!statement) return util::forward_error(statement);
  auto row = statement->step();
  if (!row) return util::forward_error(row);
  if (!*row) return fail(StoreCode::NotFound, "no row from " + std::string(sql));
  return statement->column_int(0);
}

Result<Transaction> Transaction::begin(Database& db, Kind kind) {
  auto statement = db.cached(kind == Kind::Immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
  if (!statement) return util::forward_error(statement);
  if (auto done = (*statement)->run(); !done) return util::forward_error(done);
  return Transaction(&db);
}

Transaction::~Transaction() {
  if (db_ == nullptr) return;
  // Best effort: after some errors SQLite has already rolled back, which is fine.
  if (sqlite3_get_autocommit(db_->handle()) == 0) (void)db_->exec("ROLLBACK");
}

Result<void> Transaction::commit() {
  auto statement = db_->cached("COMMIT");
  if (!statement) return util::forward_error(statement);
  if (auto done = (*statement)->run(); !done) return util::forward_error(done);
  db_ = nullptr;
  return {};
}

Result<Savepoint> Savepoint::begin(Database& db) {
  auto statement = db.cached("SAVEPOINT request");
  if (!statement) return util::forward_error(statement);
  if (auto done = (*statement)->run(); !done) return util::forward_error(done);
  return Savepoint(&db);
}

Savepoint::~Savepoint() {
  if (db_ == nullptr) return;
  if (auto undo = db_->cached("ROLLBACK TO request"); undo) (void)(*undo)->run();
  if (auto release = db_->cached("RELEASE request"); release) (void)(*release)->run();
}

Result<void> Savepoint::release() {
  auto statement = db_->cached("RELEASE request");
  if (!statement) return util::forward_error(statement);
  if (auto done = (*statement)->run(); !done) return util::forward_error(done);
  db_ = nullptr;
  return {};
}

}  // namespace eryantis::store::sqlite
