// Snapshots: folding from a snapshot plus the tail equals folding everything;
// snapshots that cannot be trusted are skipped, never deleted.
#include <gtest/gtest.h>

#include "eryantis/rules/decider.hpp"
#include "eryantis/codec/codec.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

using testing::Game;
using testing::TempDir;

constexpr rules::MatchOptions kThreeExpert{3, rules::Mode::Expert};

std::vector<rules::Event> decoded(const std::vector<StoredEvent>& rows) {
  std::vector<rules::Event> events;
  for (const StoredEvent& row : rows) events.push_back(codec::event_from_json(row.payload).value());
  return events;
}

TEST(SnapshotTest, SnapshotPlusTailEqualsFullFold) {
  const std::uint64_t seed = testing::test_seed("SnapshotPlusTailEqualsFullFold");
  TempDir dir;
  SqliteStore store = testing::open_store(dir.file("eryantis.db"), Options{.snapshot_every = 10});
  const Game game = testing::play_random_game(kThreeExpert, seed);
  const MatchId id = testing::store_game(store, game, seed);

  auto snapshots = store.database().query_int("SELECT count(*) FROM snapshots");
  EXPECT_EQ(*snapshots, static_cast<std::int64_t>(game.events.size() / 10));
  const rules::State full = rules::fold(decoded(store.load_events(id).value()));
  EXPECT_EQ(full, game.states.back());

  auto report = store.load_unfinished().value();
  ASSERT_EQ(report.restored.size(), 1u);
  EXPECT_TRUE(report.quarantined.empty());
  EXPECT_GT(report.restored[0].snapshot_seq, 0);
  EXPECT_EQ(test::eriantys_state(report.restored[0].state), full);
  EXPECT_EQ(report.restored[0].last_seq, static_cast<Seq>(game.events.size()));
  EXPECT_EQ(test::eriantys_state(store.load_state(id).value()), full);
}

TEST(SnapshotTest, StoreFoldsTheSnapshotWhenTheCallerHasNoState) {
  TempDir dir;
  SqliteStore store = testing::open_store(dir.file("eryantis.db"), Options{.snapshot_every = 8});
  const Game game = testing::play_random_game(kThreeExpert, 5, 50);
  const MatchId id =
      store.create_match(NewMatch{test::handle(kThreeExpert), MatchStatus::Running}).value();
  for (std::size_t i = 0; i < game.events.size(); ++i) {
    ASSERT_TRUE(store.append(id, static_cast<Seq>(i), {&game.events[i], 1}));  // no state_after
  }
  auto select = store.database().prepare("SELECT seq, state FROM snapshots ORDER BY seq");
  int seen = 0;
  while (select->step().value()) {
    const Seq seq = select->column_int(0);
    EXPECT_EQ(seq % 8, 0);
    EXPECT_EQ(codec::state_from_binary(select->column_blob(1)).value(),
              game.states[static_cast<std::size_t>(seq - 1)]);
    ++seen;
  }
  EXPECT_EQ(seen, static_cast<int>(game.events.size() / 8));
}

TEST(SnapshotTest, WrongStateAfterIsRefused) {
  TempDir dir;
  SqliteStore store = testing::open_store(dir.file("eryantis.db"), Options{.snapshot_every = 2});
  const Game game = testing::play_random_game(kThreeExpert, 5, 4);
  const MatchId id =
      store.create_match(NewMatch{test::handle(kThreeExpert), MatchStatus::Running}).value();
  const game::State wrong = game.after(0);  // the state after event 1, not 2
  auto refused = store.append(id, 0, {game.events.data(), 2}, &wrong);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, StoreCode::Invalid);
  EXPECT_EQ(store.last_seq(id).value(), 0);
}

TEST(SnapshotTest, BadSnapshotsAreIgnored) {
  const std::uint64_t seed = testing::test_seed("BadSnapshotsAreIgnored");
  TempDir dir;
  SqliteStore store = testing::open_store(dir.file("eryantis.db"), Options{.snapshot_every = 10});
  const Game game = testing::play_random_game(kThreeExpert, seed);
  ASSERT_GE(game.events.size(), 40u);
  const MatchId id = testing::store_game(store, game, seed);
  const std::string match = std::to_string(id);
  // Newest: undecodable bytes. Next: a future state version. Next: decodes, but is
  // the state of the snapshot before it. The fourth newest is the one to use.
  auto seqs = store.database().prepare("SELECT seq FROM snapshots ORDER BY seq DESC LIMIT 4");
  std::vector<Seq> newest;
  while (seqs->step().value()) newest.push_back(seqs->column_int(0));
  ASSERT_EQ(newest.size(), 4u);
  testing::exec(
      store, "UPDATE snapshots SET state = x'deadbeef' WHERE seq = " + std::to_string(newest[0]));
  testing::exec(store,
                "UPDATE snapshots SET version = 999 WHERE seq = " + std::to_string(newest[1]));
  testing::exec(store, "UPDATE snapshots SET state = (SELECT state FROM snapshots WHERE seq = " +
                           std::to_string(newest[3]) +
                           ") WHERE seq = " + std::to_string(newest[2]));

  auto report = store.load_unfinished().value();
  ASSERT_EQ(report.restored.size(), 1u)
      << (report.quarantined.empty() ? "" : report.quarantined[0].reason);
  EXPECT_EQ(report.restored[0].snapshot_seq, newest[3]);
  EXPECT_EQ(test::eriantys_state(report.restored[0].state), game.states.back());
  // Skipped, never deleted or rewritten.
  EXPECT_EQ(store.database().query_int("SELECT count(*) FROM snapshots").value(),
            static_cast<std::int64_t>(game.events.size() / 10));
  auto verified = store.verify(id).value();
  EXPECT_TRUE(verified.ok());
  EXPECT_EQ(verified.bad_snapshots, (std::vector<Seq>{newest[2], newest[1], newest[0]}));
}

}  // namespace
}  // namespace eryantis::store
