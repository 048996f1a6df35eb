#pragma once
// A match seed as text: the decimal digits of the unsigned 128-bit integer
// hi * 2^64 + lo. A seed with hi == 0 reads and writes exactly as the 64-bit
// seeds stored before (docs/state.md).
#include <optional>
#include <string>
#include <string_view>

#include "eryantis/rules/prng.hpp"

namespace eryantis::codec::detail {

std::string seed_to_decimal(const rules::MatchSeed& seed);
// Digits only (no sign, no space), at least one, below 2^128; nullopt otherwise.
std::optional<rules::MatchSeed> seed_from_decimal(std::string_view text);

}  // namespace eryantis::codec::detail
