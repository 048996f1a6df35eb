#pragma once
// The invariants of section 10 (docs/renaissance/rules.md), checked by the property tests after
// every command: a broken one is a bug in the rules.
#include <string>

#include "eryantis/renaissance/rules/state.hpp"

namespace eryantis::renaissance {

// Empty when every invariant of a full state holds (views blank ids and do not pass); otherwise
// a sentence naming the first broken one.
std::string invariant_violation(const State& s);

// The same checks for a view (view(), decider.hpp): the positions it blanks (0) are allowed
// where view() blanks them (deck cards below the top, the face-down token stack, other seats'
// dealt and inactive leaders) and a hidden card or leader is not required to be anywhere; what
// is shown must still be whole. What a client runs on a view before its rules index arrays
// with it (the engine's Game::view_violation).
std::string view_violation(const State& s);

}  // namespace eryantis::renaissance
