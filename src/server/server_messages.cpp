#include "server_messages.hpp"

#include <algorithm>

#include <vector>

namespace eryantis::server::detail {

std::string to_act_json(const game::Game& game, const game::State& s) {
  protocol::JsonArray out;
  for (const game::ToAct& act : game.to_act(s)) out.number(act.seat);
  return out.str();
}

std::string result_json(const Room& room, const game::Outcome& outcome,
                        const game::State* final_state) {
  protocol::JsonArray winners;
  protocol::JsonArray nicknames;
  for (const game::Seat p : outcome.winners) {
    winners.number(p);
    nicknames.string(p >= 0 && p < game::kMaxSeats && room.seats[p] ? room.seats[p]->nickname
                                                                   : "");
  }
  // Each seat's place and side: what ratings are computed from (store/rating_results.hpp
  // reads them back; eryantis-replay ratings recomputes them from the log).
  protocol::JsonArray places;
  for (const int place : outcome.places) places.number(place);
  protocol::JsonArray teams;
  for (int i = 0; room.game && i < room.players(); ++i)
    teams.number(room.game->team(final_state ? *final_state : room.state,
                                 static_cast<game::Seat>(i)));
  std::string out = protocol::JsonLine::object()
                        .field("reason", outcome.reason)
                        .raw_field("winners", winners.str())
                        .raw_field("nicknames", nicknames.str())
                        .field("draw", outcome.draw)
                        .raw_field("places", places.str())
                        .raw_field("teams", teams.str())
                        .str();
  if (!outcome.details_json.empty()) {
    out.pop_back();  // the closing '}'
    out.push_back(',');
    out.append(outcome.details_json).push_back('}');
  }
  return out;
}

std::array<std::string, game::kMaxSeats> seat_names(const Room& room) {
  std::array<std::string, game::kMaxSeats> names{};
  for (int i = 0; i < room.players(); ++i)
    if (room.seats[i]) names[static_cast<std::size_t>(i)] = room.seats[i]->nickname;
  return names;
}

store::SeatRecord seat_record(const Room& room, int seat) {
  store::SeatRecord r;
  r.match_id = room.id;
  r.seat = seat;
  r.nickname = room.seats[seat]->nickname;
  r.resume_token_hash = room.seats[seat]->token_hash;
  if (room.seats[seat]->computer)
    r.computer = std::string(game::level_name(*room.seats[seat]->computer));
  r.account_id = room.seats[seat]->account_id;
  r.left_by = room.seats[seat]->left_by;
  return r;
}

bool valid_nickname(std::string_view n) {
  if (n.empty() || n.size() > 24) return false;
  return std::all_of(n.begin(), n.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  });
}

std::string hex(std::uint64_t v) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[i] = kHex[v & 0xf];
  return out;
}

std::string game_over_line(store::MatchId match, const std::string& result_json) {
  return protocol::JsonLine("game_over")
      .field("match", match)
      .raw_field("result", result_json)
      .str();
}

std::string abandoned_line(store::MatchId match, std::string_view message) {
  return protocol::JsonLine("match_abandoned").field("match", match).field("message", message).str();
}

}  // namespace eryantis::server::detail
