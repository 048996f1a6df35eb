#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include "eryantis/store/migrations.hpp"
#include "eryantis/util/expected.hpp"

namespace eryantis::store {

int latest_schema_version() {
  auto all = embedded_migrations();
  return all.empty() ? 0 : all.back().version;
}

Result<int> check_compatible(sqlite::Database& db) {
  auto application_id = db.query_int("PRAGMA application_id");
  if (!application_id) return util::forward_error(application_id);
  auto user_version = db.query_int("PRAGMA user_version");
  if (!user_version) return util::forward_error(user_version);

  if (*application_id != 0 && *application_id != kApplicationId) {
    return fail(StoreCode::Foreign,
                fmt::format("not an Eryantis database: its application_id is {:#010x}, ours is "
                            "{:#010x}; refusing to touch it",
                            static_cast<std::uint32_t>(*application_id),
                            static_cast<std::uint32_t>(kApplicationId)));
  }
  if (*application_id == 0) {
    // Never stamped by us: only an empty file may become an Eryantis database.
    auto objects = db.query_int("SELECT count(*) FROM sqlite_schema");
    if (!objects) return util::forward_error(objects);
    if (*objects != 0 || *user_version != 0) {
      return fail(StoreCode::Foreign,
                  "not an Eryantis database: it already holds tables of another application "
                  "(application_id is 0); refusing to touch it");
    }
  }
  if (*user_version > latest_schema_version()) {
    return fail(StoreCode::TooNew,
                fmt::format("the database has schema version {}, newer than this build knows ({}); "
                            "refusing to touch it: run a newer Eryantis (downgrading is not "
                            "supported)",
                            *user_version, latest_schema_version()));
  }
  return static_cast<int>(*user_version);
}

Result<int> migrate(sqlite::Database& db, std::span<const Migration> migrations) {
  auto tx = sqlite::Transaction::begin(db, sqlite::Transaction::Kind::Immediate);
  if (!tx) return util::forward_error(tx);
  // Checked again under the write lock: another process may have migrated meanwhile.
  auto current = check_compatible(db);
  if (!current) return util::forward_error(current);

  int applied = 0;
  for (const Migration& migration : migrations) {
    if (migration.version <= *current) continue;
    if (auto done = db.exec(migration.sql); !done) {
      // Rows only hand edits (foreign keys off) can leave behind; say how to find them.
      const bool foreign_key = done.error().message.find("FOREIGN KEY") != std::string::npos;
      return fail(done.error().code,
                  fmt::format("migration {:04}_{} failed: {}{} (nothing was changed)",
                              migration.version, migration.name, done.error().message,
                              foreign_key ? "; `sqlite3 FILE 'PRAGMA foreign_key_check'` lists the "
                                            "rows that point at a missing match"
                                          : ""));
    }
    // PRAGMA takes no parameters; the values are integers we produce.
    if (auto done = db.exec(fmt::format("PRAGMA user_version = {}", migration.version)); !done) {
      return util::forward_error(done);
    }
    spdlog::info("store: applied migration {:04}_{}", migration.version, migration.name);
    ++applied;
  }
  if (applied > 0) {
    if (auto done = db.exec(fmt::format("PRAGMA application_id = {}", kApplicationId)); !done) {
      return util::forward_error(done);
    }
  }
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  return applied;
}

}  // namespace eryantis::store
