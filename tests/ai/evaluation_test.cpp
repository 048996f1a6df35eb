// The evaluation: a finished game scores kWin for its winning team alone, a shared
// draw nothing, and in two players one side's advantage is the other's loss.
#include <gtest/gtest.h>

#include "eryantis/ai/evaluation.hpp"
#include "eryantis/rules/random_game.hpp"

namespace eryantis::ai::testing {
namespace {

using namespace rules;

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

}  // namespace
}  // namespace eryantis::ai::testing
