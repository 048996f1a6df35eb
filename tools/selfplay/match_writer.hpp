#pragma once
// eryantis-selfplay --db: self-played matches of any game written through the store
// exactly as the server writes a match: the row in the lobby with its seats and
// the create_match event, then the other events with their hashes, the final status
// and the result. Several matches share one transaction (each is two requests of
// append_batch). The store encodes each event by the match's game (a store opened on
// the catalogue), so `eryantis-replay` reads them back like a server's.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eryantis/game/registry.hpp"
#include "eryantis/store/sqlite_store.hpp"

namespace eryantis::selfplay {

// One match as played: events[i] led to the state whose game hash is hashes[i].
struct PlayedMatch {
  const game::Game* game = nullptr;
  game::Options options;
  std::vector<game::Event> events;  // events[0] is create_match
  std::vector<std::uint64_t> hashes;
  game::State after_first;  // the state after events[0]
  game::State last;         // the state after every event
};

class MatchWriter {
 public:
  // Opens (creating or migrating) the SQLite file at `path` for the matches of
  // `games`; nullopt after printing why on stderr.
  static std::optional<MatchWriter> open(const std::string& path, const game::Registry& games,
                                         int batch);
  // Queues the match as the next id; writes the queue when `batch` matches wait.
  // False after printing the store's error on stderr.
  bool add(const PlayedMatch& match);
  bool flush();

  store::MatchId first_id() const { return first_id_; }
  store::MatchId next_id() const { return next_id_; }

 private:
  MatchWriter(store::SqliteStore s, store::MatchId first, int batch)
      : store_(std::move(s)), first_id_(first), next_id_(first), batch_(batch) {}

  store::SqliteStore store_;
  store::MatchId first_id_;
  store::MatchId next_id_;
  int batch_;
  std::vector<store::AppendRequest> pending_;
};

// The server's result JSON for a finished match (its seats named alice, bob, ...):
// {"type":"result","reason":...,"winners":[...],"nicknames":[...],"draw":...} and
// the game's own members (Outcome::details_json).
std::string result_json(const game::Game& game, const game::State& over);

}  // namespace eryantis::selfplay
