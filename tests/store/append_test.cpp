// Appending: dense seqs, optimistic concurrency, atomic batches, idempotent retries.
#include <gtest/gtest.h>

#include "eryantis/codec/codec.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

using testing::Game;
using testing::TempDir;

constexpr rules::MatchOptions kTwoPlayers{2, rules::Mode::Simple};
constexpr rules::MatchOptions kFourExpert{4, rules::Mode::Expert};

struct AppendTest : ::testing::Test {
  TempDir dir;
  SqliteStore store = testing::open_store(dir.file("eryantis.db"));
  Game game = testing::play_random_game(kFourExpert, 7, 40);
  MatchId match =
      store.create_match(NewMatch{test::handle(kFourExpert), MatchStatus::Running}).value();

  std::span<const NewEvent> events(std::size_t from, std::size_t count) const {
    return {game.events.data() + from, count};
  }
};

TEST_F(AppendTest, SeqsAreDenseFromOne) {
  auto first = store.append(match, 0, events(0, 1));
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(*first, (AppendOutcome{1, 1, false}));
  auto next = store.append(match, 1, events(1, 3));
  ASSERT_TRUE(next) << next.error().message;
  EXPECT_EQ(*next, (AppendOutcome{2, 4, false}));

  auto stored = store.load_events(match);
  ASSERT_TRUE(stored);
  ASSERT_EQ(stored->size(), 4u);
  for (std::size_t i = 0; i < stored->size(); ++i) {
    const StoredEvent& row = (*stored)[i];
    EXPECT_EQ(row.seq, static_cast<Seq>(i + 1));
    const rules::Event& event = test::eriantys_event(game.events[i].event);
    EXPECT_EQ(row.payload, codec::event_to_json(event));
    EXPECT_EQ(row.state_hash, hash_to_hex(game.events[i].state_hash));
    EXPECT_EQ(row.actor, game.events[i].actor.text());
    EXPECT_EQ(row.command_id, game.events[i].command_id);
    EXPECT_EQ(row.type, rules::command_type(event.command));
    EXPECT_EQ(row.schema_version, rules::kEventSchemaVersion);
  }
  EXPECT_EQ((*stored)[0].actor, "server");
  EXPECT_EQ(store.last_seq(match).value(), 4);
}

TEST_F(AppendTest, ConflictWritesNothing) {
  ASSERT_TRUE(store.append(match, 0, events(0, 2)));
  auto stale = store.append(match, 1, events(2, 2));  // someone else already wrote seq 2
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().code, StoreCode::Conflict);
  EXPECT_EQ(stale.error().last_seq, 2);
  auto ahead = store.append(match, 5, events(2, 1));
  ASSERT_FALSE(ahead);
  EXPECT_EQ(ahead.error().code, StoreCode::Conflict);
  EXPECT_EQ(store.load_events(match)->size(), 2u);
  EXPECT_EQ(store.last_seq(match).value(), 2);
}

TEST_F(AppendTest, BatchIsAllOrNothing) {
  ASSERT_TRUE(store.append(match, 0, events(0, 2)));
  // The third event of the batch reuses the command id of seq 2: the whole batch fails.
  std::vector<NewEvent> batch(game.events.begin() + 2, game.events.begin() + 5);
  batch[2].command_id = game.events[1].command_id;
  auto failed = store.append(match, 2, batch);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code, StoreCode::Conflict);
  EXPECT_EQ(store.load_events(match)->size(), 2u);
  EXPECT_EQ(store.last_seq(match).value(), 2);
}

TEST_F(AppendTest, RetryWithSameCommandIdIsNotAppliedTwice) {
  ASSERT_TRUE(store.append(match, 0, events(0, 1)));
  auto original = store.append(match, 1, events(1, 2));
  ASSERT_TRUE(original);
  ASSERT_TRUE(store.append(match, 3, events(3, 1)));
  // The client never saw the first answer and sends again with its old expectation.
  auto retry = store.append(match, 1, events(1, 2));
  ASSERT_TRUE(retry) << retry.error().message;
  EXPECT_TRUE(retry->replayed);
  EXPECT_EQ(retry->first_seq, original->first_seq);
  EXPECT_EQ(retry->last_seq, original->last_seq);
  EXPECT_EQ(store.load_events(match)->size(), 4u);
}

