// The PostgreSQL store: opening, the match and seat rows, and every read. The
// appends are in pg_append.cpp, the leases in pg_lease.cpp.
#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>

#include "eryantis/util/expected.hpp"
#include "pg_impl.hpp"

#ifndef ERYANTIS_VERSION
#define ERYANTIS_VERSION "unknown"
#endif

namespace eryantis::store {

PgStore::PgStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PgStore::PgStore(PgStore&&) noexcept = default;
PgStore& PgStore::operator=(PgStore&&) noexcept = default;
PgStore::~PgStore() = default;

Result<PgStore> PgStore::open(const std::string& conninfo, const Options& options) {
  auto conn = pg::Connection::open(conninfo);
  if (!conn) return util::forward_error(conn);
  // Durability::Normal waits for no WAL flush: a crash of this process loses
  // nothing, a crash of the database server may lose the last commits.
  std::string settings = fmt::format(
      "SET client_min_messages = warning; SET synchronous_commit = {}; SET lock_timeout = {}; "
      "SET default_transaction_read_only = {}",
      options.durability == Durability::Full ? "on" : "off", options.busy_timeout_ms,
      options.read_only ? "on" : "off");
  // Again after every reconnect (a new session starts from the server's defaults).
  if (auto done = conn->set_session(std::move(settings)); !done) return util::forward_error(done);
  auto version = detail::pg_migrate(*conn, options.read_only);
  if (!version) return util::forward_error(version);
  auto impl = std::make_unique<Impl>(Impl{std::move(*conn), options, *version});
  // For bench/cluster.sh's comparison of the append paths (docs/cluster.md).
  if (const char* path = std::getenv("ERYANTIS_PG_APPEND")) {
    const std::string_view name(path);
    if (name == "pipeline") impl->append_path = AppendPath::Pipeline;
    if (name == "requests") impl->append_path = AppendPath::RequestByRequest;
  }
  return PgStore(std::move(impl));
}

std::shared_ptr<const std::atomic<bool>> PgStore::reachable() const {
  return impl_->conn.reachable();
}

const Options& PgStore::options() const {
  return impl_->options;
}
int PgStore::schema_version() const {
  return impl_->schema_version;
}
pg::Connection& PgStore::connection() {
  return impl_->conn;
}

Result<MatchId> PgStore::create_match(const NewMatch& match) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto options = detail::new_match_options_json(impl_->options, match);
  if (!options) return util::forward_error(options);
  // The next id after the largest (SQLite's INTEGER PRIMARY KEY does the same);
  // two concurrent creators collide on the primary key (Conflict), never share.
  auto rows = impl_->conn.query(
      "INSERT INTO matches (id, created, options, rules_version, status, last_seq, updated, "
      "game, game_version, is_private, takeover, clock, on_timeout) "
      "SELECT coalesce(max(id), 0) + 1, $1, $2, $3, $4, 0, $1, $5, $6, $7::int <> 0, $8, $9, "
      "$10 "
      "FROM matches "
      "RETURNING id",
      pg::Params()
          .add(detail::now_ms())
          .add(*options)
          .add(std::string_view(ERYANTIS_VERSION))
          .add(status_name(match.status))
          .add(match.game)
          .add(std::int64_t{match.game_version})
          .add(std::int64_t{match.private_match ? 1 : 0})
          .add_optional(match.takeover)
          .add_optional(match.clock)
          .add_optional(match.on_timeout));
  if (!rows) return util::forward_error(rows);
  return rows->integer(0, 0);
}

Result<void> PgStore::set_status(MatchId id, MatchStatus status,
                                 const std::optional<std::string>& result_json) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "UPDATE matches SET status = $2, result = coalesce($3, result), updated = $4 WHERE id = $1",
      pg::Params()
          .add(id)
          .add(status_name(status))
          .add_optional(result_json)
          .add(detail::now_ms()));
  if (!rows) return util::forward_error(rows);
  if (rows->affected() == 0) return fail(StoreCode::NotFound, fmt::format("no match {}", id));
  return {};
}

