#pragma once
// Our own PRNG: xoshiro256** seeded through splitmix64, with an unbiased bounded
// draw (Lemire's multiply-shift with rejection). Written out here rather than
// using <random> distributions, whose outputs differ between standard libraries:
// a replay must give the same draws on every machine, forever.
#include <array>
#include <cstdint>

namespace eryantis::rules {

class Prng {
 public:
  explicit Prng(std::uint64_t seed);

  std::uint64_t next();
  // Uniform integer in [0, bound). bound must be > 0.
  std::uint32_t below(std::uint32_t bound);

 private:
  std::array<std::uint64_t, 4> s_{};
};

// The generator used for one event: derived from the match's secret seed and
// the number of events already applied, so no generator state has to be stored.
Prng event_prng(std::uint64_t match_seed, std::uint32_t event_index);

}  // namespace eryantis::rules
