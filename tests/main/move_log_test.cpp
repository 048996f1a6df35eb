// The move log read back by StorePersistence's reader (the `move_log` request's
// store side), on both backends: a stored game's events from..to, each in the
// render layer's sentence, off the caller's thread; a damaged log, a missing
// match and a full queue answered with errors.
#include <gtest/gtest.h>
#include <spdlog/fmt/fmt.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <mutex>

#include "eryantis/main/store_persistence.hpp"
#include "eryantis/render/render.hpp"
#include "eryantis/store/open_store.hpp"
#include "eryantis/store/pg_store.hpp"
#include "support/polling.hpp"
#include "support/postgres_cluster.hpp"
#include "test_support.hpp"

namespace eryantis::app {
namespace {

using namespace std::chrono_literals;

const std::array<std::string, rules::kMaxPlayers> kNames = {"alice", "bob", "", ""};

// What the server pushed for each event: describe_event between the states around it.
std::vector<server::MoveLogLine> expected_lines(const store::testing::Game& game, store::Seq from,
                                                store::Seq to) {
  std::vector<server::MoveLogLine> out;
  for (store::Seq seq = from; seq <= to; ++seq) {
    const auto i = static_cast<std::size_t>(seq - 1);
    const rules::State before = i == 0 ? rules::State{} : game.states[i - 1];
    out.push_back(
        {seq, render::describe_event(before, test::eriantys_event(game.events[i].event), game.states[i], kNames)});
  }
  return out;
}

// A group committer and a StorePersistence over `location`; reads answered on the test thread.
struct Reading {
  std::unique_ptr<store::GroupCommitter> committer;
  std::unique_ptr<StorePersistence> persistence;

