#pragma once
// The client's copy of one match: loaded from a `state` message, then advanced by
// folding each `event` with the same rules as the server (rules::apply_checked:
// a server's event is input, re-validated before it touches the state). After
// every event it checks that the seq follows and that the hash matches the
// server's (rules::hash of the public view state, seed 0). A gap, a mismatch,
// unreadable JSON, an event the rules refuse or a view that breaks the game's
// invariants makes it "need sync": the caller sends {"type":"sync"} and calls
// load_state() with the reply. Pure: no I/O.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/client/client_protocol.hpp"
#include "eryantis/rules/decider.hpp"

namespace eryantis::client {

// The hash as the server writes it: 16 lower-case hex digits.
std::string hash_hex(std::uint64_t hash);
std::string state_hash_hex(const rules::State& s);

class MatchMirror {
 public:
  enum class Update : std::uint8_t {
    Applied,    // the event was folded and the hash matched
    Ignored,    // an old event (seq already mirrored), another match, or waiting for a sync
    NeedsSync,  // a gap, a hash mismatch, an unreadable or illegal event: send sync
  };

  // A `state` message (after joined / resuming / sync). False (and needs_sync())
  // if its view cannot be read or its hash does not match the view.
  bool load_state(const ServerMessage& state);
  bool load_state(std::int64_t match, std::int64_t seq, std::optional<int> seat,
                  std::string_view view_json, std::string_view hash);

  // An `event` message.
  Update on_event(const ServerMessage& event);
  Update on_event(std::int64_t match, std::int64_t seq, std::string_view event_json,
                  std::string_view hash);

  // Forget the match (game over, left, disconnected for good).
  void clear();
  // Mark the mirror stale from outside (e.g. an error reply carries a newer seq).
  void mark_needs_sync(std::string why);

  bool has_match() const { return match_ != 0; }
  bool needs_sync() const { return needs_sync_; }
  // A loaded match whose mirror can be trusted.
  bool synced() const { return has_match() && !needs_sync_; }
  const std::string& problem() const { return problem_; }  // why it needs a sync

  std::int64_t match() const { return match_; }
  std::int64_t seq() const { return seq_; }
  rules::Seat seat() const { return seat_; }  // kNoSeat for a spectator
  const rules::State& state() const { return state_; }
  bool game_over() const { return state_.phase == rules::Phase::GameOver; }

  std::vector<rules::Seat> to_act() const;
  bool my_turn() const;  // my seat may act now
  // Every command my seat may send now (empty when it is not my turn).
  std::vector<rules::Command> legal_commands() const;

  // Counters for reports.
  std::uint64_t events_applied() const { return events_applied_; }
  std::uint64_t syncs_needed() const { return syncs_needed_; }

 private:
  Update fail(std::string why);

  std::int64_t match_ = 0;
  std::int64_t seq_ = 0;
  rules::Seat seat_ = rules::kNoSeat;
  rules::State state_;
  bool needs_sync_ = false;
  std::string problem_;
  std::uint64_t events_applied_ = 0;
  std::uint64_t syncs_needed_ = 0;
};

}  // namespace eryantis::client
