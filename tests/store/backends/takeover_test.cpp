// A match's takeover level (schema 12), on both backends: written with the match's
// creation (append and create_match), read back by privacy() and load_unfinished()
// as a restarted or adopting server sees it; a match without one reads none.
#include "backend_fixture.hpp"

namespace eryantis::store::testing {
namespace {

constexpr rules::MatchOptions kThreePlayers{3, rules::Mode::Simple};

class TakeoverStoreTest : public BackendTest {};

TEST_P(TakeoverStoreTest, TheLevelIsReadBackAfterAReopen) {
  auto store = open();
  ASSERT_TRUE(store);
  const Game a = play_random_game(kThreePlayers, 41, 1);
  const Game b = play_random_game(kThreePlayers, 42, 1);
  AppendRequest taken = AppendRequest::of(1, 0, {a.events.begin(), a.events.end()});
  taken.create = NewMatch{test::handle(kThreePlayers), MatchStatus::Lobby};
  taken.create->takeover = "strong";
  taken.seats = {SeatRecord{0, 0, "ada", "h0", std::nullopt, std::nullopt, std::nullopt}};
  AppendRequest plain = AppendRequest::of(2, 0, {b.events.begin(), b.events.end()});
  plain.create = NewMatch{test::handle(kThreePlayers), MatchStatus::Lobby};
  const std::vector<AppendRequest> created{taken, plain};
  for (const auto& done : store->append_batch(created)) ASSERT_TRUE(done) << done.error().message;
  // The computer that took seat 1 over: a seat upsert.
  AppendRequest seat;
  seat.match_id = 1;
  seat.expected_seq = static_cast<Seq>(a.events.size());
  seat.seats = {SeatRecord{0, 1, "Computer 1", "", std::nullopt, std::nullopt, "strong"}};
  const std::vector<AppendRequest> one{seat};
  auto done = store->append_batch(one);
  ASSERT_TRUE(done[0]) << done[0].error().message;

  auto reopened = open();
  ASSERT_TRUE(reopened);
  EXPECT_EQ(reopened->privacy(1).value().takeover, std::optional<std::string>("strong"));
  EXPECT_FALSE(reopened->privacy(2).value().takeover);
  auto report = reopened->load_unfinished();
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(report->restored.size(), 2u);
  EXPECT_EQ(report->restored[0].takeover, std::optional<std::string>("strong"));
  EXPECT_FALSE(report->restored[1].takeover);
  bool computer = false;
  for (const SeatRecord& r : report->restored[0].seats)
    computer |= r.seat == 1 && r.computer == std::optional<std::string>("strong");
  EXPECT_TRUE(computer);
}

TEST_P(TakeoverStoreTest, CreateMatchKeepsTheLevel) {
  auto store = open();
  ASSERT_TRUE(store);
  NewMatch m{test::handle(kThreePlayers), MatchStatus::Lobby};
  m.takeover = "random";
  const MatchId id = store->create_match(m).value();
  EXPECT_EQ(store->privacy(id).value().takeover, std::optional<std::string>("random"));
}

INSTANTIATE_TEST_SUITE_P(Backends, TakeoverStoreTest,
                         ::testing::Values(Backend::Sqlite, Backend::Postgresql),
                         backend_test_name);

}  // namespace
}  // namespace eryantis::store::testing