  Reading(const store::StoreLocation& location, StorePersistence::OpenReader open = {}) {
    auto writer = store::open_store(location, test::with_games(store::Options{}));
    EXPECT_TRUE(writer) << writer.error().message;
    auto started = store::GroupCommitter::start(std::move(*writer), {}, [] {});
    EXPECT_TRUE(started) << started.error().message;
    committer = std::move(*started);
    if (!open) open = read_only_opener(location, test::with_games(store::Options{}));
    persistence = std::make_unique<StorePersistence>(*committer, std::move(open));
  }
  ~Reading() {
    persistence.reset();
    committer->stop();
  }
  store::Result<std::vector<server::MoveLogLine>> read(server::MoveLogRead r) {
    std::optional<store::Result<std::vector<server::MoveLogLine>>> answer;
    const std::thread::id caller = std::this_thread::get_id();
    persistence->read_move_log(std::move(r), [&](auto lines) {
      EXPECT_EQ(std::this_thread::get_id(), caller) << "answered on the caller's thread";
      answer = std::move(lines);
    });
    EXPECT_TRUE(test::eventually(
        10s,
        [&] {
          persistence->deliver();
          return answer.has_value();
        },
        1ms));
    return answer.value_or(store::fail(store::StoreCode::Io, "no answer"));
  }
};

void reads_the_whole_log(const store::StoreLocation& location, store::EventStore& db) {
  // A whole 4-player expert game: the longest kind of match.
  const auto game = store::testing::play_random_game({4, rules::Mode::Expert}, 42);
  const store::MatchId id = store::testing::store_game(db, game, 3);
  const auto last = static_cast<store::Seq>(game.events.size());
  Reading r(location);
  ASSERT_TRUE(r.read({id, 1, 1, kNames}));  // the reader's connection opened
  const auto started = std::chrono::steady_clock::now();
  auto all = r.read({id, 1, last, kNames});
  const auto ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  ASSERT_TRUE(all) << all.error().message;
  EXPECT_EQ(*all, expected_lines(game, 1, last));
  EXPECT_EQ(all->front().text.rfind("match created: 4 players, expert", 0), 0u);
  std::size_t longest = 0;
  for (const auto& line : *all) longest = std::max(longest, line.text.size());
  std::cout << "[ figure   ] " << location.describe() << ": the move log of " << last
            << " events read and folded in " << ms << " ms (longest line " << longest
            << " bytes)\n";
  auto middle = r.read({id, 50, 60, kNames});
  ASSERT_TRUE(middle) << middle.error().message;
  EXPECT_EQ(*middle, expected_lines(game, 50, 60));
  // A match that is not there; events asked for that are not stored.
  auto missing = r.read({id + 100, 1, 5, kNames});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, store::StoreCode::NotFound) << missing.error().message;
  auto beyond = r.read({id, 1, last + 5, kNames});
  ASSERT_FALSE(beyond);
  EXPECT_EQ(beyond.error().code, store::StoreCode::NotFound) << beyond.error().message;
}

TEST(MoveLogRead, SqliteFile) {
  store::testing::TempDir dir("eryantis-move-log");
  const std::string path = dir.file("eryantis.db");
  { store::testing::open_store(path); }  // created and migrated
  auto db = store::testing::open_store(path);
  reads_the_whole_log({store::Backend::Sqlite, path}, db);
}

TEST(MoveLogRead, Postgresql) {
  std::string why_not;
  test::PostgresCluster* postgres = test::PostgresCluster::shared(&why_not);
  if (!postgres) {
    if (test::PostgresCluster::required()) FAIL() << "CI needs PostgreSQL: " << why_not;
    GTEST_SKIP() << "PostgreSQL not installed: " << why_not;
  }
  const std::string conninfo = postgres->fresh_conninfo();
  auto db = store::PgStore::open(conninfo, test::with_games(store::Options{}));
  ASSERT_TRUE(db) << db.error().message;
  reads_the_whole_log({store::Backend::Postgresql, conninfo}, *db);
}

TEST(MoveLogRead, ADamagedLogIsRefusedNotGuessed) {
  store::testing::TempDir dir("eryantis-move-log");
  const std::string path = dir.file("eryantis.db");
  auto db = store::testing::open_store(path);
  const auto game = store::testing::play_random_game({2, rules::Mode::Simple}, 5, 40);
  const store::MatchId id = store::testing::store_game(db, game, 1);
  store::testing::exec(
      db, fmt::format("UPDATE events SET payload = '{{\"v\":1,\"type\":\"fly\"}}' WHERE "
                      "match_id = {} AND seq = 20",
                      id));
  Reading r({store::Backend::Sqlite, path});
  auto before = r.read({id, 1, 19, kNames});  // the trusted prefix still reads
  ASSERT_TRUE(before) << before.error().message;
  EXPECT_EQ(before->size(), 19u);
  auto damaged = r.read({id, 1, 30, kNames});
  ASSERT_FALSE(damaged);
  EXPECT_EQ(damaged.error().code, store::StoreCode::Corrupt);
  EXPECT_NE(damaged.error().message.find("event 20 does not decode"), std::string::npos)
      << damaged.error().message;
}

// The reader takes kMaxQueuedMoveLogReads waiting reads; one more is refused at
// once (Busy), and the reader then answers every one it took.
TEST(MoveLogRead, AFullQueueSaysBusy) {
  store::testing::TempDir dir("eryantis-move-log");
  const std::string path = dir.file("eryantis.db");
  auto db = store::testing::open_store(path);
  const auto game = store::testing::play_random_game({2, rules::Mode::Simple}, 9, 20);
  const store::MatchId id = store::testing::store_game(db, game, 1);
  std::mutex mutex;
  std::condition_variable cv;
  bool opening = false;
  bool release = false;
  const store::StoreLocation location{store::Backend::Sqlite, path};
  Reading r(location, [&, location]() -> store::Result<std::unique_ptr<store::EventStore>> {
    std::unique_lock lock(mutex);
    opening = true;
    cv.notify_all();
    cv.wait(lock, [&] { return release; });
    store::Options o = test::with_games(store::Options{});
    o.read_only = true;
    return store::open_store(location, o);
  });
  std::atomic<int> answered = 0;
  std::atomic<int> busy = 0;
  auto ask = [&] {
    r.persistence->read_move_log({id, 1, 5, kNames}, [&](auto lines) {
      ++answered;
      if (!lines && lines.error().code == store::StoreCode::Busy) ++busy;
    });
  };
  ask();  // taken by the reader, which now waits in open
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(cv.wait_for(lock, 10s, [&] { return opening; }));
  }
  for (std::size_t i = 0; i < kMaxQueuedMoveLogReads + 1; ++i) ask();
  ASSERT_TRUE(test::eventually(10s, [&] {
    r.persistence->deliver();
    return busy == 1;
  }));
  {
    std::lock_guard lock(mutex);
    release = true;
  }
  cv.notify_all();
  ASSERT_TRUE(test::eventually(10s, [&] {
    r.persistence->deliver();
    return answered == static_cast<int>(kMaxQueuedMoveLogReads) + 2;
  }));
  EXPECT_EQ(busy, 1);
}

}  // namespace
}  // namespace eryantis::app
