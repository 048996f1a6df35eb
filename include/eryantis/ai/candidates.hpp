#pragma once
// The commands a computer player considers: the legal commands without those a
// search need not tell apart and without character uses that cannot change
// anything any more. One of the three things a search asks of a game (with the
// determinization of what a seat cannot see, sampling.hpp, and the evaluation,
// evaluation.hpp).
#include <cstddef>
#include <vector>

#include "eryantis/rules/command.hpp"
#include "eryantis/rules/state.hpp"

namespace eryantis::ai {

// legal_commands(s, seat) less:
// - duplicates: a command naming an island tile is kept for one tile per group
//   (the rules treat every tile of a group alike), and a character with many
//   parameter choices (Monk, Jester, Minstrel) keeps at most kMaxPerCharacter of
//   them, spread over its list;
// - character uses for which character_can_matter is false.
// Never empty when legal_commands is not: a seat that must act keeps its moves
// (no rule below removes anything but a character use, and a character is never
// the only legal command).
inline constexpr std::size_t kMaxPerCharacter = 6;
std::vector<rules::Command> candidate_commands(const rules::State& s, rules::Seat seat);

// Whether a legal character use `c` by the seat acting in `s` can still change the
// game. False (the coins would buy nothing) for:
// - Postman once Mother Nature has moved this turn (its two extra steps are spent);
// - Knight, Centaur and Mushroom Hunter when no influence will be computed in the
//   rest of the turn: Mother Nature has moved, or every group she can reach
//   carries a No-Entry tile (no other character can resolve an island in the same
//   turn); the Centaur also when no group she can reach has a tower, the Mushroom
//   Hunter also for a colour whose professor nobody holds or, once the seat has
//   moved its students, that no group she can reach holds;
// - Farmer when the seat has no student left to move and no professor it ties
//   for (it takes professors on ties at once and for the rest of the turn);
// - Thief of a colour nobody has in the dining room;
// - Herald on a group where resolving changes nothing: no No-Entry tile, and no
//   team other than the tower's owner has strictly the most influence.
// True for every other command (not a character use, or one that always acts:
// Monk, Grandma Herbs, Jester, Minstrel, Princess).
bool character_can_matter(const rules::State& s, rules::Seat seat, const rules::Command& c);

}  // namespace eryantis::ai
