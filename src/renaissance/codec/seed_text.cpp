#include "seed_text.hpp"

#include <algorithm>
#include <cstdint>

namespace eryantis::renaissance::codec::detail {

namespace {
// g++'s 128-bit integer (__extension__: not ISO C++, so -Wpedantic would object).
__extension__ typedef unsigned __int128 U128;
}  // namespace

std::string seed_to_decimal(const MatchSeed& seed) {
  U128 v = (static_cast<U128>(seed.hi) << 64) | seed.lo;
  std::string out;
  do {
    out += static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v != 0);
  std::reverse(out.begin(), out.end());
  return out;
}

std::optional<MatchSeed> seed_from_decimal(std::string_view text) {
  if (text.empty() || text.size() > 39) return std::nullopt;
  constexpr U128 kMax = ~static_cast<U128>(0);
  U128 v = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return std::nullopt;
    const auto digit = static_cast<unsigned>(ch - '0');
    if (v > (kMax - digit) / 10) return std::nullopt;  // 2^128 or more
    v = v * 10 + digit;
  }
  return MatchSeed{static_cast<std::uint64_t>(v), static_cast<std::uint64_t>(v >> 64)};
}

}  // namespace eryantis::renaissance::codec::detail
