#pragma once
// From finished matches (results.hpp) to the rating book's input (ratings/book.hpp): the
// one conversion the server (src/main/standings.cpp) and `eryantis-replay ratings` share,
// so that both fold the same results in the same order (docs/accounts.md, "Ratings and
// history").
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/ratings/book.hpp"
#include "eryantis/store/error.hpp"
#include "eryantis/store/fold.hpp"
#include "eryantis/store/results.hpp"

namespace eryantis::store {

class EventStore;

// The rating identity of a seat: "computer:<level>" for the server's computer players
// (one identity per level: they anchor the scale), "name:<nickname>" for everyone else.
// Accounts will give "account:<id>": the prefix says which kind of key follows, so an
// account's id replaces the nickname without colliding with it.
std::string rating_id(const SeatRecord& seat);
// What a page shows for a rating id: the nickname, or the id itself ("computer:strong").
std::string display_name(std::string_view rating_id);
// The inverse for a name typed in a URL: "computer:strong" as is, else "name:<name>".
std::string rating_id_of_name(std::string_view name);

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
// computers of one level) is rated once: its later seats count as guests.
std::optional<ratings::MatchResult> rating_result(const FinishedMatch& match,
                                                  const Placing& placing);

}  // namespace eryantis::store