namespace detail {
Result<void> pg_upsert_seat(pg::Connection& conn, const SeatRecord& seat) {
  pg::Params params;
  params.add(seat.match_id)
      .add(std::int64_t{seat.seat})
      .add(seat.nickname)
      .add(seat.resume_token_hash);
  if (seat.tower_color) {
    params.add(*seat.tower_color);
  } else {
    params.add_null();
  }
  if (seat.wizard) {
    params.add(std::int64_t{*seat.wizard});
  } else {
    params.add_null();
  }
  if (seat.computer) {
    params.add(std::string_view(*seat.computer));
  } else {
    params.add_null();
  }
  if (seat.account_id) {
    params.add(*seat.account_id);
  } else {
    params.add_null();
  }
  params.add_optional(seat.left_by);
  auto rows = conn.query(
      "INSERT INTO seats (match_id, seat, nickname, resume_token_hash, tower_color, wizard, "
      "computer, account_id, left_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
      "ON CONFLICT (match_id, seat) DO UPDATE SET nickname = excluded.nickname, "
      "resume_token_hash = excluded.resume_token_hash, tower_color = excluded.tower_color, "
      "wizard = excluded.wizard, computer = excluded.computer, "
      "account_id = excluded.account_id, left_by = excluded.left_by",
      params);
  if (!rows) return util::forward_error(rows);
  return {};
}
}  // namespace detail

Result<void> PgStore::upsert_seat(const SeatRecord& seat) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  return detail::pg_upsert_seat(impl_->conn, seat);
}

Result<std::vector<SeatRecord>> PgStore::seats(MatchId id) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "SELECT seat, nickname, resume_token_hash, tower_color, wizard, computer, account_id, "
      "left_by FROM seats WHERE match_id = $1 ORDER BY seat",
      pg::Params().add(id));
  if (!rows) return util::forward_error(rows);
  std::vector<SeatRecord> seats;
  for (int r = 0; r < rows->size(); ++r) seats.push_back(detail::pg_seat_row(*rows, r, 0, id));
  return seats;
}

Result<std::vector<MatchSummary>> PgStore::list_matches() {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "SELECT id, status, players, mode, events, created, last_activity, result, "
      "quarantine_reason, game, game_version FROM match_summary ORDER BY id");
  if (!rows) return util::forward_error(rows);
  std::vector<MatchSummary> matches;
  for (int r = 0; r < rows->size(); ++r) {
    MatchSummary summary;
    summary.id = rows->integer(r, 0);
    summary.status = parse_status(rows->text(r, 1)).value_or(MatchStatus::Quarantined);
    summary.players = static_cast<int>(rows->integer(r, 2));
    summary.mode = rows->text(r, 3);
    summary.events = rows->integer(r, 4);
    summary.created = rows->text(r, 5);
    summary.last_activity = rows->text(r, 6);
    summary.result = rows->optional_text(r, 7);
    summary.quarantine_reason = rows->optional_text(r, 8);
    summary.game = rows->text(r, 9);
    summary.game_version = static_cast<int>(rows->integer(r, 10));
    matches.push_back(std::move(summary));
  }
  return matches;
}

Result<Seq> PgStore::last_seq(MatchId id) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query("SELECT last_seq FROM matches WHERE id = $1", pg::Params().add(id));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return fail(StoreCode::NotFound, fmt::format("no match {}", id));
  return rows->integer(0, 0);
}

Result<MatchId> PgStore::max_match_id() {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query("SELECT coalesce(max(id), 0) FROM matches");
  if (!rows) return util::forward_error(rows);
  return rows->integer(0, 0);
}

