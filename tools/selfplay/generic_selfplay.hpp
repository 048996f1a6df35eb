#pragma once
// Self-play of any game of the catalogue through the engine's interface alone:
// random legal commands, the game's invariants after every event, the fold of
// the events compared with the state, and how often each command type was used.
#include <cstdint>
#include <string>

#include "eryantis/game/game.hpp"
#include "eryantis/game/registry.hpp"

namespace eryantis::selfplay {

struct GenericRun {
  const game::Game* game = nullptr;
  std::string options_json = "{}";  // as create_match's `options`
  int players = 2;
  int games = 10;
  std::uint64_t seed = 1;  // game i uses seed + i
  bool quiet = false;
  // ByType: a command type uniformly among those on offer, then one of its commands
  // (every rare action gets played); Uniform: uniformly over the commands; Greedy: the
  // engine's greedy computer player on the seat's view (it plays with purpose, so it
  // reaches what random commands seldom do: a Renaissance leader's requirement met).
  enum class Policy { ByType, Uniform, Greedy };
  Policy policy = Policy::ByType;
  // --db: every finished game is also written to this SQLite store ("" = none),
  // `batch` games per transaction (match_writer.hpp).
  std::string db_path;
  int batch = 32;
  const game::Registry* games_of_db = nullptr;  // the store's games (the catalogue)
};

// Prints a line per game and a summary; the exit code: 0, 1 if an invariant broke
// or a game did not end, 2 for options the game refuses or a write that failed.
int play_generic(const GenericRun& run);

}  // namespace eryantis::selfplay
