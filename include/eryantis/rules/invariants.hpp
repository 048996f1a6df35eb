#pragma once
// The invariants of section 7, checked by the property tests after every command
// and by eryantis-selfplay: a broken one is a bug in the rules.
#include <string>

#include "eryantis/rules/state.hpp"

namespace eryantis::rules {

// Empty when every invariant holds; otherwise a sentence naming the first broken one.
std::string invariant_violation(const State& s);

// Students anywhere: bag, islands, clouds, entrances, dining rooms, character cards.
int count_students(const State& s);

}  // namespace eryantis::rules