Result<std::vector<FinishedMatch>> PgStore::finished_matches(FinishCursor after) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  // As SqliteStore::finished_matches: one row per seat, in (finished, id, seat) order.
  auto rows = impl_->conn.query(
      "SELECT f.id, f.game, f.game_version, f.players, f.started, f.finished, f.events, "
      "f.result, s.seat, s.nickname, s.computer, f.is_private, s.account_id, s.left_by FROM ("
      "  SELECT m.id, m.game, m.game_version, "
      "    coalesce((m.options::jsonb ->> 'players')::bigint, 0) AS players, "
      "    coalesce((SELECT time FROM events WHERE match_id = m.id AND seq = 1), m.created) "
      "      AS started, "
      "    coalesce((SELECT time FROM events WHERE match_id = m.id AND seq = m.last_seq), "
      "      m.updated) AS finished, "
      "    m.last_seq AS events, m.result, m.is_private::int AS is_private "
      "  FROM matches m WHERE m.status = 'finished' AND m.updated >= $1) f "
      "LEFT JOIN seats s ON s.match_id = f.id "
      "WHERE f.finished > $1 OR (f.finished = $1 AND f.id > $2) "
      "ORDER BY f.finished, f.id, s.seat",
      pg::Params().add(after.finished_ms).add(after.match));
  if (!rows) return util::forward_error(rows);
  std::vector<FinishedMatch> out;
  for (int r = 0; r < rows->size(); ++r) {
    const MatchId id = rows->integer(r, 0);
    if (out.empty() || out.back().id != id) {
      FinishedMatch m;
      m.id = id;
      m.game = rows->text(r, 1);
      m.game_version = static_cast<int>(rows->integer(r, 2));
      m.players = static_cast<int>(rows->integer(r, 3));
      m.started_ms = rows->integer(r, 4);
      m.finished_ms = rows->integer(r, 5);
      m.events = rows->integer(r, 6);
      m.result = rows->optional_text(r, 7);
      m.is_private = rows->integer(r, 11) != 0;
      out.push_back(std::move(m));
    }
    if (rows->is_null(r, 8)) continue;
    SeatRecord seat;
    seat.match_id = id;
    seat.seat = static_cast<int>(rows->integer(r, 8));
    seat.nickname = rows->text(r, 9);
    seat.computer = rows->optional_text(r, 10);
    if (!rows->is_null(r, 12)) seat.account_id = rows->integer(r, 12);
    seat.left_by = rows->optional_text(r, 13);
    out.back().seats.push_back(std::move(seat));
  }
  return out;
}

Result<StatusCounts> PgStore::count_by_status() {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query("SELECT status, count(*) FROM matches GROUP BY status");
  if (!rows) return util::forward_error(rows);
  StatusCounts counts{};
  for (int r = 0; r < rows->size(); ++r) {
    const auto status = parse_status(rows->text(r, 0)).value_or(MatchStatus::Quarantined);
    counts[static_cast<std::size_t>(status)] += static_cast<std::uint64_t>(rows->integer(r, 1));
  }
  return counts;
}

Result<std::optional<DeadlineRecord>> PgStore::deadline(MatchId id) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "SELECT deadline_kind, deadline_seat, deadline_at FROM matches WHERE id = $1",
      pg::Params().add(id));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return fail(StoreCode::NotFound, fmt::format("no match {}", id));
  if (rows->is_null(0, 0)) return std::optional<DeadlineRecord>{};
  return DeadlineRecord{std::string(rows->text(0, 0)), static_cast<int>(rows->integer(0, 1)),
                        rows->integer(0, 2)};
}

Result<std::vector<ClockStepRecord>> PgStore::clock_steps(MatchId id) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "SELECT after_seq, at_ms, kind, seats FROM clock_steps WHERE match_id = $1 "
      "ORDER BY after_seq, id",
      pg::Params().add(id));
  if (!rows) return util::forward_error(rows);
  std::vector<ClockStepRecord> out;
  for (int r = 0; r < rows->size(); ++r)
    out.push_back(ClockStepRecord{rows->integer(r, 0), rows->integer(r, 1),
                                  std::string(rows->text(r, 2)),
                                  static_cast<int>(rows->integer(r, 3))});
  return out;
}

