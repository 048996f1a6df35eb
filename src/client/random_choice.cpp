#include "eryantis/client/random_choice.hpp"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace eryantis::client {

const game::Command& pick_random_command(const game::Game& game,
                                         std::span<const game::Command> legal, game::Prng& prng) {
  // The types on offer in the order they first appear, with their counts (a
  // handful: a linear search beats a map).
  std::vector<std::pair<std::string_view, std::uint32_t>> types;
  for (const game::Command& c : legal) {
    const std::string_view type = game.command_type(c);
    auto it = std::find_if(types.begin(), types.end(), [&](const auto& t) { return t.first == type; });
    if (it == types.end())
      types.emplace_back(type, 1);
    else
      ++it->second;
  }
  const auto& [type, count] = types[prng.below(static_cast<std::uint32_t>(types.size()))];
  std::uint32_t k = prng.below(count);
  for (const game::Command& c : legal)
    if (game.command_type(c) == type && k-- == 0) return c;
  return legal.front();  // not reached: `type` has `count` > k commands
}

}  // namespace eryantis::client
