#include "eryantis/store/backup.hpp"

#include <sqlite3.h>

#include <filesystem>
#include <string>

#include "eryantis/store/sqlite.hpp"

namespace eryantis::store {

namespace {

// Copies every page of `from` into a new database at `path`; the number of pages.
Result<int> copy(sqlite::Database& from, const std::string& path) {
  auto to = sqlite::Database::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!to) return std::unexpected(to.error());
  sqlite3_busy_timeout(from.handle(), 5000);
  sqlite3_backup* backup = sqlite3_backup_init(to->handle(), "main", from.handle(), "main");
  if (backup == nullptr)
    return std::unexpected(
        sqlite::error_from(to->handle(), sqlite3_errcode(to->handle()), "backup"));
  // All pages in one step: one read transaction, so the copy is of one moment;
  // in WAL mode it holds up neither the writer nor other readers (only a
  // checkpoint cannot pass it until it ends).
  int rc = SQLITE_OK;
  for (int attempt = 0; attempt < 50; ++attempt) {
    rc = sqlite3_backup_step(backup, -1);
    if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED) break;
    sqlite3_sleep(100);
  }
  const int pages = sqlite3_backup_pagecount(backup);
  sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE) return std::unexpected(sqlite::error_from(to->handle(), rc, "backup"));
  // The copy has the source's journal mode (WAL): one self-contained file instead.
  if (auto ok = to->exec("PRAGMA journal_mode=DELETE"); !ok) return std::unexpected(ok.error());
  return pages;
}

}  // namespace

Result<BackupOutcome> backup_database(const std::string& source, const std::string& destination) {
  std::error_code ec;
  if (std::filesystem::exists(destination, ec))
    return fail(StoreCode::Invalid, destination + " exists already; choose a new file name");
  if (!std::filesystem::exists(source, ec))
    return fail(StoreCode::NotFound, "no database at " + source);
  auto from = sqlite::Database::open(source, SQLITE_OPEN_READONLY);
  if (!from) return std::unexpected(from.error());
  const std::string partial = destination + ".partial";
  std::filesystem::remove(partial, ec);  // left by an interrupted backup
  auto pages = copy(*from, partial);
  if (!pages) {
    std::filesystem::remove(partial, ec);
    return std::unexpected(pages.error());
  }
  std::filesystem::rename(partial, destination, ec);
  if (ec) return fail(StoreCode::Io, "cannot rename " + partial + ": " + ec.message());
  return BackupOutcome{*pages};
}

Result<void> integrity_check_file(const std::string& path) {
  auto db = sqlite::Database::open(path, SQLITE_OPEN_READONLY);
  if (!db) return std::unexpected(db.error());
  auto statement = db->prepare("PRAGMA integrity_check");
  if (!statement) return std::unexpected(statement.error());
  std::string problems;
  for (;;) {
    auto row = statement->step();
    if (!row) return std::unexpected(row.error());
    if (!*row) break;
    const std::string line(statement->column_text(0));
    if (line == "ok") continue;
    if (!problems.empty()) problems += "; ";
    problems += line;
  }
  if (!problems.empty()) return fail(StoreCode::Corrupt, path + ": " + problems);
  return {};
}

}  // namespace eryantis::store
