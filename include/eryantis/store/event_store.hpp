#pragma once
// The event store as the server, main and the tools use it, whichever database
// holds it: SQLite (store.hpp, the embedded default) or PostgreSQL (pg_store.hpp,
// for a cluster of servers, docs/cluster.md). Both keep the same promises:
// appends are committed before they return, all or nothing, refused on a stale
// expected_seq, idempotent per command id; every read of state folds the log
// with the one fold (fold.hpp). One object is one connection, used by one thread
// at a time.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eryantis/game/registry.hpp"
#include "eryantis/store/accounts.hpp"
#include "eryantis/store/chat.hpp"
#include "eryantis/store/error.hpp"
#include "eryantis/store/fold.hpp"
#include "eryantis/store/records.hpp"
#include "eryantis/store/results.hpp"

namespace eryantis::store {

enum class Durability : std::uint8_t {
  // SQLite synchronous=FULL; PostgreSQL synchronous_commit=on: a commit survives power loss
  Full,
  // SQLite synchronous=NORMAL; PostgreSQL synchronous_commit=off: survives a crash of
  // this process; a power loss (or a database crash) may drop the last commits
  Normal,
};

struct Options {
  Durability durability = Durability::Full;
  int snapshot_every = 64;  // events between snapshots; 0 = never
  bool read_only = false;   // never writes, never migrates (safe beside a writer)
  int busy_timeout_ms = 5000;
  // Which stored hashes restoring a match compares (FoldStart::NewestSnapshot).
  HashCheck load_hashes = HashCheck::Every;
  // SQLite: the last connection to close copies the WAL into the database file and
  // syncs both (about 100 ms for the 16 MiB WAL of 5,000 running matches). false
  // leaves that to the next writer's automatic checkpoint: what the server's restore
  // connection does, closed just before the group committer opens its own.
  bool checkpoint_on_close = true;
  // The games whose matches this store reads and writes: a match's events,
  // snapshots and options are encoded, decoded and folded by its game, found here
  // by the name and version stored with it (Registry::find(name, version)). The
  // platform passes its catalogue (main) or the tests' registry; the store knows
  // no game itself. Without one the store still opens, migrates, lists and copies,
  // but refuses (Unserved) whatever needs a game.
  const game::Registry* games = nullptr;
  // The games, each with every version of its rules it reads, that this process
  // serves, if not every one of `games` (the server: as its lobby serves them).
  // An unfinished match of any other game or version is neither folded nor
  // changed: load_unfinished() reports it as unserved, a cluster node never adopts
  // it (PgStore::due_orphans, load_matches) nor lists it (open_matches), so a
  // build that serves it finds it as it was left. Empty = every game and version
  // `games` reads.
  std::vector<GameVersion> serves = {};
  // The game of a stored match when this process serves it, else nullptr.
  const game::Game* served(std::string_view game, int version) const {
    if (!games) return nullptr;
    const game::Game* g = games->find(game, version);
    if (!g || serves.empty()) return g;
    for (const GameVersion& each : serves)
      if (each.game == game && each.version == version) return g;
    return nullptr;
  }
  bool serves_game(std::string_view game, int version) const {
    return served(game, version) != nullptr;
  }
  // Every game and version this process serves, spelled out (`serves`, or what
  // `games` reads when it is empty).
  std::vector<GameVersion> served_versions() const;
};

class EventStore {
 public:
  virtual ~EventStore() = default;

  // "sqlite" or "postgresql", for logs and messages.
  virtual std::string_view backend() const = 0;
  virtual const Options& options() const = 0;
  // The schema version of the database (its last migration).
  virtual int schema_version() const = 0;

  // --- matches and seats ---------------------------------------------------
  virtual Result<MatchId> create_match(const NewMatch& match) = 0;
  // `result_json` is stored in matches.result (finished matches).
  virtual Result<void> set_status(MatchId id, MatchStatus status,
                                  const std::optional<std::string>& result_json = std::nullopt) = 0;
  virtual Result<void> upsert_seat(const SeatRecord& seat) = 0;
  virtual Result<std::vector<SeatRecord>> seats(MatchId id) = 0;
  virtual Result<std::vector<MatchSummary>> list_matches() = 0;
  virtual Result<Seq> last_seq(MatchId id) = 0;
  // The largest match id ever stored (0 for an empty database).
  virtual Result<MatchId> max_match_id() = 0;
  // How many matches the database holds in each status (one scan of the status
  // index): the metrics' starting count (docs/operations.md, Monitor).
  virtual Result<StatusCounts> count_by_status() = 0;
  // Finished matches (results.hpp) that come after `after` in (finished_ms, match) order,
  // in that order, with their seats: what ratings fold and histories list. One scan of
  // the finished matches (the status index; the last event of those updated since).
  virtual Result<std::vector<FinishedMatch>> finished_matches(FinishCursor after) = 0;
  // The server's persisted timer of a match, if one is armed.
  virtual Result<std::optional<DeadlineRecord>> deadline(MatchId id) = 0;
  // Schema 10: whether the match is private, and its invite rows (digests only).
  virtual Result<MatchPrivacy> privacy(MatchId id) = 0;
  // Schema 13: the match's clock steps that are not events, in (after_seq, id) order.
  virtual Result<std::vector<ClockStepRecord>> clock_steps(MatchId id) = 0;
  // The endings kept for players who have not logged in since (the newest
  // `limit`, oldest first): what a restarted server tells them at login.
  virtual Result<std::vector<UnseenEnding>> unseen_endings(std::size_t limit) = 0;

