#pragma once
// A random legal command of any game, as eryantis-bot and the terminal client's
// `auto` play it: a command type uniformly among the types on offer
// (game::Game::command_type), then one command of that type uniformly. By type
// first so that a rare kind of move competes as an equal: Eriantys's Thief (one
// command per colour) beside a Monk (up to 48), where a uniform pick among a few
// hundred commands almost never chose it (0 uses in 5,100 expert games).
// Deterministic for the generator's seed.
#include <span>

#include "eryantis/game/game.hpp"
#include "eryantis/game/prng.hpp"

namespace eryantis::client {

// PRECONDITION: `legal` is not empty.
const game::Command& pick_random_command(const game::Game& game,
                                         std::span<const game::Command> legal, game::Prng& prng);

}  // namespace eryantis::client
