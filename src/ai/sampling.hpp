#pragma once
// What every level shares: its generator and the sampling of what the seat cannot
// see (the commands worth considering are in eryantis/ai/candidates.hpp).
#include <cstdint>
#include <vector>

#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/prng.hpp"

namespace eryantis::ai::detail {

// The decision's own generator: from the bot seed, the seat and the view (its seed
// field left out), so the same position asks the same question of the same bot.
rules::Prng decision_prng(const rules::View& seen, rules::Seat seat, std::uint64_t bot_seed);

// One full state consistent with the view: the bag's contents are the view's counts,
// the order of future draws comes from a seed drawn from `prng` (rules draw every
// student from event_prng(seed, event index)), never from the match's.
rules::State determinize(const rules::View& seen, rules::Prng& prng);

}  // namespace eryantis::ai::detail
