#include "eryantis/client/random_choice.hpp"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace eryantis::client {

const game::Command& pick_random_command(const game::Game& game,
                                         std::span<const game::Command> legal, game::Prng& prng) {
  // Each command's type once (a virtual call each), then the types on offer in the
  // order they first appear with their counts (a handful: a linear search beats a map).
  std::vector<std::string_view> type_of;
  type_of.reserve(legal.size());
  std::vector<std::pair<std::string_view, std::uint32_t>> types;
  for (const game::Command& c : legal) {
    const std::string_view type = type_of.emplace_back(game.command_type(c));
    auto it = std::find_if(types.begin(), types.end(), [&](const auto& t) { return t.first == type; });
    if (it == types.end())
      types.emplace_back(type, 1);
    else
      ++it->second;
  }
  const auto& [type, count] = types[prng.below(static_cast<std::uint32_t>(types.size()))];
  std::uint32_t k = prng.below(count);
  for (std::size_t i = 0; i < legal.size(); ++i)
    if (type_of[i] == type && k-- == 0) return legal[i];
  return legal.front();  // not reached: `type` has `count` > k commands
}

}  // namespace eryantis::client
