#pragma once
// The five student / professor colours, in the rulebook's order.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace eryantis::rules {

enum class Color : std::uint8_t { Yellow = 0, Blue = 1, Green = 2, Red = 3, Pink = 4 };

inline constexpr int kColorCount = 5;
inline constexpr std::array<Color, kColorCount> kAllColors = {
    Color::Yellow, Color::Blue, Color::Green, Color::Red, Color::Pink};

// Lower-case English name, as used on the wire and in saves ("yellow", ...).
std::string_view color_name(Color c);
// Accepts the names above; nullopt for anything else.
std::optional<Color> parse_color(std::string_view name);

inline constexpr int index(Color c) {
  return static_cast<int>(c);
}

}  // namespace eryantis::rules
