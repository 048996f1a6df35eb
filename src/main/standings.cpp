#include "eryantis/main/standings.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

#include "eryantis/json/json.hpp"
#include "json_route.hpp"

namespace eryantis::app {
namespace {

using json_route::put;
using json_route::error;
using json_route::Writer;

net::HttpResponse json(const rapidjson::StringBuffer& buffer) {
  net::HttpResponse r = net::HttpResponse::json(std::string(buffer.GetString(), buffer.GetSize()));
  r.headers.emplace_back("Cache-Control", "no-store");  // changes with every finished match
  return r;
}

// At most 64 printable ASCII bytes of what was asked, for a message.
std::string shown(std::string_view text) {
  std::string out;
  for (char ch : text.substr(0, 64)) out.push_back(ch >= ' ' && ch <= '~' ? ch : '?');
  if (text.size() > 64) out += "...";
  return out;
}

std::optional<std::string> percent_decoded(std::string_view in) {
  std::string out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out.push_back(in[i]);
      continue;
    }
    if (i + 2 >= in.size()) return std::nullopt;
    int value = 0;
    const auto [end, ec] = std::from_chars(in.data() + i + 1, in.data() + i + 3, value, 16);
    if (ec != std::errc() || end != in.data() + i + 3) return std::nullopt;
    out.push_back(static_cast<char>(value));
    i += 2;
  }
  return out;
}

// "a=1&b=2" as pairs; nullopt when a pair has no '=' or repeats a name.
std::optional<std::map<std::string, std::string, std::less<>>> query_pairs(std::string_view q) {
  std::map<std::string, std::string, std::less<>> out;
  while (!q.empty()) {
    const std::size_t amp = q.find('&');
    const std::string_view pair = q.substr(0, amp);
    q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    if (!out.emplace(std::string(pair.substr(0, eq)), std::string(pair.substr(eq + 1))).second)
      return std::nullopt;
  }
  return out;
}

std::optional<std::int64_t> integer(std::string_view text, std::int64_t low, std::int64_t high) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < low || v > high)
    return std::nullopt;
  return v;
}

std::optional<net::HttpResponse> refuse_method(const net::HttpRequest& request) {
  if (request.method == "GET" || request.method == "HEAD") return std::nullopt;
  net::HttpResponse r = error(405, "METHOD_NOT_ALLOWED", "read with GET");
  r.headers.emplace_back("Allow", "GET, HEAD");
  return r;
}

void write_rating(Writer& w, const ratings::PlayerRating& r, bool provisional) {
  put(w, "rating");
  w.Double(r.rating.rating);
  put(w, "deviation");
  w.Double(r.rating.deviation);
  put(w, "volatility");
  w.Double(r.rating.volatility);
  put(w, "games");
  w.Int(r.matches);
  put(w, "wins");
  w.Int(r.wins);
  put(w, "draws");
  w.Int(r.draws);
  put(w, "losses");
  w.Int(r.losses);
  put(w, "provisional");
  w.Bool(provisional);
}

}  // namespace

store::Result<std::vector<RatedMatch>> read_rated(store::EventStore& db,
                                                  store::FinishCursor after) {
  auto finished = db.finished_matches(after);
  if (!finished) return std::unexpected(finished.error());
  const store::FoldPolicy policy{.start = store::FoldStart::NewestSnapshot,
                                 .hashes = store::HashCheck::Last};
  std::vector<RatedMatch> out;
  out.reserve(finished->size());
  for (store::FinishedMatch& m : *finished) {
    RatedMatch rated;
    if (auto stored = m.result ? store::stored_placing(*m.result) : std::nullopt) {
      rated.placing = std::move(*stored);
    } else if (auto folded = store::log_placing(db, m.id, policy)) {
      rated.placing = std::move(*folded);
    } else {
      spdlog::warn("ratings: match {} is not rated: {}", m.id, folded.error().message);
    }
    rated.match = std::move(m);
    out.push_back(std::move(rated));
  }
  return out;
}

