#include "sampling.hpp"

namespace eryantis::ai::detail {

using namespace rules;

Prng decision_prng(const View& seen, Seat seat, std::uint64_t bot_seed) {
  State public_part = seen.state;
  public_part.seed = MatchSeed{};
  const std::uint64_t position = hash(public_part) ^ (0x9e3779b97f4a7c15ULL * (seat + 1ULL));
  return Prng(bot_seed, position);
}

State determinize(const View& seen, Prng& prng) {
  State s = seen.state;
  s.seed = MatchSeed{prng.next(), prng.next() | 1};
  return s;
}

}  // namespace eryantis::ai::detail
