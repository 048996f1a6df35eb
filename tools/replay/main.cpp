// eryantis-replay: inspect a match database without touching it, and apply
// single commands to state files. Run `eryantis-replay --help`. Every game of the
// build (eryantis/catalogue) is read through the engine's interface (app.hpp).
#include "app.hpp"
#include "eryantis/catalogue/catalogue.hpp"

int main(int argc, char** argv) {
  return eryantis::replay::run_replay(argc, argv, eryantis::catalogue::games());
}
