#pragma once
// `eryantis-replay DB serve`: the replay viewer's HTTP API (JSON, read-only on the
// database, safe while the server runs) and the web client's files, on the net
// layer's HTTP server (docs/web.md, "The replay API").
#include <string>

#include "eryantis/game/registry.hpp"

namespace eryantis::replay {

struct ServeArgs {
  std::string listen = "127.0.0.1";
  int port = 8090;  // beside the game server's 8080; 0 = any free port (printed)
  std::string static_dir = "web/dist";
};

// Serves until SIGINT/SIGTERM the matches of `games` in `db`; the process exit code.
int run_serve(const game::Registry& games, const std::string& db, const ServeArgs& args);

}  // namespace eryantis::replay
