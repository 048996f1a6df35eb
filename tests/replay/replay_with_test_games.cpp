// eryantis-replay over the tests' registry (test::games(): the games of the build
// and the test game Goofspiel): the release tool's code, given another registry,
// as the tests of any game run it (games_test.cpp). Never installed.
#include "app.hpp"
#include "games/games.hpp"

int main(int argc, char** argv) {
  return eryantis::replay::run_replay(argc, argv, eryantis::test::games());
}
