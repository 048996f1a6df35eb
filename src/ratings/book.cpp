#include "eryantis/ratings/book.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace eryantis::ratings {

std::string_view code_name(RatingErrorCode code) {
  switch (code) {
    case RatingErrorCode::BadConfig:
      return "BAD_CONFIG";
    case RatingErrorCode::BadResult:
      return "BAD_RESULT";
    case RatingErrorCode::OutOfOrder:
      return "OUT_OF_ORDER";
    case RatingErrorCode::Conflict:
      return "CONFLICT";
  }
  return "BAD_RESULT";
}

namespace {
std::unexpected<RatingError> refuse(RatingErrorCode code, std::string message) {
  return std::unexpected(RatingError{code, std::move(message)});
}

bool finite_positive(double x) {
  return std::isfinite(x) && x > 0.0;
}

// The side of a seat: its team (>= 0), or a side of its own (-1 - its index).
int side_of(const SeatResult& s, std::size_t index) {
  return s.team >= 0 ? s.team : -1 - static_cast<int>(index);
}

std::expected<void, RatingError> check_result(const MatchResult& r) {
  const auto bad = [&](const std::string& why) {
    return refuse(RatingErrorCode::BadResult, "match " + std::to_string(r.match) + ": " + why);
  };
  if (r.game.empty()) return bad("the game's name is empty");
  if (r.seats < 2) return bad("a rated match has at least 2 seats, not " + std::to_string(r.seats));
  if (r.seat_results.size() != static_cast<std::size_t>(r.seats))
    return bad("it has " + std::to_string(r.seats) + " seats but " +
               std::to_string(r.seat_results.size()) + " seat results");
  std::set<std::string_view> players;
  std::map<int, int> team_place;
  for (std::size_t i = 0; i < r.seat_results.size(); ++i) {
    const SeatResult& s = r.seat_results[i];
    if (s.place < 1 || s.place > r.seats)
      return bad("seat " + std::to_string(i) + "'s place " + std::to_string(s.place) +
                 " is not between 1 and " + std::to_string(r.seats));
    if (s.team < -1) return bad("seat " + std::to_string(i) + "'s team is below -1");
    if (!s.player.empty() && !players.insert(s.player).second)
      return bad("player '" + s.player + "' holds two seats");
    if (s.team >= 0) {
      const auto [it, fresh] = team_place.emplace(s.team, s.place);
      if (!fresh && it->second != s.place)
        return bad("teammates of team " + std::to_string(s.team) + " have different places");
    }
  }
  std::set<int> sides;
  for (std::size_t i = 0; i < r.seat_results.size(); ++i) sides.insert(side_of(r.seat_results[i], i));
  if (sides.size() < 2) return bad("every seat is on one side: nobody to be rated against");
  return {};
}
}  // namespace

std::expected<void, RatingError> check_config(const RatingsConfig& c) {
  const auto bad = [](const std::string& why) { return refuse(RatingErrorCode::BadConfig, why); };
  if (!(std::isfinite(c.glicko.tau) && c.glicko.tau >= 0.05 && c.glicko.tau <= 5.0))
    return bad("tau must be between 0.05 and 5 (Glickman: 0.3 to 1.2)");
  if (!(finite_positive(c.glicko.epsilon) && c.glicko.epsilon <= 0.01))
    return bad("epsilon must be above 0 and at most 0.01");
  if (!(finite_positive(c.glicko.max_deviation) && c.glicko.max_deviation <= 1000.0))
    return bad("max_deviation must be above 0 and at most 1000");
  if (!std::isfinite(c.initial.rating)) return bad("the initial rating must be a number");
  if (!(finite_positive(c.initial.deviation) && c.initial.deviation <= c.glicko.max_deviation))
    return bad("the initial deviation must be above 0 and at most max_deviation");
  if (!(finite_positive(c.initial.volatility) && c.initial.volatility < 1.0))
    return bad("the initial volatility must be between 0 and 1");
  if (c.idle_period_ms < 0) return bad("idle_period_ms must not be negative");
  if (!(c.provisional_deviation >= 0.0)) return bad("provisional_deviation must not be negative");
  for (const auto& [player, r] : c.anchors) {
    if (player.empty()) return bad("an anchor needs a player id");
    if (!std::isfinite(r.rating) || !(r.deviation >= 0.0) || !std::isfinite(r.deviation))
      return bad("anchor '" + player + "' needs a finite rating and a deviation >= 0");
  }
  return {};
}

RatingBook::RatingBook(RatingsConfig config) : config_(std::move(config)) {}

const RatingBook::Pool* RatingBook::pool(std::string_view game, int seats) const {
  const auto it = pools_.find(PoolKey{std::string(game), seats});
  return it == pools_.end() ? nullptr : &it->second;
}

PlayerRating RatingBook::widened_to(const PlayerRating& p, std::int64_t now_ms) const {
  if (p.anchored || config_.idle_period_ms <= 0 || p.matches == 0 || now_ms <= p.last_ms) return p;
  PlayerRating out = p;
  const double periods =
      static_cast<double>(now_ms - p.last_ms) / static_cast<double>(config_.idle_period_ms);
  out.rating = widened(p.rating, periods, config_.glicko);
  return out;
}

