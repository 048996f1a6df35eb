#pragma once
// The arena's core, apart from its command line: plays one game of any game of the
// catalogue between computer players (game::Game::choose), every command through
// the game's own decide, and sums the results into a table.
#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "eryantis/game/computer.hpp"
#include "eryantis/game/game.hpp"

namespace eryantis::arena {

// Decision work of one level, summed over games.
struct LevelWork {
  std::uint64_t decisions = 0;
  std::uint64_t playouts = 0;
  double seconds = 0;     // wall clock
  double slowest_ms = 0;  // wall clock
  // CPU time of the deciding thread: what one core would take on an idle machine
  // (a shared machine stretches the wall clock figures above).
  double cpu_seconds = 0;
  double slowest_cpu_ms = 0;
};

struct GameOutcome {
  // Per seat: 1 win, 0.5 shared draw, 0 loss. An illegal command or a game that
  // does not end leaves `error` set.
  std::array<double, game::kMaxSeats> score{};
  int rounds = 0;
  std::string error;
};

struct GameSetup {
  const game::Game* game = nullptr;
  game::Options options;
  std::uint64_t match_seed = 0;  // the rules' secret seed of the match
  std::uint64_t bot_seed = 0;    // the players' (each seat mixes in its index)
  std::array<game::Level, game::kMaxSeats> seats{};
  game::Budget budget;
  // Per-decision time cap (0 = playouts only); implemented with steady_clock here.
  double decision_ms = 0;
};

GameOutcome play_game(const GameSetup& setup, std::array<LevelWork, game::kLevelCount>& work);

// Wilson score interval at 95 % for a score fraction over n games.
struct Interval {
  double low = 0, high = 0;
};
Interval wilson95(double score, double n);

// Elo-style ratings from pairwise scores (Bradley-Terry fit, `anchor` at 0).
// scores[i][j] = points of level i against level j, games[i][j] = games between them.
std::array<double, game::kLevelCount> elo_ratings(
    const std::array<std::array<double, game::kLevelCount>, game::kLevelCount>& scores,
    const std::array<std::array<double, game::kLevelCount>, game::kLevelCount>& games,
    game::Level anchor);

}  // namespace eryantis::arena
