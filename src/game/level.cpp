#include "eryantis/game/computer.hpp"

namespace eryantis::game {

std::string_view level_name(Level level) {
  switch (level) {
    case Level::Random:
      return "random";
    case Level::Greedy:
      return "greedy";
    case Level::Strong:
      return "strong";
  }
  return "random";
}

std::optional<Level> parse_level(std::string_view name) {
  for (int i = 0; i < kLevelCount; ++i)
    if (level_name(static_cast<Level>(i)) == name) return static_cast<Level>(i);
  return std::nullopt;
}

}  // namespace eryantis::game
