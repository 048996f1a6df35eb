#pragma once
// From finished matches (results.hpp) to the rating book's input (ratings/book.hpp): the
// one conversion the server (src/main/standings.cpp) and `eryantis-replay ratings` share,
// so that both fold the same results in the same order (docs/accounts.md, "Ratings and
// history").
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/ratings/book.hpp"
#include "eryantis/store/error.hpp"
#include "eryantis/store/fold.hpp"
#include "eryantis/store/rating_keys.hpp"
#include "eryantis/store/results.hpp"

namespace eryantis::store {

class EventStore;

// Each seat's place (1 = first; equal places share) and side (teammates share one).
struct Placing {
  std::vector<int> places;  // empty: the match names no places (an operator ended it)
  std::vector<int> teams;
  friend bool operator==(const Placing&, const Placing&) = default;
};
// As the server writes them into matches.result with the last event ("places", "teams");
// nullopt when the result has no "places" (a match finished before they were written).
std::optional<Placing> stored_placing(std::string_view result_json);
// From the log: folds the match (`policy`) and asks its game for the outcome and teams.
// Corrupt when the log diverges, Unserved when no game of the store reads it.
Result<Placing> log_placing(EventStore& store, MatchId id, const FoldPolicy& policy);

// The book's input for a finished match; nullopt when it is not rated (fewer than two
// seats, no places, places or seats missing). A player id seen twice in one match (two
// computers of one level) is rated once: its later seats count as guests. A seat a
// computer took over from a person (SeatRecord::left_by) rates that person, placed
// after every seat that stayed, on a side of their own; the computer is not rated for it.
std::optional<ratings::MatchResult> rating_result(const FinishedMatch& match,
                                                  const Placing& placing);

// The names pages show for rating keys, learnt from the seats of finished matches: an
// account's key ("account:7") shows the nickname of its latest seat (an account plays
// under its name); any other key as display_name.
class KeyNames {
 public:
  void note(const FinishedMatch& match);
  std::string shown(std::string_view id) const;
  // The key of a name typed in a URL: a known account key as is; the account that played
  // under that name (a guest who used it before keeps "name:<name>", which this then never
  // returns); else rating_id_of_name.
  std::string id_of(std::string_view name) const;

 private:
  std::map<std::string, std::string, std::less<>> names_;     // account key -> nickname
  std::map<std::string, std::string, std::less<>> accounts_;  // nickname -> account key
};

}  // namespace eryantis::store
