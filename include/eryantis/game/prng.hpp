#pragma once
// The engine's own generator for its computer players: xoshiro256** seeded
// through splitmix64, with an unbiased bounded draw (Lemire's multiply-shift with
// rejection). Written out rather than <random>'s distributions, whose outputs
// differ between standard libraries: a computer's decision is a pure function of
// its inputs on every machine. (A game's own chance uses the game's generator.)
#include <array>
#include <cstdint>

namespace eryantis::game {

class Prng {
 public:
  explicit Prng(std::uint64_t seed) {
    for (auto& word : s_) word = splitmix(seed);
  }
  // Two independent seeds mixed: a bot's seed and a position's fingerprint.
  Prng(std::uint64_t seed, std::uint64_t other) : Prng(seed) {
    Prng b(other);
    for (std::size_t i = 0; i < s_.size(); ++i) s_[i] ^= b.s_[i];
    if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 1;  // xoshiro's one forbidden state
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, bound). PRECONDITION: bound > 0.
  std::uint32_t below(std::uint32_t bound) {
    std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next())) * bound;
    auto low = static_cast<std::uint32_t>(m);
    if (low < bound) {
      const std::uint32_t threshold = -bound % bound;
      while (low < threshold) {
        m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next())) * bound;
        low = static_cast<std::uint32_t>(m);
      }
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::array<std::uint64_t, 4> s_{};
};

}  // namespace eryantis::game
