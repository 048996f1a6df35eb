// Reading many matches back at once (docs/cluster.md section 4): a node that
// adopts hundreds of matches after another node died reads them in a handful of
// statements per batch instead of five round trips each, and folds each in
// memory with the one fold (fold_source.hpp).
#include <spdlog/fmt/fmt.h>

#include <unordered_map>

#include "eryantis/util/expected.hpp"
#include "pg_impl.hpp"

namespace eryantis::store {

namespace {

// One match's rows in the batch's results: indexes into the Rows kept alive
// while the batch is folded (no copy of a payload).
struct MatchRows {
  int match_row = -1;   // in the matches + newest snapshot rows
  Seq events_from = 1;  // the first seq read into `events`: the snapshot's, else 1
  int events_begin = 0;
  int events_end = 0;
  std::vector<SeatRecord> seats;
  std::vector<std::pair<std::string, Seq>> recent;
  std::vector<MatchInvite> invites;  // schema 10
};

// The columns of the first statement.
enum MatchColumn : int {
  kId,
  kStatus,
  kLastSeq,
  kDeadlineKind,
  kDeadlineSeat,
  kDeadlineAt,
  kSnapshotSeq,
  kSnapshotVersion,
  kSnapshotState,
  kGame,
  kGameVersion,
  kPrivate,
  kTakeover,
  kClock,
  kOnTimeout,
};

// The fold's rows of one match: from the batch's results where they cover the
// request (the newest snapshot, the events from it on), else from the database
// inside the same read transaction (an older snapshot when the newest is
// rejected, and the events before it), exactly as fold() reads them.
class BatchRows final : public detail::FoldSource {
 public:
  BatchRows(pg::Connection& conn, const pg::Rows& matches, const pg::Rows& events,
            const MatchRows& match)
      : database_(conn), matches_(matches), events_(events), match_(match) {}

  Result<void> events_from(MatchId id, Seq from_seq, const detail::EventVisitor& visit) override {
    if (from_seq < match_.events_from) return database_.events_from(id, from_seq, visit);
    for (int r = match_.events_begin; r < match_.events_end; ++r) {
      const detail::EventRow event{events_.integer(r, 1), static_cast<int>(events_.integer(r, 2)),
                                   events_.text(r, 3),    events_.text(r, 4),
                                   events_.text(r, 5),    events_.text(r, 6)};
      if (event.seq < from_seq) continue;
      if (!visit(event)) break;
    }
    return {};
  }

  Result<bool> newest_snapshot(MatchId id, Seq at_most,
                               const detail::SnapshotVisitor& visit) override {
    const int row = match_.match_row;
    const Seq last_seq = matches_.integer(row, kLastSeq);
    if (at_most > last_seq) return database_.newest_snapshot(id, at_most, visit);
    // The batch read the newest snapshot at or below last_seq, or learnt there is none.
    if (matches_.is_null(row, kSnapshotSeq)) return false;
    const Seq seq = matches_.integer(row, kSnapshotSeq);
    if (at_most < seq) return database_.newest_snapshot(id, at_most, visit);
    const std::string state = matches_.bytes(row, kSnapshotState);
    visit(
        detail::SnapshotRow{seq, static_cast<int>(matches_.integer(row, kSnapshotVersion)), state});
    return true;
  }

