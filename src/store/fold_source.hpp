#pragma once
// What the one fold (fold.hpp) reads, whichever database holds the rows: a
// match's events from a seq on and its snapshots newest first. Each backend
// implements it over its own cursor; the fold, the snapshot policy, verify and
// restore are written once against it.
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "eryantis/store/error.hpp"
#include "eryantis/store/event_store.hpp"
#include "eryantis/store/fold.hpp"
#include "eryantis/store/records.hpp"

namespace eryantis::store::detail {

// One events row; the views are valid during the visit only.
struct EventRow {
  Seq seq = 0;
  int schema_version = 0;
  std::string_view payload;
  std::string_view state_hash;
  std::string_view type;
  std::string_view actor;
};

// One snapshots row; `state` is the binary state (valid during the visit only).
struct SnapshotRow {
  Seq seq = 0;
  int version = 0;
  std::string_view state;
};

// A visitor returns false to stop early.
using EventVisitor = std::function<bool(const EventRow&)>;
using SnapshotVisitor = std::function<void(const SnapshotRow&)>;

class FoldSource {
 public:
  virtual ~FoldSource() = default;
  // Rows with seq >= from_seq, in seq order.
  virtual Result<void> events_from(MatchId id, Seq from_seq, const EventVisitor& visit) = 0;
  // Visits the newest row with seq <= at_most; false when there is none. One
  // row at a time: a fold usually needs only the newest, and the caller may read
  // events before asking for an older one.
  virtual Result<bool> newest_snapshot(MatchId id, Seq at_most, const SnapshotVisitor& visit) = 0;
};

// The one fold of a match's stored events up to `last_seq` by its game's rules
// (see fold.hpp), inside the caller's read transaction.
Result<Folded> fold(FoldSource& source, const game::Game& played, MatchId id, Seq last_seq,
                    const FoldPolicy& policy);

// The state to store as a snapshot when an append from `before` to `after` crosses
// a multiple of `every` (nullopt: none due, or the log is suspect). Refuses a
// `state_after` that does not hash to `last_hash`: a snapshot must agree with the log.
Result<std::optional<game::State>> snapshot_due(FoldSource& source, const game::Game& played,
                                                int every, MatchId id, Seq before, Seq after,
                                                std::uint64_t last_hash,
                                                const game::State* state_after);

// verify() of every backend: the fold from the first event with every check on,
// each snapshot compared with the state at its seq.
Result<VerifyReport> verify(FoldSource& source, const game::Game& played, MatchId id,
                            Seq last_seq);

// A stored match this process can fold: its last seq and its game.
struct Foldable {
  Seq last_seq = 0;
  const game::Game* played = nullptr;  // never null
};

// The game of match `id` as stored (game, version), or Unserved naming them when
// this process does not serve it: a store judges no log by another game's rules.
Result<const game::Game*> served_game(const Options& options, MatchId id, std::string_view game,
                                      int version);

// A new match's options as its game writes them (matches.options).
Result<std::string> new_match_options_json(const Options& options, const NewMatch& match);

// The columns an events row repeats from its payload, as the match's game says.
struct EventText {
  std::string type;
  std::string payload;  // the caller's, or the game's event_to_json
};
EventText event_text(const game::Game& played, const NewEvent& event);

// An unfinished match as listed for restoring.
struct LoadCandidate {
  MatchId id = 0;
  MatchStatus status = MatchStatus::Lobby;
  Seq last_seq = 0;
  std::optional<DeadlineRecord> deadline;  // from the same matches row
  std::string game = std::string(kFirstGame);
  int game_version = kFirstGameVersion;
  bool private_match = false;  // schema 10
  std::optional<std::string> takeover = std::nullopt;  // schema 12
  std::optional<std::string> clock = std::nullopt;       // schema 13
  std::optional<std::string> on_timeout = std::nullopt;  // schema 13
};

// load_unfinished() of every backend, before quarantining: each candidate of
// a game `options` serves folded from its newest usable snapshot (hashes checked
// as options.load_hashes says), with its deadline (the backend reads its seats
// and recent command ids); the others reported unserved, not even read.
Result<LoadReport> load_candidates(FoldSource& source,
                                         const std::vector<LoadCandidate>& candidates,
                                         const Options& options);

}  // namespace eryantis::store::detail
