#pragma once
// Folding a match's stored events back into its state: the one path every reader
// of the log takes (restoring matches at start, snapshots, verify, eryantis-replay).
//
// Stored data is input, not truth: every event is re-validated with
// the game's apply_checked before it touches the state, so a row that decodes but is
// illegal (seat -1, cloud 9, a character not in play, an island out of range)
// becomes a Divergence, never undefined behaviour. This is not a policy option.
#include <cstdint>
#include <functional>
#include <optional>

#include "eryantis/game/game.hpp"
#include "eryantis/store/records.hpp"

namespace eryantis::store {

// Which stored state hashes a fold compares with the recomputed state.
enum class HashCheck : std::uint8_t {
  Every,  // each event's: finds the first divergent event
  Last,   // only the last event's: cheaper, still rejects a log that ends elsewhere
};

// Where a fold starts.
enum class FoldStart : std::uint8_t {
  NewestSnapshot,  // the newest usable snapshot (older ones, then the empty state, if not)
  FirstEvent,      // the empty state: trusts no snapshot (verify, replay)
};

struct FoldPolicy {
  FoldStart start = FoldStart::NewestSnapshot;
  HashCheck hashes = HashCheck::Every;
  // Also compare the columns that repeat the payload (type, actor) with it.
  bool check_columns = false;
  // Called after each folded event: the match's game, the event's seq, the event
  // and the state it led to.
  std::function<void(const game::Game&, Seq, const game::Event&, const game::State&)> on_event =
      nullptr;
};

struct Folded {
  const game::Game* played = nullptr;  // the match's game (Options::games's)
  game::State state;     // after the last event that folded cleanly (empty_state before)
  Seq seq = 0;           // the seq `state` is at
  Seq snapshot_seq = 0;  // the snapshot the fold started from (0 = none)
  // The first place where the stored data stops being trustworthy; `state` and
  // `seq` are then the last trusted prefix.
  std::optional<Divergence> divergence;
  bool ok() const { return !divergence.has_value(); }
};

}  // namespace eryantis::store
