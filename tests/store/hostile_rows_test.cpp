// Stored data is input, not truth: rows that decode but are illegal (a seat of
// -1, cloud 9, a character not in play, an island out of range) and a snapshot
// that decodes but breaks the game's invariants. Every path that folds them
// (restore at start, load_state, snapshots, verify) refuses them with a clear
// reason before they index anything. Run under ASan + UBSan in the sanitizer
// build, where apply()'s contract assertions would also abort on any of them.
#include <gtest/gtest.h>

#include <functional>

#include "eryantis/codec/codec.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

using testing::TempDir;

struct HostileRowTest : ::testing::Test {
  TempDir dir;
  std::string path = dir.file("eryantis.db");
  // No snapshots: every event of the match is folded on each restore.
  SqliteStore store = testing::open_store(path, Options{.snapshot_every = 0});
  testing::Game game;
  MatchId id = 0;

  // Plays a game, replaces the first event of command type `type` with what
  // `tamper` makes of it, and expects every folding path to refuse that row.
  void expect_refused(
      rules::MatchOptions options, std::string_view type,
      const std::function<void(rules::Event&, const rules::State& before)>& tamper) {
    const std::uint64_t seed = testing::test_seed("HostileRowTest");
    game = testing::play_random_game(options, seed, 200);
    id = testing::store_game(store, game, seed);
    std::size_t i = 0;
    while (i < game.events.size() &&
           rules::command_type(test::eriantys_event(game.events[i].event).command) != type)
      ++i;
    ASSERT_LT(i, game.events.size()) << "no " << type << " event in the game";
    ASSERT_GT(i, 0u);
    rules::Event event = test::eriantys_event(game.events[i].event);
    tamper(event, game.states[i - 1]);
    const Seq seq = static_cast<Seq>(i + 1);
    store_payload(seq, event);
    expect_refused(seq);
  }

  // The row's payload replaced; its type column and stored hash left as they were.
  void store_payload(Seq seq, const rules::Event& event) {
    auto update =
        store.database().prepare("UPDATE events SET payload = ?1 WHERE match_id = ?2 AND seq = ?3");
    ASSERT_TRUE(update) << update.error().message;
    update->bind(1, codec::event_to_json(event)).bind(2, id).bind(3, seq);
    ASSERT_TRUE(update->run());
  }

  // Every folding path reports the row at `seq` as refused by the rules.
  void expect_refused(Seq seq) {
    const std::string reason = "event " + std::to_string(seq) + " is refused by today's rules";
    SqliteStore reader = testing::open_store(path, Options{.read_only = true});
    auto verified = reader.verify(id);
    ASSERT_TRUE(verified) << verified.error().message;
    ASSERT_FALSE(verified->ok());
    EXPECT_EQ(verified->divergence->seq, seq);
    EXPECT_NE(verified->divergence->reason.find(reason), std::string::npos)
        << verified->divergence->reason;
    EXPECT_EQ(verified->events_checked, seq - 1);

    auto state = store.load_state(id);
    ASSERT_FALSE(state);
    EXPECT_EQ(state.error().code, StoreCode::Corrupt);
    EXPECT_NE(state.error().message.find(reason), std::string::npos) << state.error().message;

    auto report = store.load_unfinished();
    ASSERT_TRUE(report) << report.error().message;
    EXPECT_TRUE(report->restored.empty());
    ASSERT_EQ(report->quarantined.size(), 1u);
    EXPECT_EQ(report->quarantined[0].id, id);
    EXPECT_NE(report->quarantined[0].reason.find(reason), std::string::npos)
        << report->quarantined[0].reason;
    auto matches = store.list_matches().value();
    ASSERT_EQ(matches.size(), 1u);
    EXPECT_EQ(matches[0].status, MatchStatus::Quarantined);
    EXPECT_EQ(matches[0].quarantine_reason, report->quarantined[0].reason);
  }
};

TEST_F(HostileRowTest, SeatMinusOne) {
  expect_refused({2, rules::Mode::Simple}, "move_to_island",
                 [](rules::Event& e, const rules::State&) { e.seat = -1; });
}

TEST_F(HostileRowTest, SeatOfAnotherMatchSize) {
  // Decodes (seats are 0..3), but this match has two.
  expect_refused({2, rules::Mode::Simple}, "play_assistant",
                 [](rules::Event& e, const rules::State&) { e.seat = 3; });
}

TEST_F(HostileRowTest, CloudNine) {
  expect_refused({2, rules::Mode::Simple}, "choose_cloud",
                 [](rules::Event& e, const rules::State&) { e.command = rules::ChooseCloud{9}; });
}

TEST_F(HostileRowTest, CharacterInNoSlot) {
  // A simple match has no characters: the character's slot would be -1.
  expect_refused({2, rules::Mode::Simple}, "move_to_island",
                 [](rules::Event& e, const rules::State&) { e.command = rules::UseFarmer{}; });
}

