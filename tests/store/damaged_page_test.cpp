// One damaged page of a real file, as a bad sector or a stray write leaves it,
// and what the start makes of it (issue 23): a page of events rows takes out
// only the unfinished matches whose rows it held, which are quarantined while
// the others restore exactly and take writes; a damaged snapshot page costs
// nothing but a longer fold; and damage SQLite cannot pin on matches (an index
// page, the page every append goes through) is refused by the start check.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "eryantis/store/quick_check.hpp"
#include "eryantis/store/sqlite.hpp"
#include "eryantis/store/sqlite_store.hpp"
#include "page_damage.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

using testing::Game;
using testing::TempDir;

struct DamagedPageTest : ::testing::Test {
  TempDir dir;
  std::string path = dir.file("eryantis.db");
  std::vector<Game> games;  // one per match, in id order
  std::vector<MatchId> ids;
  std::set<MatchId> unfinished;

  // Eight matches whose events are appended in turns, one event each, as a
  // server's group commits interleave them: every page of events holds rows of
  // several matches. Match 1 stops early (its last rows sit in the middle of the
  // table), matches 3 and 6 are finished, the others run on to the end.
  void SetUp() override {
    const std::uint64_t seed = testing::test_seed("DamagedPageTest");
    SqliteStore store = testing::open_store(path, Options{.snapshot_every = 16});
    const int lengths[] = {70, 25, 70, 40, 70, 60, 35, 70};
    for (std::size_t i = 0; i < std::size(lengths); ++i) {
      const rules::MatchOptions options{static_cast<std::uint8_t>(2 + i % 3),
                                        i % 2 ? rules::Mode::Expert : rules::Mode::Simple};
      Game game;
      for (std::uint64_t game_seed = seed + i * 1000;; ++game_seed) {
        game = testing::play_random_game(options, game_seed, lengths[i]);
        if (game.events.size() == static_cast<std::size_t>(lengths[i])) break;
      }
      games.push_back(std::move(game));
      ids.push_back(
          store.create_match(NewMatch{test::handle(options), MatchStatus::Running}).value());
    }
    for (std::size_t turn = 0; turn < 70; ++turn) {
      for (std::size_t i = 0; i < games.size(); ++i) {
        if (turn >= games[i].events.size()) continue;
        const game::State after = games[i].after(turn);
        auto appended = store.append(ids[i], static_cast<Seq>(turn),
                                     std::span(&games[i].events[turn], 1), &after);
        ASSERT_TRUE(appended) << appended.error().message;
      }
    }
    for (std::size_t i : {3u, 6u}) ASSERT_TRUE(store.set_status(ids[i], MatchStatus::Finished));
    for (std::size_t i : {0u, 1u, 2u, 4u, 5u, 7u}) unfinished.insert(ids[i]);
  }  // closed: the WAL is checkpointed into the file

  std::size_t index_of(MatchId id) const {
    return static_cast<std::size_t>(std::find(ids.begin(), ids.end(), id) - ids.begin());
  }

  // The matches with a row on the leaf of events that holds rowid `rowid`, and
  // that leaf's page.
  std::pair<std::int64_t, std::set<MatchId>> leaf_of_row(std::int64_t rowid) {
    for (std::int64_t page : testing::btree_pages(path, "events", "leaf")) {
      const auto [first, last] = testing::rowids_on_leaf(path, "events", page);
      if (rowid < first || rowid > last) continue;
      auto db = sqlite::Database::open(path, SQLITE_OPEN_READONLY);
      EXPECT_TRUE(db);
      auto select =
          db->prepare("SELECT DISTINCT match_id FROM events WHERE rowid BETWEEN ?1 AND ?2");
      select->bind(1, first).bind(2, last);
      std::set<MatchId> matches;
      while (select->step().value_or(false)) matches.insert(select->column_int(0));
      return {page, matches};
    }
    ADD_FAILURE() << "no leaf holds rowid " << rowid;
    return {0, {}};
  }

  std::int64_t rowid_of(MatchId id, Seq seq) {
    auto db = sqlite::Database::open(path, SQLITE_OPEN_READONLY);
    return db
        ->query_int("SELECT rowid FROM events WHERE match_id = " + std::to_string(id) +
                    " AND seq = " + std::to_string(seq))
        .value();
  }
};

