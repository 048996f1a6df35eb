#pragma once
// A 128-bit match seed as a decimal string, as Eriantys writes its seeds (docs/state.md).
#include <optional>
#include <string>
#include <string_view>

#include "eryantis/renaissance/rules/prng.hpp"

namespace eryantis::renaissance::codec::detail {

std::string seed_to_decimal(const MatchSeed& seed);
std::optional<MatchSeed> seed_from_decimal(std::string_view text);  // nullopt: not 0..2^128-1

}  // namespace eryantis::renaissance::codec::detail
