#pragma once
// A live match held by the server: its folded state, who sits where, who is
// watching, and the requests waiting behind its pending write.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eryantis/clocks/clock.hpp"
#include "eryantis/game/computer.hpp"
#include "eryantis/game/game.hpp"
#include "eryantis/server/connection.hpp"
#include "eryantis/server/move_lists.hpp"
#include "eryantis/server/persistence.hpp"
#include "eryantis/server/recent_commands.hpp"
#include "eryantis/server/timers.hpp"
#include "eryantis/store/records.hpp"

namespace eryantis::protocol {
class JsonLine;
}  // namespace eryantis::protocol

namespace eryantis::server {

struct SeatHolder {
  std::string nickname;
  std::string token_hash;
  ConnectionId connection = 0;  // 0 = disconnected
  // A computer player's seat (computer.hpp): never connected, always present.
  std::optional<game::Level> computer;
  // Schema 14 (docs/accounts.md, "Who is rated: the player key"): the account that took
  // the seat, and for a computer that took it over, the rating key of the person before.
  std::optional<std::int64_t> account_id = std::nullopt;
  std::optional<std::string> left_by = std::nullopt;
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

class Room;

// The three narrow interfaces through which a Room reaches outside its match
// (the Server implements them; tests/server/room_test.cpp fakes them):

// Where its messages go: the transport, through the server's sessions.
class Outbox {
 public:
  virtual ~Outbox() = default;
  virtual void send(ConnectionId conn, std::string line) = 0;
  // An error reply; with `room`, it carries the match and its seq.
  virtual void send_error(ConnectionId conn, const std::string& id, std::string_view code,
                          std::string_view message, const Room* room) = 0;
  // Whether `conn` asked for each update's whole view (login's "updates":"full").
  virtual bool wants_views(ConnectionId conn) const = 0;
};

// Where its writes go: Persistence, plus what the server adds around each write
// (a cluster's fence, the writes-in-flight count, the degraded state). `done`
// runs later; the room may be gone by then (a FENCED write drops it).
class MatchWrites {
 public:
  virtual ~MatchWrites() = default;
  virtual void write(Room& room, MatchWrite write, WriteDone done) = 0;
  virtual int snapshot_every() const = 0;
  // False once the database is damaged: no timer is decided or written any more.
  virtual bool writable() const = 0;
};

// What the server does around a room's accepted commands (the lobby, the people
// away, the computer players are the server's, not the match's).
class RoomOwner {
 public:
  virtual ~RoomOwner() = default;
  // Before a match's ending is written: its push, and the copies to keep for the
  // players not connected (stored with the ending).
  struct Ending {
    std::string line;
    std::vector<store::UnseenEnding> kept;
  };
  virtual Ending ending(const Room& room, const game::Outcome& outcome) = 0;
  // A status change of `room` is durable (a new match: from nullopt): the owner
  // counts it and sets room.status.
  virtual void moved(Room& room, std::optional<store::MatchStatus> from,
                     store::MatchStatus to) = 0;
  // A command of this room is durable and told (its event broadcast); `kept`:
  // what ending() gave if the command ended the match.
  virtual void accepted(Room& room, const std::vector<store::UnseenEnding>& kept) = 0;
};

// Everything a room is linked to, shared by every room of a server.
struct RoomLinks {
  Outbox& outbox;
  MatchWrites& writes;
  RoomOwner& owner;
  std::function<std::int64_t()> clock;  // unix milliseconds
  timers::Settings timers;
  int max_queued = 0;  // requests waiting per match (limits.max_queued_per_match)
};

// One live match: its state, seats and spectators, and the three things that are
// the match's own: its request queue (one write at a time), the submit → persist
// → broadcast chain, and its deadlines. The Server keeps sessions and the lobby:
// it seats people (the public members below) and hands requests to the queue.
class Room {
 public:
  explicit Room(const RoomLinks& links) : links_(&links) {}
  Room(const Room&) = delete;
  Room& operator=(const Room&) = delete;

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
  // A private match (docs/accounts.md, "Invite links and private matches"): never
  // listed; joined or watched only with its invite code. Its invite rows as stored
  // (digests only, revoked ones too, oldest first); at most one is not revoked.
  bool private_match = false;
  std::vector<store::MatchInvite> invites;
  // The computer level that takes the seat of a player who leaves the started
  // match or stays away past the turn grace (docs/accounts.md, "A computer takes
  // the seat"); nullopt = the seat stays theirs. Only for 3 or 4 seats.
  std::optional<game::Level> takeover;
  // Adds `"takeover":level` to a state, seats or match_list entry of a match that has
  // one (none: no field, so the messages of other matches are as before).
  void takeover_field(protocol::JsonLine& line) const;
  // Clocks for everyone (docs/home.md, "Clocks"): the match's clocks as folded from
  // its events' times and clock steps; nullopt = the match has no clock. Advanced
  // with every durable event and step (src/server/match_clock.cpp).
  std::optional<clocks::ClockState> clock;
  // Adds `"clock":{"control":"10m+5s","on_timeout":"skip"}` to a state, seats or
  // match_list entry of a clocked match (none: no field).
  void clock_field(protocol::JsonLine& line) const;
  // `"clocks":[{"left_ms":..,"delay_ms":..,"running":..},...]` as clocks_at(now):
  // one per seat (empty string when the match has no clock).
  std::string clocks_json(std::int64_t now) const;
  // The seats to act in `st` (a bit per seat), and the computer seats: the fold's input.
  clocks::SeatMask to_act_mask(const game::State& st) const;
  clocks::SeatMask computer_mask() const;
  // A clock step that is not an event, applied to `clock` and written as a row:
  // appended to `write` (after the room's seq) and folded once it is durable.
  void add_clock_step(MatchWrite& write, clocks::ClockStep step) const;

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

