#pragma once
// Masters of Renaissance as the platform sees it: the engine's Game (eryantis/game/game.hpp) over
// this game's rules, codecs and words. The one header of the game the platform includes.
#include <memory>

#include "eryantis/game/game.hpp"

namespace eryantis::renaissance {

// "renaissance": 1 to 4 seats (1: solo against Lorenzo), views hide hands, deck orders and the
// solo token stack. docs/renaissance/protocol.md section 10.
std::unique_ptr<const game::Game> make_game();

}  // namespace eryantis::renaissance