  // --- events --------------------------------------------------------------
  // Rows with from_seq <= seq <= to_seq, in seq order.
  virtual Result<std::vector<StoredEvent>> load_events(
      MatchId id, Seq from_seq = 1, Seq to_seq = std::numeric_limits<Seq>::max()) = 0;

  // Appends `events` as seqs expected_seq + 1, ... in one transaction: all or
  // nothing, durable when this returns. Conflict (with the real last seq) if the
  // match moved on. If the first event's command_id is already stored, returns the
  // original seqs without writing (a client retry).
  virtual Result<AppendOutcome> append(MatchId id, Seq expected_seq,
                                       std::span<const NewEvent> events,
                                       const game::State* state_after = nullptr) = 0;

  // Applies every request in ONE transaction, each inside its own savepoint: a
  // request that fails (Conflict, Fenced, ...) is undone alone. Requests run in
  // order. A request creates its match row, changes seats, status and deadline,
  // and appends its events atomically. If the commit itself fails, every request
  // reports that error. The group committer's one call.
  virtual std::vector<Result<AppendOutcome>> append_batch(
      std::span<const AppendRequest> requests) = 0;

  // --- chat (chat.hpp): platform rows beside a match, never its events --------
  // Stores `messages` in ONE transaction (one sync for all), in order; each gets
  // its id, or NotFound when its match has no row (nothing else is refused one by
  // one: any other failure fails them all). The server's chat writes come here
  // in batches, on the group committer's writer, between two append batches.
  virtual Result<std::vector<Result<ChatMessageId>>> append_chat(
      std::span<const NewChatMessage> messages) = 0;
  // The newest `query.limit` messages of a match (one channel or both), oldest
  // first; deleted ones only when `query.with_deleted`.
  virtual Result<std::vector<ChatMessage>> chat_messages(const ChatQuery& query) = 0;
  // Marks message `id` deleted by `by` at `at_ms` (an operator's act; the text is
  // kept for the record). NotFound when there is no such message; deleting twice
  // keeps the first deletion. Returns the message as it is now.
  virtual Result<ChatMessage> delete_chat(ChatMessageId id, std::string_view by,
                                          std::int64_t at_ms) = 0;

  // --- accounts (accounts.hpp, docs/accounts.md): platform rows, never events --
  // A new account; Conflict when its name_key is taken.
  virtual Result<AccountRecord> create_account(const NewAccount& account) = 0;
  // The account of a name key, if any.
  virtual Result<std::optional<AccountRecord>> find_account(std::string_view name_key) = 0;
  // Every account, by id.
  virtual Result<std::vector<AccountRecord>> list_accounts() = 0;
  // Sets a password hash (a rehash at login, a new password).
  virtual Result<void> set_password(AccountId id, std::string_view password_hash,
                                    std::int64_t at_ms) = 0;
  // Disables (or enables) the account of `name_key`; disabling ends all its sessions
  // in the same transaction. NotFound without such an account. Returns it as now.
  virtual Result<AccountRecord> set_disabled(std::string_view name_key, bool disabled) = 0;
  virtual Result<void> add_session(const NewSession& session) = 0;
  // The unexpired session of `token_digest` with its account (disabled or not: the
  // caller refuses), its last_seen_ms set to `now_ms`; nullopt when none.
  virtual Result<std::optional<SessionLookup>> find_session(std::string_view token_digest,
                                                            std::int64_t now_ms) = 0;
  // Ends one session of the account (`token_digest`), or all of them (nullopt):
  // how many rows went.
  virtual Result<std::int64_t> end_sessions(AccountId account,
                                            const std::optional<std::string>& token_digest) = 0;
  virtual Result<void> add_password_reset(const NewPasswordReset& reset) = 0;
  // Uses the reset `code_digest` of the account `name_key` (unused, not expired at
  // `now_ms`): marks it used, sets the new hash and ends every session, in one
  // transaction. NotFound otherwise (the same for every reason).
  virtual Result<AccountRecord> reset_password(std::string_view code_digest,
                                               std::string_view name_key,
                                               std::string_view password_hash,
                                               std::int64_t now_ms) = 0;

  // --- restoring: reading state back from the log ---------------------------
  // Folds match `id` as `policy` says, in one read transaction. A log that stops
  // being trustworthy is not an error: Folded::divergence says where and why.
  virtual Result<Folded> fold(MatchId id, const FoldPolicy& policy) = 0;

  // Every lobby/running match, folded from its newest valid snapshot. A match
  // whose events do not decode, are illegal, have a seq gap, disagree with their
  // stored hashes or cannot be read (a damaged page) is marked quarantined (unless
  // read-only) and reported instead.
  virtual Result<LoadReport> load_unfinished() = 0;

  // The (command id, seq) of the newest `count` events that carry a command id,
  // oldest first: what a server keeps to answer a retry with its original ack.
  virtual Result<std::vector<std::pair<std::string, Seq>>> recent_command_ids(
      MatchId id, std::size_t count) = 0;

  // Folds from the first event (FoldStart::FirstEvent), comparing every stored
  // hash, the columns that repeat the payload and every snapshot with the fold;
  // reports the first divergence.
  virtual Result<VerifyReport> verify(MatchId id) = 0;

  // After a write found the disk full: gives back the disk space the write-ahead
  // log took, so that the space freed since goes to new writes. SQLite moves the
  // WAL into the database file and truncates it to zero bytes (Full while there
  // is not yet room for that: up to the WAL's size). PostgreSQL manages its own
  // WAL: nothing to do.
  virtual Result<void> reclaim_space() { return {}; }

  // The match's current state: newest valid snapshot plus the events after it
  // (every hash checked). Corrupt if the log diverges.
  Result<game::State> load_state(MatchId id);
};

}  // namespace eryantis::store
