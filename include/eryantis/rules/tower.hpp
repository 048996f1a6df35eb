#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace eryantis::rules {

// Tower colours double as team identities: in 2 and 3 player games every seat
// has its own colour, in 4 player games two teammates share one.
enum class TowerColor : std::uint8_t { Black = 0, White = 1, Grey = 2 };
inline constexpr int kTowerColorCount = 3;

std::string_view tower_color_name(TowerColor c);
std::optional<TowerColor> parse_tower_color(std::string_view name);

}  // namespace eryantis::rules
