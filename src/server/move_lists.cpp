#include "eryantis/server/move_lists.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include "eryantis/codec/codec.hpp"
#include "eryantis/protocol/codec.hpp"
#include "eryantis/rules/decider.hpp"

namespace eryantis::server {

MoveLists move_lists(const rules::State& state, rules::Seat seat) {
  protocol::JsonArray legal;
  protocol::JsonArray allowed;
  if (seat != rules::kNoSeat) {
    std::vector<std::string_view> kinds;
    for (const rules::Command& c : rules::legal_commands(state, seat)) {
      legal.raw(codec::command_to_json(c));
      const std::string_view k = rules::command_type(c);
      if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
    }
    for (std::string_view k : kinds) allowed.string(k);
  }
  return {legal.str(), allowed.str()};
}

}  // namespace eryantis::server
