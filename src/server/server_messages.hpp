#pragma once
// Pieces of the server's outgoing messages that several files build.
#include <array>
#include <string>
#include <string_view>

#include "eryantis/game/game.hpp"
#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/room.hpp"

namespace eryantis::server::detail {

// [0] or [1,3]: the seats that must act now.
std::string to_act_json(const game::Game& game, const game::State& s);
// {"reason":"last_tower","winners":[0],"nicknames":["alice"],"draw":false,
// "places":[1,2],"teams":[0,1]}, then the game's own members (Outcome::details_json).
// `final_state`: the state the match ended in, when room.state is not it yet (the
// write of the last event); the teams are read from it.
std::string result_json(const Room& room, const game::Outcome& outcome,
                        const game::State* final_state = nullptr);
// {"type":"game_over","match":M,"result":...}: the push that ends a match.
std::string game_over_line(store::MatchId match, const std::string& result_json);
// {"type":"match_abandoned","match":M,"message":"..."}: the push that ends a match given up.
std::string abandoned_line(store::MatchId match, std::string_view message);
// The seats' nicknames now ("" for a free seat): the names in the move log's sentences.
std::array<std::string, game::kMaxSeats> seat_names(const Room& room);
// The stored record of a seat (nickname and token hash).
store::SeatRecord seat_record(const Room& room, int seat);
// A name someone can log in with: 1 to 24 letters, digits, '_', '-' or '.'.
bool valid_nickname(std::string_view n);
// 16 hex digits.
std::string hex(std::uint64_t v);

}  // namespace eryantis::server::detail