Result<MatchPrivacy> PgStore::privacy(MatchId id) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto flag = impl_->conn.query(
      "SELECT is_private::int, takeover, clock, on_timeout FROM matches WHERE id = $1",
      pg::Params().add(id));
  if (!flag) return util::forward_error(flag);
  if (flag->empty()) return fail(StoreCode::NotFound, fmt::format("no match {}", id));
  MatchPrivacy out;
  out.private_match = flag->integer(0, 0) != 0;
  if (!flag->is_null(0, 1)) out.takeover = std::string(flag->text(0, 1));
  if (!flag->is_null(0, 2)) out.clock = std::string(flag->text(0, 2));
  if (!flag->is_null(0, 3)) out.on_timeout = std::string(flag->text(0, 3));
  auto rows = impl_->conn.query(
      "SELECT digest, created_ms, expires_ms, max_uses, uses, revoked::int FROM invites "
      "WHERE match_id = $1 ORDER BY created_ms, digest",
      pg::Params().add(id));
  if (!rows) return util::forward_error(rows);
  for (int r = 0; r < rows->size(); ++r)
    out.invites.push_back(MatchInvite{std::string(rows->text(r, 0)), id, rows->integer(r, 1),
                                      rows->integer(r, 2), static_cast<int>(rows->integer(r, 3)),
                                      static_cast<int>(rows->integer(r, 4)),
                                      rows->integer(r, 5) != 0});
  return out;
}

Result<std::vector<UnseenEnding>> PgStore::unseen_endings(std::size_t limit) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "SELECT nickname, match_id, line FROM (SELECT * FROM unseen_endings "
      "ORDER BY time DESC, nickname LIMIT $1) newest ORDER BY time, nickname",
      pg::Params().add(static_cast<std::int64_t>(limit)));
  if (!rows) return util::forward_error(rows);
  std::vector<UnseenEnding> out;
  out.reserve(static_cast<std::size_t>(rows->size()));
  for (int r = 0; r < rows->size(); ++r) {
    out.push_back(UnseenEnding{std::string(rows->text(r, 0)), rows->integer(r, 1),
                               std::string(rows->text(r, 2))});
  }
  return out;
}

Result<std::optional<UnseenEnding>> PgStore::unseen_ending_of(std::string_view nickname) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query("SELECT match_id, line FROM unseen_endings WHERE nickname = $1",
                                pg::Params().add(nickname));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return std::optional<UnseenEnding>{};
  return UnseenEnding{std::string(nickname), rows->integer(0, 0), std::string(rows->text(0, 1))};
}

Result<std::vector<StoredEvent>> PgStore::load_events(MatchId id, Seq from_seq, Seq to_seq) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "SELECT seq, time, actor, command_id, type, schema_version, payload, state_hash "
      "FROM events WHERE match_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq",
      pg::Params().add(id).add(from_seq).add(to_seq));
  if (!rows) return util::forward_error(rows);
  std::vector<StoredEvent> events;
  events.reserve(static_cast<std::size_t>(rows->size()));
  for (int r = 0; r < rows->size(); ++r) {
    events.push_back(StoredEvent{rows->integer(r, 0), rows->integer(r, 1),
                                 std::string(rows->text(r, 2)), rows->optional_text(r, 3),
                                 std::string(rows->text(r, 4)),
                                 static_cast<int>(rows->integer(r, 5)),
                                 std::string(rows->text(r, 6)), std::string(rows->text(r, 7))});
  }
  return events;
}

