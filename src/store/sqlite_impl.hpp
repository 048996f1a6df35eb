#pragma once
// Internals shared by the SqliteStore's source files.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "eryantis/store/fold.hpp"
#include "eryantis/store/sqlite_store.hpp"

namespace eryantis::store {

struct SqliteStore::Impl {
  sqlite::Database db;
  Options options;
  int schema_version = 0;
};

namespace detail {

std::int64_t now_ms();

// The match's last seq, if this store's fold serves its game and game version
// (Options::serves); Unserved names them otherwise: fold() and verify() would
// judge another game's log by the wrong rules.
Result<Foldable> foldable_last_seq(SqliteStore::Impl& impl, MatchId id);

// The events of one append inside an open transaction (no commit).
Result<AppendOutcome> append_in_transaction(SqliteStore::Impl& impl, MatchId id, Seq expected_seq,
                                            std::span<const NewEvent> events,
                                            const game::State* state_after,
                                            std::optional<std::int64_t> time_ms = std::nullopt);

Result<void> upsert_seat_row(SqliteStore::Impl& impl, const SeatRecord& seat);

// A seats row's seat, nickname, resume_token_hash, tower_color, wizard and computer,
// from column `first` on (match_id is the caller's).
SeatRecord seat_from_row(const sqlite::Statement& row, int first);

// One AppendRequest inside an open transaction (no commit): row changes, then events.
Result<AppendOutcome> apply_request_in_transaction(SqliteStore::Impl& impl, const AppendRequest& request);

}  // namespace detail
}  // namespace eryantis::store
