// Databases written by earlier builds, committed under fixtures/ (schemaN.db, N
// = the schema version they were written with): every later build must still
// open, migrate, decode and fold them. Add one whenever the schema changes.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "eryantis/codec/codec.hpp"
#include "eryantis/store/migrations.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

std::filesystem::path fixture(int schema) {
  return std::filesystem::path(ERYANTIS_STORE_FIXTURES) /
         ("schema" + std::to_string(schema) + ".db");
}

class FixtureTest : public ::testing::TestWithParam<int> {};

TEST_P(FixtureTest, OpensMigratesDecodesAndFolds) {
  const std::filesystem::path file = fixture(GetParam());
  ASSERT_TRUE(std::filesystem::exists(file)) << file;
  testing::TempDir dir;
  const std::string path = dir.file("fixture.db");
  std::filesystem::copy_file(file, path);
  {
    auto raw = sqlite::Database::open(path, SQLITE_OPEN_READONLY);
    ASSERT_TRUE(raw);
    EXPECT_EQ(raw->query_int("PRAGMA user_version").value(), GetParam());
  }

  // A copy opened read-write, as the server would: it is migrated to today's
  // schema first, and the old rows must still decode and fold.
  SqliteStore store = testing::open_store(path, Options{});
  EXPECT_EQ(store.schema_version(), latest_schema_version());
  auto matches = store.list_matches().value();
  ASSERT_EQ(matches.size(), 4u);
  int folded = 0;
  for (const MatchSummary& match : matches) {
    SCOPED_TRACE("match " + std::to_string(match.id));
    auto rows = store.load_events(match.id).value();
    ASSERT_EQ(static_cast<Seq>(rows.size()), match.events);
    std::vector<rules::Event> events;
    for (const StoredEvent& row : rows) {
      auto event = codec::event_from_json(row.payload);
      ASSERT_TRUE(event) << "seq " << row.seq << ": " << event.error().message;
      events.push_back(std::move(*event));
    }
    if (rows.empty()) continue;
    const rules::State state = rules::fold(events);
    EXPECT_EQ(hash_to_hex(rules::hash(state)), rows.back().state_hash);
    EXPECT_TRUE(store.verify(match.id).value().ok());
    ++folded;
  }
  EXPECT_EQ(folded, 3);
  auto report = store.load_unfinished().value();
  EXPECT_TRUE(report.quarantined.empty());
  EXPECT_EQ(report.restored.size(), 3u);  // two running, one lobby
  // Seats written before schema 4 read as people's; the schema 4 file has a computer's.
  // The tower colour of schema 1 (written by no server since) reads back as stored.
  int computers = 0;
  int towers = 0;
  for (const MatchSummary& match : matches) {
    const std::vector<SeatRecord> seats = store.seats(match.id).value();
    for (const SeatRecord& seat : seats) {
      if (seat.tower_color) {
        EXPECT_EQ(*seat.tower_color, "black");
        EXPECT_EQ(seat.wizard, 1);
        EXPECT_EQ(seat.nickname, "ada");
        ++towers;
      }
      if (seat.computer) {
        EXPECT_EQ(*seat.computer, "greedy");
        EXPECT_EQ(seat.nickname, "Computer 1");
        ++computers;
      }
    }
  }
  EXPECT_EQ(computers, GetParam() >= 4 ? 1 : 0);
  EXPECT_EQ(towers, 1);
}

// Schema 1 is the first format; schema 3 moved events to append order; schema 4 added
// seats.computer (its file holds a computer seat).
INSTANTIATE_TEST_SUITE_P(Schemas, FixtureTest, ::testing::Values(1, 3, 4),
                         [](const auto& info) { return "schema" + std::to_string(info.param); });

