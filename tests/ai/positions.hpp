#pragma once
// Positions for the computer players' tests: states met in random games (the
// by-type policy, so characters are in play), at every phase.
#include <cstdint>
#include <vector>

#include "eryantis/rules/state.hpp"

namespace eryantis::ai::testing {

struct Position {
  rules::State state;
  rules::Seat seat;         // a seat that may act
  std::uint64_t game_seed;  // to replay: play_random_game(options, game_seed)
};

// `count` positions spread over games of every player count and mode, from
// consecutive seeds starting at `base_seed` (printed by the caller).
std::vector<Position> sample_positions(std::uint64_t base_seed, int count);

// True when the tests run under a sanitizer (ERYANTIS_SANITIZER_RUN): scale down.
bool sanitizer_run();

}  // namespace eryantis::ai::testing
