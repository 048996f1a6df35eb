#pragma once
// Start-up: every unfinished match restored from the store, as the server takes it.
#include <expected>
#include <string>
#include <vector>

#include "eryantis/server/server.hpp"
#include "eryantis/store/sqlite_store.hpp"

namespace eryantis::app {

struct Loaded {
  std::vector<server::LoadedMatch> matches;
  store::MatchId next_match_id = 1;  // one more than the largest id ever stored
  std::size_t quarantined = 0;       // matches set aside (logged with their reason)
  // Matches of a game or game version this build does not serve: logged, left as stored.
  std::size_t unserved = 0;
  // Endings players have not been told yet (Server::load_unseen_endings).
  std::vector<store::UnseenEnding> unseen_endings;
  // What the database holds, per status, once restored (quarantines included).
  store::StatusCounts matches_by_status{};
};

// Folds every unfinished match (store::EventStore::load_unfinished) and adds what
// the server keeps beside the state: seats, the armed timer and the last
// server::kRecentCommands command ids.
std::expected<Loaded, std::string> load_matches(store::EventStore& db);

// Schema 13: `m`'s clocks, folded from its stored events' times and clock steps,
// when the match has a clock (`clock`, `on_timeout` as stored); a clock text that
// does not read back leaves the match without one (logged).
std::expected<void, std::string> fold_stored_clock(store::EventStore& db, server::LoadedMatch& m,
                                                   const std::optional<std::string>& clock,
                                                   const std::optional<std::string>& on_timeout);

}  // namespace eryantis::app
