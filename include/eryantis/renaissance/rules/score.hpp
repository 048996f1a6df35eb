#pragma once
// Victory points (5.3): what a board scores now, part by part. The end of the game stores the
// totals in the state's result; clients and the evaluation read the parts.
#include <cstdint>

#include "eryantis/renaissance/rules/state.hpp"

namespace eryantis::renaissance {

struct Score {
  std::uint32_t cards = 0;      // every development card, covered or not
  std::uint32_t faith = 0;      // the final position on the track
  std::uint32_t tiles = 0;      // face-up Pope's Favour tiles (2, 3, 4)
  std::uint32_t leaders = 0;    // active leaders only
  std::uint32_t resources = 0;  // floor(all resources / 5)
  std::uint32_t total = 0;
  std::uint32_t resources_left = 0;  // the first tie-break (5.4)
  friend bool operator==(const Score&, const Score&) = default;
};

Score score(const State& s, Seat seat);

}  // namespace eryantis::renaissance
