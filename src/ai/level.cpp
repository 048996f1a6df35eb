#include "eryantis/ai/level.hpp"

#include <array>

namespace eryantis::ai {

namespace {
constexpr std::array<std::string_view, kLevelCount> kNames = {"random", "greedy", "strong"};
}

std::string_view level_name(Level level) {
  return kNames[static_cast<std::size_t>(level)];
}

std::optional<Level> parse_level(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<Level>(i);
  return std::nullopt;
}

}  // namespace eryantis::ai