// The save of the release before schema 8 (tests/store/fixtures/release-<sha>.sqlite,
// written by make-release-fixture.sh with that release's own server and bots): a
// finished match, a running one with snapshots and a stored deadline, a lobby
// one. Today's build migrates it, reads every match as Eriantys version 1,
// restores each and verifies it with the hashes that release stored.
TEST(ReleaseFixture, OpensMigratesRestoresAndVerifiesWithTheSameHashes) {
  const std::filesystem::path file =
      std::filesystem::path(ERYANTIS_STORE_FIXTURES) / "release-cb69a17.sqlite";
  ASSERT_TRUE(std::filesystem::exists(file)) << file;
  testing::TempDir dir;
  const std::string path = dir.file("release.db");
  std::filesystem::copy_file(file, path);
  // What that release stored: the schema, and each match's last state hash.
  std::map<MatchId, std::string> stored_hashes;
  {
    auto raw = sqlite::Database::open(path, SQLITE_OPEN_READONLY);
    ASSERT_TRUE(raw);
    EXPECT_EQ(raw->query_int("PRAGMA user_version").value(), 7);
    auto select = raw->cached(
        "SELECT match_id, state_hash FROM events e WHERE seq = "
        "(SELECT last_seq FROM matches WHERE id = e.match_id)");
    ASSERT_TRUE(select);
    while ((*select)->step().value())
      stored_hashes[(*select)->column_int(0)] = std::string((*select)->column_text(1));
  }
  ASSERT_EQ(stored_hashes.size(), 3u);

  SqliteStore store = testing::open_store(path, Options{});
  EXPECT_EQ(store.schema_version(), latest_schema_version());
  const std::vector<MatchSummary> matches = store.list_matches().value();
  ASSERT_EQ(matches.size(), 3u);
  std::map<MatchStatus, int> statuses;
  for (const MatchSummary& match : matches) {
    SCOPED_TRACE("match " + std::to_string(match.id));
    ++statuses[match.status];
    EXPECT_EQ(match.game, "eriantys");
    EXPECT_EQ(match.game_version, 1);
    // Every match restores (its state read back as the server reads it) with the
    // hash the release stored, and verify (eryantis-replay verify) passes.
    auto state = store.load_state(match.id);
    ASSERT_TRUE(state) << state.error().message;
    EXPECT_EQ(hash_to_hex(rules::hash(test::eriantys_state(*state))), stored_hashes.at(match.id));
    auto verified = store.verify(match.id);
    ASSERT_TRUE(verified) << verified.error().message;
    EXPECT_TRUE(verified->ok()) << verified->divergence->reason;
    EXPECT_EQ(verified->events_checked, match.events);
  }
  EXPECT_EQ(statuses[MatchStatus::Finished], 1);
  EXPECT_EQ(statuses[MatchStatus::Running], 1);
  EXPECT_EQ(statuses[MatchStatus::Lobby], 1);
  // The running match has snapshots to check; the server's restore takes both
  // unfinished ones, from their newest snapshot, with their seats and deadline.
  const MatchId running = matches[1].id;
  EXPECT_GT(store.verify(running).value().snapshots_checked, 0);
  auto report = store.load_unfinished();
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->quarantined.empty());
  EXPECT_TRUE(report->unserved.empty());
  ASSERT_EQ(report->restored.size(), 2u);
  for (const LoadedMatch& m : report->restored) {
    SCOPED_TRACE("match " + std::to_string(m.id));
    EXPECT_EQ(m.game, "eriantys");
    EXPECT_EQ(m.game_version, 1);
    EXPECT_EQ(hash_to_hex(rules::hash(test::eriantys_state(m.state))), stored_hashes.at(m.id));
    EXPECT_FALSE(m.seats.empty());
    EXPECT_TRUE(m.deadline.has_value());
  }
  EXPECT_EQ(report->restored[0].id, running);
  EXPECT_GT(report->restored[0].snapshot_seq, 0);
}

// Writes fixtures/schema<latest>.db. Run once per new schema, by hand, then add
// the version to the list above:
//   eryantis-store-tests --gtest_also_run_disabled_tests --gtest_filter='*GenerateFixture'
TEST(FixtureGenerator, DISABLED_GenerateFixture) {
  const std::filesystem::path file = fixture(latest_schema_version());
  std::filesystem::remove(file);
  {
    SqliteStore store = testing::open_store(file.string(), Options{.snapshot_every = 32});
    const MatchId finished =
        testing::store_game(store, testing::play_random_game({2, rules::Mode::Simple}, 101), 101);
    ASSERT_TRUE(store.set_status(finished, MatchStatus::Finished, R"({"winners":[0]})"));
    testing::store_game(store, testing::play_random_game({3, rules::Mode::Expert}, 202, 90), 202);
    const MatchId running = testing::store_game(
        store, testing::play_random_game({4, rules::Mode::Expert}, 303, 70), 303);
    ASSERT_TRUE(store.upsert_seat(
        {running, 0, "ada", "sha256:00", "black", 1, std::nullopt}));
    const MatchId lobby = store.create_match(NewMatch{test::handle(rules::MatchOptions{2, rules::Mode::Expert})}).value();
    ASSERT_TRUE(store.upsert_seat(
        {lobby, 0, "bob", "sha256:01", std::nullopt, std::nullopt, std::nullopt}));
    // Schema 4: a computer player's seat.
    ASSERT_TRUE(
        store.upsert_seat({lobby, 1, "Computer 1", "", std::nullopt, std::nullopt, "greedy"}));
    // A self-contained file: no -wal beside it.
    testing::exec(store, "PRAGMA journal_mode = DELETE");
    testing::exec(store, "VACUUM");
  }
  EXPECT_LT(std::filesystem::file_size(file), 200u * 1024u);
}

}  // namespace
}  // namespace eryantis::store
