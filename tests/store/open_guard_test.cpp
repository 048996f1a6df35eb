// What a writer checks before it writes, and what it does when the file turns
// out damaged: a refused file is left byte for byte as it was, a file this
// process cannot write is refused at open, one writer holds the database at a
// time, damaged pages are found at start, and a damage found by a write stops
// all writing at once.
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <set>

#include "eryantis/store/group_committer.hpp"
#include "eryantis/store/migrations.hpp"
#include "eryantis/store/quick_check.hpp"
#include "eryantis/store/sqlite.hpp"
#include "eryantis/store/sqlite_store.hpp"
#include "eryantis/store/writer_lock.hpp"
#include "page_damage.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

using testing::file_bytes;
using testing::TempDir;

// Bytes 18 and 19 of an SQLite header: 1 1 in rollback-journal mode, 2 2 in WAL.
std::pair<int, int> journal_bytes(const std::string& bytes) {
  return {static_cast<unsigned char>(bytes.at(18)), static_cast<unsigned char>(bytes.at(19))};
}

void raw_exec(const std::string& path, const std::string& sql) {
  auto db = sqlite::Database::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  ASSERT_TRUE(db) << db.error().message;
  auto done = db->exec(sql);
  ASSERT_TRUE(done) << sql << ": " << done.error().message;
}

TEST(OpenGuard, RefusedFilesAreLeftExactlyAsTheyWere) {
  TempDir dir;
  const std::string newer = dir.file("newer.db");
  { SqliteStore store = testing::open_store(newer); }
  raw_exec(newer, "PRAGMA journal_mode = DELETE; PRAGMA user_version = " +
                      std::to_string(latest_schema_version() + 1));
  const std::string foreign = dir.file("foreign.db");
  raw_exec(foreign, "PRAGMA application_id = 1234; CREATE TABLE t (x); INSERT INTO t VALUES (1)");
  const std::string unstamped = dir.file("unstamped.db");
  raw_exec(unstamped, "CREATE TABLE events (x)");
  const std::string garbage = dir.file("garbage.db");
  {
    std::FILE* file = std::fopen(garbage.c_str(), "wb");
    ASSERT_NE(file, nullptr);
    const std::string junk(8192, 'x');
    ASSERT_EQ(std::fwrite(junk.data(), 1, junk.size(), file), junk.size());
    std::fclose(file);
  }

  for (const auto& [path, code] :
       {std::pair{newer, StoreCode::TooNew}, std::pair{foreign, StoreCode::Foreign},
        std::pair{unstamped, StoreCode::Foreign}, std::pair{garbage, StoreCode::Corrupt}}) {
    SCOPED_TRACE(path);
    const std::string before = file_bytes(path);
    if (path != garbage) {
      ASSERT_EQ(journal_bytes(before), std::pair(1, 1));
    }
    auto store = SqliteStore::open(path);
    ASSERT_FALSE(store);
    EXPECT_EQ(store.error().code, code) << store.error().message;
    if (code != StoreCode::Corrupt) {
      EXPECT_NE(store.error().message.find("refusing to touch it"), std::string::npos)
          << store.error().message;
    }
    EXPECT_EQ(file_bytes(path), before) << "the refused file was changed";
    EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
  }
}