  // --- the request queue -------------------------------------------------------
  // Runs `op` once no write of this room is in flight and every request before it
  // ran. Beyond RoomLinks::max_queued the request is refused (RATE_LIMITED)
  // and `op` dropped.
  void enqueue(ConnectionId conn, const std::string& id, std::function<void()> op);
  // Runs the waiting operations until one makes the room busy (writes). Safe when
  // an operation drops the room.
  void run_next();
  // Nothing is in flight or waiting: a request may run at once.
  bool idle() const { return !busy && waiting.empty(); }

  // --- the persist chain ---------------------------------------------------------
  // Submits one write; `after` runs when it is durable (or failed), with this room,
  // or nullptr if it is gone by then. The room stays busy until then, so its next
  // request sees the result.
  using AfterWrite = std::function<void(store::Result<store::AppendOutcome>, Room*)>;
  void persist(MatchWrite write, AfterWrite after);
  // check + persist + apply + tell, for a player's or the server's command: the
  // event goes to every viewer as they may see it, the sender gets its ack, and
  // the owner is told (RoomOwner::accepted).
  void submit(game::Seat seat, const game::Command& command, game::Authority authority,
              ConnectionId reply_to, const std::string& id,
              std::optional<std::string> command_id);
  // The game's outcome of the match once it is over; one where nobody wins if the
  // game gave none (which would break its contract: the match still ends).
  game::Outcome outcome() const;
  // What `seat` may send now (move_lists.hpp): nothing while seats are free, since
  // a command is refused until every seat is taken (the game's own legal
  // commands would be refused: WRONG_PHASE).
  MoveLists moves(game::Seat seat) const;
  // Every seat's and spectator's connection.
  void send_all(const std::string& line);
  // The `seats` push to everyone; `reply_to`'s copy carries the request's `id`.
  void broadcast_seats(ConnectionId reply_to = 0, const std::string& id = {});
  std::string seats_json() const;

  // --- its deadlines ---------------------------------------------------------------
  // What the timers look at in this room (timers.hpp).
  timers::Situation situation() const;
  // Sets the timers for the situation now without acting on any: called before
  // every state, event and seats message, so the message that reports a change
  // already carries its deadline.
  void update_deadlines(std::int64_t now);
  // update_deadlines, then the timer that ran out, if any (the server carries it out).
  timers::Action due(std::int64_t now);
  // Writes timers::stored(clocks) after the room's pending write.
  void save_deadline();
  // The deadline that will act first (what, to whom, when), or kind None.
  Deadline next_deadline() const;
  // `null` or {"action":...,"seat":...,"nickname":...,"in_ms":...} for messages.
  std::string deadline_json(std::int64_t now) const;
  // Pushes `seats` when the next deadline changed since clients last heard of it.
  void announce_deadline();

 private:
  // `event` as each viewer may see it (the game's event_for); `payload` is its
  // stored JSON (sent as it is to a viewer who sees all of it), `text` its sentence.
  // `known`: a viewer's view hash computed already (the ack's), not computed twice;
  // `moved`: the status this event moved the match to, if any.
  struct KnownHash {
    game::Seat viewer = game::kNoSeat;
    std::uint64_t hash = 0;
  };
  void broadcast_event(const game::Event& event, const std::string& payload,
                       const std::string& text, std::optional<KnownHash> known,
                       std::optional<store::MatchStatus> moved);

  const RoomLinks* links_;
  // Dies with the room: a write's completion or a queued operation checks it
  // before touching the room again.
  std::shared_ptr<int> life_ = std::make_shared<int>(0);
};

}  // namespace eryantis::server
