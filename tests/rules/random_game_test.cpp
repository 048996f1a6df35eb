// The random players' policies: both only ever choose legal commands, and the
// by-type policy (the default) plays every character, where the uniform one never
// chose the Thief, the Centaur or the Mushroom Hunter in 5,100 expert games.
#include <gtest/gtest.h>

#include <iostream>

#include "eryantis/rules/random_game.hpp"

namespace eryantis::rules {
namespace {

TEST(RandomGame, ByTypePlaysEveryCharacter) {
  constexpr std::uint64_t kSeed = 1;
  constexpr int kGames = 400;  // about 100 games per character; the rarest is used ~20 times
  std::cout << "[ seeds    ] " << kSeed << ".." << kSeed + kGames - 1 << std::endl;
  std::array<int, kCharacterCount> uses{};
  for (std::uint64_t seed = kSeed; seed < kSeed + kGames; ++seed)
    play_random_game({2, Mode::Expert}, seed, [&](const Event& e, const State&) {
      if (auto used = command_character(e.command)) ++uses[static_cast<std::size_t>(*used)];
    });
  for (int c = 0; c < kCharacterCount; ++c)
    EXPECT_GT(uses[static_cast<std::size_t>(c)], 0)
        << character_name(static_cast<CharacterId>(c)) << " never used";
}

TEST(RandomGame, BothPoliciesPickOnlyFromTheList) {
  constexpr std::uint64_t kSeed = 77;
  std::cout << "[ seed     ] " << kSeed << std::endl;
  Prng prng(kSeed);
  for (RandomPolicy policy : {RandomPolicy::ByType, RandomPolicy::Uniform}) {
    int checked = 0;
    play_random_game({3, Mode::Expert}, kSeed, [&](const Event&, const State& s) {
      for (Seat seat : seats_to_act(s)) {
        const auto legal = legal_commands(s, seat);
        const Command& picked = pick_random_command(legal, prng, policy);
        EXPECT_NE(std::find(legal.begin(), legal.end(), picked), legal.end());
        ++checked;
      }
    });
    EXPECT_GT(checked, 50);
  }
}

TEST(RandomGame, ByTypeGivesEachTypeAnEqualChance) {
  // One Thief among 40 Monk commands: chosen about half the time by type, 1/41 uniformly.
  std::vector<Command> legal;
  for (std::uint8_t t = 0; t < 40; ++t) legal.push_back(UseMonk{Color::Red, t});
  legal.push_back(UseThief{Color::Pink});
  Prng prng(5);
  int thief_by_type = 0, thief_uniform = 0;
  for (int i = 0; i < 4000; ++i) {
    thief_by_type += std::holds_alternative<UseThief>(pick_random_command(legal, prng));
    thief_uniform +=
        std::holds_alternative<UseThief>(pick_random_command(legal, prng, RandomPolicy::Uniform));
  }
  EXPECT_NEAR(thief_by_type, 2000, 200);
  EXPECT_LT(thief_uniform, 250);
}

}  // namespace
}  // namespace eryantis::rules
