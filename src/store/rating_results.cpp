#include "eryantis/store/rating_results.hpp"

#include <algorithm>
#include <set>

#include "eryantis/json/json.hpp"
#include "eryantis/store/event_store.hpp"

namespace eryantis::store {

namespace {

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
  std::vector<bool> left(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    const SeatRecord& seat = match.seats[i];
    if (seat.seat != static_cast<int>(i)) return std::nullopt;
    ratings::SeatResult s;
    // A seat a computer took over (schema 14's left_by): the person who left it is
    // rated, last alone; the computer is not (docs/accounts.md, "Who is rated").
    left[i] = seat.computer && seat.left_by;
    s.player = left[i] ? *seat.left_by : rating_id(seat);
    if (!seen.insert(s.player).second) s.player.clear();
    s.place = placing.places[i];
    s.team = i < placing.teams.size() ? placing.teams[i] : -1;
    r.seat_results.push_back(std::move(s));
  }
  if (std::find(left.begin(), left.end(), true) == left.end()) return r;
  // The seats that stayed keep their order among themselves (1 + how many of them did
  // better, so equal places stay equal and teammates share theirs); each seat left
  // comes after all of them, on a side of its own.
  int stayed = 0;
  for (std::size_t i = 0; i < n; ++i) stayed += left[i] ? 0 : 1;
  std::vector<int> places(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (left[i]) {
      places[i] = stayed + 1;
      continue;
    }
    int better = 0;
    for (std::size_t j = 0; j < n; ++j)
      if (!left[j] && r.seat_results[j].place < r.seat_results[i].place) ++better;
    places[i] = better + 1;
  }
  for (std::size_t i = 0; i < n; ++i) {
    r.seat_results[i].place = places[i];
    if (left[i]) r.seat_results[i].team = -1;
  }
  return r;
}

void KeyNames::note(const FinishedMatch& match) {
  for (const SeatRecord& seat : match.seats) {
    if (seat.computer || !seat.account_id) continue;
    const std::string id = rating_id(seat);
    if (auto old = names_.find(id); old != names_.end() && old->second != seat.nickname) {
      // A renamed account: its old name no longer finds it.
      if (auto by = accounts_.find(old->second); by != accounts_.end() && by->second == id)
        accounts_.erase(by);
    }
    names_[id] = seat.nickname;
    accounts_[seat.nickname] = id;
  }
}

std::string KeyNames::shown(std::string_view id) const {
  if (auto it = names_.find(id); it != names_.end()) return it->second;
  return display_name(id);
}

std::string KeyNames::id_of(std::string_view name) const {
  if (names_.contains(name)) return std::string(name);  // an account's key as such
  if (auto it = accounts_.find(name); it != accounts_.end()) return it->second;
  return rating_id_of_name(name);
}

}  // namespace eryantis::store
