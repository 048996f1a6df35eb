// Opening files: migrations from every earlier schema, and refusing files that
// are not ours or are newer than this build.
#include <gtest/gtest.h>

#include "eryantis/codec/codec.hpp"
#include "eryantis/store/migrations.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

using testing::TempDir;

std::int64_t pragma(SqliteStore& store, const char* name) {
  return store.database().query_int(std::string("PRAGMA ") + name).value();
}

// A file as an older build left it: `count` migrations applied through the raw API.
void create_with_prefix(const std::string& path, std::size_t count) {
  auto db = sqlite::Database::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  ASSERT_TRUE(db) << db.error().message;
  auto applied = migrate(*db, embedded_migrations().first(count));
  ASSERT_TRUE(applied) << applied.error().message;
  EXPECT_EQ(*applied, static_cast<int>(count));
}

TEST(MigrationTest, MigrationsAreDenseAndEmbedded) {
  auto all = embedded_migrations();
  ASSERT_FALSE(all.empty());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].version, static_cast<int>(i + 1));
    EXPECT_FALSE(all[i].sql.empty());
  }
  EXPECT_EQ(latest_schema_version(), all.back().version);
}

TEST(MigrationTest, EveryEarlierSchemaMigratesToTheLatest) {
  // Prefix 0 is an empty file; each further prefix is a file an older build made.
  for (std::size_t prefix = 0; prefix <= embedded_migrations().size(); ++prefix) {
    SCOPED_TRACE("file created with " + std::to_string(prefix) + " migrations");
    TempDir dir;
    const std::string path = dir.file("eryantis.db");
    create_with_prefix(path, prefix);
    {
      SqliteStore store = testing::open_store(path);
      EXPECT_EQ(pragma(store, "user_version"), latest_schema_version());
      EXPECT_EQ(pragma(store, "application_id"), kApplicationId);
      EXPECT_EQ(store.database().query_int("SELECT count(*) FROM match_summary").value(), 0);
      EXPECT_EQ(store.database().query_int("SELECT count(*) FROM timeline").value(), 0);
      EXPECT_EQ(pragma(store, "foreign_keys"), 1);
    }
    // Re-opening the migrated file is a no-op.
    auto db = sqlite::Database::open(path, SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db);
    EXPECT_EQ(migrate(*db).value(), 0);
  }
}