void Standings::apply(Entry& entry) {
  entry.changes.clear();
  const auto result = store::rating_result(entry.rated.match, entry.rated.placing);
  if (!result) return;
  auto changes = book_.apply(*result);
  if (!changes) {
    skipped_.push_back(ratings::Skipped{entry.rated.match.id, std::move(changes.error())});
    return;
  }
  entry.changes = std::move(*changes);
}

void Standings::refold() {
  book_ = ratings::RatingBook();
  skipped_.clear();
  for (auto& [key, entry] : entries_) apply(entry);
}

void Standings::add(std::vector<RatedMatch> matches) {
  bool earlier = false;
  for (RatedMatch& rated : matches) {
    if (!known_.insert(rated.match.id).second) continue;
    const store::FinishCursor key{rated.match.finished_ms, rated.match.id};
    if (!entries_.empty() && key < entries_.rbegin()->first) earlier = true;
    names_.note(rated.match);
    for (const store::SeatRecord& seat : rated.match.seats) {
      auto& keys = by_player_[store::rating_id(seat)];
      if (keys.empty() || keys.back() != key) keys.push_back(key);  // two seats of one level
      if (seat.computer && seat.left_by) {  // the match is in the history of who left it
        auto& left = by_player_[*seat.left_by];
        if (left.empty() || left.back() != key) left.push_back(key);
      }
    }
    Entry& entry = entries_.emplace(key, Entry{std::move(rated), {}}).first->second;
    if (!earlier) apply(entry);
  }
  if (earlier) {
    // A match that finished before one already applied: the fold starts again, so the
    // numbers stay those of the finishing order (eryantis-replay ratings').
    for (auto& [player, keys] : by_player_) std::sort(keys.begin(), keys.end());
    refold();
  }
}

store::FinishCursor Standings::read_from() const {
  if (entries_.empty()) return {};
  return store::FinishCursor{entries_.rbegin()->first.finished_ms - kReadMargin, 0};
}

