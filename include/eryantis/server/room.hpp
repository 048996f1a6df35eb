#pragma once
// A live match held by the server: its folded state, who sits where, who is
// watching, and the requests waiting behind its pending write.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "eryantis/game/computer.hpp"
#include "eryantis/game/game.hpp"
#include "eryantis/server/connection.hpp"
#include "eryantis/server/persistence.hpp"
#include "eryantis/server/recent_commands.hpp"
#include "eryantis/server/timers.hpp"
#include "eryantis/store/records.hpp"

namespace eryantis::server {

struct SeatHolder {
  std::string nickname;
  std::string token_hash;
  ConnectionId connection = 0;  // 0 = disconnected
  // A computer player's seat (computer.hpp): never connected, always present.
  std::optional<game::Level> computer;
};

// A computer seat's decision for one position: asked, then answered, then played
// once its pause is over (src/server/computer.cpp).
struct ComputerTurn {
  bool asked = false;
  store::Seq position = 0;               // the seq it was asked at
  std::int64_t due_ms = 0;               // played no sooner (people follow the game)
  std::optional<game::Command> command;  // the answer, until it is played
};

// A request waiting for its room's pending write. If the room disappears first
// (its creation could not be saved), the request is answered with an error.
struct WaitingRequest {
  ConnectionId conn = 0;
  std::string id;  // the request's id, for the error
  std::function<void()> run;
};

struct Room {
  store::MatchId id = 0;
  // Its game (from the build's catalogue): what decodes its commands. Never null.
  const game::Game* game = nullptr;
  game::State state;  // of `game`, hidden information and seed included
  // The options it was created with: their JSON as the game writes it, and its
  // "mode" member if any (what match lists show and quick_join matches).
  std::string options_json;
  std::string mode;
  int seat_count = 0;  // the game's seats(state), fixed at creation
  store::Seq seq = 0;  // last durable event
  store::MatchStatus status = store::MatchStatus::Lobby;
  std::array<std::optional<SeatHolder>, game::kMaxSeats> seats;
  std::set<ConnectionId> spectators;
  // Its timers (timers.hpp): the stored one (turn grace while running, abandon in
  // the lobby; a desertion is stored in its place while it lasts), and the
  // forfeit and setup clocks, in memory only (a restart gives their full time again).
  timers::Clocks clocks;
  // When a seat was last taken or given back (or the match was loaded): a match
  // waiting for players is abandoned lobby_idle_ms after it.
  std::int64_t lobby_since_ms = 0;
  // The deadline clients were last told of (state, event or seats): a change is pushed.
  Deadline announced;
  // In a cluster, the epoch of this node's lease on the match: every write carries
  // it as its fence (docs/cluster.md). 0 = no cluster.
  std::int64_t epoch = 0;
  bool busy = false;  // a write is in flight: later requests wait (one write at a time)
  // Vectors, not deques: libstdc++'s deque allocates ~600 bytes even when empty,
  // and an idle match should cost little. Both stay short.
  // At most limits.max_queued_per_match.
  std::vector<WaitingRequest> waiting;
  // Recently accepted client command ids and their seqs.
  RecentCommands recent_commands;
  // Who created it (add_computer / remove_computer are theirs); "" after a restart.
  std::string creator;
  std::array<ComputerTurn, game::kMaxSeats> computer_turns;

  int players() const { return seat_count; }
  int seated() const {
    int n = 0;
    for (int i = 0; i < players(); ++i) n += seats[i].has_value();
    return n;
  }
  int connected() const {
    int n = 0;
    for (int i = 0; i < players(); ++i) n += seats[i] && seats[i]->connection != 0;
    return n;
  }
  bool full() const { return seated() == players(); }
  bool is_computer(int seat) const { return seats[seat] && seats[seat]->computer.has_value(); }
  int computers() const {
    int n = 0;
    for (int i = 0; i < players(); ++i) n += is_computer(i);
    return n;
  }
  // Connected people plus computer seats: who the timers count as there.
  int present() const { return connected() + computers(); }
};

}  // namespace eryantis::server
