#pragma once
// eryantis-bot's command line and run, over the games a build gives it: the
// catalogue in eryantis-bot (main.cpp), the tests' games in eryantis-test-bot
// (tests/games), which plays their test game against a test server.
#include "eryantis/game/registry.hpp"

namespace eryantis::bot {

// Parses the command line, checks the game and its options in `registry`, runs the
// bots; returns the process's exit code (2: a mistake on the command line).
int run_command_line(int argc, char** argv, const game::Registry& registry);

}  // namespace eryantis::bot