// Schema 3 rebuilt the events table in append order: every row of a file written
// under schema 2 must come through unchanged, and the store must work on it.
TEST(MigrationTest, EventsSurviveTheRebuildInAppendOrder) {
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  create_with_prefix(path, 2);
  std::vector<testing::Game> games;
  for (std::uint64_t seed : {11u, 12u, 13u}) {
    games.push_back(testing::play_random_game({3, rules::Mode::Expert}, seed, 60));
  }
  // Every column of every row, with its storage type, in key order.
  const char* kEventsChecksum =
      "SELECT count(*), 0, group_concat(quote(match_id) || typeof(match_id) || '|' || "
      "quote(seq) || typeof(seq) || '|' || quote(time) || typeof(time) || '|' || quote(actor) || "
      "'|' || quote(command_id) || '|' || quote(type) || '|' || quote(schema_version) || "
      "typeof(schema_version) || '|' || quote(payload) || '|' || quote(state_hash), ';') "
      "FROM (SELECT * FROM events ORDER BY match_id, seq)";
  std::string before;
  {
    // Rows as a schema-2 build wrote them, the matches interleaved event by event.
    auto db = sqlite::Database::open(path, SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db);
    for (std::size_t m = 0; m < games.size(); ++m) {
      ASSERT_TRUE(
          db->exec("INSERT INTO matches (id, created, options, rules_version, status, "
                   "last_seq, updated) VALUES (" +
                   std::to_string(m + 1) +
                   ", 0, '{\"players\":3,\"mode\":\"expert\"}', "
                   "'old', 'running', " +
                   std::to_string(games[m].events.size()) + ", 0)"));
    }
    auto insert = db->prepare(
        "INSERT INTO events (match_id, seq, time, actor, command_id, type, schema_version, "
        "payload, state_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7, ?8)");
    ASSERT_TRUE(insert);
    std::int64_t time = 1'000;
    for (std::size_t i = 0; i < 60; ++i) {
      for (std::size_t m = 0; m < games.size(); ++m) {
        if (i >= games[m].events.size()) continue;
        const NewEvent& event = games[m].events[i];
        const rules::Event& rules_event = test::eriantys_event(event.event);
        insert->bind(1, static_cast<std::int64_t>(m + 1))
            .bind(2, static_cast<std::int64_t>(i + 1))
            .bind(3, ++time)
            .bind(4, event.actor.text())
            .bind_optional(5, event.command_id)
            .bind(6, rules::command_type(rules_event.command))
            .bind(7, codec::event_to_json(rules_event))
            .bind(8, hash_to_hex(event.state_hash));
        ASSERT_TRUE(insert->run());
        insert->reset();
      }
    }
    auto row = db->prepare(kEventsChecksum);
    ASSERT_TRUE(row && row->step().value());
    before = std::to_string(row->column_int(0)) + "|" + std::string(row->column_text(2));
  }

  SqliteStore store = testing::open_store(path);
  EXPECT_EQ(pragma(store, "user_version"), latest_schema_version());
  auto row = store.database().prepare(kEventsChecksum);
  ASSERT_TRUE(row && row->step().value());
  EXPECT_EQ(std::to_string(row->column_int(0)) + "|" + std::string(row->column_text(2)), before);
  const std::int64_t rows = row->column_int(0);
  EXPECT_EQ(store.database().query_int("SELECT count(*) FROM timeline").value(), rows);
  // A rowid table now (a WITHOUT ROWID table has no rowid column), the old rows
  // copied in key order: each match's events stay together.
  EXPECT_EQ(
      store.database()
          .query_int("SELECT count(*) FROM (SELECT match_id, seq, lag(match_id) OVER w AS pm, "
                     "lag(seq) OVER w AS ps FROM events WINDOW w AS (ORDER BY rowid)) "
                     "WHERE pm IS NOT NULL AND (match_id < pm OR (match_id = pm AND seq <= ps))")
          .value(),
      0);
  // The primary key and the command-id index are still enforced by SQLite itself.
  auto duplicate_seq = store.database().exec(
      "INSERT INTO events (match_id, seq, time, actor, type, schema_version, payload, state_hash) "
      "SELECT match_id, seq, time, actor, type, schema_version, payload, state_hash FROM events "
      "WHERE match_id = 1 AND seq = 1");
  ASSERT_FALSE(duplicate_seq);
  EXPECT_NE(duplicate_seq.error().message.find("UNIQUE"), std::string::npos)
      << duplicate_seq.error().message;
  auto duplicate_command = store.database().exec(
      "INSERT INTO events (match_id, seq, time, actor, command_id, type, schema_version, payload, "
      "state_hash) SELECT match_id, 1000, time, actor, command_id, type, schema_version, payload, "
      "state_hash FROM events WHERE match_id = 1 AND command_id IS NOT NULL LIMIT 1");
  ASSERT_FALSE(duplicate_command);
  EXPECT_NE(duplicate_command.error().message.find("UNIQUE"), std::string::npos)
      << duplicate_command.error().message;
  EXPECT_EQ(store.database().query_int("SELECT count(*) FROM events").value(), rows);
  for (std::size_t m = 0; m < games.size(); ++m) {
    const MatchId id = static_cast<MatchId>(m + 1);
    EXPECT_TRUE(store.verify(id).value().ok()) << "match " << id;
    const Seq last = static_cast<Seq>(games[m].events.size());
    // The same command id again is answered from the log, not appended twice.
    const NewEvent& retried = games[m].events.back();
    ASSERT_TRUE(retried.command_id);
    auto again = store.append(id, last - 1, {&retried, 1});
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_TRUE(again->replayed);
    EXPECT_EQ(again->first_seq, last);
    // A seq that exists already is a conflict.
    auto stale = store.append(id, last - 1, {&games[(m + 1) % games.size()].events[0], 1});
    ASSERT_FALSE(stale);
    EXPECT_EQ(stale.error().code, StoreCode::Conflict);
  }
  auto report = store.load_unfinished().value();
  EXPECT_EQ(report.restored.size(), games.size());
  EXPECT_TRUE(report.quarantined.empty());
  // A new event lands after every copied row: append order from here on.
  const testing::Game more = testing::play_random_game({3, rules::Mode::Expert}, 11, 61);
  ASSERT_EQ(more.events.size(), 61u);
  ASSERT_TRUE(store.append(1, 60, {&more.events[60], 1}));
  auto last =
      store.database().prepare("SELECT match_id, seq FROM events ORDER BY rowid DESC LIMIT 1");
  ASSERT_TRUE(last && last->step().value());
  EXPECT_EQ(last->column_int(0), 1);
  EXPECT_EQ(last->column_int(1), 61);
}

