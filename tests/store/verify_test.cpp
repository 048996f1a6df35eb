// verify(): a full refold with today's rules, reporting the first divergence.
#include <gtest/gtest.h>

#include "eryantis/store/upcast.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

using testing::TempDir;

TEST(VerifyTest, CleanMatchVerifies) {
  const std::uint64_t seed = testing::test_seed("CleanMatchVerifies");
  TempDir dir;
  SqliteStore store = testing::open_store(dir.file("eryantis.db"));
  const auto game = testing::play_random_game({4, rules::Mode::Expert}, seed);
  const MatchId id = testing::store_game(store, game, seed);
  auto report = store.verify(id);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->ok()) << report->divergence->reason;
  EXPECT_EQ(report->events_checked, static_cast<Seq>(game.events.size()));
  EXPECT_EQ(report->snapshots_checked, static_cast<int>(game.events.size() / 64));
  EXPECT_TRUE(report->bad_snapshots.empty());
}

TEST(VerifyTest, ReportsTheFirstDivergence) {
  TempDir dir;
  SqliteStore store = testing::open_store(dir.file("eryantis.db"));
  const auto game = testing::play_random_game({2, rules::Mode::Simple}, 3, 80);
  const MatchId id = testing::store_game(store, game, 3);
  testing::exec(store, "UPDATE events SET state_hash = '00000000000000ff' WHERE seq = 30");
  testing::exec(store, "UPDATE events SET state_hash = '00000000000000ee' WHERE seq = 50");
  auto report = store.verify(id).value();
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.divergence->seq, 30);
  EXPECT_EQ(report.divergence->expected_hash, 0xffu);
  EXPECT_EQ(report.divergence->actual_hash, game.events[29].state_hash);
  EXPECT_EQ(report.events_checked, 29);
}

TEST(VerifyTest, FindsAGapThatASnapshotHidesFromRestore) {
  TempDir dir;
  SqliteStore store = testing::open_store(dir.file("eryantis.db"), Options{.snapshot_every = 20});
  const auto game = testing::play_random_game({3, rules::Mode::Simple}, 9, 70);
  const MatchId id = testing::store_game(store, game, 9);
  testing::exec(store, "DELETE FROM events WHERE seq = 5");
  // Restoring trusts the verified snapshot at seq 60 (that is what snapshots are for)...
  EXPECT_TRUE(store.load_unfinished().value().quarantined.empty());
  // ...verify does not.
  auto report = store.verify(id).value();
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.divergence->seq, 5);
}

TEST(VerifyTest, RulesRefuseATamperedEvent) {
  TempDir dir;
  SqliteStore store = testing::open_store(dir.file("eryantis.db"));
  const auto game = testing::play_random_game({2, rules::Mode::Simple}, 4, 40);
  const MatchId id = testing::store_game(store, game, 4);
  // The same assistant value twice in a row for one seat can never be legal.
  auto rows = store.load_events(id).value();
  Seq target = 0;
  for (const StoredEvent& row : rows) {
    if (row.type == "play_assistant") target = row.seq;
  }
  ASSERT_GT(target, 0);
  testing::exec(store,
                "UPDATE events SET payload = json_set(payload, '$.command.value', 42) "
                "WHERE seq = " +
                    std::to_string(target));
  auto report = store.verify(id).value();
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.divergence->seq, target);
}

TEST(VerifyTest, ColumnsMustAgreeWithThePayload) {
  TempDir dir;
  SqliteStore store = testing::open_store(dir.file("eryantis.db"));
  const auto game = testing::play_random_game({2, rules::Mode::Simple}, 6, 40);
  const MatchId id = testing::store_game(store, game, 6);
  ASSERT_TRUE(store.verify(id).value().ok());
  // An edited type column: the payload (and every hash) still agree.
  testing::exec(store, "UPDATE events SET type = 'skip_turn' WHERE seq = 7");
  auto report = store.verify(id).value();
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.divergence->seq, 7);
  const std::string type(rules::command_type(test::eriantys_event(game.events[6].event).command));
  EXPECT_NE(report.divergence->reason.find(
                "event 7: the type column says 'skip_turn' but the payload is a " + type),
            std::string::npos)
      << report.divergence->reason;
  testing::exec(store, "UPDATE events SET type = '" + type + "' WHERE seq = 7");
  ASSERT_TRUE(store.verify(id).value().ok());
  // An edited actor column: a player's event said to be the server's.
  testing::exec(store, "UPDATE events SET actor = 'server' WHERE seq = 9");
  report = store.verify(id).value();
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.divergence->seq, 9);
  EXPECT_NE(report.divergence->reason.find("the actor column says 'server'"), std::string::npos)
      << report.divergence->reason;
}

