#include "players.hpp"

#include "eryantis/rules/random_game.hpp"
#include "sampling.hpp"

namespace eryantis::ai::detail {

std::optional<Choice> RandomPlayer::decide(const rules::View& seen, rules::Seat seat,
                                           std::uint64_t bot_seed, const Budget&) const {
  const auto legal = rules::legal_commands(seen.state, seat);
  if (legal.empty()) return std::nullopt;
  rules::Prng prng = decision_prng(seen, seat, bot_seed);
  return Choice{rules::pick_random_command(legal, prng, rules::RandomPolicy::Uniform), 0};
}

}  // namespace eryantis::ai::detail