std::expected<std::vector<SeatChange>, RatingError> RatingBook::apply(const MatchResult& r) {
  if (const auto it = done_.find(r.match); it != done_.end()) {
    if (it->second.result == r) return it->second.changes;
    return refuse(RatingErrorCode::Conflict,
                  "match " + std::to_string(r.match) +
                      " was already applied with another result: a finished match's result never changes");
  }
  if (auto ok = check_result(r); !ok) return std::unexpected(std::move(ok.error()));
  const std::pair<std::int64_t, std::int64_t> key{r.finished_ms, r.match};
  if (last_ && !(*last_ < key))
    return refuse(RatingErrorCode::OutOfOrder,
                  "match " + std::to_string(r.match) + " (finished at " + std::to_string(r.finished_ms) +
                      ") does not come after match " + std::to_string(last_->second) +
                      " (finished at " + std::to_string(last_->first) +
                      "): results are taken in finishing order");
  last_ = key;
  ++applied_;

  Pool& pool = pools_[PoolKey{r.game, r.seats}];
  const std::size_t n = r.seat_results.size();

  // Every rated seat's rating before the match (idle widening applied): what both its own
  // update and its opponents' use.
  std::vector<SeatChange> changes(n);
  std::vector<int> side(n);
  for (std::size_t i = 0; i < n; ++i) {
    const SeatResult& s = r.seat_results[i];
    side[i] = side_of(s, i);
    changes[i].player = s.player;
    if (s.player.empty()) continue;
    if (const auto anchor = config_.anchors.find(s.player); anchor != config_.anchors.end()) {
      changes[i].before = anchor->second;
    } else if (const auto it = pool.find(s.player); it != pool.end()) {
      changes[i].before = widened_to(it->second, r.finished_ms).rating;
    } else {
      changes[i].before = config_.initial;
    }
    changes[i].after = changes[i].before;
  }

  // The best place: sides holding it won (or drew, when more than one side holds it).
  int best = r.seats + 1;
  for (const SeatResult& s : r.seat_results) best = std::min(best, s.place);
  std::set<int> best_sides;
  for (std::size_t i = 0; i < n; ++i)
    if (r.seat_results[i].place == best) best_sides.insert(side[i]);

  std::vector<Encounter> encounters;
  for (std::size_t i = 0; i < n; ++i) {
    const SeatResult& s = r.seat_results[i];
    if (s.player.empty()) continue;
    encounters.clear();
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i || side[j] == side[i] || r.seat_results[j].player.empty()) continue;
      const int pj = r.seat_results[j].place;
      const double score = s.place < pj ? 1.0 : s.place == pj ? 0.5 : 0.0;
      encounters.push_back(Encounter{changes[j].before, score, 1.0});
    }
    if (encounters.empty()) continue;  // no rated opponent: nothing to learn
    const double weight = 1.0 / static_cast<double>(encounters.size());
    for (Encounter& e : encounters) e.weight = weight;

    changes[i].rated = true;
    const bool anchored = config_.anchors.contains(s.player);
    if (!anchored)
      changes[i].after = glicko2_update(changes[i].before, encounters, config_.glicko).after;

    PlayerRating& p = pool[s.player];
    p.anchored = anchored;
    p.rating = changes[i].after;
    p.last_ms = r.finished_ms;
    ++p.matches;
    if (s.place != best) {
      ++p.losses;
    } else if (best_sides.size() > 1) {
      ++p.draws;
    } else {
      ++p.wins;
    }
  }
  done_.emplace(r.match, Done{r, changes});
  return changes;
}

std::optional<PlayerRating> RatingBook::find(std::string_view game, int seats,
                                             std::string_view player) const {
  if (const Pool* p = pool(game, seats)) {
    if (const auto it = p->find(player); it != p->end()) return it->second;
  }
  if (const auto anchor = config_.anchors.find(player); anchor != config_.anchors.end()) {
    PlayerRating r;
    r.rating = anchor->second;
    r.anchored = true;
    return r;
  }
  return std::nullopt;
}

std::optional<PlayerRating> RatingBook::find_at(std::string_view game, int seats,
                                                std::string_view player, std::int64_t now_ms) const {
  auto r = find(game, seats, player);
  if (r) r = widened_to(*r, now_ms);
  return r;
}

std::vector<Standing> RatingBook::leaderboard(std::string_view game, int seats, std::int64_t now_ms,
                                              std::size_t limit, bool with_provisional) const {
  std::vector<Standing> out;
  const Pool* p = pool(game, seats);
  if (!p) return out;
  for (const auto& [player, rating] : *p) {
    Standing s{player, widened_to(rating, now_ms), false};
    s.provisional = s.rating.rating.deviation > config_.provisional_deviation;
    if (s.provisional && !with_provisional) continue;
    out.push_back(std::move(s));
  }
  // Stable and total: rating, then the player id (ids are unique in a pool).
  std::sort(out.begin(), out.end(), [](const Standing& a, const Standing& b) {
    if (a.rating.rating.rating != b.rating.rating.rating)
      return a.rating.rating.rating > b.rating.rating.rating;
    return a.player < b.player;
  });
  if (out.size() > limit) out.resize(limit);
  return out;
}

std::vector<PoolKey> RatingBook::pools() const {
  std::vector<PoolKey> out;
  for (const auto& [key, pool] : pools_) out.push_back(key);
  return out;
}

Folded fold_ratings(const std::vector<MatchResult>& results, RatingsConfig config) {
  Folded out{RatingBook(std::move(config)), {}};
  for (const MatchResult& r : results) {
    if (auto applied = out.book.apply(r); !applied)
      out.skipped.push_back(Skipped{r.match, std::move(applied.error())});
  }
  return out;
}

}  // namespace eryantis::ratings
