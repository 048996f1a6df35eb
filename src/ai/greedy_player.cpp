// One-ply lookahead: every candidate command is played on one sampled state and
// the position after it is scored (evaluation.cpp); the best score wins, ties drawn
// at random so that equal choices (most assistants, early student moves) vary.
#include "eryantis/ai/candidates.hpp"
#include "eryantis/ai/evaluation.hpp"
#include "players.hpp"
#include "sampling.hpp"

namespace eryantis::ai::detail {

using namespace rules;

std::optional<Choice> GreedyPlayer::decide(const View& seen, Seat seat, std::uint64_t bot_seed,
                                           const Budget&) const {
  Prng prng = decision_prng(seen, seat, bot_seed);
  const State sampled = determinize(seen, prng);
  const auto candidates = candidate_commands(sampled, seat);
  if (candidates.empty()) return std::nullopt;
  const int team = team_index(sampled, seat);
  std::vector<std::size_t> best;
  double best_score = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    auto next = rules::decide(sampled, seat, candidates[i]);
    if (!next) continue;  // not reached: candidates are legal
    const double score = team < 0 ? 0.0 : advantage(next->next, team_scores(next->next), team);
    if (best.empty() || score > best_score + 1e-9) {
      best.assign(1, i);
      best_score = score;
    } else if (score > best_score - 1e-9) {
      best.push_back(i);
    }
  }
  if (best.empty()) return std::nullopt;
  return Choice{candidates[best[prng.below(static_cast<std::uint32_t>(best.size()))]], 0};
}

}  // namespace eryantis::ai::detail
