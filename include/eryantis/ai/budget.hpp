#pragma once
// How much work one decision may do. The decision itself never reads a clock: the
// caller counts playouts, and may also hand in a deadline that it implements with
// whatever clock it owns (the arena and the server use std::chrono::steady_clock).
// With a playout count alone a decision is a pure function of its inputs; a
// deadline that passes first trades that for a bound on latency.
#include <cstdint>

namespace eryantis::ai {

class Deadline {
 public:
  virtual ~Deadline() = default;
  // True once the decision must stop searching and answer with what it has.
  virtual bool passed() const = 0;
};

struct Budget {
  // Simulations of the strong level per decision (greedy and random ignore it).
  // 2,000 take about 20 ms of one core of the reference machine on average, under
  // 150 ms at worst (docs/bots.md, "Time per strong decision").
  std::uint32_t playouts = 2000;
  // Optional; checked every few playouts. Not owned.
  const Deadline* deadline = nullptr;
};

}  // namespace eryantis::ai
