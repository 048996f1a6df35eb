// Opening files: migrations from every earlier schema, and refusing files that
// are not ours or are newer than this build.
#include <gtest/gtest.h>

#include "eryantis/store/migrations.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

using testing::TempDir;

std::int64_t pragma(Store& store, const char* name) {
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
      Store store = testing::open_store(path);
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

TEST(MigrationTest, WalAndSynchronousFollowTheOptions) {
  TempDir dir;
  Store full = testing::open_store(dir.file("a.db"), Options{.durability = Durability::Full});
  EXPECT_EQ(full.database().query_int("PRAGMA synchronous").value(), 2);  // FULL
  Store normal = testing::open_store(dir.file("b.db"), Options{.durability = Durability::Normal});
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
    auto store = Store::open(path, Options{.read_only = read_only});
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
  auto store = Store::open(path);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, StoreCode::Foreign);
}

TEST(MigrationTest, NewerSchemaIsRefused) {
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  {
    Store store = testing::open_store(path);
    testing::exec(store, "PRAGMA user_version = " + std::to_string(latest_schema_version() + 1));
  }
  for (bool read_only : {false, true}) {
    auto store = Store::open(path, Options{.read_only = read_only});
    ASSERT_FALSE(store);
    EXPECT_EQ(store.error().code, StoreCode::TooNew);
    EXPECT_NE(store.error().message.find("newer"), std::string::npos) << store.error().message;
  }
}

TEST(MigrationTest, ReadOnlyOpenNeverMigrates) {
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  create_with_prefix(path, 0);
  auto store = Store::open(path, Options{.read_only = true});
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, StoreCode::TooOld);
  auto missing = Store::open(dir.file("missing.db"), Options{.read_only = true});
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
  auto store = Store::open(path);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, StoreCode::Corrupt) << store.error().message;
}

}  // namespace
}  // namespace eryantis::store