TEST_F(DamagedPageTest, AnEventsPageQuarantinesOnlyTheUnfinishedMatchesWithRowsOnIt) {
  // The page holding match 1's last event: in the middle of the table, not on the
  // path every append takes (the last page).
  const MatchId early = ids[1];
  const auto [page, on_page] = leaf_of_row(rowid_of(early, 25));
  ASSERT_TRUE(on_page.count(early));
  const auto leaves = testing::btree_pages(path, "events", "leaf");
  ASSERT_NE(page, leaves.back()) << "the middle of the table";
  ASSERT_GE(on_page.size(), 2u) << "rows of several matches share the page";
  testing::overwrite_page(path, page);

  SqliteStore store = testing::open_store(path, Options{.snapshot_every = 16});
  ASSERT_TRUE(quick_check(store)) << "the start check reads no row of events";
  auto report = store.load_unfinished();
  ASSERT_TRUE(report) << "one damaged page stopped the whole restore: " << report.error().message;

  std::set<MatchId> quarantined;
  for (const QuarantinedMatch& q : report->quarantined) {
    quarantined.insert(q.id);
    EXPECT_TRUE(on_page.count(q.id)) << "match " << q.id << " has no row on the damaged page";
    EXPECT_NE(q.reason.find("damaged page"), std::string::npos) << q.reason;
    EXPECT_NE(q.reason.find("docs/operations.md"), std::string::npos) << q.reason;
  }
  EXPECT_TRUE(quarantined.count(early)) << "its last event is on the page: it cannot be folded";
  // Every other unfinished match is restored exactly.
  std::set<MatchId> restored;
  for (const LoadedMatch& m : report->restored) {
    restored.insert(m.id);
    EXPECT_EQ(test::eriantys_state(m.state), games[index_of(m.id)].states.back())
        << "match " << m.id;
  }
  std::set<MatchId> every;
  std::set_union(quarantined.begin(), quarantined.end(), restored.begin(), restored.end(),
                 std::inserter(every, every.end()));
  EXPECT_EQ(every, unfinished);
  for (MatchId id : unfinished) {
    if (!on_page.count(id)) {
      EXPECT_TRUE(restored.count(id)) << "match " << id;
    }
  }

  // Marked in the file, so the next start skips them without reading the page.
  const auto matches = store.list_matches().value();
  for (const MatchSummary& m : matches) {
    if (quarantined.count(m.id)) {
      EXPECT_EQ(m.status, MatchStatus::Quarantined) << m.id;
    }
  }
  auto again = store.load_unfinished();
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(again->quarantined.empty());
  EXPECT_EQ(again->restored.size(), restored.size());

  // Writing goes on: new rows go to the end of the table, not to the damaged page.
  const Game fresh = testing::play_random_game(rules::MatchOptions{3, rules::Mode::Expert}, 77, 40);
  const MatchId added = testing::store_game(store, fresh, 77);
  auto verified = store.verify(added);
  ASSERT_TRUE(verified) << verified.error().message;
  EXPECT_TRUE(verified->ok());
}

TEST_F(DamagedPageTest, ASnapshotPageCostsOnlyALongerFold) {
  for (std::int64_t page : testing::btree_pages(path, "snapshots", "leaf")) {
    if (page == testing::btree_pages(path, "snapshots", "leaf").back()) continue;
    testing::overwrite_page(path, page);
  }
  SqliteStore store = testing::open_store(path, Options{.snapshot_every = 16});
  ASSERT_TRUE(quick_check(store));
  auto report = store.load_unfinished();
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->quarantined.empty()) << report->quarantined.front().reason;
  ASSERT_EQ(report->restored.size(), unfinished.size());
  for (const LoadedMatch& m : report->restored)
    EXPECT_EQ(test::eriantys_state(m.state), games[index_of(m.id)].states.back())
        << "match " << m.id;
}

// What SQLite cannot pin on matches stops the start, with the way to repair:
// a leaf of either index of events (which keys it held is what was lost), and
// the last page of events or snapshots, which every append writes to.
TEST_F(DamagedPageTest, DamageNoMatchCanBeBlamedForIsRefusedByTheStartCheck) {
  const std::string clean = dir.file("clean.db");
  std::filesystem::copy_file(path, clean);
  struct Case {
    const char* btree;
    bool last;   // the last leaf, else one in the middle
    bool cells;  // only its cells (the page still looks like one), else the whole page
  };
  for (const Case& c :
       {Case{testing::kEventsKeyIndex, false, false}, Case{testing::kEventsKeyIndex, true, false},
        Case{testing::kEventsKeyIndex, false, true}, Case{"events_by_command_id", false, false},
        Case{"events_by_command_id", false, true},
        Case{"sqlite_autoindex_snapshots_1", false, true}, Case{"events", true, false},
        Case{"snapshots", true, false}}) {
    SCOPED_TRACE(std::string(c.btree) + (c.last ? ", its last leaf" : ", a middle leaf") +
                 (c.cells ? ", its cells" : ", all of it"));
    std::filesystem::copy_file(clean, path, std::filesystem::copy_options::overwrite_existing);
    const auto leaves = testing::btree_pages(path, c.btree, "leaf");
    ASSERT_GE(leaves.size(), c.cells ? 1u : 2u);
    const std::int64_t page = c.last ? leaves.back() : leaves[leaves.size() / 2];
    if (c.cells) {
      testing::overwrite_cells(path, page);
    } else {
      testing::overwrite_page(path, page);
    }
    auto store = SqliteStore::open(path);
    ASSERT_TRUE(store) << store.error().message;
    auto checked = quick_check(*store);
    ASSERT_FALSE(checked) << "the start check missed it";
    EXPECT_EQ(checked.error().code, StoreCode::Corrupt);
    EXPECT_NE(checked.error().message.find("Repairing a damaged file"), std::string::npos)
        << checked.error().message;
  }
}

}  // namespace
}  // namespace eryantis::store
