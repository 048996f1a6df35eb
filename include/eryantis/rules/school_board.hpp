#pragma once
// One player's school board, assistant deck and coins.
#include <cstdint>
#include <optional>

#include "eryantis/rules/assistant.hpp"
#include "eryantis/rules/students.hpp"
#include "eryantis/rules/tower.hpp"

namespace eryantis::rules {

inline constexpr int kTableSeats = 10;

struct SchoolBoard {
  Students entrance;
  Students dining;
  std::uint8_t towers = 0;  // towers on the board (0 for a 4p teammate who holds none)
  std::uint8_t coins = 0;
  std::uint16_t hand = kFullHand;  // bit v-1 set = assistant v still in hand
  std::uint8_t played = 0;         // assistant played this round, 0 = none yet / skipped
  std::uint8_t discard = 0;        // top of the discard pile (last assistant ever played), 0 = none
  std::optional<std::uint8_t> wizard;  // 0..3, chosen in setup
  std::optional<TowerColor> tower_color;
  bool holds_towers = false;      // 4p: the teammate who chose first holds the team's towers
  bool skipped_planning = false;  // this round: skipped in planning, gets no action turn

  bool has_assistant(int value) const { return (hand & assistant_bit(value)) != 0; }
  friend bool operator==(const SchoolBoard&, const SchoolBoard&) = default;
};

}  // namespace eryantis::rules
