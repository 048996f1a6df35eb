// The evaluation: a finished game scores kWin for its winning team alone, a shared
// draw nothing, and in two players one side's advantage is the other's loss.
#include <gtest/gtest.h>

#include "eryantis/ai/evaluation.hpp"
#include "eryantis/rules/random_game.hpp"

namespace eryantis::ai::testing {
namespace {

using namespace rules;

CharacterCard card(CharacterId id) {
  CharacterCard c;
  c.id = id;
  return c;
}

TEST(Evaluation, AFinishedGameScoresItsWinner) {
  for (std::uint64_t seed = 6500; seed < 6520; ++seed) {
    const State s = play_random_game({2, Mode::Expert}, seed).state;
    ASSERT_EQ(s.phase, Phase::GameOver) << "game " << seed;
    const TeamScores scores = team_scores(s);
    for (Seat p = 0; p < 2; ++p) {
      const int t = team_index(s, p);
      const bool won = (s.result.winners & (1u << p)) != 0;
      const bool shared = s.result.winners == 0b11;
      EXPECT_EQ(scores[t], shared ? 0.0 : (won ? kWin : -kWin)) << "game " << seed;
    }
  }
}

TEST(Evaluation, TwoPlayerAdvantagesAreOpposite) {
  play_random_game({2, Mode::Expert}, 6600, [](const Event&, const State& s) {
    if (s.phase == Phase::Setup) return;
    const TeamScores scores = team_scores(s);
    const int a = team_index(s, 0), b = team_index(s, 1);
    EXPECT_DOUBLE_EQ(advantage(s, scores, a), -advantage(s, scores, b));
  });
}

TEST(Evaluation, ABuiltTowerIsWorthMoreThanAnyStudent) {
  State s = play_random_game({2, Mode::Simple}, 6700, {}, 12).state;
  ASSERT_NE(s.phase, Phase::Setup);
  const int t = team_index(s, 0);
  const double before = team_scores(s)[t];
  State built = s;
  built.boards[0].towers -= 1;
  State student = s;
  student.boards[0].dining[Color::Red] += 1;
  EXPECT_GT(team_scores(built)[t] - before, team_scores(student)[t] - before);
}

// A coin is worth what it can buy: each one 0.6, and the coin that reaches a
// character's price more, so spending coins on nothing shows as a loss.
TEST(Evaluation, ACoinIsWorthTheCharactersItBuys) {
  State s = play_random_game({2, Mode::Expert}, 6800, {}, 12).state;
  ASSERT_NE(s.phase, Phase::Setup);
  s.characters = {card(CharacterId::Monk), card(CharacterId::Postman),
                  card(CharacterId::Herald)};  // costs 1, 2 and 3
  s.characters[2].used = true;                          // the Herald now costs 4
  EXPECT_EQ(coin_worth(s, 0), 0.0);
  for (int coins = 0; coins < 10; ++coins) {
    const double step = coin_worth(s, coins + 1) - coin_worth(s, coins);
    const bool reaches_a_price = coins + 1 == 1 || coins + 1 == 2 || coins + 1 == 4;
    EXPECT_GT(step, 0.0) << coins << " coins";
    if (reaches_a_price)
      EXPECT_GT(step, coin_worth(s, 6) - coin_worth(s, 5)) << "coin " << coins + 1;
    else
      EXPECT_NEAR(step, coin_worth(s, 6) - coin_worth(s, 5), 1e-9) << "coin " << coins + 1;
  }
  // In the team's score: four coins spent on a use that changes nothing cost more
  // than the 0.6 each a coin was once worth, and simple mode has no coins to count.
  const int t = team_index(s, 0);
  s.boards[0].coins = 4;
  State spent = s;
  spent.boards[0].coins = 0;
  EXPECT_GT(team_scores(s)[t] - team_scores(spent)[t], 4 * 0.6 + 2.0);
  State simple = s;
  simple.options.mode = Mode::Simple;
  State simple_spent = spent;
  simple_spent.options.mode = Mode::Simple;
  EXPECT_DOUBLE_EQ(team_scores(simple)[t], team_scores(simple_spent)[t]);
}

}  // namespace
}  // namespace eryantis::ai::testing
