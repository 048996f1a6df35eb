#pragma once
// Eriantys as the platform sees it: its rules, codecs, words and computer players
// behind the engine's one interface (eryantis/game/game.hpp, docs/games.md).
#include <memory>

#include "eryantis/game/game.hpp"

namespace eryantis::eriantys {

// "eriantys": 2 to 4 seats (4 = two teams), options {"mode":"simple"|"expert"}.
std::unique_ptr<const game::Game> make_game();

}  // namespace eryantis::eriantys
