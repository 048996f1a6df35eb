#include "eryantis/server/move_lists.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include "eryantis/codec/command_list.hpp"
#include "eryantis/protocol/codec.hpp"
#include "eryantis/rules/decider.hpp"

namespace eryantis::server {

MoveLists move_lists(const rules::State& state, rules::Seat seat) {
  if (seat == rules::kNoSeat) return {"[]", "[]"};
  const std::vector<rules::Command> commands = rules::legal_commands(state, seat);
  protocol::JsonArray allowed;
  std::vector<std::string_view> kinds;
  for (const rules::Command& c : commands) {
    const std::string_view k = rules::command_type(c);
    if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
  }
  for (std::string_view k : kinds) allowed.string(k);
  // One writer for the whole list (it runs for every seat of every event).
  return {codec::commands_to_json(commands), allowed.str()};
}

}  // namespace eryantis::server
