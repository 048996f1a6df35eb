#pragma once
// How strong a computer player is (docs/bots.md has the arena figures of each).
#include <cstdint>
#include <optional>
#include <string_view>

namespace eryantis::ai {

enum class Level : std::uint8_t {
  Random = 0,  // uniformly over the legal commands
  Greedy = 1,  // one-ply lookahead scored by the evaluation (evaluation.hpp)
  Strong = 2,  // determinized Monte Carlo tree search, playouts from the budget
};
inline constexpr int kLevelCount = 3;

// "random", "greedy", "strong": the names of the config and the protocol.
std::string_view level_name(Level level);
std::optional<Level> parse_level(std::string_view name);

}  // namespace eryantis::ai
