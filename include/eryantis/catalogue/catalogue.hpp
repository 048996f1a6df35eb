#pragma once
// The games of this build, in one place (docs/games.md): what the server, the store
// and the tools look a game up in by name. A release adds a game here and nowhere
// else in the platform; the tests build their own registry (tests/games) with a
// test game more.
#include "eryantis/game/registry.hpp"

namespace eryantis::catalogue {

// Filled at the first call (thread-safe), read-only afterwards: Eriantys (the
// first, the default: what a request without `game` plays) and Masters of
// Renaissance.
const game::Registry& games();

}  // namespace eryantis::catalogue
