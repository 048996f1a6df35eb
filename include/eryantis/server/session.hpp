#pragma once
// One client connection as the server sees it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eryantis/protocol/message.hpp"
#include "eryantis/game/game.hpp"
#include "eryantis/server/connection.hpp"
#include "eryantis/store/records.hpp"

namespace eryantis::server {

struct Session {
  ConnectionId id = 0;
  std::string peer;
  bool greeted = false;                 // sent a valid hello
  bool full_views = true;               // updates carry the whole view, not only the event
  std::optional<std::string> nickname;  // once logged in
  std::string token;                    // the resume token issued at login
  // Logged in to an account (docs/accounts.md): its id and this session's digest
  // (what logout ends). 0 / "" for a guest.
  std::int64_t account = 0;
  std::string session_digest;
  bool account_busy = false;  // a register/login/reset of this connection is in flight
  // The session cookie that came with a WebSocket upgrade: logged in with once the
  // connection said hello (welcome says "cookie":true, the login's reply follows).
  std::string cookie_secret;
  store::MatchId match = 0;             // the match played or watched (0 = lobby)
  game::Seat seat = game::kNoSeat;
  bool spectator = false;
  std::int64_t last_seen_ms = 0;
  std::int64_t last_ping_ms = 0;
  bool reading_move_log = false;  // a move_log is being read for it (one at a time)
  bool chat_history_due = false;  // attached to a match: its chat follows the next state
  // Its history's read found the reader's queue full (a burst of joins): tick() asks again.
  bool chat_history_retry = false;
  bool timed_out = false;  // closed for silence; the transport has not reported it closed yet
  // Token bucket for the request rate limit.
  double tokens = 0;
  std::int64_t tokens_at_ms = 0;
  // Requests refused with RATE_LIMITED (eryantis-admin sessions), and when the last
  // was: a burst is logged once, at its first refusal (Server::note_rate_limited).
  std::uint64_t rate_limited = 0;
  std::int64_t rate_limited_ms = 0;
  // A cluster node answers some requests after a lookup in the shared store
  // (login, create, join, spectate). What the client pipelined meanwhile waits
  // here and runs in order once the answer is out, as on a single server.
  // A vector, not a deque: libstdc++'s deque allocates ~600 bytes when constructed,
  // on every connection (scenario c: 1.4 -> 2.0 KiB per connection); at most 32 wait.
  int awaiting = 0;
  std::vector<protocol::Envelope> held;
};

}  // namespace eryantis::server
