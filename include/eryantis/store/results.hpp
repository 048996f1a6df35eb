#pragma once
// Finished matches as ratings and histories read them (docs/accounts.md, "Ratings and
// history"). No table of their own: a finished match is a `matches` row with status
// 'finished', and it finished at its last event's stored time (events.time of
// seq = last_seq). The places come from the log: the game's outcome of the folded final
// state; the server also writes them into matches.result ("places", "teams") with the
// last event, so it need not fold at start. Ratings are never stored: they are the
// rating book's fold over these rows in (finished_ms, match) order.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "eryantis/store/records.hpp"

namespace eryantis::store {

// A finished match, as finished_matches() lists them.
struct FinishedMatch {
  MatchId id = 0;
  std::string game;
  int game_version = 0;
  int players = 0;                    // the table size (options' "players")
  std::int64_t started_ms = 0;        // the first event's stored time (created if none)
  std::int64_t finished_ms = 0;       // the last event's stored time
  Seq events = 0;                     // every stored command of the match, the server's included
  std::optional<std::string> result;  // matches.result
  std::vector<SeatRecord> seats;      // in seat order (tokens left empty)
  // matches.is_private (schema 10): rated like any other, never listed in a history
  // (docs/accounts.md, "Private matches in ratings and histories").
  bool is_private = false;
};

// Where a reader of finished matches stopped: the last (finished_ms, match) it read.
struct FinishCursor {
  std::int64_t finished_ms = 0;
  MatchId match = 0;
  friend auto operator<=>(const FinishCursor&, const FinishCursor&) = default;
};

}  // namespace eryantis::store
