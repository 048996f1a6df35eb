#pragma once
// Helpers shared by the rules tests: building matches, playing random games.
#include <cstdint>
#include <random>
#include <vector>

#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/invariants.hpp"

namespace eryantis::rules::testing {

// A created match with every seat's wizard and tower colour chosen (seat p takes
// wizard p and, for 2/3 players, tower colour p; 4 players: team 0 black, team 1 white).
// The result is in round 1's planning phase.
struct Match {
  State state;
  std::vector<Event> events;

  // check + apply, failing the current test if check refuses.
  void play(Seat seat, const Command& c, Authority a = Authority::Player);
  // check only; returns the error code or nullopt.
  std::optional<RuleCode> refuse(Seat seat, const Command& c,
                                 Authority a = Authority::Player) const;
  // Plays the planning phase with the given assistant per seat (in planning order).
  void plan(const std::vector<int>& assistant_by_seat);
};

Match started_match(int players, Mode mode, std::uint64_t seed = 1);

// Plays uniformly random legal commands until the game ends (or max_commands).
// Returns the number of commands played.
int play_random(Match& m, std::mt19937_64& rng, int max_commands = 100000);

using rules::count_students;
using rules::invariant_violation;

}  // namespace eryantis::rules::testing
