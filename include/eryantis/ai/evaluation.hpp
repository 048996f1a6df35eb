#pragma once
// A static score of a position for each team (tower colour), used by the greedy
// level to rank its commands and by the strong level where a simulation stops
// before the end of the game.
#include <array>

#include "eryantis/rules/state.hpp"

namespace eryantis::ai {

// Score of every tower colour (index = rules::TowerColor); colours not in play get 0.
// Terminal positions score kWin for the winning team(s) alone, 0 for a shared draw.
using TeamScores = std::array<double, rules::kTowerColorCount>;
inline constexpr double kWin = 1000.0;
TeamScores team_scores(const rules::State& s);

// What `coins` in one seat's hand add to its team's score (expert mode): 0.6 each,
// and 1 more for every character in play that they pay for, so that a search sees
// what spending them gives up (a tower is worth 10).
double coin_worth(const rules::State& s, int coins);

// The team's score minus the best other team's: > 0 means ahead.
double advantage(const rules::State& s, const TeamScores& scores, int team);

// Tower colour index of a seat's team, or -1 before it chose a colour.
int team_index(const rules::State& s, rules::Seat seat);

}  // namespace eryantis::ai
