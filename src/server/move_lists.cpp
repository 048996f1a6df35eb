#include "eryantis/server/move_lists.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include "eryantis/protocol/codec.hpp"

namespace eryantis::server {

MoveLists move_lists(const game::Game& game, const game::State& state, game::Seat seat) {
  if (seat == game::kNoSeat) return {"[]", "[]"};
  const std::vector<game::Command> commands = game.legal_commands(state, seat);
  protocol::JsonArray allowed;
  std::vector<std::string_view> seen;
  for (const game::Command& c : commands) {
    const std::string_view k = game.command_type(c);
    if (std::find(seen.begin(), seen.end(), k) != seen.end()) continue;
    seen.push_back(k);
    allowed.string(k);
  }
  return {game.commands_to_json(commands), allowed.str()};
}

}  // namespace eryantis::server
