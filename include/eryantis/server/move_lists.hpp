#pragma once
// What a seat may do now, as the `legal` and `allowed` fields of `state` and
// `event` messages carry it (docs/protocol.md, "legal"). Both come from one call
// of the match's game's legal_commands, so they can never disagree.
#include <cstddef>
#include <string>

#include "eryantis/game/game.hpp"

namespace eryantis::server {

struct MoveLists {
  std::string legal;    // [{"type":"move_to_dining","color":"red"}, ...]: full commands
  std::string allowed;  // ["move_to_dining", ...]: their distinct types, in the same order
};

// Empty arrays for spectators (kNoSeat) and seats that may not act now.
MoveLists move_lists(const game::Game& game, const game::State& state, game::Seat seat);

// An upper bound of an Eriantys `legal` array's length. The swaps dominate: at most 128
// Jester swaps (card {1,1,1,1,2} against a 9-student entrance {2,2,2,2,1}) and 120
// Minstrel swaps, ~100 bytes each, beside 48 Monk targets and 65 student moves:
// about 31 kB if one turn had all of them at their largest. Random expert games
// reach 12.7 kB (tests/server/move_lists_test.cpp). With the rest of an event
// (~5 kB with the view) a message stays under the default max_line_bytes (65536).
inline constexpr std::size_t kLegalBytesBound = 32 * 1024;

}  // namespace eryantis::server
