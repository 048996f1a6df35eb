#pragma once
// eryantis-replay's command line, for the matches of the games in `games`: the
// release binary passes the build's catalogue (main.cpp); the tests build the same
// tool over their own registry (tests/replay), with its test game. Parses `argv`,
// runs the subcommand and returns the process exit code (commands.hpp).
#include "eryantis/game/registry.hpp"

namespace eryantis::replay {

int run_replay(int argc, char** argv, const game::Registry& games);

}  // namespace eryantis::replay
