#pragma once
// The games this server plays (ServerConfig::games, by default the build's
// catalogue): what `welcome` lists, what `create_match`'s `game` and `options` name.
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "eryantis/clocks/time_control.hpp"
#include "eryantis/game/game.hpp"
#include "eryantis/game/registry.hpp"
#include "eryantis/protocol/message.hpp"

namespace eryantis::server {

// The registry a server with this configuration plays from.
const game::Registry& served_games(const game::Registry* configured);

// The game of that name ("" = the default), nullptr when there is none.
const game::Game* served_game(const game::Registry& games, std::string_view name);

// [{"name":"eriantys","title":"Eriantys","version":1,"min_players":2,"max_players":4}]
std::string served_games_json(const game::Registry& games);

struct Refusal {
  protocol::ErrorCode code;
  std::string message;
};

// A create_match's game and its options as that game reads them (`options`, with
// the top-level `mode` merged in by the protocol): UNKNOWN_GAME or BAD_OPTIONS else.
struct RequestedMatch {
  const game::Game* game = nullptr;
  game::Options options;
  // create_match's `clock` and `on_timeout`, checked (nullopt: no clock).
  std::optional<clocks::TimeControl> clock = std::nullopt;
};
std::expected<RequestedMatch, Refusal> requested_options(const game::Registry& games,
                                                         std::string_view game, int players,
                                                         const std::optional<std::string>& options);

// The "mode" member of a match's options JSON, "" when it has none.
std::string options_mode(std::string_view options_json);

}  // namespace eryantis::server
