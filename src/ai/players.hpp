#pragma once
// The three levels behind ai::make_player.
#include "eryantis/ai/player.hpp"

namespace eryantis::ai::detail {

class RandomPlayer final : public Player {
 public:
  std::optional<Choice> decide(const rules::View& seen, rules::Seat seat, std::uint64_t bot_seed,
                               const Budget& budget) const override;
};

class GreedyPlayer final : public Player {
 public:
  std::optional<Choice> decide(const rules::View& seen, rules::Seat seat, std::uint64_t bot_seed,
                               const Budget& budget) const override;
};

class MctsPlayer final : public Player {
 public:
  std::optional<Choice> decide(const rules::View& seen, rules::Seat seat, std::uint64_t bot_seed,
                               const Budget& budget) const override;
};

}  // namespace eryantis::ai::detail
