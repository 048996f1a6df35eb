#include "eryantis/renaissance/rules/prng.hpp"

namespace eryantis::renaissance {

namespace {
std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
constexpr std::uint64_t rotl(std::uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}
}  // namespace

Prng::Prng(std::uint64_t seed) {
  for (auto& word : s_) word = splitmix64(seed);
}

Prng::Prng(std::uint64_t seed, std::uint64_t other) : Prng(seed) {
  // xoshiro's state must not be all zero: XOR of two splitmix64 streams is, with probability
  // 2^-256.
  for (auto& word : s_) word ^= splitmix64(other);
}

std::uint64_t Prng::next() {
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

std::uint32_t Prng::below(std::uint32_t bound) {
  // Lemire: multiply a 32-bit draw by bound, reject the low products that would make some
  // results more likely than others.
  std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * bound;
  auto low = static_cast<std::uint32_t>(m);
  if (low < bound) {
    const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;
    while (low < threshold) {
      m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * bound;
      low = static_cast<std::uint32_t>(m);
    }
  }
  return static_cast<std::uint32_t>(m >> 32);
}

Prng event_prng(const MatchSeed& match_seed, std::uint32_t event_index) {
  // Both words always shape the draws (this game has no 64-bit-seed history to stay
  // compatible with); the high word goes through its own splitmix64 stream, the step rotated so
  // the two words are not interchangeable.
  const std::uint64_t step = 0xd1b54a32d192ed03ULL * (static_cast<std::uint64_t>(event_index) + 1);
  std::uint64_t x = match_seed.lo ^ step;
  std::uint64_t y = match_seed.hi ^ rotl(step, 32) ^ 0x4d6f5252656e6169ULL;  // "MoRRenai"
  const std::uint64_t from_lo = splitmix64(x);
  return Prng(from_lo, splitmix64(y));
}

}  // namespace eryantis::renaissance
