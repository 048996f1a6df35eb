#pragma once
// Pieces of the server's outgoing messages that several files build.
#include <string>

#include "eryantis/codec/codec.hpp"
#include "eryantis/protocol/codec.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/event.hpp"
#include "eryantis/server/room.hpp"

namespace eryantis::server::detail {

// [0] or [1,3]: the seats that must act now.
std::string to_act_json(const rules::State& s);
// The event as clients see it: create_match without its secret seed.
std::string public_event_json(const rules::Event& e);
// {"reason":"last_tower","winners":[0],"nicknames":["alice"],"draw":false}
std::string result_json(const Room& room, const rules::State& s);
// The stored record of a seat (nickname and token hash).
store::SeatRecord seat_record(const Room& room, int seat);
// 16 hex digits.
std::string hex(std::uint64_t v);

}  // namespace eryantis::server::detail