// fold.hpp: after a divergence `state` and `seq` are the last trusted prefix (what
// eryantis-replay and the cluster's batched load report), whatever stopped the
// fold: a wrong hash (the event applied), an event the rules refuse, a row that
// does not decode.
TEST(FoldTest, ADivergedFoldKeepsTheLastTrustedPrefix) {
  TempDir dir;
  SqliteStore store = testing::open_store(dir.file("eryantis.db"), Options{.snapshot_every = 0});
  const auto game = testing::play_random_game({2, rules::Mode::Simple}, 4, 40);
  struct Damage {
    const char* what;
    std::string sql;  // on the row at seq 20
  };
  const Damage damages[] = {
      {"a wrong hash", "UPDATE events SET state_hash = '00000000000000ff'"},
      {"an event the rules refuse",
       "UPDATE events SET payload = json_set(payload, '$.seat', 3)"},
      {"a row that does not decode", "UPDATE events SET payload = '{}'"},
  };
  // A lambda, so that a failed ASSERT ends one case, not the others.
  auto check = [&](const Damage& damage) {
    SCOPED_TRACE(damage.what);
    const MatchId id = testing::store_game(store, game, 4);
    testing::exec(store, damage.sql + " WHERE match_id = " + std::to_string(id) + " AND seq = 20");
    for (const FoldStart start : {FoldStart::NewestSnapshot, FoldStart::FirstEvent}) {
      auto folded = store.fold(id, FoldPolicy{.start = start, .check_columns = true});
      ASSERT_TRUE(folded) << folded.error().message;
      ASSERT_FALSE(folded->ok());
      EXPECT_EQ(folded->divergence->seq, 20) << folded->divergence->reason;
      EXPECT_EQ(folded->seq, 19);
      EXPECT_EQ(folded->played, &test::eriantys());
      ASSERT_FALSE(folded->state.empty()) << "the state before the divergence was lost";
      EXPECT_EQ(test::eriantys_state(folded->state), game.states[18]);
    }
  };
  for (const Damage& damage : damages) check(damage);
}

TEST(RecentCommandIdsTest, TheNewestCommandIdsOldestFirst) {
  TempDir dir;
  SqliteStore store = testing::open_store(dir.file("eryantis.db"));
  const auto game = testing::play_random_game({2, rules::Mode::Simple}, 8, 90);
  const MatchId id = testing::store_game(store, game, 8);
  const std::size_t n = game.events.size();  // the game may end before 90
  ASSERT_GT(n, 65u);
  // Event 1 (create_match) is the server's and has no command id.
  auto recent = store.recent_command_ids(id, 64).value();
  ASSERT_EQ(recent.size(), 64u);
  EXPECT_EQ(recent.back(),
            (std::pair<std::string, Seq>{*game.events.back().command_id, static_cast<Seq>(n)}));
  EXPECT_EQ(recent.front(), (std::pair<std::string, Seq>{*game.events[n - 64].command_id,
                                                         static_cast<Seq>(n - 63)}));
  EXPECT_EQ(store.recent_command_ids(id, 1000).value().size(), n - 1);
}

TEST(UpcastTest, CurrentVersionIsIdentityAndNewerIsRefused) {
  const game::Game& eriantys = test::eriantys();
  ASSERT_EQ(eriantys.event_schema(), rules::kEventSchemaVersion);
  EXPECT_EQ(upcast(eriantys, 1, "{\"v\":1}").value(), "{\"v\":1}");
  auto newer = upcast(eriantys, eriantys.event_schema() + 1, "{}");
  ASSERT_FALSE(newer);
  EXPECT_EQ(newer.error().code, StoreCode::TooNew);
  EXPECT_NE(newer.error().message.find("newer"), std::string::npos) << newer.error().message;
  auto invalid = upcast(eriantys, 0, "{}");
  ASSERT_FALSE(invalid);
  EXPECT_EQ(invalid.error().code, StoreCode::Decode);
}

// Every game bounds its own events' schema (Game::event_schema), not Eriantys's.
TEST(UpcastTest, EachGameBoundsItsOwnSchema) {
  const game::Game* goofspiel = test::games().find("goofspiel");
  ASSERT_NE(goofspiel, nullptr);
  const int current = goofspiel->event_schema();
  EXPECT_EQ(upcast(*goofspiel, current, "{\"v\":1}").value(), "{\"v\":1}");
  auto newer = upcast(*goofspiel, current + 1, "{}");
  ASSERT_FALSE(newer);
  EXPECT_EQ(newer.error().code, StoreCode::TooNew);
  EXPECT_FALSE(upcast(*goofspiel, 0, "{}"));
}

TEST(HashHexTest, RoundTrips) {
  for (std::uint64_t h : {0ull, 1ull, 0xdeadbeefcafef00dull, ~0ull}) {
    EXPECT_EQ(hash_from_hex(hash_to_hex(h)), h);
    EXPECT_EQ(hash_to_hex(h).size(), 16u);
  }
  EXPECT_FALSE(hash_from_hex("xyz"));
  EXPECT_FALSE(hash_from_hex("0123456789abcdeg"));
}

}  // namespace
}  // namespace eryantis::store