net::HttpResponse Standings::ratings_response(const net::HttpRequest& request,
                                              std::int64_t now_ms) const {
  if (auto refused = refuse_method(request)) return *refused;
  const std::string_view name =
      std::string_view(request.path).substr(std::min(request.path.size(), kRatingsRoute.size()));
  if (name.empty()) {
    // The pools: each game the server plays, with the player counts rated so far.
    rapidjson::StringBuffer buffer;
    Writer w(buffer);
    w.StartObject();
    put(w, "games");
    w.StartArray();
    const auto pools = book_.pools();
    for (const game::Game* g : games_.games()) {
      w.StartObject();
      put(w, "name");
      put(w, g->name());
      put(w, "title");
      put(w, g->title());
      put(w, "pools");
      w.StartArray();
      for (const ratings::PoolKey& pool : pools)
        if (pool.game == g->name()) w.Int(pool.seats);
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    return json(buffer);
  }
  const game::Game* game = games_.find(name);
  if (!game) {
    std::string message = "this server plays no game \"" + shown(name) + "\"; it plays:";
    const char* sep = " ";
    for (const game::Game* g : games_.games()) {
      message.append(sep).append(g->name());
      sep = ", ";
    }
    return error(404, "UNKNOWN_GAME", message);
  }
  const auto pairs = query_pairs(request.query);
  if (!pairs) return error(400, "BAD_PARAMETER", "the query is name=value pairs, each name once");
  std::optional<std::int64_t> players;
  std::int64_t at = now_ms;
  std::int64_t limit = 100;
  bool provisional = false;
  for (const auto& [key, value] : *pairs) {
    if (key == "players") {
      players = integer(value, 2, game::kMaxSeats);
      if (!players)
        return error(400, "BAD_PLAYERS",
                     "players is the table size, 2 to " + std::to_string(game::kMaxSeats) +
                         " (ratings are per game and player count)");
    } else if (key == "at") {
      const auto v = integer(value, 0, std::int64_t{1} << 50);
      if (!v) return error(400, "BAD_PARAMETER", "at is a unix time in milliseconds");
      at = *v;
    } else if (key == "limit") {
      const auto v = integer(value, 1, 1000);
      if (!v) return error(400, "BAD_PARAMETER", "limit is 1 to 1000");
      limit = *v;
    } else if (key == "provisional") {
      if (value != "0" && value != "1") return error(400, "BAD_PARAMETER", "provisional is 0 or 1");
      provisional = value == "1";
    } else {
      return error(400, "BAD_PARAMETER",
                   "unknown parameter \"" + shown(key) + "\" (players, provisional, at, limit)");
    }
  }
  if (!players)
    return error(400, "BAD_PLAYERS",
                 "say the table size: ?players=N (ratings are per game and player count)");
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  put(w, "game");
  put(w, game->name());
  put(w, "players");
  w.Int64(*players);
  put(w, "at");
  w.Int64(at);
  put(w, "matches");  // finished matches read so far (every game)
  w.Uint64(entries_.size());
  put(w, "rated");
  w.Int64(book_.applied());
  put(w, "provisional_deviation");
  w.Double(book_.config().provisional_deviation);
  put(w, "ratings");
  w.StartArray();
  int rank = 0;
  for (const ratings::Standing& s :
       book_.leaderboard(game->name(), static_cast<int>(*players), at,
                         static_cast<std::size_t>(limit), provisional)) {
    w.StartObject();
    put(w, "rank");
    if (s.provisional) {
      w.Null();
    } else {
      w.Int(++rank);
    }
    put(w, "player");
    put(w, s.player);
    put(w, "name");
    put(w, names_.shown(s.player));
    write_rating(w, s.rating, s.provisional);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return json(buffer);
}

net::HttpResponse Standings::history_response(const net::HttpRequest& request,
                                              std::int64_t now_ms) const {
  if (auto refused = refuse_method(request)) return *refused;
  const std::string_view raw =
      std::string_view(request.path).substr(std::min(request.path.size(), kHistoryRoute.size()));
  const auto name = percent_decoded(raw);
  if (!name || name->empty() || name->size() > 64)
    return error(400, "BAD_PLAYER", "the player is a nickname or computer:<level>");
  const auto pairs = query_pairs(request.query);
  if (!pairs) return error(400, "BAD_PARAMETER", "the query is name=value pairs, each name once");
  std::int64_t limit = 50;
  for (const auto& [key, value] : *pairs) {
    if (key != "limit")
      return error(400, "BAD_PARAMETER", "unknown parameter \"" + shown(key) + "\" (limit)");
    const auto v = integer(value, 1, 500);
    if (!v) return error(400, "BAD_PARAMETER", "limit is 1 to 500");
    limit = *v;
  }
  const std::string id = names_.id_of(*name);
  const auto found = by_player_.find(id);
  if (found == by_player_.end())
    return error(404, "UNKNOWN_PLAYER",
                 "no finished match of \"" + shown(*name) + "\" (finished matches only)");

  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  put(w, "player");
  put(w, id);
  put(w, "name");
  put(w, names_.shown(id));
  put(w, "at");
  w.Int64(now_ms);
  // Private matches are rated and listed, but as the player's own row only (docs/
  // accounts.md, "Private matches in ratings and histories"): the route answers anyone,
  // so no match id (no replay link), no opponents.
  std::uint64_t private_matches = 0;
  for (const store::FinishCursor& key : found->second)
    if (entries_.at(key).rated.match.is_private) ++private_matches;
  put(w, "finished");
  w.Uint64(found->second.size());
  put(w, "private");
  w.Uint64(private_matches);
  // Each match opens at replay_url + "#match=" + its id ([web] replay_url).
  put(w, "replay_url");
  if (replay_url_.empty()) {
    w.Null();
  } else {
    put(w, replay_url_);
  }
  // Its rating in each pool it played (the deviation widened to now).
  put(w, "ratings");
  w.StartArray();
  for (const ratings::PoolKey& pool : book_.pools()) {
    const auto r = book_.find_at(pool.game, pool.seats, id, now_ms);
    if (!r || r->matches == 0) continue;
    w.StartObject();
    put(w, "game");
    put(w, pool.game);
    put(w, "players");
    w.Int(pool.seats);
    write_rating(w, *r, r->rating.deviation > book_.config().provisional_deviation);
    w.EndObject();
  }
  w.EndArray();
  // Newest first.
  put(w, "matches");
  w.StartArray();
  std::int64_t written = 0;
  for (auto key = found->second.rbegin(); key != found->second.rend() && written < limit;
       ++key) {
    const Entry& entry = entries_.at(*key);
    const store::FinishedMatch& m = entry.rated.match;
    ++written;
    const store::Placing& placing = entry.rated.placing;
    w.StartObject();
    put(w, "match");
    if (m.is_private) {
      w.Null();
      put(w, "private");
      w.Bool(true);
    } else {
      w.Int64(m.id);
    }
    put(w, "game");
    put(w, m.game);
    put(w, "players");
    w.Int(m.players);
    // A private row's times are the day it finished and no length or move count:
    // the same exact figures in two public histories would tell who played whom.
    constexpr std::int64_t kDayMs = 86'400'000;
    put(w, "started_ms");
    w.Int64(m.is_private ? m.finished_ms / kDayMs * kDayMs : m.started_ms);
    put(w, "finished_ms");
    w.Int64(m.is_private ? m.finished_ms / kDayMs * kDayMs : m.finished_ms);
    if (!m.is_private) {
      put(w, "duration_ms");
      w.Int64(m.finished_ms - m.started_ms);
      put(w, "commands");
      w.Int64(m.events);
    }
    int best = 0;
    for (int p : placing.places) best = best == 0 ? p : std::min(best, p);
    put(w, "seats");
    w.StartArray();
    for (const store::SeatRecord& seat : m.seats) {
      const std::size_t i = static_cast<std::size_t>(seat.seat);
      const std::string seat_id = store::rating_id(seat);
      const bool theirs = seat_id == id || (seat.computer && seat.left_by == id);
      if (m.is_private && !theirs) continue;  // a private match's opponents are its own
      w.StartObject();
      put(w, "seat");
      w.Int(seat.seat);
      put(w, "name");
      put(w, seat.nickname);
      put(w, "player");
      put(w, seat_id);
      put(w, "place");
      if (i < placing.places.size()) {
        w.Int(placing.places[i]);
      } else {
        w.Null();
      }
      if (seat.computer && seat.left_by) {  // a computer took it over from them
        put(w, "left_by");
        put(w, *seat.left_by);
      }
      if (theirs) {
        put(w, "you");
        w.Bool(true);
      }
      put(w, "rating");
      if (i < entry.changes.size() && entry.changes[i].rated) {
        w.StartObject();
        put(w, "before");
        w.Double(entry.changes[i].before.rating);
        put(w, "after");
        w.Double(entry.changes[i].after.rating);
        put(w, "deviation");
        w.Double(entry.changes[i].after.deviation);
        w.EndObject();
      } else {
        w.Null();
      }
      w.EndObject();
    }
    w.EndArray();
    // The player's own outcome: won (a first place alone or with teammates), draw
    // (a first place shared with another side), lost; "unplaced" without places.
    std::string outcome = "unplaced";
    for (const store::SeatRecord& seat : m.seats) {
      const std::size_t i = static_cast<std::size_t>(seat.seat);
      if (seat.computer && seat.left_by == id) {  // they left: rated last
        outcome = "lost";
        break;
      }
      if (store::rating_id(seat) != id || i >= placing.places.size()) continue;
      if (placing.places[i] != best) {
        outcome = "lost";
        break;
      }
      outcome = "won";
      const int side = i < placing.teams.size() ? placing.teams[i] : -1 - seat.seat;
      for (std::size_t j = 0; j < placing.places.size(); ++j) {
        const int other = j < placing.teams.size() ? placing.teams[j] : -1 - static_cast<int>(j);
        if (j != i && placing.places[j] == best && other != side) outcome = "draw";
      }
      break;
    }
    put(w, "result");
    put(w, outcome);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return json(buffer);
}

}  // namespace eryantis::app
