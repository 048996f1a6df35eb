// Restoring at start: every unfinished match loads, and a damaged one is
// quarantined alone with its reason, its events untouched.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.hpp"

namespace eryantis::store {
namespace {

using testing::Game;
using testing::TempDir;

struct LoadTest : ::testing::Test {
  TempDir dir;
  std::string path = dir.file("eryantis.db");
  SqliteStore store = testing::open_store(path, Options{.snapshot_every = 16});
  std::vector<Game> games;
  std::vector<MatchId> ids;

  void SetUp() override {
    const std::uint64_t seed = testing::test_seed("LoadTest");
    const rules::MatchOptions kinds[] = {{2, rules::Mode::Simple},
                                         {3, rules::Mode::Expert},
                                         {4, rules::Mode::Expert},
                                         {2, rules::Mode::Expert},
                                         {4, rules::Mode::Simple}};
    // Unfinished: each stops mid-game, 2 or more events after its last snapshot (every 16).
    const int lengths[] = {50, 55, 60, 45, 58};
    for (std::size_t i = 0; i < std::size(kinds); ++i) {
      // A game that happens to end sooner is replaced by the next seed's.
      Game game;
      for (std::uint64_t game_seed = seed + i * 1000;; ++game_seed) {
        game = testing::play_random_game(kinds[i], game_seed, lengths[i]);
        if (game.events.size() == static_cast<std::size_t>(lengths[i])) break;
      }
      games.push_back(std::move(game));
      ids.push_back(testing::store_game(store, games.back(), seed + i, /*max_chunk=*/1));
    }
    const MatchId lobby = store.create_match(NewMatch{test::handle(rules::MatchOptions{2, rules::Mode::Simple})}).value();
    ids.push_back(lobby);
    const MatchId finished = testing::store_game(store, games[0], seed);
    ASSERT_TRUE(store.set_status(finished, MatchStatus::Finished));
  }

  std::string match(std::size_t i) const { return std::to_string(ids[i]); }

  // The first seq after the newest snapshot: damage here is in the folded tail.
  Seq tail_seq(std::size_t i) {
    return store.database()
               .query_int("SELECT max(seq) FROM snapshots WHERE match_id = " + match(i))
               .value() +
           1;
  }

