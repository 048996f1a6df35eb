// Determinism: the same view, seat, bot seed and playout budget give the same
// command, from the same player object or a new one; another bot seed may differ.
#include <gtest/gtest.h>

#include <iostream>

#include "eryantis/ai/player.hpp"
#include "positions.hpp"

namespace eryantis::ai::testing {
namespace {

using namespace rules;

TEST(Player, LevelNamesRoundTrip) {
  for (int l = 0; l < kLevelCount; ++l) {
    const auto level = static_cast<Level>(l);
    EXPECT_EQ(parse_level(level_name(level)), level);
  }
  EXPECT_FALSE(parse_level("grandmaster").has_value());
}

TEST(Player, SameInputsGiveTheSameCommand) {
  constexpr std::uint64_t kSeed = 1500;
  std::cout << "[ seed     ] positions from game seed " << kSeed << std::endl;
  const auto positions = sample_positions(kSeed, sanitizer_run() ? 6 : 24);
  const Budget budget{150, nullptr};
  for (int l = 0; l < kLevelCount; ++l) {
    const auto level = static_cast<Level>(l);
    const auto player = make_player(level);
    for (const Position& p : positions) {
      const View seen = view(p.state, p.seat);
      const auto first = player->decide(seen, p.seat, 77, budget);
      const auto again = player->decide(seen, p.seat, 77, budget);
      const auto fresh = make_player(level)->decide(seen, p.seat, 77, budget);
      ASSERT_TRUE(first && again && fresh) << level_name(level) << ", game " << p.game_seed;
      EXPECT_EQ(first->command, again->command) << level_name(level) << ", game " << p.game_seed;
      EXPECT_EQ(first->command, fresh->command) << level_name(level) << ", game " << p.game_seed;
      EXPECT_EQ(first->playouts, fresh->playouts);
    }
  }
}

TEST(Player, TheBotSeedVariesTheRandomLevel) {
  // The same opening position, ten bot seeds: a random player that ignored its seed
  // would always pick the same of the many legal commands.
  const auto positions = sample_positions(1600, 1);
  const auto player = make_player(Level::Random);
  const View seen = view(positions[0].state, positions[0].seat);
  const auto first = player->decide(seen, positions[0].seat, 0, {});
  ASSERT_TRUE(first);
  bool differed = false;
  for (std::uint64_t bot = 1; bot <= 10 && !differed; ++bot)
    differed = player->decide(seen, positions[0].seat, bot, {})->command != first->command;
  EXPECT_TRUE(differed);
}

TEST(Player, ASeatWithNothingToDoGetsNoCommand) {
  const auto positions = sample_positions(1700, 5);
  for (const Position& p : positions) {
    if (p.state.phase == Phase::Setup) continue;  // in setup everyone may act at once
    const Seat idle = static_cast<Seat>((p.seat + 1) % p.state.players());
    for (int l = 0; l < kLevelCount; ++l)
      EXPECT_FALSE(make_player(static_cast<Level>(l))->decide(view(p.state, idle), idle, 1, {50}))
          << "game " << p.game_seed;
  }
}

}  // namespace
}  // namespace eryantis::ai::testing
