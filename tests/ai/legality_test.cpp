// Every decision is legal: each level, over many positions of every player count
// and mode, answers with a command the rules' check accepts (from the real state,
// seed included); and whole games between the levels end without a refusal.
#include <gtest/gtest.h>

#include <iostream>

#include "eryantis/ai/player.hpp"
#include "eryantis/rules/invariants.hpp"
#include "positions.hpp"

namespace eryantis::ai::testing {
namespace {

using namespace rules;

TEST(Legality, EveryDecisionIsAcceptedByTheRules) {
  constexpr std::uint64_t kSeed = 3500;
  const int count = sanitizer_run() ? 40 : 400;
  std::cout << "[ seed     ] " << count << " positions from game seed " << kSeed << std::endl;
  const auto positions = sample_positions(kSeed, count);
  for (int l = 0; l < kLevelCount; ++l) {
    const auto level = static_cast<Level>(l);
    const auto player = make_player(level);
    for (const Position& p : positions) {
      const auto choice = player->decide(view(p.state, p.seat), p.seat, p.game_seed, {40, nullptr});
      ASSERT_TRUE(choice) << level_name(level) << ": no command, game " << p.game_seed;
      auto accepted = check(p.state, p.seat, choice->command);
      ASSERT_TRUE(accepted) << level_name(level) << ": " << command_type(choice->command)
                            << " refused (" << accepted.error().message << "), game " << p.game_seed
                            << " event " << p.state.events_applied;
    }
  }
}

TEST(Legality, GamesBetweenTheLevelsEnd) {
  constexpr std::uint64_t kSeed = 3600;
  std::cout << "[ seed     ] match seeds " << kSeed << ".." << kSeed + 2 << std::endl;
  const std::array<std::unique_ptr<Player>, kLevelCount> players = {
      make_player(Level::Random), make_player(Level::Greedy), make_player(Level::Strong)};
  for (int n = 2; n <= (sanitizer_run() ? 2 : 4); ++n) {
    const std::uint64_t seed = kSeed + static_cast<std::uint64_t>(n - 2);
    State s = apply(State{}, *create_match({static_cast<std::uint8_t>(n), Mode::Expert}, seed));
    int commands = 0;
    while (s.phase != Phase::GameOver) {
      ASSERT_LT(++commands, 2000) << "match seed " << seed << " does not end";
      const Seat seat = seats_to_act(s).front();
      const auto& player = players[static_cast<std::size_t>(seat % kLevelCount)];
      const auto choice = player->decide(view(s, seat), seat, seed, {30, nullptr});
      ASSERT_TRUE(choice) << "match seed " << seed;
      auto next = decide(s, seat, choice->command);
      ASSERT_TRUE(next) << "match seed " << seed << ": " << next.error().message;
      s = std::move(next->next);
      ASSERT_EQ(invariant_violation(s), "") << "match seed " << seed;
    }
    EXPECT_NE(s.result.winners, 0) << "match seed " << seed;
  }
}

}  // namespace
}  // namespace eryantis::ai::testing