  void expect_only_quarantined(std::size_t bad, std::string_view reason_part) {
    auto events_before = store.database().query_int("SELECT count(*) FROM events").value();
    auto report = store.load_unfinished();
    ASSERT_TRUE(report) << report.error().message;
    ASSERT_EQ(report->quarantined.size(), 1u);
    EXPECT_EQ(report->quarantined[0].id, ids[bad]);
    EXPECT_NE(report->quarantined[0].reason.find(reason_part), std::string::npos)
        << report->quarantined[0].reason;
    ASSERT_EQ(report->restored.size(), games.size());  // the other games and the lobby
    for (const LoadedMatch& loaded : report->restored) {
      auto at = std::find(ids.begin(), ids.end(), loaded.id) - ids.begin();
      if (static_cast<std::size_t>(at) < games.size()) {
        EXPECT_EQ(test::eriantys_state(loaded.state), games[static_cast<std::size_t>(at)].states.back());
      } else {
        EXPECT_EQ(loaded.last_seq, 0);
        EXPECT_EQ(loaded.state, test::eriantys().empty_state());
        EXPECT_EQ(loaded.status, MatchStatus::Lobby);
      }
    }
    // Marked, with the reason; nothing deleted; the next start skips it.
    auto matches = store.list_matches().value();
    auto row = std::find_if(matches.begin(), matches.end(),
                            [&](const MatchSummary& m) { return m.id == ids[bad]; });
    EXPECT_EQ(row->status, MatchStatus::Quarantined);
    EXPECT_EQ(row->quarantine_reason, report->quarantined[0].reason);
    EXPECT_EQ(store.database().query_int("SELECT count(*) FROM events").value(), events_before);
    SqliteStore reopened = testing::open_store(path);
    auto again = reopened.load_unfinished().value();
    EXPECT_TRUE(again.quarantined.empty());
    EXPECT_EQ(again.restored.size(), games.size());
    // A quarantined match takes no more events.
    auto append = reopened.append(ids[bad], row->events, {&games[bad].events[0], 1});
    ASSERT_FALSE(append);
    EXPECT_EQ(append.error().code, StoreCode::Conflict);
  }
};

TEST_F(LoadTest, EverythingLoadsWhenNothingIsDamaged) {
  auto report = store.load_unfinished().value();
  EXPECT_TRUE(report.quarantined.empty());
  ASSERT_EQ(report.restored.size(), games.size() + 1);
  for (std::size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(report.restored[i].id, ids[i]);
    EXPECT_EQ(test::eriantys_state(report.restored[i].state), games[i].states.back());
    EXPECT_EQ(report.restored[i].last_seq, static_cast<Seq>(games[i].events.size()));
  }
}

TEST_F(LoadTest, DamagedPayloadQuarantinesOnlyItsMatch) {
  testing::exec(store, "UPDATE events SET payload = substr(payload, 1, 20) WHERE match_id = " +
                           match(1) + " AND seq = " + std::to_string(tail_seq(1)));
  expect_only_quarantined(1, "does not decode");
}

TEST_F(LoadTest, SeqGapQuarantinesOnlyItsMatch) {
  testing::exec(store, "DELETE FROM events WHERE match_id = " + match(2) +
                           " AND seq = " + std::to_string(tail_seq(2) + 1));
  expect_only_quarantined(2, "seq gap");
}

TEST_F(LoadTest, MissingLastEventQuarantinesOnlyItsMatch) {
  testing::exec(store, "DELETE FROM events WHERE match_id = " + match(0) +
                           " AND seq = (SELECT last_seq FROM matches WHERE id = " + match(0) + ")");
  expect_only_quarantined(0, "seq gap");
}

TEST_F(LoadTest, WrongHashQuarantinesOnlyItsMatch) {
  testing::exec(store, "UPDATE events SET state_hash = '0123456789abcdef' WHERE match_id = " +
                           match(3) + " AND seq = " + std::to_string(tail_seq(3) + 2));
  expect_only_quarantined(3, "hash mismatch");
}

TEST_F(LoadTest, ReadOnlyRestoreReportsButDoesNotMark) {
  testing::exec(store, "UPDATE events SET state_hash = '0123456789abcdef' WHERE match_id = " +
                           match(4) + " AND seq = 3");
  // No snapshot covers seq 3 if the fold starts before it: force a full fold.
  testing::exec(store, "DELETE FROM snapshots WHERE match_id = " + match(4));
  SqliteStore reader = testing::open_store(path, Options{.read_only = true});
  auto report = reader.load_unfinished().value();
  ASSERT_EQ(report.quarantined.size(), 1u);
  EXPECT_EQ(report.quarantined[0].id, ids[4]);
  EXPECT_EQ(store.database()
                .query_int("SELECT count(*) FROM matches WHERE status = 'quarantined'")
                .value(),
            0);
}

}  // namespace
}  // namespace eryantis::store

namespace eryantis::store {
namespace {

// The server's restore connection closes without checkpointing (the group committer
// opens the file next): the WAL stays, and the next connection reads everything in it.
TEST(RestoreConnection, LeavesTheCheckpointToTheNextWriter) {
  testing::TempDir dir;
  const std::string path = dir.file("eryantis.db");
  const std::uint64_t seed = testing::test_seed("LeavesTheCheckpointToTheNextWriter");
  const Game game = testing::play_random_game({2, rules::Mode::Simple}, seed, 40);
  MatchId id = 0;
  {
    SqliteStore store = testing::open_store(path);
    id = testing::store_game(store, game, seed, 1);
  }
  // The default: the last close moves the WAL into the file and removes it.
  EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
  {
    SqliteStore store = testing::open_store(path, Options{.checkpoint_on_close = false});
    auto report = store.load_unfinished();
    ASSERT_TRUE(report) << report.error().message;
    ASSERT_EQ(report->restored.size(), 1u);
    // A write, so that the WAL has frames to leave behind.
    ASSERT_TRUE(store.set_status(id, MatchStatus::Running));
  }
  ASSERT_TRUE(std::filesystem::exists(path + "-wal"));
  EXPECT_GT(std::filesystem::file_size(path + "-wal"), 0u);
  SqliteStore next = testing::open_store(path);
  auto report = next.load_unfinished();
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(report->restored.size(), 1u);
  EXPECT_EQ(test::eriantys_state(report->restored[0].state), game.states.back());
  EXPECT_EQ(next.database().query_int("PRAGMA wal_checkpoint(TRUNCATE)").value(), 0);
  EXPECT_EQ(std::filesystem::file_size(path + "-wal"), 0u);
}

}  // namespace
}  // namespace eryantis::store