// Opens `path` read-write in a child process that runs as `nobody` when the
// test runs as root (root may write any file, so permissions alone would prove
// nothing there). Returns the child's StoreCode, or -1 if it opened.
int open_as_unprivileged(const std::string& path, std::string* message) {
  int out[2];
  if (pipe(out) != 0) return -2;
  const pid_t child = fork();
  if (child == 0) {
    close(out[0]);
    if (geteuid() == 0 && (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
      _exit(100);
    auto store = SqliteStore::open(path);
    const std::string text = store ? "" : store.error().message;
    if (!text.empty() && write(out[1], text.data(), text.size()) < 0) _exit(101);
    _exit(store ? 0 : 10 + static_cast<int>(store.error().code));
  }
  close(out[1]);
  char buffer[1024];
  ssize_t got = 0;
  while ((got = read(out[0], buffer, sizeof buffer)) > 0) message->append(buffer, got);
  close(out[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status)) return -3;
  const int code = WEXITSTATUS(status);
  return code == 0 ? -1 : code >= 100 ? -code : code - 10;
}

TEST(OpenGuard, AFileThisProcessCannotWriteIsRefusedAtOpen) {
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  { SqliteStore store = testing::open_store(path); }
  // The folder writable by everyone, the file by nobody.
  std::filesystem::permissions(dir.path(), std::filesystem::perms::all);
  std::filesystem::permissions(path, std::filesystem::perms::owner_read |
                                         std::filesystem::perms::group_read |
                                         std::filesystem::perms::others_read);
  const std::string before = file_bytes(path);
  std::string message;
  EXPECT_EQ(open_as_unprivileged(path, &message), static_cast<int>(StoreCode::ReadOnly)) << message;
  EXPECT_NE(message.find("cannot be written by this process"), std::string::npos) << message;
  EXPECT_EQ(file_bytes(path), before);

  // The file writable by everyone, its folder by nobody but root: no -wal, no -shm.
  std::filesystem::permissions(path, std::filesystem::perms::all);
  std::filesystem::permissions(
      dir.path(), std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                      std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                      std::filesystem::perms::others_exec);
  message.clear();
  const int code = open_as_unprivileged(path, &message);
  EXPECT_GE(code, 0) << "opened a database whose folder it cannot write";
  EXPECT_NE(message.find("cannot be written by this process"), std::string::npos) << message;
  std::filesystem::permissions(dir.path(), std::filesystem::perms::owner_all);
}

TEST(OpenGuard, OneWriterLockPerDatabase) {
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  {
    auto first = WriterLock::acquire(path);
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_EQ(first->path(), path);
    // flock(2) locks belong to an open file: a second open, even in this process, is refused.
    auto second = WriterLock::acquire(path);
    ASSERT_FALSE(second);
    EXPECT_EQ(second.error().code, StoreCode::Busy);
    EXPECT_NE(second.error().message.find("pid " + std::to_string(getpid())), std::string::npos)
        << second.error().message;
    // Readers never ask for it.
    { SqliteStore writer = testing::open_store(path); }
    auto reader = SqliteStore::open(path, Options{.read_only = true});
    EXPECT_TRUE(reader) << reader.error().message;
    // A moved lock is still held.
    WriterLock moved = std::move(*first);
    EXPECT_FALSE(WriterLock::acquire(path));
  }
  EXPECT_TRUE(WriterLock::acquire(path)) << "released when its holder ends";
  auto nowhere = WriterLock::acquire(dir.file("missing/eryantis.db"));
  ASSERT_FALSE(nowhere);
  EXPECT_EQ(nowhere.error().code, StoreCode::Io);
}

// The lock belongs to the file, not to the path: a symlink, a hard link (in another
// folder) and a path with ".." in it all reach the one lock, whichever takes it
// first, and nothing is created beside any of them.
TEST(OpenGuard, OneWriterLockPerFileWhateverThePathToIt) {
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  { SqliteStore store = testing::open_store(path); }
  std::filesystem::create_directory(dir.path() / "elsewhere");
  const std::string symlink = dir.file("elsewhere/symlink.db");
  const std::string hard_link = dir.file("elsewhere/hard-link.db");
  const std::string dotted = dir.file("elsewhere/../eryantis.db");
  std::filesystem::create_symlink(path, symlink);
  std::filesystem::create_hard_link(path, hard_link);
  auto listing = [&] {
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path()))
      names.insert(std::filesystem::relative(entry.path(), dir.path()).string());
    return names;
  };
  const std::set<std::string> files = listing();
  const std::string ours = "(pid " + std::to_string(getpid()) + ")";

  for (const std::string& holder : {path, symlink, hard_link}) {
    SCOPED_TRACE("held through " + holder);
    auto held = WriterLock::acquire(holder);
    ASSERT_TRUE(held) << held.error().message;
    for (const std::string& other : {path, symlink, hard_link, dotted}) {
      if (other == holder) continue;
      SCOPED_TRACE("asked through " + other);
      auto second = WriterLock::acquire(other);
      ASSERT_FALSE(second) << "a second writer through another path to the same file";
      EXPECT_EQ(second.error().code, StoreCode::Busy);
      EXPECT_NE(second.error().message.find("already used by another eryantis-server " + ours),
                std::string::npos)
          << second.error().message;
      EXPECT_NE(second.error().message.find("hard link"), std::string::npos)
          << second.error().message;
    }
  }
  EXPECT_EQ(listing(), files) << "a lock file was created";
  // A copy is another database: its own lock.
  const std::string copy = dir.file("copy.db");
  std::filesystem::copy_file(path, copy);
  auto held = WriterLock::acquire(path);
  ASSERT_TRUE(held);
  EXPECT_TRUE(WriterLock::acquire(copy)) << "a copy is another file";
}

