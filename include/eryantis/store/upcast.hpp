#pragma once
// Stored event payloads carry the schema version they were written with; reads
// bring older versions up to the game's event_schema() before decoding (the game
// says how: game::Game::upcast_event).
#include <string>

#include "eryantis/game/game.hpp"
#include "eryantis/store/error.hpp"

namespace eryantis::store {

// The payload of `schema_version`, rewritten as `played`'s current version. A
// version newer than this build's game is TooNew; one it never wrote, Decode.
Result<std::string> upcast(const game::Game& played, int schema_version, std::string payload);

}  // namespace eryantis::store