TEST_F(HostileRowTest, CharacterNotAmongTheMatchsThree) {
  expect_refused({3, rules::Mode::Expert}, "move_to_island",
                 [](rules::Event& e, const rules::State& before) {
                   // The first of these characters that is not one of the match's three.
                   const std::pair<rules::CharacterId, rules::Command> candidates[] = {
                       {rules::CharacterId::Farmer, rules::UseFarmer{}},
                       {rules::CharacterId::Postman, rules::UsePostman{}},
                       {rules::CharacterId::Centaur, rules::UseCentaur{}},
                       {rules::CharacterId::Knight, rules::UseKnight{}}};
                   for (const auto& [id, command] : candidates) {
                     bool in_play = false;
                     for (const rules::CharacterCard& card : before.characters)
                       in_play |= card.id == id;
                     if (!in_play) {
                       e.command = command;
                       return;
                     }
                   }
                   FAIL() << "four characters cannot all be among three";
                 });
}

TEST_F(HostileRowTest, IslandOutOfRange) {
  expect_refused({2, rules::Mode::Simple}, "move_to_island",
                 [](rules::Event& e, const rules::State&) {
                   std::get<rules::MoveToIsland>(e.command).island = 200;
                 });
}

TEST_F(HostileRowTest, ASnapshotThatBreaksTheInvariantsIsNeverRestored) {
  SqliteStore snapshots = testing::open_store(dir.file("snapshots.db"), Options{.snapshot_every = 16});
  const std::uint64_t seed = testing::test_seed("ASnapshotThatBreaksTheInvariants");
  testing::Game played = testing::play_random_game({2, rules::Mode::Simple}, seed, 48);
  ASSERT_EQ(played.events.size(), 48u);
  const MatchId match = testing::store_game(snapshots, played, seed);
  ASSERT_EQ(snapshots.database().query_int("SELECT max(seq) FROM snapshots").value(), 48);

  // The newest snapshot (at the last event) holds seat -1 in the turn order, and
  // the last event's stored hash is forged to vouch for it.
  rules::State bad = played.states.back();
  ASSERT_GT(bad.order_size, 0);
  bad.order[0] = -1;
  auto update = snapshots.database().prepare(
      "UPDATE snapshots SET state = ?1 WHERE match_id = ?2 AND seq = 48");
  ASSERT_TRUE(update);
  update->bind_blob(1, codec::state_to_binary(bad)).bind(2, match);
  ASSERT_TRUE(update->run());
  testing::exec(snapshots, "UPDATE events SET state_hash = '" + hash_to_hex(rules::hash(bad)) +
                               "' WHERE seq = 48");

  // Restoring skips it, refolds from the snapshot at 32 and finds the forged hash.
  auto report = snapshots.load_unfinished().value();
  EXPECT_TRUE(report.restored.empty());
  ASSERT_EQ(report.quarantined.size(), 1u);
  EXPECT_NE(report.quarantined[0].reason.find("hash mismatch at event 48"), std::string::npos)
      << report.quarantined[0].reason;
  auto verified = snapshots.verify(match).value();
  ASSERT_FALSE(verified.ok());
  EXPECT_EQ(verified.divergence->seq, 48);
}

TEST_F(HostileRowTest, AnIllegalRowInTheTailStopsTheSnapshotButNotTheAppend) {
  SqliteStore snapshots = testing::open_store(dir.file("snapshots.db"), Options{.snapshot_every = 16});
  const std::uint64_t seed = testing::test_seed("AnIllegalRowInTheTail");
  testing::Game played = testing::play_random_game({2, rules::Mode::Simple}, seed, 20);
  ASSERT_EQ(played.events.size(), 20u);
  const MatchId match =
      snapshots.create_match(NewMatch{test::handle(played.options), MatchStatus::Running}).value();
  ASSERT_TRUE(snapshots.append(match, 0, std::span(played.events.data(), 10)));
  // Event 5 becomes cloud 9; the append that crosses seq 16 folds it for its snapshot.
  rules::Event event = test::eriantys_event(played.events[4].event);
  event.command = rules::ChooseCloud{9};
  auto update = snapshots.database().prepare(
      "UPDATE events SET payload = ?1 WHERE match_id = ?2 AND seq = 5");
  ASSERT_TRUE(update);
  update->bind(1, codec::event_to_json(event)).bind(2, match);
  ASSERT_TRUE(update->run());
  auto appended = snapshots.append(match, 10, std::span(played.events.data() + 10, 10));
  ASSERT_TRUE(appended) << appended.error().message;
  EXPECT_EQ(snapshots.database().query_int("SELECT count(*) FROM snapshots").value(), 0);
}

}  // namespace
}  // namespace eryantis::store
