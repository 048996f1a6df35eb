// PostgreSQL schema migrations: the twin of migrate.cpp. The version lives in a
// one-row table (eryantis_schema) instead of PRAGMA user_version; nodes starting
// together take turns through an advisory lock.
#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include "eryantis/store/migrations.hpp"
#include "eryantis/util/expected.hpp"
#include "pg_impl.hpp"

namespace eryantis::store {

int latest_pg_schema_version() {
  auto all = embedded_pg_migrations();
  return all.empty() ? 0 : all.back().version;
}

namespace detail {

namespace {

// The stored version, nullopt when the schema table does not exist. Refuses a
// database where our tables' names are taken by another application.
Result<std::optional<int>> stored_version(pg::Connection& conn) {
  auto table = conn.query("SELECT to_regclass('eryantis_schema') IS NOT NULL");
  if (!table) return util::forward_error(table);
  if (table->text(0, 0) != "t") {
    auto taken = conn.query(
        "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND "
        "tablename IN ('matches', 'seats', 'events', 'snapshots', 'leases')");
    if (!taken) return util::forward_error(taken);
    if (taken->integer(0, 0) != 0) {
      return fail(StoreCode::Foreign,
                  "not an Eryantis database: it already holds tables named like ours (matches, "
                  "events, ...) without an eryantis_schema table; refusing to touch it");
    }
    return std::nullopt;
  }
  auto version = conn.query("SELECT version, application FROM eryantis_schema");
  if (!version) return util::forward_error(version);
  if (version->size() != 1 || version->text(0, 1) != "eryantis") {
    return fail(StoreCode::Foreign, "not an Eryantis database: eryantis_schema is not ours");
  }
  const int stored = static_cast<int>(version->integer(0, 0));
  if (stored > latest_pg_schema_version()) {
    return fail(StoreCode::TooNew,
                fmt::format("the database has schema version {}, newer than this build knows ({}); "
                            "refusing to touch it: run a newer Eryantis (downgrading is not "
                            "supported)",
                            stored, latest_pg_schema_version()));
  }
  return stored;
}

}  // namespace

Result<int> pg_migrate(pg::Connection& conn, bool read_only) {
  if (read_only) {
    auto version = stored_version(conn);
    if (!version) return util::forward_error(version);
    if (version->value_or(0) < latest_pg_schema_version()) {
      return fail(StoreCode::TooOld,
                  fmt::format("the database has schema version {}, this build needs {}: open it "
                              "once read-write (the server does) to migrate it",
                              version->value_or(0), latest_pg_schema_version()));
    }
    return **version;
  }
  auto tx = pg::Transaction::begin(conn);
  if (!tx) return util::forward_error(tx);
  // 'ERY1', as SQLite's application_id: one migrating node at a time.
  if (auto locked = conn.exec("SELECT pg_advisory_xact_lock(1162041649)"); !locked) {
    return util::forward_error(locked);
  }
  auto version = stored_version(conn);
  if (!version) return util::forward_error(version);
  if (!*version) {
    if (auto done = conn.exec(
            "CREATE TABLE eryantis_schema (version integer NOT NULL, application text NOT NULL); "
            "INSERT INTO eryantis_schema VALUES (0, 'eryantis')");
        !done) {
      return util::forward_error(done);
    }
  }
  int current = version->value_or(0);
  for (const Migration& migration : embedded_pg_migrations()) {
    if (migration.version <= current) continue;
    if (auto done = conn.exec(migration.sql); !done) {
      return fail(done.error().code,
                  fmt::format("migration postgresql/{:04}_{} failed: {} (nothing was changed)",
                              migration.version, migration.name, done.error().message));
    }
    current = migration.version;
    spdlog::info("store: applied migration postgresql/{:04}_{}", migration.version, migration.name);
  }
  auto stamp = conn.query("UPDATE eryantis_schema SET version = $1",
                          pg::Params().add(std::int64_t{current}));
  if (!stamp) return util::forward_error(stamp);
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  return current;
}

}  // namespace detail
}  // namespace eryantis::store
