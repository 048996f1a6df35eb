// eryantis-test-bot: eryantis-bot over the tests' games (the catalogue's and
// Goofspiel), for a test server that serves them (docs/games.md, "Adding a game").
#include "command_line.hpp"
#include "games/games.hpp"

int main(int argc, char** argv) {
  return eryantis::bot::run_command_line(argc, argv, eryantis::test::games());
}
