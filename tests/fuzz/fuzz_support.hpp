#pragma once
// What several fuzz targets share: real states to apply decoded input to, a
// failure that libFuzzer reports as a crash, and the calls every decoded state
// must survive.
#include <string_view>
#include <vector>

#include "fuzz_api.hpp"

namespace eryantis::fuzz {

// States from real games (fixed seeds; 2, 3 and 4 players, simple and expert) at
// setup, early, middle and late points and at game over: the states an event or a
// command from outside meets on a server. Computed once.
const std::vector<rules::State>& sample_states();

// A broken property (not a crash by itself): printed, then abort() so that
// libFuzzer saves the input.
[[noreturn]] void fail(std::string_view what, std::string_view detail = {});

// view, legal_commands, seats_to_act, hash and the invariant check on a state that
// decoded: none may crash, whatever the state holds.
void exercise_state(const rules::State& s);

}  // namespace eryantis::fuzz
