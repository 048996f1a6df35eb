#pragma once
// What a match is created with.
#include <cstdint>

namespace eryantis::rules {

enum class Mode : std::uint8_t { Simple = 0, Expert = 1 };

struct MatchOptions {
  std::uint8_t players = 2;  // 2, 3 or 4 (4 = two teams of two)
  Mode mode = Mode::Simple;
  friend constexpr bool operator==(const MatchOptions&, const MatchOptions&) = default;
};

}  // namespace eryantis::rules
