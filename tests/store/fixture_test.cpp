// A database written by this format's first build, committed under fixtures/:
// every later build must still open, decode and fold it.
#include <gtest/gtest.h>

#include <filesystem>

#include "eryantis/rules/serialize.hpp"
#include "eryantis/store/migrations.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

const std::filesystem::path kFixture =
    std::filesystem::path(ERYANTIS_STORE_FIXTURES) / "schema1.db";

TEST(FixtureTest, TodaysFixtureOpensDecodesAndFolds) {
  ASSERT_TRUE(std::filesystem::exists(kFixture)) << kFixture;
  testing::TempDir dir;
  const std::string path = dir.file("schema1.db");
  std::filesystem::copy_file(kFixture, path);

  // A copy opened read-write, as the server would: it is migrated to today's
  // schema first, and the old rows must still decode and fold.
  Store store = testing::open_store(path, Options{});
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
      auto event = rules::event_from_json(row.payload);
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
  EXPECT_EQ(report.loaded.size(), 3u);  // two running, one lobby
}

// Writes fixtures/schema1.db. Run once per new schema, by hand:
//   eryantis-store-tests --gtest_also_run_disabled_tests --gtest_filter='*GenerateFixture'
TEST(FixtureTest, DISABLED_GenerateFixture) {
  std::filesystem::remove(kFixture);
  {
    Store store = testing::open_store(kFixture.string(), Options{.snapshot_every = 32});
    const MatchId finished =
        testing::store_game(store, testing::play_random_game({2, rules::Mode::Simple}, 101), 101);
    ASSERT_TRUE(store.set_status(finished, MatchStatus::Finished, R"({"winners":[0]})"));
    testing::store_game(store, testing::play_random_game({3, rules::Mode::Expert}, 202, 90), 202);
    const MatchId running = testing::store_game(
        store, testing::play_random_game({4, rules::Mode::Expert}, 303, 70), 303);
    ASSERT_TRUE(store.upsert_seat({running, 0, "ada", "sha256:00", rules::TowerColor::Black, 1}));
    const MatchId lobby = store.create_match(NewMatch{{2, rules::Mode::Expert}}).value();
    ASSERT_TRUE(store.upsert_seat({lobby, 0, "bob", "sha256:01", std::nullopt, std::nullopt}));
    // A self-contained file: no -wal beside it.
    testing::exec(store, "PRAGMA journal_mode = DELETE");
    testing::exec(store, "VACUUM");
  }
  EXPECT_LT(std::filesystem::file_size(kFixture), 200u * 1024u);
}

}  // namespace
}  // namespace eryantis::store
