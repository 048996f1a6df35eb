#pragma once
// Thin RAII over the SQLite C API. A Database owns its connection and a cache of
// prepared statements; every failure becomes a StoreError with SQLite's message.
#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "eryantis/store/error.hpp"

namespace eryantis::store::sqlite {

// Maps an SQLite result code to a StoreError ("<what>: <sqlite message>").
StoreError error_from(sqlite3* db, int rc, std::string_view what);

class Statement {
 public:
  Statement() = default;
  Statement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}

  // Binds are 1-based like SQLite's. A failed bind is reported by the next step().
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, const std::string& text) {
    return bind(index, std::string_view(text));
  }
  Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
  Statement& bind_optional(int index, const std::optional<std::string>& text);
  Statement& bind_blob(int index, std::string_view bytes);
  Statement& bind_null(int index);

  // True when a row is available, false when the statement is done.
  Result<bool> step();
  // Steps to completion, ignoring rows (INSERT, UPDATE, ...).
  Result<void> run();
  // Ready for new bindings; called by StatementLease when a use ends.
  void reset();

  std::int64_t column_int(int index) const;
  bool column_is_null(int index) const;
  // Valid until the next step or reset.
  std::string_view column_text(int index) const;
  std::string_view column_blob(int index) const;
  std::optional<std::string> column_optional_text(int index) const;

  explicit operator bool() const { return stmt_ != nullptr; }

 private:
  struct Finalize {
    void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
  };
  sqlite3* db_ = nullptr;
  std::unique_ptr<sqlite3_stmt, Finalize> stmt_;
  int bind_error_ = SQLITE_OK;
};

// A statement borrowed from the cache for one use: reset when the lease ends.
class StatementLease {
 public:
  StatementLease(Statement* cached, bool* in_use) : statement_(cached), in_use_(in_use) {}
  explicit StatementLease(Statement owned);
  StatementLease(StatementLease&& other) noexcept;
  StatementLease& operator=(StatementLease&&) = delete;
  StatementLease(const StatementLease&) = delete;
  ~StatementLease();

  Statement* operator->() { return statement_; }
  Statement& operator*() { return *statement_; }

 private:
  Statement owned_;  // only when the cached one was already in use (re-entrant use)
  Statement* statement_ = nullptr;
  bool* in_use_ = nullptr;
};

class Database {
 public:
  // `flags` are sqlite3_open_v2's (SQLITE_OPEN_READONLY, ...).
  static Result<Database> open(const std::string& path, int flags);

  Database(Database&&) noexcept = default;
  Database& operator=(Database&&) noexcept = default;
  ~Database();

  // Runs one or more statements without results (schema scripts, pragmas).
  Result<void> exec(std::string_view sql);
  Result<Statement> prepare(std::string_view sql);
  // A prepared statement kept for the connection's lifetime: prepared once, reused.
  Result<StatementLease> cached(std::string_view sql);
  // The first column of the first row as an integer (PRAGMA user_version, count(*), ...).
  Result<std::int64_t> query_int(std::string_view sql);

  sqlite3* handle() const { return db_.get(); }
  std::int64_t last_insert_rowid() const { return sqlite3_last_insert_rowid(db_.get()); }

 private:
  struct Close {
    void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
  };
  struct CacheEntry {
    Statement statement;
    bool in_use = false;
  };
  explicit Database(sqlite3* db) : db_(db) {}

  std::unique_ptr<sqlite3, Close> db_;
  // Declared after db_ so statements are finalised before the connection closes.
  std::unordered_map<std::string, std::unique_ptr<CacheEntry>> cache_;
};

// BEGIN ... COMMIT; rolls back when destroyed uncommitted (an error path).
class Transaction {
 public:
  enum class Kind { Deferred, Immediate };
  static Result<Transaction> begin(Database& db, Kind kind);
  Transaction(Transaction&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}
  Transaction& operator=(Transaction&&) = delete;
  ~Transaction();
  Result<void> commit();

 private:
  explicit Transaction(Database* db) : db_(db) {}
  Database* db_ = nullptr;
};

// SAVEPOINT inside a transaction: release() keeps its writes, destruction undoes them.
class Savepoint {
 public:
  static Result<Savepoint> begin(Database& db);
  Savepoint(Savepoint&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}
  Savepoint& operator=(Savepoint&&) = delete;
  ~Savepoint();
  Result<void> release();

 private:
  explicit Savepoint(Database* db) : db_(db) {}
  Database* db_ = nullptr;
};

}  // namespace eryantis::store::sqlite