// An event whose match row was deleted by hand (foreign keys are off in the
// sqlite3 shell) stops the rebuild: nothing changes and the message says how
// to find the row.
TEST(MigrationTest, OrphanEventStopsTheRebuildAndSaysWhy) {
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  create_with_prefix(path, 2);
  {
    auto db = sqlite::Database::open(path, SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->exec(
        "INSERT INTO events (match_id, seq, time, actor, type, schema_version, payload, "
        "state_hash) VALUES (99, 1, 0, 'server', 'create_match', 1, '{}', '0000000000000000')"));
  }
  auto store = SqliteStore::open(path);
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().message.find("0003_events_in_append_order"), std::string::npos)
      << store.error().message;
  EXPECT_NE(store.error().message.find("foreign_key_check"), std::string::npos)
      << store.error().message;
  EXPECT_NE(store.error().message.find("nothing was changed"), std::string::npos)
      << store.error().message;
  auto db = sqlite::Database::open(path, SQLITE_OPEN_READONLY);
  ASSERT_TRUE(db);
  EXPECT_EQ(db->query_int("PRAGMA user_version").value(), 2);
  EXPECT_EQ(db->query_int("SELECT count(*) FROM events").value(), 1);
}

TEST(MigrationTest, WalAndSynchronousFollowTheOptions) {
  TempDir dir;
  SqliteStore full = testing::open_store(dir.file("a.db"), Options{.durability = Durability::Full});
  EXPECT_EQ(full.database().query_int("PRAGMA synchronous").value(), 2);  // FULL
  SqliteStore normal = testing::open_store(dir.file("b.db"), Options{.durability = Durability::Normal});
  EXPECT_EQ(normal.database().query_int("PRAGMA synchronous").value(), 1);  // NORMAL
  auto mode = full.database().prepare("PRAGMA journal_mode");
  ASSERT_TRUE(mode && mode->step().value());
  EXPECT_EQ(mode->column_text(0), "wal");
}

TEST(MigrationTest, ForeignApplicationIdIsRefused) {
  TempDir dir;
  const std::string path = dir.file("other.db");
  {
    auto db = sqlite::Database::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db->exec("PRAGMA application_id = 1234; CREATE TABLE t (x)"));
  }
  for (bool read_only : {false, true}) {
    auto store = SqliteStore::open(path, Options{.read_only = read_only});
    ASSERT_FALSE(store);
    EXPECT_EQ(store.error().code, StoreCode::Foreign);
    EXPECT_NE(store.error().message.find("not an Eryantis database"), std::string::npos)
        << store.error().message;
  }
}

TEST(MigrationTest, UnstampedDatabaseWithTablesIsRefused) {
  TempDir dir;
  const std::string path = dir.file("other.db");
  {
    auto db = sqlite::Database::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db->exec("CREATE TABLE events (x)"));
  }
  auto store = SqliteStore::open(path);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, StoreCode::Foreign);
}

TEST(MigrationTest, NewerSchemaIsRefused) {
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  {
    SqliteStore store = testing::open_store(path);
    testing::exec(store, "PRAGMA user_version = " + std::to_string(latest_schema_version() + 1));
  }
  for (bool read_only : {false, true}) {
    auto store = SqliteStore::open(path, Options{.read_only = read_only});
    ASSERT_FALSE(store);
    EXPECT_EQ(store.error().code, StoreCode::TooNew);
    EXPECT_NE(store.error().message.find("newer"), std::string::npos) << store.error().message;
  }
}

TEST(MigrationTest, ReadOnlyOpenNeverMigrates) {
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  create_with_prefix(path, 0);
  auto store = SqliteStore::open(path, Options{.read_only = true});
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, StoreCode::TooOld);
  auto missing = SqliteStore::open(dir.file("missing.db"), Options{.read_only = true});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, StoreCode::NotFound);
}

TEST(MigrationTest, GarbageFileIsRefused) {
  TempDir dir;
  const std::string path = dir.file("garbage.db");
  {
    std::FILE* file = std::fopen(path.c_str(), "wb");
    std::string junk(8192, 'x');
    std::fwrite(junk.data(), 1, junk.size(), file);
    std::fclose(file);
  }
  auto store = SqliteStore::open(path);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, StoreCode::Corrupt) << store.error().message;
}

}  // namespace
}  // namespace eryantis::store
