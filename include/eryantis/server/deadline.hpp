#pragma once
// A match's timer: what it does, to whom, when (docs/server.md, "Timers").
#include <cstdint>
#include <string_view>

#include "eryantis/game/game.hpp"

namespace eryantis::server {

// Only TurnGrace and Abandon are ever written; Forfeit and Remove (a seat that did
// not choose in setup is freed) live in memory and start again after a restart.
// Abandon is a lobby's timer, or a running match's desertion (nobody connected):
// then `seat` is the seat whose turn grace clock runs (timers::stored).
enum class DeadlineKind : std::uint8_t {
  None = 0,
  TurnGrace = 1,
  Forfeit = 2,
  Abandon = 3,
  Remove = 4
};

struct Deadline {
  DeadlineKind kind = DeadlineKind::None;
  // Whose turn (grace), who would win (forfeit), the first seat to free (remove);
  // for a stored desertion, whose turn grace clock runs.
  game::Seat seat = game::kNoSeat;
  std::int64_t at_ms = 0;  // unix milliseconds
  friend bool operator==(const Deadline&, const Deadline&) = default;
};

// The protocol's name of what a deadline does: "skip_turn", "forfeit", "abandon",
// "remove" ("none" for None).
std::string_view deadline_action(DeadlineKind kind);

}  // namespace eryantis::server
