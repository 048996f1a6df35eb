#include "eryantis/store/rating_results.hpp"

#include <set>

#include "eryantis/json/json.hpp"
#include "eryantis/store/event_store.hpp"

namespace eryantis::store {

namespace {
constexpr std::string_view kComputerPrefix = "computer:";
constexpr std::string_view kNamePrefix = "name:";

std::optional<std::vector<int>> int_array(const rapidjson::Value& object, const char* key) {
  const auto it = object.FindMember(key);
  if (it == object.MemberEnd() || !it->value.IsArray()) return std::nullopt;
  std::vector<int> out;
  for (const auto& v : it->value.GetArray()) {
    if (!v.IsInt()) return std::nullopt;
    out.push_back(v.GetInt());
  }
  return out;
}
}  // namespace

std::string rating_id(const SeatRecord& seat) {
  std::string out;
  if (seat.computer) {
    out.append(kComputerPrefix).append(*seat.computer);
  } else {
    out.append(kNamePrefix).append(seat.nickname);
  }
  return out;
}

std::string display_name(std::string_view id) {
  if (id.starts_with(kNamePrefix)) return std::string(id.substr(kNamePrefix.size()));
  return std::string(id);
}

std::string rating_id_of_name(std::string_view name) {
  if (name.starts_with(kComputerPrefix)) return std::string(name);
  std::string out(kNamePrefix);
  out.append(name);
  return out;
}

std::optional<Placing> stored_placing(std::string_view result_json) {
  rapidjson::Document doc;
  doc.Parse(result_json.data(), result_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return std::nullopt;
  auto places = int_array(doc, "places");
  if (!places) return std::nullopt;
  Placing p;
  p.places = std::move(*places);
  if (auto teams = int_array(doc, "teams")) p.teams = std::move(*teams);
  return p;
}

Result<Placing> log_placing(EventStore& store, MatchId id, const FoldPolicy& policy) {
  auto folded = store.fold(id, policy);
  if (!folded) return std::unexpected(folded.error());
  if (!folded->ok())
    return fail(StoreCode::Corrupt, "match " + std::to_string(id) +
                                        ": its log diverges: " + folded->divergence->reason);
  const game::Game& played = *folded->played;
  Placing p;
  if (auto outcome = played.outcome(folded->state)) p.places = outcome->places;
  const int seats = played.seats(folded->state);
  for (int seat = 0; seat < seats; ++seat)
    p.teams.push_back(played.team(folded->state, static_cast<game::Seat>(seat)));
  return p;
}

std::optional<ratings::MatchResult> rating_result(const FinishedMatch& match,
                                                  const Placing& placing) {
  const std::size_t n = static_cast<std::size_t>(match.players);
  if (match.players < 2 || placing.places.size() != n || match.seats.size() != n)
    return std::nullopt;
  ratings::MatchResult r;
  r.match = match.id;
  r.game = match.game;
  r.seats = match.players;
  r.finished_ms = match.finished_ms;
  std::set<std::string, std::less<>> seen;
  for (std::size_t i = 0; i < n; ++i) {
    const SeatRecord& seat = match.seats[i];
    if (seat.seat != static_cast<int>(i)) return std::nullopt;
    ratings::SeatResult s;
    s.player = rating_id(seat);
    if (!seen.insert(s.player).second) s.player.clear();
    s.place = placing.places[i];
    s.team = i < placing.teams.size() ? placing.teams[i] : -1;
    r.seat_results.push_back(std::move(s));
  }
  return r;
}

}  // namespace eryantis::store
