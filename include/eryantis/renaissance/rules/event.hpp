#pragma once
// An event: a validated command plus every random outcome it caused and every hidden thing it
// made public. Applying it never draws; replaying the same events gives the same state on any
// machine. redact() (decider.hpp) blanks what a viewer may not know, and a viewer's fold of
// redacted events gives exactly its view.
#include <cstdint>
#include <vector>

#include "eryantis/renaissance/rules/cards.hpp"
#include "eryantis/renaissance/rules/command.hpp"
#include "eryantis/renaissance/rules/state.hpp"

namespace eryantis::renaissance {

inline constexpr int kEventSchemaVersion = 1;

struct Event {
  Seat seat = kNoSeat;  // who acted (the skipped seat for skip_turn, kNoSeat for create_match)
  Command command;

  // --- chance, drawn by check and replayed by apply (2.5) -----------------------------------
  // create_match: the 48 development cards, deck by deck (deck_index order), each deck bottom to
  // top. Hidden below each deck's top.
  std::vector<std::uint8_t> cards;
  // create_match: the 13 marbles, the tray row by row, then the slide. Public.
  std::vector<Marble> marbles;
  // create_match: the leaders dealt, 4 per seat, seat by seat. Each seat sees only its own.
  std::vector<std::uint8_t> leaders;
  // create_match: the inkwell seat (the first player; 0 in solo). Public.
  Seat inkwell = kNoSeat;
  // create_match (solo) and an end_turn whose T7 reshuffled: the new stack, top first. Hidden.
  std::vector<std::uint8_t> tokens;

  // --- hidden things this event made public --------------------------------------------------
  // end_turn (solo): the token revealed (1..7), 0 otherwise.
  std::uint8_t token = 0;
  // Cards that became a deck's visible top (a purchase, a token's discards), in order.
  std::vector<std::uint8_t> revealed;

  friend bool operator==(const Event&, const Event&) = default;
};

}  // namespace eryantis::renaissance
