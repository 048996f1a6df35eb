// Restoring: a match's state read back from the log, at server start (every
// unfinished match, quarantining the ones whose log cannot be trusted) and on demand.
#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "eryantis/store/quick_check.hpp"
#include "eryantis/util/expected.hpp"
#include "fold_source.hpp"
#include "sqlite_rows.hpp"
#include "sqlite_impl.hpp"

namespace eryantis::store {

namespace {

using detail::LoadCandidate;

// The unfinished matches with their deadlines: one query for all (SqliteStore::deadline
// reads the same columns of one row).
Result<std::vector<LoadCandidate>> unfinished_matches(sqlite::Database& db) {
  auto select = db.cached(
      "SELECT id, status, last_seq, deadline_kind, deadline_seat, deadline_at, game, "
      "game_version, is_private, takeover, clock, on_timeout FROM matches "
      "WHERE status IN ('lobby', 'running') "
      "ORDER BY id");
  if (!select) return util::forward_error(select);
  auto& rows = **select;
  std::vector<LoadCandidate> matches;
  for (;;) {
    auto row = rows.step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    auto status = parse_status(rows.column_text(1)).value_or(MatchStatus::Running);
    LoadCandidate match{rows.column_int(0), status, rows.column_int(2), std::nullopt,
                           std::string(rows.column_text(6)),
                           static_cast<int>(rows.column_int(7))};
    match.private_match = rows.column_int(8) != 0;
    if (!rows.column_is_null(9)) match.takeover = std::string(rows.column_text(9));
    if (!rows.column_is_null(10)) match.clock = std::string(rows.column_text(10));
    if (!rows.column_is_null(11)) match.on_timeout = std::string(rows.column_text(11));
    if (!rows.column_is_null(3)) {
      match.deadline = DeadlineRecord{std::string(rows.column_text(3)),
                                      static_cast<int>(rows.column_int(4)), rows.column_int(5)};
    }
    matches.push_back(std::move(match));
  }
  return matches;
}

// The seats of every restored match in one query (SqliteStore::seats reads one match's),
// merged by match id: both lists are in id order.
Result<void> read_seats(sqlite::Database& db, std::vector<LoadedMatch>& restored) {
  auto select = db.cached(
      "SELECT s.match_id, s.seat, s.nickname, s.resume_token_hash, s.tower_color, s.wizard, "
      "s.computer, s.account_id, s.left_by FROM seats s JOIN matches m ON m.id = s.match_id "
      "WHERE m.status IN ('lobby', 'running') ORDER BY s.match_id, s.seat");
  if (!select) return util::forward_error(select);
  auto& rows = **select;
  auto match = restored.begin();
  for (;;) {
    auto row = rows.step();
    if (!row) return util::forward_error(row);
    if (!*row) return {};
    const MatchId id = rows.column_int(0);
    while (match != restored.end() && match->id < id) ++match;
    if (match == restored.end()) return {};
    if (match->id != id) continue;  // a quarantined match's seat
    SeatRecord seat = detail::seat_from_row(rows, 1);
    seat.match_id = id;
    match->seats.push_back(std::move(seat));
  }
}

// The invite rows of every restored match (schema 10), merged by match id as read_seats.
Result<void> read_invites(sqlite::Database& db, std::vector<LoadedMatch>& restored) {
  auto select = db.cached(
      "SELECT i.match_id, i.digest, i.created_ms, i.expires_ms, i.max_uses, i.uses, i.revoked "
      "FROM invites i JOIN matches m ON m.id = i.match_id "
      "WHERE m.status IN ('lobby', 'running') ORDER BY i.match_id, i.created_ms, i.digest");
  if (!select) return util::forward_error(select);
  auto& rows = **select;
  auto match = restored.begin();
  for (;;) {
    auto row = rows.step();
    if (!row) return util::forward_error(row);
    if (!*row) return {};
    const MatchId id = rows.column_int(0);
    while (match != restored.end() && match->id < id) ++match;
    if (match == restored.end()) return {};
    if (match->id != id) continue;
    match->invites.push_back(MatchInvite{std::string(rows.column_text(1)), id,
                                         rows.column_int(2), rows.column_int(3),
                                         static_cast<int>(rows.column_int(4)),
                                         static_cast<int>(rows.column_int(5)),
                                         rows.column_int(6) != 0});
  }
}

// Marks matches quarantined; their events stay exactly as they are.
Result<void> quarantine(sqlite::Database& db, const std::vector<QuarantinedMatch>& matches) {
  auto tx = sqlite::Transaction::begin(db, sqlite::Transaction::Kind::Immediate);
  if (!tx) return util::forward_error(tx);
  auto update = db.cached(
      "UPDATE matches SET status = 'quarantined', quarantine_reason = ?2, updated = ?3 "
      "WHERE id = ?1 AND status IN ('lobby', 'running')");
  if (!update) return util::forward_error(update);
  for (const QuarantinedMatch& match : matches) {
    (*update)->bind(1, match.id).bind(2, match.reason).bind(3, detail::now_ms());
    auto done = (*update)->run();
    (*update)->reset();
    if (!done) return done;
  }
  return tx->commit();
}

}  // namespace

namespace detail {

Result<LoadReport> load_candidates(FoldSource& source,
                                         const std::vector<LoadCandidate>& candidates,
                                         const Options& options) {
  LoadReport report;
  report.restored.reserve(candidates.size());
  const FoldPolicy policy{.hashes = options.load_hashes};
  for (const LoadCandidate& match : candidates) {
    // Another game's log, or a version of its rules this build does not read: this
    // fold cannot judge it, so it neither folds nor quarantines it.
    const game::Game* played = options.served(match.game, match.game_version);
    if (!played) {
      report.unserved.push_back(
          UnservedMatch{match.id, match.status, match.game, match.game_version});
      continue;
    }
    auto folded = fold(source, *played, match.id, match.last_seq, policy);
    // A row this fold needs is on a damaged page of the file: this match cannot be
    // trusted, the others can (their rows are elsewhere). The page and its rows stay
    // as they are, for a repair (a backup of the file has them).
    if (!folded && folded.error().code == StoreCode::Corrupt) {
      report.quarantined.push_back(QuarantinedMatch{
          match.id, fmt::format("its events are on a damaged page of the database file ({}); "
                                "restore a backup, or repair the file (docs/operations.md, "
                                "\"Repairing a damaged file\")",
                                folded.error().message)});
      continue;
    }
    if (!folded) return util::forward_error(folded);
    if (folded->ok()) {
      LoadedMatch restored;
      restored.id = match.id;
      restored.status = match.status;
      restored.game = match.game;
      restored.game_version = match.game_version;
      restored.last_seq = match.last_seq;
      restored.snapshot_seq = folded->snapshot_seq;
      restored.played = played;
      restored.state = std::move(folded->state);
      restored.deadline = match.deadline;
      restored.private_match = match.private_match;
      restored.takeover = match.takeover;
      restored.clock = match.clock;
      restored.on_timeout = match.on_timeout;
      report.restored.push_back(std::move(restored));
    } else {
      report.quarantined.push_back(
          QuarantinedMatch{match.id, std::move(folded->divergence->reason)});
    }
  }
  return report;
}

}  // namespace detail

Result<LoadReport> SqliteStore::load_unfinished() {
  auto report = load_or_fail();
  // Damage no match can be blamed for (a page of matches or seats): the file as a
  // whole needs repairing before it can be served.
  if (!report && report.error().code == StoreCode::Corrupt)
    return fail(StoreCode::Corrupt, damaged_file_message(report.error().message));
  return report;
}

Result<LoadReport> SqliteStore::load_or_fail() {
  LoadReport report;
  {
    // One read transaction: a consistent picture even while another process writes.
    auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Deferred);
    if (!tx) return util::forward_error(tx);
    auto candidates = unfinished_matches(impl_->db);
    if (!candidates) return util::forward_error(candidates);
    detail::SqliteRows rows(impl_->db);
    auto folded = detail::load_candidates(rows, *candidates, impl_->options);
    if (!folded) return util::forward_error(folded);
    report = std::move(*folded);
    if (auto done = read_seats(impl_->db, report.restored); !done) return util::forward_error(done);
    if (auto done = read_invites(impl_->db, report.restored); !done)
      return util::forward_error(done);
    for (LoadedMatch& match : report.restored) {
      auto recent = recent_command_ids(match.id, kLoadedCommandIds);
      // Older rows of a match on a damaged page: its state is sound (the fold read
      // everything it needed), only the command ids kept to answer a client's retry
      // with its original ack are lost. A retry is still applied once: append()
      // finds its command id in the events_by_command_id index.
      if (!recent && recent.error().code == StoreCode::Corrupt) {
        spdlog::warn(
            "store: match {}: its recent command ids are on a damaged page of the "
            "database file ({}); restored without them",
            match.id, recent.error().message);
        continue;
      }
      if (!recent) return util::forward_error(recent);
      match.recent_commands = std::move(*recent);
    }
    // A read transaction: ending it loses nothing, and once a read met a damaged
    // page SQLite reports that page again at COMMIT. The destructor rolls back.
  }
  for (const QuarantinedMatch& match : report.quarantined) {
    spdlog::warn("store: match {} quarantined: {}", match.id, match.reason);
  }
  if (!report.quarantined.empty() && !impl_->options.read_only) {
    if (auto done = quarantine(impl_->db, report.quarantined); !done) {
      return util::forward_error(done);
    }
  }
  return report;
}

Result<std::vector<std::pair<std::string, Seq>>> SqliteStore::recent_command_ids(MatchId id,
                                                                           std::size_t count) {
  auto select = impl_->db.cached(
      "SELECT command_id, seq FROM events WHERE match_id = ?1 AND command_id IS NOT NULL "
      "ORDER BY seq DESC LIMIT ?2");
  if (!select) return util::forward_error(select);
  (*select)->bind(1, id).bind(2, static_cast<std::int64_t>(count));
  std::vector<std::pair<std::string, Seq>> recent;
  for (;;) {
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    recent.emplace_back(std::string((*select)->column_text(0)), (*select)->column_int(1));
  }
  std::reverse(recent.begin(), recent.end());
  return recent;
}

}  // namespace eryantis::store
