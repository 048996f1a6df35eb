#pragma once
// A quick, informed policy for the strong level's simulations: the moves a
// sensible player makes without looking ahead, with a little chance mixed in so
// that simulations differ. Played where the search tree ends (mcts_player.cpp);
// random commands spend coins on characters at random and hand islands away, so
// the positions they reach say little about the command that led there.
#include <optional>

#include "eryantis/rules/random_game.hpp"

namespace eryantis::ai {

// A legal command for a seat that may act in `s` (nullopt at game over or when no
// seat has a command). In planning, the lowest assistant that lets Mother Nature
// reach the group the seat's team gains most by (kPolicyRandomIn: a random one).
// In the action phase: a student to the dining room where it wins a professor,
// else onto the reachable group the team is closest to taking with a colour whose
// professor it holds, else a random student move; Mother Nature to the reachable
// group where the team gains most (or loses least); a random cloud. A character
// (among candidate_commands) now and then when the seat can pay for one.
inline constexpr std::uint32_t kPolicyRandomIn = 8;     // 1 in 8 decisions is random
inline constexpr std::uint32_t kPolicyCharacterIn = 8;  // 1 in 8 affordable turns' steps
std::optional<rules::SeatCommand> policy_command(const rules::State& s, rules::Prng& prng);

}  // namespace eryantis::ai
