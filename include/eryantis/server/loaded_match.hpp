#pragma once
// A match read back from the store, as the server takes it: at start-up (every
// unfinished match) and, in a cluster, when a node adopts one (docs/cluster.md).
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "eryantis/game/game.hpp"
#include "eryantis/server/persistence.hpp"
#include "eryantis/store/records.hpp"

namespace eryantis::server {

// How many (command id, seq) pairs a match keeps to answer a client's retry with
// its original ack: while running, and restored after a restart (the same number,
// so a retry is answered the same either side of a restart).
inline constexpr std::size_t kRecentCommands = 64;

// A match loaded from the store at start-up.
struct LoadedMatch {
  store::MatchId id = 0;
  store::MatchStatus status = store::MatchStatus::Lobby;
  // The game it plays (one this server serves: the store folded it with it).
  const game::Game* game = nullptr;
  store::Seq last_seq = 0;
  game::State state;  // of that game
  std::vector<store::SeatRecord> seats;
  Deadline deadline;
  // (command id, seq) of the last kRecentCommands commands, so a client's retry
  // after the restart gets its original ack.
  std::vector<std::pair<std::string, store::Seq>> recent_commands;
  // Schema 10: a private match and its invite rows (digests only).
  bool private_match = false;
  std::vector<store::MatchInvite> invites = {};
  // Schema 12: who takes the seat of a player who leaves once it has started.
  std::optional<game::Level> takeover = std::nullopt;
};

}  // namespace eryantis::server
