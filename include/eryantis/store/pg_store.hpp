#pragma once
// The PostgreSQL event store: the same tables, meaning and promises as the SQLite
// store, SqliteStore (event_store.hpp), on a database several servers share (docs/cluster.md).
// Besides the interface it keeps the match leases: which node serves a match,
// with an epoch that fences every write of a node that lost it.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/store/event_store.hpp"
#include "eryantis/store/pg.hpp"

namespace eryantis::store {

// A lease row: the node that serves the match until `expires_at_ms` (unix ms, the
// database's clock), and the epoch its writes carry (LeaseFence).
struct Lease {
  MatchId match_id = 0;
  std::string node;
  std::int64_t epoch = 0;
  std::int64_t expires_at_ms = 0;
  LeaseFence fence() const { return LeaseFence{node, epoch}; }
};

// Where a cluster node is reached (the nodes table): what a redirect names.
struct NodeInfo {
  std::string node;
  std::string public_address;             // host:port
  std::optional<std::string> public_web;  // ws://host:port/ws
  friend bool operator==(const NodeInfo&, const NodeInfo&) = default;
};

// A match waiting for players, as every node's lobby lists it.
struct OpenMatch {
  MatchId id = 0;
  int players = 0;
  std::string mode;
  std::vector<SeatRecord> seats;  // nickname and computer only
  std::string game;
  int game_version = 0;
};

// A match as a node adopting it reads it back (docs/cluster.md section 4): the
// same rows, in the same shape, as fold() + seats() + recent_command_ids() +
// deadline() give one at a time.
struct FoldedMatch {
  MatchId id = 0;
  MatchStatus status = MatchStatus::Lobby;
  // load_matches reads them from the row. A caller that builds one from fold()
  // (which refuses an unserved game: Unserved) keeps the defaults: the store's
  // fold folds the first game, version 1, only (Options::serves).
  std::string game = std::string(kFirstGame);
  int game_version = kFirstGameVersion;
  Folded folded;  // with the caller's policy; a divergence is the caller's to judge
  std::vector<SeatRecord> seats;
  std::vector<std::pair<std::string, Seq>> recent_commands;  // oldest first
  std::optional<DeadlineRecord> deadline;
  MatchPrivacy privacy = {};  // schema 10
};

class PgStore final : public EventStore {
 public:
  // Connects with a libpq connection string, then migrates (serialised between
  // nodes by an advisory lock) unless read-only. Refuses a database that holds
  // tables of another application or a newer schema.
  static Result<PgStore> open(const std::string& conninfo, const Options& options = {});

  PgStore(PgStore&&) noexcept;
  PgStore& operator=(PgStore&&) noexcept;
  ~PgStore() override;

  std::string_view backend() const override { return "postgresql"; }
  const Options& options() const override;
  int schema_version() const override;

  Result<MatchId> create_match(const NewMatch& match) override;
  Result<void> set_status(MatchId id, MatchStatus status,
                          const std::optional<std::string>& result_json = std::nullopt) override;
  Result<void> upsert_seat(const SeatRecord& seat) override;
  Result<std::vector<SeatRecord>> seats(MatchId id) override;
  Result<std::vector<MatchSummary>> list_matches() override;
  Result<Seq> last_seq(MatchId id) override;
  Result<MatchId> max_match_id() override;
  Result<StatusCounts> count_by_status() override;
  Result<std::vector<FinishedMatch>> finished_matches(FinishCursor after) override;
  Result<std::optional<DeadlineRecord>> deadline(MatchId id) override;
  Result<MatchPrivacy> privacy(MatchId id) override;
  Result<std::vector<ClockStepRecord>> clock_steps(MatchId id) override;
  Result<std::vector<UnseenEnding>> unseen_endings(std::size_t limit) override;

  // --- accounts (event_store.hpp says what each promises) ----------------------
  Result<AccountRecord> create_account(const NewAccount& account) override;
  Result<std::optional<AccountRecord>> find_account(std::string_view name_key) override;
  Result<std::vector<AccountRecord>> list_accounts() override;
  Result<void> set_password(AccountId id, std::string_view password_hash,
                            std::int64_t at_ms) override;
  Result<AccountRecord> set_disabled(std::string_view name_key, bool disabled) override;
  Result<void> add_session(const NewSession& session) override;
  Result<std::optional<SessionLookup>> find_session(std::string_view token_digest,
                                                    std::int64_t now_ms) override;
  Result<std::int64_t> end_sessions(AccountId account,
                                    const std::optional<std::string>& token_digest) override;
  Result<void> add_password_reset(const NewPasswordReset& reset) override;
  Result<AccountRecord> reset_password(std::string_view code_digest, std::string_view name_key,
                                       std::string_view password_hash,
                                       std::int64_t now_ms) override;

