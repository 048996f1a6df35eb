#pragma once
// The server's configuration; config/eryantis.toml documents each option and its
// default (kept equal to the values here and in app::Config).
#include <cstddef>
#include <cstdint>
#include <string>

#include "eryantis/accounts/chat.hpp"
#include "eryantis/accounts/password_pool.hpp"
#include "eryantis/accounts/token_bucket.hpp"
#include "eryantis/game/computer.hpp"
#include "eryantis/game/registry.hpp"

namespace eryantis::server {

// [computer]: the server's own players (docs/bots.md). Decisions run on `workers`
// threads beside the event loop, never on it.
struct ComputerConfig {
  int workers = 1;                      // threads deciding for every computer seat
  game::Level level = game::Level::Greedy;  // when create_match / add_computer names none
  int playouts = 2000;                  // strong: simulations per decision (~20 ms of CPU)
  int think_ms = 1000;                  // strong: a decision stops searching after this
  int pause_ms = 800;                   // a computer's move waits at least this long,
                                        // so people can follow it
};

struct Limits {
  int max_connections = 20000;
  std::size_t max_line_bytes = 64 * 1024;
  int commands_per_second = 50;  // per connection, any request; bursts up to the same number
  int max_matches = 20000;       // unfinished matches held at once
  std::size_t max_outgoing_bytes = 1024 * 1024;  // queued for one slow client before it is cut off
  // Queued for all clients together; beyond it the biggest holders are cut first.
  std::size_t max_outgoing_bytes_total = 256 * 1024 * 1024;
  // Held for unfinished incoming lines by all clients together; beyond it the
  // clients holding the longest ones are cut first.
  std::size_t max_incoming_bytes_total = 64 * 1024 * 1024;
  int max_queued_per_match = 64;  // requests waiting behind a match's pending append
};

// [chat]: each match's two chats (docs/home.md, "Chat"; docs/protocol.md).
struct ChatConfig {
  // Characters per message (after cleaning), the rate per sender, and whether
  // control characters are stripped (default) or refused (CHAT_CONTROL).
  accounts::ChatRules rules;
  // Messages of a channel sent to who joins, resumes or starts watching: the newest.
  std::size_t history = 100;
};

// [accounts]: registered players (docs/accounts.md).
struct AccountsConfig {
  // Whether a nickname without an account may still play (never an account's name).
  bool guests = true;
  // Argon2id's parameters, the password workers and the requests that may wait.
  accounts::PasswordPoolConfig pool{};
  // A session (its secret) works this long after its login, then log in again.
  std::int64_t session_days = 30;
  // Login attempts: per account name (burst 5, then one every 20 s) and per address
  // (burst 20, then one a second); register and reset_password count per address.
  accounts::BucketRate per_account{5.0, 0.05};
  accounts::BucketRate per_address{20.0, 1.0};
  std::size_t tracked = 10000;  // names and addresses each limiter remembers at most
};

// What the server's logic needs. The process's own settings (database,
// durability, snapshots, logging) are the application's: app::Config.
struct ServerConfig {
  std::string listen = "127.0.0.1";
  int port = 7777;
  int heartbeat_interval_ms = 5000;  // the server pings a connection silent this long
  int heartbeat_timeout_ms = 15000;  // and closes it when silent this long
  int turn_grace_ms = 30000;         // a disconnected player's turn is skipped after this
  int forfeit_after_ms = 120000;     // alone in a match this long: the last player wins
  int abandon_after_ms = 600000;     // a match with no player connected (waiting or being played)
  // A full match in setup: seats that have not chosen their wizard and tower colour
  // this long after the last seat was taken are freed, so nobody is held hostage.
  int setup_choice_ms = 120000;
  // A match waiting for players with someone connected, and no seat taken or given
  // back for this long, is abandoned (it would otherwise wait for ever).
  int lobby_idle_ms = 1800000;
  bool require_resume_token = true;
  Limits limits;
  ComputerConfig computer;
  ChatConfig chat;
  AccountsConfig accounts;
  // The games it plays, the first the default (create_match without `game`):
  // nullptr = the build's catalogue (eryantis/catalogue). Tests and the test
  // server pass a registry with test games. Must outlive the server.
  const game::Registry* games = nullptr;
};

}  // namespace eryantis::server
