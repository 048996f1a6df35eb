#pragma once
// The client's copy of one match, of whatever game it is: loaded from a `state`
// message (its `game` looked up in the registry the mirror is given), then advanced
// by folding each `event` with the game's own rules (game::Game::apply_checked_view:
// a server's event is input, re-validated before it touches the state, all but what
// this seat may not see), or, when the event carries the seat's `view` and the
// game's views are not public ("updates":"full"), by taking that view. After
// every event it checks that the seq follows and that the hash matches the
// server's (game::Game::hash of the view the server sent this connection: for
// Eriantys the public view, seed 0). A gap, a mismatch, unreadable JSON, an event
// the rules refuse, a view that breaks the game's invariants or a game this build
// does not have makes it "need sync": the caller sends {"type":"sync"} and calls
// load_state() with the reply. Pure: no I/O.
//
// A game with hidden information (views_are_public() false, e.g. a bid hidden
// until both players bid) cannot be folded from the events a seat sees: its
// clients ask for full updates. Without them such an event is refused by the fold
// and the mirror needs a sync.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/client/client_protocol.hpp"
#include "eryantis/game/game.hpp"
#include "eryantis/game/registry.hpp"

namespace eryantis::client {

// The hash as the server writes it: 16 lower-case hex digits.
std::string hash_hex(std::uint64_t hash);

class MatchMirror {
 public:
  enum class Update : std::uint8_t {
    Applied,    // the event was folded and the hash matched
    Ignored,    // an old event (seq already mirrored), another match, or waiting for a sync
    NeedsSync,  // a gap, a hash mismatch, an unreadable or illegal event: send sync
  };

  // `games`: where a `state` message's game is found (the registry outlives the mirror).
  explicit MatchMirror(const game::Registry& games) : games_(&games) {}

  // A `state` message (after joined / resuming / sync). False (and needs_sync())
  // if its game is unknown here, its view cannot be read or its hash does not
  // match the view.
  bool load_state(const ServerMessage& state);
  // `game`: the state message's `game`; "" = the registry's default game (a server
  // older than the field plays only Eriantys).
  bool load_state(std::int64_t match, std::int64_t seq, std::optional<int> seat,
                  std::string_view view_json, std::string_view hash, std::string_view game = {});

  // An `event` message (its view_json, when sent, replaces the fold for a game
  // whose views are not public).
  Update on_event(const ServerMessage& event);
  Update on_event(std::int64_t match, std::int64_t seq, std::string_view event_json,
                  std::string_view hash, std::string_view view_json = {});

  // Forget the match (game over, left, disconnected for good).
  void clear();
  // Mark the mirror stale from outside (e.g. an error reply carries a newer seq).
  void mark_needs_sync(std::string why);

  bool has_match() const { return match_ != 0; }
  bool needs_sync() const { return needs_sync_; }
  // A loaded match whose mirror can be trusted.
  bool synced() const { return has_match() && game_ && !needs_sync_; }
  const std::string& problem() const { return problem_; }  // why it needs a sync

  const game::Registry& games() const { return *games_; }
  // The match's game: nullptr until a state was loaded (and after clear()).
  const game::Game* game() const { return game_; }
  std::int64_t match() const { return match_; }
  std::int64_t seq() const { return seq_; }
  game::Seat seat() const { return seat_; }  // kNoSeat for a spectator
  // The view as mirrored (empty until a state was loaded).
  const game::State& state() const { return state_; }
  bool game_over() const;
  // The game's stage now (Setup before a state was loaded).
  game::Stage stage() const;

  std::vector<game::Seat> to_act() const;
  bool my_turn() const;  // my seat may act now
  // Every command my seat may send now (empty when it is not my turn).
  std::vector<game::Command> legal_commands() const;

  // Counters for reports.
  std::uint64_t events_applied() const { return events_applied_; }
  std::uint64_t syncs_needed() const { return syncs_needed_; }

 private:
  Update fail(std::string why);
  // Reads a view of the mirrored game and checks its invariants; "" = fine.
  std::string read_view(std::string_view view_json, game::State& out) const;

  const game::Registry* games_;
  const game::Game* game_ = nullptr;
  std::int64_t match_ = 0;
  std::int64_t seq_ = 0;
  game::Seat seat_ = game::kNoSeat;
  game::State state_;
  bool needs_sync_ = false;
  std::string problem_;
  std::uint64_t events_applied_ = 0;
  std::uint64_t syncs_needed_ = 0;
};

}  // namespace eryantis::client
