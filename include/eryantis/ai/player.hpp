#pragma once
// A computer player: from what one seat sees, the command that seat sends.
//
// Pure: no I/O, no clock, no global state; the same (view, seat, bot seed, playout
// budget) gives the same command on every run and machine. It sees only the seat's
// view (rules::view, the match's seed zeroed): what it cannot see, the order in which
// the bag will be drawn (its contents are known by count), it samples from its own
// generator, seeded from the bot seed and the view, never from the match's seed.
#include <cstdint>
#include <memory>
#include <optional>

#include "eryantis/ai/budget.hpp"
#include "eryantis/ai/level.hpp"
#include "eryantis/rules/command.hpp"
#include "eryantis/rules/decider.hpp"

namespace eryantis::ai {

struct Choice {
  rules::Command command;
  std::uint32_t playouts = 0;  // simulations run to choose it (strong only)
};

class Player {
 public:
  virtual ~Player() = default;
  // The command `seat` sends in `seen`: one of rules::legal_commands for the seat,
  // or nullopt when the seat has nothing to do. `seen.state.seed` is never read:
  // a view that still carried a seed decides exactly as one without.
  virtual std::optional<Choice> decide(const rules::View& seen, rules::Seat seat,
                                       std::uint64_t bot_seed, const Budget& budget) const = 0;
};

std::unique_ptr<Player> make_player(Level level);

}  // namespace eryantis::ai