  // --- chat (event_store.hpp says what each promises) --------------------------
  Result<std::vector<Result<ChatMessageId>>> append_chat(
      std::span<const NewChatMessage> messages) override;
  Result<std::vector<ChatMessage>> chat_messages(const ChatQuery& query) override;
  Result<ChatMessage> delete_chat(ChatMessageId id, std::string_view by,
                                  std::int64_t at_ms) override;

  Result<std::vector<StoredEvent>> load_events(
      MatchId id, Seq from_seq = 1, Seq to_seq = std::numeric_limits<Seq>::max()) override;
  Result<AppendOutcome> append(MatchId id, Seq expected_seq, std::span<const NewEvent> events,
                               const game::State* state_after = nullptr) override;
  std::vector<Result<AppendOutcome>> append_batch(std::span<const AppendRequest> requests) override;
  Result<Folded> fold(MatchId id, const FoldPolicy& policy) override;
  Result<LoadReport> load_unfinished() override;
  Result<std::vector<std::pair<std::string, Seq>>> recent_command_ids(MatchId id,
                                                                      std::size_t count) override;
  Result<VerifyReport> verify(MatchId id) override;
  using EventStore::load_state;

  // --- leases (docs/cluster.md) ---------------------------------------------
  // Takes the match for `node` for `ttl`: free, expired, or already this node's.
  // Every take raises the epoch by one (a restarted node is a new writer), so the
  // fences of earlier holders stop working. Conflict, naming the holder, while
  // another node's lease runs.
  Result<Lease> acquire_lease(MatchId id, std::string_view node, std::chrono::milliseconds ttl);
  // acquire_lease for many matches in ONE statement (`INSERT ... SELECT FROM
  // unnest(...) ON CONFLICT DO UPDATE`): one result per id, in the order of
  // `ids`, each what acquire_lease would have answered (Conflict naming the
  // holder, read for all of them in one more statement). `ids` must be distinct
  // (a row is taken once per statement). Rows are locked in id order, so two
  // nodes taking overlapping batches wait for each other instead of deadlocking.
  Result<std::vector<Result<Lease>>> acquire_leases(std::span<const MatchId> ids,
                                                    std::string_view node,
                                                    std::chrono::milliseconds ttl);
  // Extends a lease still held with this fence; Fenced once it expired or
  // another node took it (the caller stops serving the match).
  Result<Lease> renew_lease(MatchId id, const LeaseFence& fence, std::chrono::milliseconds ttl);
  // Gives the match up at once (graceful shutdown): expires the lease, keeps the
  // epoch. Nothing happens if the fence no longer holds it.
  Result<void> release_lease(MatchId id, const LeaseFence& fence);
  // The lease row, if the match ever had one.
  Result<std::optional<Lease>> lease(MatchId id);
  // The lease rows of many matches in one statement (those that have one).
  Result<std::vector<Lease>> leases(std::span<const MatchId> ids);

  // Renews every lease in `held` that `node` still holds with that epoch, in ONE
  // statement (a node renews all its matches every lease_ms / 3). Returns the
  // matches NOT renewed: expired or taken by another node (the caller stops
  // serving them; their writes are fenced anyway).
  Result<std::vector<MatchId>> renew_leases(std::string_view node, std::span<const HeldLease> held,
                                            std::chrono::milliseconds ttl);
  // Gives up every lease in `held` that `node` still holds with that epoch, in
  // ONE statement (a graceful shutdown or the end of a drain, after the node's
  // last write committed): they expire now, keep their epochs, and any node may
  // adopt the matches at once instead of after the lease's ttl. Returns how many
  // were released (the others had expired or been taken already).
  Result<std::size_t> release_leases(std::string_view node, std::span<const HeldLease> held);

