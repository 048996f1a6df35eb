// The budget is respected: the strong level runs exactly its playouts, stops soon
// after an injected deadline passes, and reads no clock of its own (a deadline
// that never passes leaves the result a function of the playout count alone).
#include <gtest/gtest.h>

#include "eryantis/ai/player.hpp"
#include "positions.hpp"

namespace eryantis::ai::testing {
namespace {

using namespace rules;

// Passes after it has been asked `patience` times: a clock the test controls.
class CountingDeadline final : public Deadline {
 public:
  explicit CountingDeadline(int patience) : patience_(patience) {}
  bool passed() const override { return ++asked_ > patience_; }
  int asked() const { return asked_; }

 private:
  int patience_;
  mutable int asked_ = 0;
};

// A position where the strong level has to search (more than one candidate).
Position searching_position() {
  for (const Position& p : sample_positions(4500, 60))
    if (p.state.phase == Phase::Action && legal_commands(p.state, p.seat).size() > 4) return p;
  return sample_positions(4500, 1).front();
}

TEST(Budget, TheStrongLevelRunsExactlyItsPlayouts) {
  const Position p = searching_position();
  const auto strong = make_player(Level::Strong);
  for (std::uint32_t playouts : {1u, 37u, 300u}) {
    const auto choice = strong->decide(view(p.state, p.seat), p.seat, 3, {playouts, nullptr});
    ASSERT_TRUE(choice);
    EXPECT_EQ(choice->playouts, playouts) << "game " << p.game_seed;
  }
}

TEST(Budget, ADeadlineStopsTheSearchEarly) {
  const Position p = searching_position();
  const auto strong = make_player(Level::Strong);
  const CountingDeadline passed_at_once(0);
  const auto early = strong->decide(view(p.state, p.seat), p.seat, 3, {100000, &passed_at_once});
  ASSERT_TRUE(early);
  EXPECT_GE(early->playouts, 1u);
  EXPECT_LE(early->playouts, 64u);  // checked every few playouts (32), not after the budget
  EXPECT_EQ(passed_at_once.asked(), 1);
  EXPECT_TRUE(check(p.state, p.seat, early->command));

  const CountingDeadline never(1 << 30);
  const auto full = strong->decide(view(p.state, p.seat), p.seat, 3, {500, &never});
  const auto without = strong->decide(view(p.state, p.seat), p.seat, 3, {500, nullptr});
  ASSERT_TRUE(full && without);
  EXPECT_EQ(full->playouts, 500u);
  EXPECT_EQ(full->command, without->command);
}

TEST(Budget, GreedyAndRandomRunNoPlayouts) {
  const Position p = searching_position();
  for (Level level : {Level::Random, Level::Greedy}) {
    const auto player = make_player(level);
    const auto small = player->decide(view(p.state, p.seat), p.seat, 3, {1, nullptr});
    const auto large = player->decide(view(p.state, p.seat), p.seat, 3, {100000, nullptr});
    ASSERT_TRUE(small && large);
    EXPECT_EQ(small->playouts, 0u);
    EXPECT_EQ(small->command, large->command);
  }
}

}  // namespace
}  // namespace eryantis::ai::testing
