#pragma once
// An event: a validated command plus every random outcome it caused. Applying
// it never draws; replaying the same events gives the same state on any machine.
#include <cstdint>
#include <vector>

#include "eryantis/rules/command.hpp"
#include "eryantis/rules/state.hpp"

namespace eryantis::rules {

inline constexpr int kEventSchemaVersion = 1;

struct Event {
  Seat seat = kNoSeat;  // who acted (the absent seat for skip_turn, kNoSeat for create_match)
  Command command;
  std::vector<Color> drawn;         // students drawn from the bag, in draw order
  std::vector<std::uint8_t> picks;  // other chance (setup: Mother Nature, first player, characters)
  friend bool operator==(const Event&, const Event&) = default;
};

}  // namespace eryantis::rules