  // --- cluster (pg_cluster.cpp, docs/cluster.md) ----------------------------
  // Records where `info.node` is reached (at the node's start), and moves the
  // match id sequence past every stored id (matches a single server created).
  Result<void> register_node(const NodeInfo& info);
  Result<std::optional<NodeInfo>> node_info(std::string_view node);
  // A match id no other node gets (the match_ids sequence).
  Result<MatchId> next_match_id();
  // The newest unfinished match where `nickname` holds a person's seat, if any:
  // where a resuming login belongs, whichever node created it.
  Result<std::optional<MatchId>> unfinished_seat_of(std::string_view nickname);
  // unfinished_seat_of for many nicknames in one statement, in their order.
  Result<std::vector<std::optional<MatchId>>> unfinished_seats_of(
      std::span<const std::string> nicknames);
  Result<std::optional<MatchStatus>> match_status(MatchId id);
  // match_status of many matches in one statement, in the order of `ids`.
  Result<std::vector<std::optional<MatchStatus>>> match_statuses(std::span<const MatchId> ids);

  // --- adopting many matches at once (pg_load.cpp, docs/cluster.md) ---------
  // Reads the matches `ids` (distinct) in ONE read transaction of four
  // statements whatever their number (the matches rows with each one's newest
  // snapshot, the events after it, the seats, the newest `recent` command ids),
  // then folds each in memory with `policy` (NewestSnapshot; a snapshot the
  // fold rejects sends it back to the database for an older one, as fold()
  // does). `visit` gets each match as soon as it is folded, in the order of
  // `ids`; a match that does not exist comes as NotFound. An error returned
  // means the batch's reads failed and nothing was visited.
  using LoadedVisitor = std::function<void(MatchId, Result<FoldedMatch>)>;
  Result<void> load_matches(std::span<const MatchId> ids, const FoldPolicy& policy,
                            std::size_t recent, const LoadedVisitor& visit);
  // The oldest `limit` matches in status lobby of a game this node serves
  // (Options::serves), with their seats: the cluster's lobby (each node lists the
  // ones it does not serve from here).
  Result<std::vector<OpenMatch>> open_matches(std::size_t limit);
  // The sweeper's look-up: unfinished matches nobody serves (no lease row, or an
  // expired one) whose stored timer (`deadline_at`, unix ms) is due at or before
  // `due_before_ms`, soonest first, then those with no stored timer (their node
  // died with players connected), at most `limit`; only matches of a game this
  // node serves (Options::serves): another game's waits, untouched, for a node
  // whose build has it. One statement through the
  // status index; what it returns is only a hint: acquire_lease decides who takes
  // each, so nodes sweeping together are harmless.
  Result<std::vector<MatchId>> due_orphans(std::int64_t due_before_ms, std::size_t limit);

  // --- nicknames across the cluster (pg_nicknames.cpp, docs/cluster.md) -----
  // Claims `nickname` for `node` for `ttl`: free, expired (its node died) or
  // already this node's. nullopt when claimed; otherwise the node holding it.
  Result<std::optional<std::string>> claim_nickname(std::string_view nickname,
                                                    std::string_view node,
                                                    std::chrono::milliseconds ttl);
  // claim_nickname for many nicknames (distinct) in ONE statement, plus one to
  // name the holders of the rest: one answer per nickname, in their order.
  Result<std::vector<Result<std::optional<std::string>>>> claim_nicknames(
      std::span<const std::string> nicknames, std::string_view node, std::chrono::milliseconds ttl);
  // Extends every claim `node` holds (with its lease renewals).
  Result<void> renew_nicknames(std::string_view node, std::chrono::milliseconds ttl);
  // Gives up one claim (a logout) if `node` holds it.
  Result<void> release_nickname(std::string_view nickname, std::string_view node);
  // Gives up every claim of `node` (its start: claims of its previous life; a
  // graceful stop).
  Result<void> release_nicknames(std::string_view node);
  // The ending kept for `nickname` (away when their match ended, on any node):
  // a cluster node asks at each login instead of loading them all at start.
  Result<std::optional<UnseenEnding>> unseen_ending_of(std::string_view nickname);

  // The connection itself, for tools and tests that need raw SQL.
  pg::Connection& connection();
  // Whether PostgreSQL answers this store's connection (pg::Connection::reachable).
  std::shared_ptr<const std::atomic<bool>> reachable() const;

  struct Impl;

 private:
  explicit PgStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace eryantis::store
