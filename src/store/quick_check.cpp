#include "eryantis/store/quick_check.hpp"

#include <spdlog/fmt/fmt.h>

#include <array>

#include "eryantis/store/sqlite.hpp"

namespace eryantis::store {

namespace {

// An index of a big table, walked key by key through a covering scan: summing a
// key column makes SQLite decode every cell (count(*) only counts them, and
// misses a page whose cells are damaged but whose header is not). Kept in step
// with migrations/: a missing index fails the check (and its test).
struct IndexWalk {
  const char* table;
  const char* index;
  const char* key;    // an expression of the key columns, read from every entry
  const char* where;  // a partial index's condition, so the scan may use it
};
constexpr std::array<IndexWalk, 3> kIndexes = {{
    {"events", "sqlite_autoindex_events_1", "seq", "1"},
    {"events", "events_by_command_id", "length(command_id)", "command_id IS NOT NULL"},
    {"snapshots", "sqlite_autoindex_snapshots_1", "seq", "1"},
}};
// Tables whose last page every append writes to: max(rowid) walks from the root
// down to it.
constexpr std::array<const char*, 2> kAppendedTables = {"events", "snapshots"};

// Every row of `sql`, or the error that stopped it, appended to `problems`
// (rows equal to "ok" and counts are not problems).
void collect(sqlite::Database& db, const std::string& sql, bool rows_are_problems,
             std::string& problems) {
  auto add = [&](std::string_view problem) {
    if (!problems.empty()) problems += "; ";
    problems += problem;
  };
  auto statement = db.prepare(sql);
  if (!statement) return add(statement.error().message);
  for (;;) {
    // A page too damaged to walk is reported as an error rather than a row.
    auto row = statement->step();
    if (!row) return add(row.error().message);
    if (!*row) return;
    if (rows_are_problems && statement->column_text(0) != "ok") add(statement->column_text(0));
  }
}

}  // namespace

std::string damaged_file_message(std::string_view problems) {
  return fmt::format(
      "the database file is damaged ({}); nothing was written. Copy the file "
      "aside, then restore a backup or rebuild it from its rows as "
      "docs/operations.md says (\"Repairing a damaged file\")",
      problems);
}

Result<void> quick_check(SqliteStore& store) {
  sqlite::Database& db = store.database();
  std::string problems;
  for (const char* table : {"matches", "seats", "unseen_endings"})
    collect(db, fmt::format("PRAGMA quick_check({})", table), true, problems);
  for (const IndexWalk& walk : kIndexes)
    collect(db,
            fmt::format("SELECT sum({}) FROM {} INDEXED BY {} WHERE {}", walk.key, walk.table,
                        walk.index, walk.where),
            false, problems);
  for (const char* table : kAppendedTables)
    collect(db, fmt::format("SELECT max(rowid) FROM {}", table), false, problems);
  if (problems.empty()) return {};
  return fail(StoreCode::Corrupt, damaged_file_message(problems));
}

}  // namespace eryantis::store
