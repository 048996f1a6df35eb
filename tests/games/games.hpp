#pragma once
// The games the tests play: every game of the build (the catalogue) and the test
// games, in one registry.
#include <string>
#include <vector>

#include "eryantis/game/registry.hpp"

namespace eryantis::test {

const game::Registry& games();
std::vector<std::string> game_names();

}  // namespace eryantis::test