TEST_F(AppendTest, AppendToAMissingMatchIsNotFound) {
  auto missing = store.append(match + 100, 0, events(0, 1));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, StoreCode::NotFound);
  auto empty = store.append(match, 0, {});
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, StoreCode::Invalid);
}

TEST_F(AppendTest, ReopenGivesIdenticalEvents) {
  const std::uint64_t seed = testing::test_seed("ReopenGivesIdenticalEvents");
  const Game full = testing::play_random_game(kTwoPlayers, seed);
  const MatchId id = testing::store_game(store, full, seed);
  auto before = store.load_events(id).value();
  store = testing::open_store(dir.file("eryantis.db"));
  auto after = store.load_events(id).value();
  EXPECT_EQ(before, after);
  ASSERT_EQ(after.size(), full.events.size());
  auto state = store.load_state(id);
  ASSERT_TRUE(state) << state.error().message;
  EXPECT_EQ(test::eriantys_state(*state), full.states.back());
}

TEST_F(AppendTest, SeatsAndStatusAreStored) {
  SeatRecord alice{match, 0, "alice", "hash-a", "black", 2, std::nullopt};
  SeatRecord bob{match, 1, "bob", "hash-b", std::nullopt, std::nullopt, std::nullopt};
  // A computer player's seat (schema 4): its level, no token.
  SeatRecord computer{match, 2, "Computer 2", "", std::nullopt, std::nullopt, "strong"};
  ASSERT_TRUE(store.upsert_seat(alice));
  ASSERT_TRUE(store.upsert_seat(bob));
  ASSERT_TRUE(store.upsert_seat(computer));
  bob.wizard = 3;
  bob.nickname = "bobby";
  ASSERT_TRUE(store.upsert_seat(bob));
  EXPECT_EQ(store.seats(match).value(), (std::vector<SeatRecord>{alice, bob, computer}));
  // The column accepts only the three levels.
  SeatRecord bad = computer;
  bad.seat = 3;
  bad.computer = "expert";
  EXPECT_FALSE(store.upsert_seat(bad));

  ASSERT_TRUE(store.append(match, 0, events(0, 3)));
  ASSERT_TRUE(store.set_status(match, MatchStatus::Finished, R"({"winners":[0]})"));
  auto matches = store.list_matches().value();
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].id, match);
  EXPECT_EQ(matches[0].status, MatchStatus::Finished);
  EXPECT_EQ(matches[0].players, 4);
  EXPECT_EQ(matches[0].mode, "expert");
  EXPECT_EQ(matches[0].events, 3);
  EXPECT_EQ(matches[0].result, R"({"winners":[0]})");
  EXPECT_EQ(store.set_status(match + 1, MatchStatus::Running).error().code, StoreCode::NotFound);
}

TEST_F(AppendTest, TimelineViewReadsThePayload) {
  const Game full = testing::play_random_game(kTwoPlayers, 11);
  const MatchId id = testing::store_game(store, full, 11);
  auto count = store.database().query_int(
      "SELECT count(*) FROM timeline WHERE match_id = " + std::to_string(id) +
      " AND type = 'move_to_island' AND color IS NOT NULL AND island IS NOT NULL");
  ASSERT_TRUE(count) << count.error().message;
  EXPECT_GT(*count, 0);
  auto assistants = store.database().query_int(
      "SELECT count(*) FROM timeline WHERE match_id = " + std::to_string(id) +
      " AND type = 'play_assistant' AND value BETWEEN 1 AND 10");
  EXPECT_GT(assistants.value(), 0);
}

}  // namespace
}  // namespace eryantis::store
