#pragma once
// The game's PRNG: xoshiro256** seeded through splitmix64, with an unbiased bounded draw
// (Lemire's multiply-shift with rejection). The same generator as Eriantys's (src/rules/prng.cpp),
// copied so that this module depends on nothing but util; written out rather than using <random>
// distributions, whose outputs differ between standard libraries: a replay must give the same
// draws on every machine, forever.
#include <array>
#include <cstdint>

namespace eryantis::renaissance {

// A match's secret seed: 128 bits, as two words.
struct MatchSeed {
  std::uint64_t lo = 0, hi = 0;
  friend bool operator==(const MatchSeed&, const MatchSeed&) = default;
};

class Prng {
 public:
  explicit Prng(std::uint64_t seed);
  // Two independent seeds: the state of Prng(seed) mixed with that of Prng(other).
  Prng(std::uint64_t seed, std::uint64_t other);

  std::uint64_t next();
  // Uniform integer in [0, bound). bound must be > 0.
  std::uint32_t below(std::uint32_t bound);

 private:
  std::array<std::uint64_t, 4> s_{};
};

// The generator of one event: derived from the match's secret seed and the number of events
// already applied, so no generator state is stored.
Prng event_prng(const MatchSeed& match_seed, std::uint32_t event_index);

}  // namespace eryantis::renaissance
