#pragma once
// Victory points (5.3): what a board scores now, part by part. The end of the game stores the
// totals in the state's result; the evaluation reads the parts, and the JSON of every state and
// view carries them per board as "points" (fields.hpp, docs/renaissance/protocol.md 4). They
// count only what every player may see (cards in slots, faith, tiles, active leaders, resources),
// so a view scores as the state it was cut from.
#include <cstdint>

#include "eryantis/renaissance/rules/state.hpp"

namespace eryantis::renaissance {

struct Score {
  std::uint32_t cards = 0;      // every development card, covered or not
  std::uint32_t track = 0;      // the faith track: the points of the marker's space (1.5)
  std::uint32_t tiles = 0;      // face-up Pope's Favour tiles (2, 3, 4)
  std::uint32_t leaders = 0;    // active leaders only
  std::uint32_t resources = 0;  // floor(all resources / 5)
  std::uint32_t total = 0;
  std::uint32_t resources_left = 0;  // the first tie-break (5.4)
  friend bool operator==(const Score&, const Score&) = default;
};

Score score(const Board& b);
inline Score score(const State& s, Seat seat) {
  return score(s.boards[seat]);
}

}  // namespace eryantis::renaissance
