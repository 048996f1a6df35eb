#pragma once
// Schema migrations: migrations/NNNN_name.sql, compiled into the binary at build
// time, applied in order at open and tracked with PRAGMA user_version.
#include <cstdint>
#include <span>
#include <string_view>

#include "eryantis/store/error.hpp"
#include "eryantis/store/sqlite.hpp"

namespace eryantis::store {

// PRAGMA application_id of every Eryantis database: 'ERY1'.
inline constexpr std::int32_t kApplicationId = 0x45525931;

struct Migration {
  int version;            // NNNN of the file name: 1, 2, ... without gaps
  std::string_view name;  // the file name after NNNN_, without .sql
  std::string_view sql;
};

// Every migration of this build, in order (generated from migrations/*.sql).
std::span<const Migration> embedded_migrations();
// The user_version this build writes: the last migration's version.
int latest_schema_version();

// PostgreSQL's migrations (migrations/postgresql/*.sql, numbered like SQLite's:
// each SQLite migration has its twin there) and the version they reach.
std::span<const Migration> embedded_pg_migrations();
int latest_pg_schema_version();

// Refuses a file that is not ours (another application_id, or tables without
// ours) or that a newer build wrote. Returns the file's user_version.
Result<int> check_compatible(sqlite::Database& db);

// Applies `migrations` after the file's user_version, all in one IMMEDIATE
// transaction, then sets user_version and application_id. Re-running is a no-op.
// Returns the number of migrations applied.
Result<int> migrate(sqlite::Database& db, std::span<const Migration> migrations);
inline Result<int> migrate(sqlite::Database& db) {
  return migrate(db, embedded_migrations());
}

}  // namespace eryantis::store
