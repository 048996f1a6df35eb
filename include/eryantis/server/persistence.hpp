#pragma once
// What the server asks the store to make durable. Every step of a match (a new
// match, a seat taken, an accepted command, a status change, a timer) is one
// MatchWrite, written atomically; `done` runs later on the server's thread. The
// server replies to clients only from `done`: persist, then tell.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/game/game.hpp"
#include "eryantis/server/deadline.hpp"
#include "eryantis/store/chat.hpp"
#include "eryantis/store/error.hpp"
#include "eryantis/store/records.hpp"

namespace eryantis::server {

struct MatchWrite {
  store::MatchId match = 0;
  const game::Game* game = nullptr;       // the match's: encodes its events and snapshot
  std::optional<store::NewMatch> create;  // the first write of a new match creates its row
  std::vector<store::SeatRecord> seats;   // upserts
  std::vector<int> remove_seats;          // a player left a match that had not started
  std::vector<store::MatchInvite> invites = {};  // upserts by digest (schema 10)
  std::optional<store::MatchStatus> status;
  std::optional<std::string> result_json;
  store::Seq expected_seq = 0;
  std::vector<store::NewEvent> events;
  // The state after the last event, for a snapshot: set only when one falls due
  // (Persistence::snapshot_every), since copying a State per command costs more
  // than the rest of the write's bookkeeping.
  std::optional<game::State> state_after;
  std::optional<Deadline> deadline;  // set (kind None clears it)
  // Endings kept for players away (store::AppendRequest::keep_endings), and the
  // nicknames told this match's ending (their record is deleted). A write with
  // only delivered_endings is not checked against expected_seq.
  std::vector<store::UnseenEnding> keep_endings;
  std::vector<std::string> delivered_endings;
  // In a cluster: this node's lease on the match (node, epoch); the store refuses
  // the write with FENCED once another node took the match.
  std::optional<store::LeaseFence> fence;
  // Schema 13: clock steps (pause, resume, untimed) and the events' time (the
  // time the match's clocks charged); see store::AppendRequest.
  std::vector<store::ClockStepRecord> clock_steps = {};
  std::optional<std::int64_t> time_ms = std::nullopt;
};

using WriteDone = std::function<void(store::Result<store::AppendOutcome>)>;

// A match's move log read back from the store (the `move_log` request): the
// events from..to folded from the first one, each said in the render layer's
// sentence (the game's describe_event, the `text` of an `event` push), with the
// seats' nicknames now.
struct MoveLogRead {
  store::MatchId match = 0;
  store::Seq from = 1;
  store::Seq to = 0;
  game::Names names{};  // "" = "seat N"
};
struct MoveLogLine {
  store::Seq seq = 0;
  std::string text;
  friend bool operator==(const MoveLogLine&, const MoveLogLine&) = default;
};
using MoveLogDone = std::function<void(store::Result<std::vector<MoveLogLine>>)>;

// A chat message made durable: its id; or why not (NotFound: the match has no row).
using ChatWriteDone = std::function<void(store::Result<store::ChatMessageId>)>;
using ChatReadDone = std::function<void(store::Result<std::vector<store::ChatMessage>>)>;
using ChatDeleteDone = std::function<void(store::Result<store::ChatMessage>)>;

class Persistence {
 public:
  virtual ~Persistence() = default;
  // Never blocks on I/O. Writes for one match complete in submission order.
  virtual void submit(MatchWrite write, WriteDone done) = 0;
  // Events between the store's snapshots: a write whose events cross a multiple of
  // it carries state_after. 0 = never; 1 (the default) = every write carries it.
  virtual int snapshot_every() const { return 1; }
  // Reads and folds off the server's thread; `done` runs later on it, with the
  // lines of every event from..to (all of them, in seq order), or an error (Busy
  // when too many reads wait already).
  virtual void read_move_log(MoveLogRead read, MoveLogDone done) = 0;
  // Chat (store/chat.hpp): never blocks on I/O; `done` runs later on the server's
  // thread once the message is durable (or failed). Messages queued meanwhile are
  // stored together, in one transaction between two batches of appends.
  virtual void submit_chat(store::NewChatMessage message, ChatWriteDone done) = 0;
  // A channel's newest messages, read off the server's thread (as move logs are).
  virtual void read_chat(store::ChatQuery query, ChatReadDone done) = 0;
  // An operator's delete (store::EventStore::delete_chat), written like a chat
  // message: on the writer, `done` on the server's thread once durable.
  virtual void delete_chat(store::ChatMessageId id, std::string by, std::int64_t at_ms,
                           ChatDeleteDone done) = 0;
};

}  // namespace eryantis::server
