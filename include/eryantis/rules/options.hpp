#pragma once
// What a match is created with.
#include <cstdint>
#include <string_view>

namespace eryantis::rules {

enum class Mode : std::uint8_t { Simple = 0, Expert = 1 };

inline constexpr int kModeCount = 2;
// "simple" / "expert".
std::string_view mode_name(Mode m);

struct MatchOptions {
  std::uint8_t players = 2;  // 2, 3 or 4 (4 = two teams of two)
  Mode mode = Mode::Simple;
  friend constexpr bool operator==(const MatchOptions&, const MatchOptions&) = default;
};

}  // namespace eryantis::rules
