#pragma once
// The games this server plays, from the build's catalogue (eryantis/catalogue):
// what `welcome` lists, what `create_match`'s `game` and `options` name.
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "eryantis/game/game.hpp"
#include "eryantis/protocol/message.hpp"
#include "eryantis/rules/options.hpp"

namespace eryantis::server {

// The served game of that name ("" = the default), nullptr when there is none.
// Until a live match runs on game::Game alone (issue 24), a server plays the
// catalogue's default game, Eriantys; the others of the build wait for that.
const game::Game* served_game(std::string_view name);

// [{"name":"eriantys","title":"Eriantys","version":1,"min_players":2,"max_players":4}]
std::string served_games_json();

struct Refusal {
  protocol::ErrorCode code;
  std::string message;
};

// The options of a create_match as its game reads them (`options`, with the
// top-level `mode` merged in by the protocol): UNKNOWN_GAME or BAD_OPTIONS else.
std::expected<rules::MatchOptions, Refusal> requested_options(
    std::string_view game, int players, const std::optional<std::string>& options);

}  // namespace eryantis::server