namespace {

// The match's last seq, if this store's fold serves its game and game version
// (Options::serves); Unserved names them otherwise.
Result<detail::Foldable> foldable_last_seq(pg::Connection& conn, const Options& options,
                                          MatchId id) {
  if (auto done = conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = conn.query("SELECT last_seq, game, game_version FROM matches WHERE id = $1",
                         pg::Params().add(id));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return fail(StoreCode::NotFound, fmt::format("no match {}", id));
  const std::string game(rows->text(0, 1));
  const int version = static_cast<int>(rows->integer(0, 2));
  auto played = detail::served_game(options, id, game, version);
  if (!played) return util::forward_error(played);
  return detail::Foldable{rows->integer(0, 0), *played};
}

}  // namespace

Result<Folded> PgStore::fold(MatchId id, const FoldPolicy& policy) {
  // One snapshot of the database for the whole fold, even while nodes write.
  auto tx = pg::Transaction::begin(impl_->conn, true);
  if (!tx) return util::forward_error(tx);
  auto last = foldable_last_seq(impl_->conn, impl_->options, id);
  if (!last) return util::forward_error(last);
  detail::PgRows rows(impl_->conn);
  auto folded = detail::fold(rows, *last->played, id, last->last_seq, policy);
  if (!folded) return folded;
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  return folded;
}

Result<VerifyReport> PgStore::verify(MatchId id) {
  auto tx = pg::Transaction::begin(impl_->conn, true);
  if (!tx) return util::forward_error(tx);
  auto last = foldable_last_seq(impl_->conn, impl_->options, id);
  if (!last) return util::forward_error(last);
  detail::PgRows rows(impl_->conn);
  return detail::verify(rows, *last->played, id, last->last_seq);
}

Result<LoadReport> PgStore::load_unfinished() {
  LoadReport report;
  {
    auto tx = pg::Transaction::begin(impl_->conn, true);
    if (!tx) return util::forward_error(tx);
    auto listed = impl_->conn.query(
        "SELECT id, status, last_seq, game, game_version FROM matches "
        "WHERE status IN ('lobby', 'running') ORDER BY id");
    if (!listed) return util::forward_error(listed);
    std::vector<detail::LoadCandidate> candidates;
    for (int r = 0; r < listed->size(); ++r) {
      candidates.push_back(detail::LoadCandidate{
          listed->integer(r, 0), parse_status(listed->text(r, 1)).value_or(MatchStatus::Running),
          listed->integer(r, 2), std::nullopt, std::string(listed->text(r, 3)),
          static_cast<int>(listed->integer(r, 4))});
    }
    detail::PgRows rows(impl_->conn);
    auto folded = detail::load_candidates(rows, candidates, impl_->options);
    if (!folded) return util::forward_error(folded);
    report = std::move(*folded);
    // The rows a server takes a match over with, in the same read transaction.
    for (LoadedMatch& match : report.restored) {
      auto seats_of = seats(match.id);
      if (!seats_of) return util::forward_error(seats_of);
      match.seats = std::move(*seats_of);
      auto deadline_of = deadline(match.id);
      if (!deadline_of) return util::forward_error(deadline_of);
      match.deadline = std::move(*deadline_of);
      auto privacy_of = privacy(match.id);
      if (!privacy_of) return util::forward_error(privacy_of);
      match.private_match = privacy_of->private_match;
      match.takeover = std::move(privacy_of->takeover);
      match.clock = std::move(privacy_of->clock);
      match.on_timeout = std::move(privacy_of->on_timeout);
      match.invites = std::move(privacy_of->invites);
      auto recent = recent_command_ids(match.id, kLoadedCommandIds);
      if (!recent) return util::forward_error(recent);
      match.recent_commands = std::move(*recent);
    }
    if (auto done = tx->commit(); !done) return util::forward_error(done);
  }
  for (const QuarantinedMatch& match : report.quarantined) {
    spdlog::warn("store: match {} quarantined: {}", match.id, match.reason);
  }
  if (report.quarantined.empty() || impl_->options.read_only) return report;
  // Marks them quarantined; their events stay exactly as they are.
  auto tx = pg::Transaction::begin(impl_->conn);
  if (!tx) return util::forward_error(tx);
  for (const QuarantinedMatch& match : report.quarantined) {
    auto done = impl_->conn.query(
        "UPDATE matches SET status = 'quarantined', quarantine_reason = $2, updated = $3 "
        "WHERE id = $1 AND status IN ('lobby', 'running')",
        pg::Params().add(match.id).add(match.reason).add(detail::now_ms()));
    if (!done) return util::forward_error(done);
  }
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  return report;
}

Result<std::vector<std::pair<std::string, Seq>>> PgStore::recent_command_ids(MatchId id,
                                                                             std::size_t count) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "SELECT command_id, seq FROM events WHERE match_id = $1 AND command_id IS NOT NULL "
      "ORDER BY seq DESC LIMIT $2",
      pg::Params().add(id).add(static_cast<std::int64_t>(count)));
  if (!rows) return util::forward_error(rows);
  std::vector<std::pair<std::string, Seq>> recent;
  for (int r = 0; r < rows->size(); ++r) {
    recent.emplace_back(std::string(rows->text(r, 0)), rows->integer(r, 1));
  }
  std::reverse(recent.begin(), recent.end());
  return recent;
}

}  // namespace eryantis::store
