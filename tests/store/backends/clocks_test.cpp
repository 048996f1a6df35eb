// A match's clock (schema 13), on both backends: the control written with the match's
// creation (append and create_match), read back by privacy() and load_unfinished();
// clock steps appended with a write (in its transaction: a refused write leaves none)
// and read back in (after_seq, id) order; the events' time given by the caller.
#include "backend_fixture.hpp"

namespace eryantis::store::testing {
namespace {

constexpr rules::MatchOptions kTwoPlayers{2, rules::Mode::Simple};

class ClockStoreTest : public BackendTest {};

TEST_P(ClockStoreTest, TheControlStepsAndTimesAreReadBack) {
  auto store = open();
  ASSERT_TRUE(store);
  const Game a = play_random_game(kTwoPlayers, 51, 2);
  const Game b = play_random_game(kTwoPlayers, 52, 2);
  AppendRequest clocked = AppendRequest::of(1, 0, {a.events.begin(), a.events.begin() + 1});
  clocked.create = NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby};
  clocked.create->clock = "10m+5s";
  clocked.create->on_timeout = "forfeit";
  clocked.clock_steps = {ClockStepRecord{1, 1'000, "pause", 0}};
  clocked.time_ms = 1'000;
  AppendRequest plain = AppendRequest::of(2, 0, {b.events.begin(), b.events.begin() + 1});
  plain.create = NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby};
  for (const AppendRequest& r : {clocked, plain}) {
    const std::vector<AppendRequest> one{r};
    auto done = store->append_batch(one);
    ASSERT_TRUE(done[0]) << done[0].error().message;
  }
  // Two steps with the next event, one with a row change only.
  AppendRequest next = AppendRequest::of(1, 1, {a.events.begin() + 1, a.events.begin() + 2});
  next.time_ms = 2'500;
  next.clock_steps = {ClockStepRecord{2, 2'500, "untimed", 2},
                      ClockStepRecord{2, 2'500, "resume", 0}};
  AppendRequest rows;
  rows.match_id = 1;
  rows.expected_seq = 2;
  rows.clock_steps = {ClockStepRecord{2, 4'000, "pause", 0}};
  for (const AppendRequest& r : {next, rows}) {
    const std::vector<AppendRequest> one{r};
    auto done = store->append_batch(one);
    ASSERT_TRUE(done[0]) << done[0].error().message;
  }
  // A write that is refused (behind the match) stores none of its steps.
  AppendRequest stale;
  stale.match_id = 1;
  stale.expected_seq = 1;
  stale.clock_steps = {ClockStepRecord{1, 9'000, "resume", 0}};
  const std::vector<AppendRequest> refused{stale};
  EXPECT_FALSE(store->append_batch(refused)[0]);

  auto reopened = open();
  ASSERT_TRUE(reopened);
  EXPECT_EQ(reopened->privacy(1).value().clock, std::optional<std::string>("10m+5s"));
  EXPECT_EQ(reopened->privacy(1).value().on_timeout, std::optional<std::string>("forfeit"));
  EXPECT_FALSE(reopened->privacy(2).value().clock);
  EXPECT_EQ(reopened->clock_steps(1).value(),
            (std::vector<ClockStepRecord>{
                ClockStepRecord{1, 1'000, "pause", 0}, ClockStepRecord{2, 2'500, "untimed", 2},
                ClockStepRecord{2, 2'500, "resume", 0}, ClockStepRecord{2, 4'000, "pause", 0}}));
  EXPECT_TRUE(reopened->clock_steps(2).value().empty());
  const std::vector<StoredEvent> events = reopened->load_events(1).value();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].time_ms, 1'000);
  EXPECT_EQ(events[1].time_ms, 2'500);
  auto report = reopened->load_unfinished();
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(report->restored.size(), 2u);
  EXPECT_EQ(report->restored[0].clock, std::optional<std::string>("10m+5s"));
  EXPECT_EQ(report->restored[0].on_timeout, std::optional<std::string>("forfeit"));
  EXPECT_FALSE(report->restored[1].clock);
}

TEST_P(ClockStoreTest, CreateMatchKeepsTheControl) {
  auto store = open();
  ASSERT_TRUE(store);
  NewMatch m{test::handle(kTwoPlayers), MatchStatus::Lobby};
  m.clock = "24h/turn";
  m.on_timeout = "skip";
  const MatchId id = store->create_match(m).value();
  EXPECT_EQ(store->privacy(id).value().clock, std::optional<std::string>("24h/turn"));
  EXPECT_EQ(store->privacy(id).value().on_timeout, std::optional<std::string>("skip"));
}

INSTANTIATE_TEST_SUITE_P(Backends, ClockStoreTest,
                         ::testing::Values(Backend::Sqlite, Backend::Postgresql),
                         backend_test_name);

}  // namespace
}  // namespace eryantis::store::testing
