#include "server_messages.hpp"

#include <algorithm>

#include <vector>

namespace eryantis::server::detail {

std::string to_act_json(const rules::State& s) {
  protocol::JsonArray out;
  for (rules::Seat p : rules::seats_to_act(s)) out.number(p);
  return out.str();
}

std::string public_event_json(const rules::Event& e) {
  if (std::holds_alternative<rules::CreateMatch>(e.command)) {
    rules::Event copy = e;
    std::get<rules::CreateMatch>(copy.command).seed = rules::MatchSeed{};
    return codec::event_to_json(copy);
  }
  return codec::event_to_json(e);
}

std::string result_json(const Room& room, const rules::State& s) {
  protocol::JsonArray winners;
  protocol::JsonArray nicknames;
  int first_team = -1;
  bool draw = false;
  for (rules::Seat p = 0; p < s.players(); ++p) {
    if (!(s.result.winners & (1u << p))) continue;
    winners.number(p);
    nicknames.string(room.seats[p] ? room.seats[p]->nickname : "");
    const int team = rules::team_of(s, p);
    if (first_team < 0)
      first_team = team;
    else if (team != first_team)
      draw = true;
  }
  return protocol::JsonLine::object()
      .field("reason", rules::end_reason_name(s.result.reason))
      .raw_field("winners", winners.str())
      .raw_field("nicknames", nicknames.str())
      .field("draw", draw)
      .str();
}

std::array<std::string, rules::kMaxPlayers> seat_names(const Room& room) {
  std::array<std::string, rules::kMaxPlayers> names{};
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
