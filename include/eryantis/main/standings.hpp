#pragma once
// Ratings and histories in the server (docs/accounts.md, "Ratings and history"): the
// rating book (ratings/book.hpp) folded over the store's finished matches in
// (finished_ms, match) order, as `eryantis-replay ratings` folds them, and each
// player's finished matches. Nothing here is stored: at start the reader reads every
// finished match; after that, each time the server finishes matches, the ones after
// the last read (minus a margin, see kReadMargin). Served as JSON beside /help/:
//   GET /ratings/<game>?players=N[&provisional=1][&at=MS][&limit=K]
//   GET /history/<name>[?limit=K]
// Lives on the loop thread; the reads run on the store's reader thread.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eryantis/game/registry.hpp"
#include "eryantis/net/http_message.hpp"
#include "eryantis/ratings/book.hpp"
#include "eryantis/store/event_store.hpp"
#include "eryantis/store/rating_results.hpp"

namespace eryantis::app {

inline constexpr std::string_view kRatingsRoute = "/ratings/";
inline constexpr std::string_view kHistoryRoute = "/history/";

// Matches committed in a later transaction can carry the same millisecond as (or, when
// the clock steps back, an earlier one than) matches already read: each read goes back
// this far and skips the matches it knows. An earlier one found refolds the book.
inline constexpr std::int64_t kReadMargin = 10'000;

// A finished match and each seat's place and side.
struct RatedMatch {
  store::FinishedMatch match;
  store::Placing placing;
};

// On the reader's thread: the finished matches after `after`, each placed by the places
// the server stored in matches.result, or (a match finished before they were stored)
// from the log. A match whose log cannot be folded gets no places (it is not rated;
// eryantis-replay ratings leaves it out too).
store::Result<std::vector<RatedMatch>> read_rated(store::EventStore& db, store::FinishCursor after);

class Standings {
 public:
  // `replay_url`: [web] replay_url, the replay viewer a history's links open ("": none).
  Standings(const game::Registry& games, std::string replay_url)
      : games_(games), replay_url_(std::move(replay_url)) {}

  // Takes what a read returned; matches already known are skipped.
  void add(std::vector<RatedMatch> matches);
  // Where the next read starts (the last known finish, minus kReadMargin).
  store::FinishCursor read_from() const;
  std::size_t finished() const { return entries_.size(); }
  const ratings::RatingBook& book() const { return book_; }

  net::HttpResponse ratings_response(const net::HttpRequest& request, std::int64_t now_ms) const;
  net::HttpResponse history_response(const net::HttpRequest& request, std::int64_t now_ms) const;

 private:
  struct Entry {
    RatedMatch rated;
    std::vector<ratings::SeatChange> changes;  // empty: not rated
  };
  void apply(Entry& entry);
  void refold();

  const game::Registry& games_;
  std::string replay_url_;
  std::map<store::FinishCursor, Entry> entries_;
  std::set<store::MatchId> known_;
  std::map<std::string, std::vector<store::FinishCursor>, std::less<>> by_player_;
  store::KeyNames names_;
  ratings::RatingBook book_;
  std::vector<ratings::Skipped> skipped_;
};

}  // namespace eryantis::app
