#pragma once
// Ratings as a fold over finished matches: a RatingBook starts empty and takes each result
// in the order the matches finished; the same results in the same order give the same
// numbers, bit for bit (no clock, no randomness, no iteration over unordered containers).
// One pool per game and seat count ("eriantys"/2, "eriantys"/4, ...): a rating means
// something only against the players of the same game at the same table size.
//
// The method, and why (docs/home.md, "Ratings"):
// - Each match is one rating period for each of its players (Glicko-2, glicko2.hpp), with
//   every player's pre-match rating as the opponents' ratings: players see their new
//   rating as soon as a match ends, and nothing depends on how matches are batched.
// - A match of more than two sides is split into the pairs of seats on different sides:
//   seat i against seat j scores 1 when i's place is better (smaller), 0.5 when equal (a
//   draw), 0 when worse. The pairs of one player weigh 1/(its opponents) each, so a match
//   is one game's worth of evidence for each player, whatever the table size: the pairs of
//   one match share that player's one performance and are not independent games.
// - Teams: seats with the same `team` are one side (Eriantys with four players: two teams
//   of two). Teammates are never paired with each other and must share a place; each
//   plays each opposing seat at weight 1/(opposing seats).
// - Idle time widens the deviation: before a player's match, its deviation grows as the
//   paper's step 6 does for `periods since its previous match` =
//   (finish − previous finish) / idle_period_ms, capped at the initial deviation.
// - Anchors: players whose rating is fixed by definition (by default the `random`
//   computer level at 1000): they never move, the others are rated against them, so the
//   scale does not drift and "1000" means the same in every pool and every year.
// - Seats with an empty player id (guests) are unrated: they are left out of the pairs.
#include <cstddef>
#include <cstdint>
#include <expected>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eryantis/ratings/error.hpp"
#include "eryantis/ratings/glicko2.hpp"

namespace eryantis::ratings {

// One seat of a finished match.
struct SeatResult {
  std::string player;  // a stable id (an account's key, "computer:strong"); "" = unrated
  int place = 1;       // 1 = first; equal places are a draw between them
  int team = -1;       // seats with the same team >= 0 are one side; -1 = a side of its own
  friend bool operator==(const SeatResult&, const SeatResult&) = default;
};

// A finished match, as the store lists them in finishing order.
struct MatchResult {
  std::int64_t match = 0;
  std::string game;               // the game's stable name ("eriantys")
  int seats = 0;                  // the table size: the pool
  std::int64_t finished_ms = 0;   // unix milliseconds (the last event's stored time)
  std::vector<SeatResult> seat_results;  // one per seat, in seat order
  friend bool operator==(const MatchResult&, const MatchResult&) = default;
};

struct RatingsConfig {
  Glicko2Params glicko{};
  Rating initial{1500.0, 350.0, 0.06};
  // One idle period per this many milliseconds without a match (0: idle time changes
  // nothing). 4.665 days: 0.21436 periods a day, lichess's choice for per-game periods.
  std::int64_t idle_period_ms = 403'056'000;
  // A rating with a deviation above this is provisional (left off leaderboards by default).
  double provisional_deviation = 110.0;
  // Fixed ratings (and their deviation): the anchors of the scale, in every pool.
  std::map<std::string, Rating, std::less<>> anchors{{"computer:random", Rating{1000.0, 0.0, 0.06}}};
};

// Refused configurations (bad numbers) are reported before any fold.
std::expected<void, RatingError> check_config(const RatingsConfig& config);

struct PlayerRating {
  Rating rating;                // after its last match
  std::int64_t last_ms = 0;     // the finish of its last match
  int matches = 0;
  int wins = 0;    // placed first, alone or with teammates
  int draws = 0;   // shared first place with another side
  int losses = 0;  // any other place
  bool anchored = false;
};

// What one match changed, seat by seat (the history page's "+12").
struct SeatChange {
  std::string player;
  bool rated = false;  // false: a guest or a match with fewer than two rated sides
  Rating before;       // as used in the update (idle widening applied)
  Rating after;
};

struct Standing {
  std::string player;
  PlayerRating rating;  // deviation widened to the leaderboard's `now_ms`
  bool provisional = false;
};

struct PoolKey {
  std::string game;
  int seats = 0;
  friend auto operator<=>(const PoolKey&, const PoolKey&) = default;
};

class RatingBook {
 public:
  explicit RatingBook(RatingsConfig config = {});

  // Takes the next finished match. Idempotent: a match id already applied changes nothing
  // and gets the changes of its first apply again (a retry after a crash, a notification
  // sent twice); with a different result it is refused (CONFLICT). Refused (and nothing
  // changes) when the result is malformed or does not come after the previous one in
  // (finished_ms, match) order.
  std::expected<std::vector<SeatChange>, RatingError> apply(const MatchResult& result);

  // A player's rating in a pool as of its last match; nullopt when it never played there
  // (an anchor is always found).
  std::optional<PlayerRating> find(std::string_view game, int seats, std::string_view player) const;
  // The same, its deviation widened to `now_ms` (what a profile shows).
  std::optional<PlayerRating> find_at(std::string_view game, int seats, std::string_view player,
                                      std::int64_t now_ms) const;
  // Best first (rating, then player id), at most `limit`; provisional ratings (deviation
  // above provisional_deviation at `now_ms`) only when `with_provisional`.
  std::vector<Standing> leaderboard(std::string_view game, int seats, std::int64_t now_ms,
                                    std::size_t limit, bool with_provisional = false) const;
  std::vector<PoolKey> pools() const;
  // How many matches were applied (refused ones not counted).
  std::int64_t applied() const { return applied_; }
  // Whether `match` was applied (a later apply of it changes nothing).
  bool has_applied(std::int64_t match) const { return done_.contains(match); }
  const RatingsConfig& config() const { return config_; }

 private:
  using Pool = std::map<std::string, PlayerRating, std::less<>>;
  PlayerRating widened_to(const PlayerRating& p, std::int64_t now_ms) const;
  const Pool* pool(std::string_view game, int seats) const;

  RatingsConfig config_;
  std::map<PoolKey, Pool> pools_;
  std::optional<std::pair<std::int64_t, std::int64_t>> last_;  // (finished_ms, match)
  // Every applied match and what it changed: what makes apply idempotent. About 550 bytes
  // a 3-seat match with short player ids (sizeof: SeatChange 88, SeatResult 40,
  // MatchResult 80, plus the map node): 100,000 matches hold some 55 MB.
  struct Done {
    MatchResult result;
    std::vector<SeatChange> changes;
  };
  std::map<std::int64_t, Done> done_;
  std::int64_t applied_ = 0;
};

// The fold: every result in order; refused results are skipped and listed (the same
// results give the same skips).
struct Skipped {
  std::int64_t match = 0;
  RatingError error;
};
struct Folded {
  RatingBook book;
  std::vector<Skipped> skipped;
};
Folded fold_ratings(const std::vector<MatchResult>& results, RatingsConfig config = {});

}  // namespace eryantis::ratings