 private:
  detail::PgRows database_;
  const pg::Rows& matches_;
  const pg::Rows& events_;
  const MatchRows& match_;
};

}  // namespace

Result<void> PgStore::load_matches(std::span<const MatchId> ids, const FoldPolicy& policy,
                                   std::size_t recent, const LoadedVisitor& visit) {
  if (ids.empty()) return {};
  pg::Connection& conn = impl_->conn;
  // One snapshot of the database for the whole batch, as fold() has for one match.
  auto tx = pg::Transaction::begin(conn, true);
  if (!tx) return util::forward_error(tx);
  const std::string id_array = detail::pg_id_array(ids);

  // 1. The matches rows, each with its newest snapshot at or below its last seq.
  auto matches = conn.query(
      "SELECT m.id, m.status, m.last_seq, m.deadline_kind, m.deadline_seat, m.deadline_at, "
      "s.seq, s.version, s.state, m.game, m.game_version, m.is_private::int, m.takeover, "
      "m.clock, m.on_timeout "
      "FROM matches m "
      "LEFT JOIN LATERAL (SELECT seq, version, state "
      "FROM snapshots WHERE match_id = m.id AND seq <= m.last_seq ORDER BY seq DESC LIMIT 1) s "
      "ON true WHERE m.id = ANY($1::bigint[])",
      pg::Params().add(id_array));
  if (!matches) return util::forward_error(matches);
  std::unordered_map<MatchId, MatchRows> found;
  std::string found_ids = "{";
  std::string from_seqs = "{";
  for (int row = 0; row < matches->size(); ++row) {
    MatchRows rows;
    rows.match_row = row;
    if (!matches->is_null(row, kSnapshotSeq))
      rows.events_from = matches->integer(row, kSnapshotSeq);
    const MatchId id = matches->integer(row, kId);
    if (found_ids.size() > 1) {
      found_ids += ',';
      from_seqs += ',';
    }
    found_ids += std::to_string(id);
    from_seqs += std::to_string(rows.events_from);
    found.emplace(id, std::move(rows));
  }
  found_ids += '}';
  from_seqs += '}';

  // 2. The events each fold starts with: from the snapshot's seq (its anchor) on.
  auto events = conn.query(
      "SELECT e.match_id, e.seq, e.schema_version, e.payload, e.state_hash, e.type, e.actor "
      "FROM unnest($1::bigint[], $2::bigint[]) AS batch(match_id, from_seq) "
      "JOIN events e ON e.match_id = batch.match_id AND e.seq >= batch.from_seq "
      "ORDER BY e.match_id, e.seq",
      pg::Params().add(found_ids).add(from_seqs));
  if (!events) return util::forward_error(events);
  for (int row = 0; row < events->size();) {
    const MatchId id = events->integer(row, 0);
    int end = row + 1;
    while (end < events->size() && events->integer(end, 0) == id) ++end;
    if (auto it = found.find(id); it != found.end()) {
      it->second.events_begin = row;
      it->second.events_end = end;
    }
    row = end;
  }

  // 3. The seats.
  auto seats = conn.query(
      "SELECT match_id, seat, nickname, resume_token_hash, tower_color, wizard, computer, "
      "account_id, left_by FROM seats WHERE match_id = ANY($1::bigint[]) ORDER BY match_id, seat",
      pg::Params().add(found_ids));
  if (!seats) return util::forward_error(seats);
  for (int row = 0; row < seats->size(); ++row) {
    const MatchId id = seats->integer(row, 0);
    if (auto it = found.find(id); it != found.end())
      it->second.seats.push_back(detail::pg_seat_row(*seats, row, 1, id));
  }

  // 3b. The invite rows of the private ones (schema 10).
  auto invites = conn.query(
      "SELECT match_id, digest, created_ms, expires_ms, max_uses, uses, revoked::int "
      "FROM invites WHERE match_id = ANY($1::bigint[]) ORDER BY match_id, created_ms, digest",
      pg::Params().add(found_ids));
  if (!invites) return util::forward_error(invites);
  for (int row = 0; row < invites->size(); ++row) {
    const MatchId id = invites->integer(row, 0);
    if (auto it = found.find(id); it != found.end())
      it->second.invites.push_back(
          MatchInvite{std::string(invites->text(row, 1)), id, invites->integer(row, 2),
                      invites->integer(row, 3), static_cast<int>(invites->integer(row, 4)),
                      static_cast<int>(invites->integer(row, 5)), invites->integer(row, 6) != 0});
  }

  // 4. The newest `recent` command ids of each, oldest first.
  auto commands = conn.query(
      "SELECT batch.id, c.command_id, c.seq FROM unnest($1::bigint[]) AS batch(id) "
      "CROSS JOIN LATERAL (SELECT command_id, seq FROM events WHERE match_id = batch.id AND "
      "command_id IS NOT NULL ORDER BY seq DESC LIMIT $2) c ORDER BY batch.id, c.seq",
      pg::Params().add(found_ids).add(static_cast<std::int64_t>(recent)));
  if (!commands) return util::forward_error(commands);
  for (int row = 0; row < commands->size(); ++row) {
    if (auto it = found.find(commands->integer(row, 0)); it != found.end())
      it->second.recent.emplace_back(std::string(commands->text(row, 1)),
                                     commands->integer(row, 2));
  }

  // Each folded in memory and handed over at once.
  for (const MatchId id : ids) {
    auto it = found.find(id);
    if (it == found.end()) {
      visit(id, fail(StoreCode::NotFound, fmt::format("no match {}", id)));
      continue;
    }
    MatchRows& rows = it->second;
    const int row = rows.match_row;
    auto status = parse_status(matches->text(row, kStatus));
    if (!status) {
      visit(id, fail(StoreCode::Corrupt, fmt::format("match {}: unknown status '{}'", id,
                                                     matches->text(row, kStatus))));
      continue;
    }
    const std::string game(matches->text(row, kGame));
    const int game_version = static_cast<int>(matches->integer(row, kGameVersion));
    // Another game's log: this fold cannot judge it (docs/cluster.md, section 4).
    const game::Game* played = impl_->options.served(game, game_version);
    if (!played) {
      visit(id, fail(StoreCode::Unserved,
                     fmt::format("match {} plays {} version {}, which this build does not "
                                 "serve; a build that has it will",
                                 id, game, game_version)));
      continue;
    }
    BatchRows source(conn, *matches, *events, rows);
    auto folded = detail::fold(source, *played, id, matches->integer(row, kLastSeq), policy);
    if (!folded) {
      visit(id, util::forward_error(folded));
      continue;
    }
    FoldedMatch loaded;
    loaded.id = id;
    loaded.status = *status;
    loaded.game = game;
    loaded.game_version = game_version;
    loaded.folded = std::move(*folded);
    loaded.seats = std::move(rows.seats);
    loaded.recent_commands = std::move(rows.recent);
    loaded.privacy = MatchPrivacy{matches->integer(row, kPrivate) != 0, std::move(rows.invites)};
    if (!matches->is_null(row, kTakeover))
      loaded.privacy.takeover = std::string(matches->text(row, kTakeover));
    if (!matches->is_null(row, kClock))
      loaded.privacy.clock = std::string(matches->text(row, kClock));
    if (!matches->is_null(row, kOnTimeout))
      loaded.privacy.on_timeout = std::string(matches->text(row, kOnTimeout));
    if (!matches->is_null(row, kDeadlineKind))
      loaded.deadline = DeadlineRecord{std::string(matches->text(row, kDeadlineKind)),
                                       static_cast<int>(matches->integer(row, kDeadlineSeat)),
                                       matches->integer(row, kDeadlineAt)};
    visit(id, std::move(loaded));
  }
  // Everything was read and handed over: a read-only transaction whose COMMIT
  // fails loses nothing (the Transaction rolls back, the next call reconnects).
  (void)tx->commit();
  return {};
}

}  // namespace eryantis::store
