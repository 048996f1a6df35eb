#pragma once
// GET /help/<game> on the web listener: the game's help texts as JSON, the same
// texts the terminal client prints for `help` (game::Game::help), so the web
// client shows the rules without a second copy of them (docs/web.md, "Rules").
#include <string>
#include <string_view>

#include "eryantis/game/registry.hpp"
#include "eryantis/net/http_message.hpp"

namespace eryantis::app {

// The route's prefix; the rest of the path is the game's name.
inline constexpr std::string_view kHelpRoute = "/help/";

// {"game":"eriantys","overview":"...","topics":{"turn":"...",...}}: `overview` is
// help(""), `topics` has one member per help_topics() entry, in that order.
std::string help_json(const game::Game& game);

// The answer to a request for `path` (kHelpRoute + name): 200 with
// help_json, 404 UNKNOWN_GAME for a name the build does not play, 405 for a
// method other than GET or HEAD. Errors are {"code":...,"message":...}.
net::HttpResponse help_response(const game::Registry& games, std::string_view method,
                                std::string_view path);

}  // namespace eryantis::app
