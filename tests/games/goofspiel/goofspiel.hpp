#pragma once
// Goofspiel, the test game that proves the engine generic (docs/games.md walks
// through it): a second game, with chance and hidden information, that reaches the
// platform only through eryantis/game/game.hpp and is registered only by tests.
//
// Two players hold the cards 1..n (n = option "cards", 3..13, default 5). A prize
// deck of the same values is shuffled (chance, drawn by create_match and recorded
// in its event). Each round the top prize is shown and both players bid one card
// from their hand at the same time (a bid is hidden from the other player until
// both have bid: hidden information). The higher bid takes the prize's points; a
// tie discards it. After n rounds the higher score wins; equal scores draw.
#include <memory>

#include "eryantis/game/game.hpp"

namespace eryantis::goofspiel {

std::unique_ptr<const game::Game> make_game();

}  // namespace eryantis::goofspiel