// A database with a few stored games, closed (its WAL moved into the file).
std::vector<MatchId> stored_games(const std::string& path, int games, int empty_matches) {
  std::vector<MatchId> ids;
  SqliteStore store = testing::open_store(path);
  for (int g = 0; g < games; ++g) {
    auto game = testing::play_random_game(
        rules::MatchOptions{static_cast<std::uint8_t>(2 + g % 3), rules::Mode::Expert},
        static_cast<std::uint64_t>(g + 1));
    ids.push_back(testing::store_game(store, game, static_cast<std::uint64_t>(g + 1), 8));
  }
  for (int m = 0; m < empty_matches; ++m) {
    auto id = store.create_match(
        NewMatch{test::handle(rules::MatchOptions{2, rules::Mode::Simple}), MatchStatus::Running});
    EXPECT_TRUE(id);
    ids.push_back(*id);
  }
  return ids;
}

TEST(OpenGuard, QuickCheckFindsADamagedPageOfWhatResumingNeeds) {
  TempDir dir;
  const std::string clean = dir.file("clean.db");
  stored_games(clean, 6, 0);
  {
    SqliteStore store = testing::open_store(clean);
    EXPECT_TRUE(quick_check(store));
  }
  // Every b-tree the check covers, each damaged in a copy of the clean file.
  for (const char* btree :
       {testing::kEventsKeyIndex, "events_by_command_id", "sqlite_autoindex_snapshots_1", "matches",
        "matches_by_status", "seats"}) {
    SCOPED_TRACE(btree);
    const std::string path = dir.file(std::string(btree) + ".db");
    std::filesystem::copy_file(clean, path);
    const auto pages = testing::btree_pages(path, btree);
    ASSERT_FALSE(pages.empty());
    testing::overwrite_page(path, pages[pages.size() / 2]);
    auto store = SqliteStore::open(path);
    ASSERT_TRUE(store) << "SQLite opens it: only a check of the pages finds the damage";
    auto checked = quick_check(*store);
    ASSERT_FALSE(checked);
    EXPECT_EQ(checked.error().code, StoreCode::Corrupt);
    EXPECT_NE(checked.error().message.find("damaged"), std::string::npos)
        << checked.error().message;
    EXPECT_NE(checked.error().message.find("docs/operations.md"), std::string::npos);
  }
  EXPECT_GE(testing::btree_pages(clean, testing::kEventsKeyIndex, "leaf").size(), 2u)
      << "the key index should span several pages (a leaf was damaged, not only its root)";
}

TEST(OpenGuard, AWriteThatFindsDamageStopsAllWriting) {
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  const auto ids = stored_games(path, 6, 2);
  const auto game = testing::play_random_game(rules::MatchOptions{2, rules::Mode::Simple}, 99, 8);
  auto committer =
      GroupCommitter::start(path, {.store = test::with_games(Options{})}, [] {});
  ASSERT_TRUE(committer) << committer.error().message;
  // Every insert into events goes through the root page of its key index.
  testing::overwrite_page(path, testing::btree_pages(path, testing::kEventsKeyIndex).front());

  std::vector<Result<AppendOutcome>> results;
  auto record = [&](Result<AppendOutcome> r) { results.push_back(std::move(r)); };
  (*committer)->submit(AppendRequest::of(ids[6], 0, {game.events[0]}), record);
  (*committer)->flush();
  (*committer)->deliver_completions();
  ASSERT_EQ(results.size(), 1u);
  ASSERT_FALSE(results[0]);
  EXPECT_EQ(results[0].error().code, StoreCode::Corrupt) << results[0].error().message;
  EXPECT_TRUE((*committer)->degraded());

  // Later requests are refused without a transaction: the file no longer changes.
  const std::string after_damage = file_bytes(path);
  (*committer)->submit(AppendRequest::of(ids[7], 0, {game.events[0]}), record);
  (*committer)->submit(AppendRequest::of(ids[6], 0, {game.events[0]}), record);
  (*committer)->flush();
  (*committer)->deliver_completions();
  ASSERT_EQ(results.size(), 3u);
  for (std::size_t i = 1; i < 3; ++i) {
    ASSERT_FALSE(results[i]);
    EXPECT_EQ(results[i].error().code, StoreCode::Corrupt);
    EXPECT_NE(results[i].error().message.find("not written"), std::string::npos)
        << results[i].error().message;
  }
  EXPECT_EQ(file_bytes(path), after_damage);
}

}  // namespace
}  // namespace eryantis::store
