#pragma once
// The engine's computer players, as the platform asks for them: a level, a budget
// and a decision's outcome. The players themselves (search.hpp) reach a game only
// through its hooks, so every registered game has all three levels.
#include <cstdint>
#include <optional>
#include <string_view>

namespace eryantis::game {

enum class Level : std::uint8_t {
  Random = 0,  // uniformly over the legal commands
  Greedy = 1,  // one ply, scored by the game's evaluation on a sampled state
  Strong = 2,  // information-set Monte Carlo tree search, playouts from the budget
};
inline constexpr int kLevelCount = 3;

// "random", "greedy", "strong": the names of the config, the protocol and the store.
std::string_view level_name(Level level);
std::optional<Level> parse_level(std::string_view name);

// How much work one decision may do. The decision itself never reads a clock: the
// caller counts playouts and may hand in a deadline implemented with whatever clock
// it owns (the arena and the server use std::chrono::steady_clock). With a playout
// count alone a decision is a pure function of its inputs; a deadline that passes
// first trades that for a bound on latency.
class Deadline {
 public:
  virtual ~Deadline() = default;
  // True once the decision must stop searching and answer with what it has.
  virtual bool passed() const = 0;
};

struct Budget {
  // Simulations of the strong level per decision (random and greedy ignore it).
  std::uint32_t playouts = 2000;
  const Deadline* deadline = nullptr;  // optional, checked every few playouts; not owned
};

}  // namespace eryantis::game
