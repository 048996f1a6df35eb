#pragma once
// Internals shared by the PostgreSQL store's source files.
#include "eryantis/store/pg_store.hpp"
#include "fold_source.hpp"

namespace eryantis::store {

struct PgStore::Impl {
  pg::Connection conn;
  Options options;
  int schema_version = 0;
};

namespace detail {

// The fold's rows read from PostgreSQL (each call one query).
class PgRows final : public FoldSource {
 public:
  explicit PgRows(pg::Connection& conn) : conn_(conn) {}
  Result<void> events_from(MatchId id, Seq from_seq, const EventVisitor& visit) override;
  Result<bool> newest_snapshot(MatchId id, Seq at_most, const SnapshotVisitor& visit) override;

 private:
  pg::Connection& conn_;
};

// '{1,2,3}': match ids as one bigint[] parameter (text form), for `= ANY($n)`
// and `unnest($n::bigint[])`.
std::string pg_id_array(std::span<const MatchId> ids);

// '{"ada","bob"}': texts as one text[] parameter, each quoted and escaped.
std::string pg_text_array(std::span<const std::string> texts);

// The seats row whose columns start at `first`: seat, nickname,
// resume_token_hash, tower_color, wizard, computer.
SeatRecord pg_seat_row(const pg::Rows& rows, int row, int first, MatchId id);

// Refuses a database that is not ours or too new; applies the missing migrations
// in one transaction under an advisory lock (several nodes may start at once).
// Returns the schema version after it.
Result<int> pg_migrate(pg::Connection& conn, bool read_only);

// One AppendRequest inside an open transaction (no commit).
Result<AppendOutcome> pg_apply_request(PgStore::Impl& impl, const AppendRequest& request);

}  // namespace detail
}  // namespace eryantis::store
