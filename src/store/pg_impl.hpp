#pragma once
// Internals shared by the PostgreSQL store's source files.
#include "eryantis/store/pg_store.hpp"
#include "fold_source.hpp"

namespace eryantis::store {

// How a batch of appends reaches PostgreSQL (docs/cluster.md, "Appends in one
// round trip"): one statement for the batch; the same statement per request in
// one pipeline; or request by request, several statements each.
enum class AppendPath : std::uint8_t { OneStatement, Pipeline, RequestByRequest };

struct PgStore::Impl {
  pg::Connection conn;
  Options options;
  int schema_version = 0;
  AppendPath append_path = AppendPath::OneStatement;
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

// Options::serves as two parameters, text[] and int[], for
// `(game, game_version) IN (SELECT * FROM unnest($n::text[], $m::int[]))`.
std::pair<std::string, std::string> pg_served_arrays(const Options& options);

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

// A whole batch in one statement, one round trip (pg_append_batch.cpp), the
// requests taken in `order`; results in the requests' order. nullopt: the batch
// cannot go in one statement, or a request of it broke a constraint (nothing was
// written): run it request by request.
std::optional<std::vector<Result<AppendOutcome>>> pg_append_in_one_statement(
    PgStore::Impl& impl, std::span<const AppendRequest> requests,
    std::span<const std::size_t> order);
// The same statement once per request, all in one pipeline (BEGIN ... COMMIT).
std::optional<std::vector<Result<AppendOutcome>>> pg_append_pipelined(
    PgStore::Impl& impl, std::span<const AppendRequest> requests,
    std::span<const std::size_t> order);

// The columns an event is stored with besides its match, seq and time (every
// append path writes the same bytes).
struct EventColumns {
  std::string actor;
  std::string type;
  std::int64_t schema_version = 0;
  std::string payload;
  std::string state_hash;
};
EventColumns event_columns(const game::Game& played, const NewEvent& event);
// The game of a request's match when the request says it (AppendRequest::game,
// or the game of the match it creates), else nullptr.
const game::Game* request_game(const Options& options, const AppendRequest& r);
std::int64_t now_ms();

}  // namespace detail
}  // namespace eryantis::store
