#pragma once
// The invariants of section 10 (docs/renaissance/rules.md), checked by the property tests after
// every command: a broken one is a bug in the rules.
#include <string>

#include "eryantis/renaissance/rules/state.hpp"

namespace eryantis::renaissance {

// Empty when every invariant of a full state holds (views blank ids and do not pass); otherwise
// a sentence naming the first broken one.
std::string invariant_violation(const State& s);

}  // namespace eryantis::renaissance
