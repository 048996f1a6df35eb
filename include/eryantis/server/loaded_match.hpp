#pragma once
// A match read back from the store, as the server takes it: at start-up (every
// unfinished match) and, in a cluster, when a node adopts one (docs/cluster.md).
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "eryantis/clocks/clock.hpp"
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
  // Schema 13: its clocks folded from the stored events' times and clock steps
  // (fold_match_clock); nullopt = no clock.
  std::optional<clocks::ClockState> clock = std::nullopt;
};

// The clocks of a match with `control` and `seats` seats, folded from its stored
// events (from the first, each with its time) and its clock steps, through
// `played`'s rules: who must act after each event. An event that does not decode
// counts as no step (the store verified the match when it loaded it).
clocks::ClockState fold_match_clock(const game::Game& played, const clocks::TimeControl& control,
                                    int seats, const std::vector<store::StoredEvent>& events,
                                    const std::vector<store::ClockStepRecord>& steps);

}  // namespace eryantis::server
