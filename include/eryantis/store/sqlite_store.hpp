#pragma once
// The SQLite event store (the embedded default; event_store.hpp is the
// interface it implements): matches, seats, the append-only event log and
// snapshots. One SqliteStore is one connection, used by one thread at a time (the
// GroupCommitter's writer, a tool, a test); any number may share a file.
#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "eryantis/store/error.hpp"
#include "eryantis/store/event_store.hpp"
#include "eryantis/store/fold.hpp"
#include "eryantis/store/records.hpp"
#include "eryantis/store/sqlite.hpp"

namespace eryantis::store {

class SqliteStore final : public EventStore {
 public:
  // Opens (creating and migrating if writable) the database at `path`. Refuses
  // files of another application or of a newer schema.
  static Result<SqliteStore> open(const std::string& path, const Options& options = {});

  SqliteStore(SqliteStore&&) noexcept;
  SqliteStore& operator=(SqliteStore&&) noexcept;
  ~SqliteStore();

  // --- matches and seats ---------------------------------------------------
  Result<MatchId> create_match(const NewMatch& match) override;
  // `result_json` is stored in matches.result (finished matches).
  Result<void> set_status(MatchId id, MatchStatus status,
                          const std::optional<std::string>& result_json = std::nullopt) override;
  Result<void> upsert_seat(const SeatRecord& seat) override;
  Result<std::vector<SeatRecord>> seats(MatchId id) override;
  Result<std::vector<MatchSummary>> list_matches() override;
  Result<Seq> last_seq(MatchId id) override;
  // The largest match id ever stored (0 for an empty database).
  Result<MatchId> max_match_id() override;
  Result<StatusCounts> count_by_status() override;
  Result<std::vector<FinishedMatch>> finished_matches(FinishCursor after) override;
  // The server's persisted timer of a match, if one is armed.
  Result<std::optional<DeadlineRecord>> deadline(MatchId id) override;
  Result<MatchPrivacy> privacy(MatchId id) override;
  Result<std::vector<ClockStepRecord>> clock_steps(MatchId id) override;
  // The endings kept for players who have not logged in since (the newest
  // `limit`, oldest first): what a restarted server tells them at login.
  Result<std::vector<UnseenEnding>> unseen_endings(std::size_t limit) override;

  // --- events --------------------------------------------------------------
  // Rows with from_seq <= seq <= to_seq, in seq order.
  Result<std::vector<StoredEvent>> load_events(
      MatchId id, Seq from_seq = 1, Seq to_seq = std::numeric_limits<Seq>::max()) override;

  // Appends `events` as seqs expected_seq + 1, ... in one IMMEDIATE transaction:
  // all or nothing, durable when this returns. Conflict (with the real last seq)
  // if the match moved on. If the first event's command_id is already stored,
  // returns the original seqs without writing (a client retry).
  Result<AppendOutcome> append(MatchId id, Seq expected_seq, std::span<const NewEvent> events,
                               const game::State* state_after = nullptr) override;

  // Applies every request in ONE transaction, each inside its own savepoint: a
  // request that fails (Conflict, ...) is undone alone. Requests run in order.
  // A request creates its match row, changes seats, status and deadline, and
  // appends its events atomically.
  // If the commit itself fails, every request reports that error.
  std::vector<Result<AppendOutcome>> append_batch(std::span<const AppendRequest> requests) override;

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

  // --- restoring: reading state back from the log ---------------------------
  // Every path below folds with fold(): events are re-validated, never trusted.

  // Folds match `id` as `policy` says, in one read transaction. A log that stops
  // being trustworthy is not an error: Folded::divergence says where and why.
  Result<Folded> fold(MatchId id, const FoldPolicy& policy) override;

  using EventStore::load_state;

  // Every lobby/running match, folded from its newest valid snapshot. A match
  // whose events do not decode, are illegal, have a seq gap, disagree with their
  // stored hashes or sit on a damaged page of the file is marked quarantined
  // (unless read-only) and reported instead.
  Result<LoadReport> load_unfinished() override;

  // The (command id, seq) of the newest `count` events that carry a command id,
  // oldest first: what a server keeps to answer a retry with its original ack.
  Result<std::vector<std::pair<std::string, Seq>>> recent_command_ids(MatchId id,
                                                                      std::size_t count) override;

  // Folds from the first event (FoldStart::FirstEvent), comparing every stored
  // hash, the columns that repeat the payload and every snapshot with the fold;
  // reports the first divergence.
  Result<VerifyReport> verify(MatchId id) override;

  // PRAGMA wal_checkpoint(TRUNCATE): the WAL into the database, then cut to zero
  // bytes. Full (naming the WAL's size) while the database cannot grow enough for
  // it; Busy while a reader still needs older frames.
  Result<void> reclaim_space() override;

  std::string_view backend() const override { return "sqlite"; }
  const Options& options() const override;
  int schema_version() const override;
  // The connection itself, for tools and tests that need raw SQL.
  sqlite::Database& database();

  struct Impl;

 private:
  explicit SqliteStore(std::unique_ptr<Impl> impl);
  // load_unfinished() before a Corrupt error that escaped it gets its sentence.
  Result<LoadReport> load_or_fail();
  std::unique_ptr<Impl> impl_;
};

}  // namespace eryantis::store
