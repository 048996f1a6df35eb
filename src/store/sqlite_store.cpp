#include "eryantis/store/sqlite_store.hpp"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>
#include <chrono>
#include <filesystem>

#include "eryantis/store/migrations.hpp"
#include "eryantis/util/expected.hpp"
#include "sqlite_rows.hpp"
#include "sqlite_impl.hpp"

#ifndef ERYANTIS_VERSION
#define ERYANTIS_VERSION "unknown"
#endif

namespace eryantis::store {

namespace detail {
std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}
}  // namespace detail

namespace {

// Settings of this connection only: nothing here writes to the file.
Result<void> configure_reads(sqlite::Database& db, const Options& options) {
  if (auto done = db.exec(fmt::format("PRAGMA busy_timeout = {}", options.busy_timeout_ms));
      !done) {
    return done;
  }
  // A 16 MiB page cache keeps the hot index pages of the live matches in memory;
  // reads through mmap avoid a read() system call per page. Both matter most to
  // readers now that a match's events are spread over the table in append order.
  return db.exec("PRAGMA cache_size = -16384; PRAGMA mmap_size = 268435456");
}

// The message of every "cannot write" refusal at open.
std::string not_writable(const std::string& path, std::string_view detail) {
  return fmt::format(
      "{} cannot be written by this process ({}): a writer needs write access to "
      "the file and to its folder (SQLite creates {}-wal and {}-shm there); "
      "fix the owner, the permissions or the mount (read-only tools can still open it)",
      path, detail, path, path);
}

// Fails unless a write would succeed: SQLite opens a file it may not write
// read-only without saying so, and then refuses every append. The probe writes
// inside a transaction that is rolled back, so the file does not change.
Result<void> probe_writable(sqlite::Database& db, const std::string& path) {
  if (sqlite3_db_readonly(db.handle(), "main") == 1) {
    return fail(StoreCode::ReadOnly, not_writable(path, "SQLite opened it read-only"));
  }
  auto tx = sqlite::Transaction::begin(db, sqlite::Transaction::Kind::Immediate);
  // Busy is another writer holding the file past busy_timeout, not a permission.
  if (!tx && tx.error().code == StoreCode::Busy) return util::forward_error(tx);
  if (!tx) return fail(StoreCode::ReadOnly, not_writable(path, tx.error().message));
  if (auto done = db.exec("CREATE TABLE eryantis_write_probe (x)"); !done) {
    return fail(StoreCode::ReadOnly, not_writable(path, done.error().message));
  }
  return {};  // ~Transaction rolls back
}

// The writer's settings; switching to WAL changes the file's header (bytes 18-19),
// so this runs only on a file check_compatible accepted.
Result<void> configure_writer(sqlite::Database& db, const Options& options) {
  // WAL: readers never block the writer, and a commit is one sequential append.
  auto mode = db.prepare("PRAGMA journal_mode = WAL");
  if (!mode) return util::forward_error(mode);
  auto row = mode->step();
  if (!row) return util::forward_error(row);
  if (!*row || mode->column_text(0) != "wal") {
    return fail(StoreCode::Io, "could not switch the database to WAL mode");
  }
  const char* synchronous = options.durability == Durability::Full ? "FULL" : "NORMAL";
  // Checkpointing every 4000 pages (~16 MiB of WAL) instead of SQLite's 1000
  // moves fewer, larger batches of pages into the database file. A WAL that one
  // big transaction (a migration) blew up is cut back to 64 MiB once it resets,
  // instead of keeping its largest size on disk for good.
  return db.exec(
      fmt::format("PRAGMA synchronous = {}; PRAGMA foreign_keys = ON; "
                  "PRAGMA wal_autocheckpoint = 4000; PRAGMA journal_size_limit = 67108864",
                  synchronous));
}

}  // namespace

SqliteStore::SqliteStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SqliteStore::SqliteStore(SqliteStore&&) noexcept = default;
SqliteStore& SqliteStore::operator=(SqliteStore&&) noexcept = default;
SqliteStore::~SqliteStore() = default;

Result<SqliteStore> SqliteStore::open(const std::string& path, const Options& options) {
  int flags =
      options.read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  // One connection per thread at a time: SQLite's own mutexes are not needed.
  flags |= SQLITE_OPEN_NOMUTEX;
  auto db = sqlite::Database::open(path, flags);
  if (!db) return util::forward_error(db);
  if (!options.checkpoint_on_close &&
      sqlite3_db_config(db->handle(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr) != SQLITE_OK) {
    return fail(StoreCode::Io, fmt::format("{}: cannot turn off the checkpoint on close", path));
  }
  if (auto done = configure_reads(*db, options); !done) {
    return util::forward_error(done);
  }
  // Whose file is it? Asked before anything writes, so a file we refuse (another
  // application's, a newer schema) is left exactly as it was.
  auto version = check_compatible(*db);
  if (!version) return util::forward_error(version);
  if (!options.read_only) {
    if (auto done = probe_writable(*db, path); !done) return util::forward_error(done);
    if (auto done = configure_writer(*db, options); !done) {
      if (done.error().code == StoreCode::ReadOnly)
        return fail(StoreCode::ReadOnly, not_writable(path, done.error().message));
      return util::forward_error(done);
    }
  }
  if (options.read_only) {
    if (*version < latest_schema_version()) {
      return fail(StoreCode::TooOld,
                  fmt::format("{} has schema version {}, this build needs {}: open it once "
                              "read-write (the server does) to migrate it",
                              path, *version, latest_schema_version()));
    }
  } else {
    auto applied = migrate(*db);
    if (!applied) return util::forward_error(applied);
    if (*applied > 0) {
      // A migration that rebuilt a table wrote it all to the WAL: move it into the
      // database now and give the WAL's disk space back (best effort: a reader of
      // another process may hold it a little longer).
      if (auto done = db->exec("PRAGMA wal_checkpoint(TRUNCATE)"); !done) {
        spdlog::warn("store: checkpoint after migrating {}: {}", path, done.error().message);
      }
    }
  }
  auto impl = std::make_unique<Impl>(Impl{std::move(*db), options, latest_schema_version()});
  return SqliteStore(std::move(impl));
}

const Options& SqliteStore::options() const {
  return impl_->options;
}
int SqliteStore::schema_version() const {
  return impl_->schema_version;
}
sqlite::Database& SqliteStore::database() {
  return impl_->db;
}

Result<void> SqliteStore::reclaim_space() {
  if (impl_->options.read_only) return {};
  int wal_frames = 0, moved = 0;
  const int rc = sqlite3_wal_checkpoint_v2(impl_->db.handle(), "main", SQLITE_CHECKPOINT_TRUNCATE,
                                           &wal_frames, &moved);
  if (rc == SQLITE_OK) return {};
  StoreError error = sqlite::error_from(impl_->db.handle(), rc, "moving the WAL into the database");
  std::error_code ec;
  const char* file = sqlite3_db_filename(impl_->db.handle(), "main");
  const auto wal = std::filesystem::file_size(std::string(file ? file : "") + "-wal", ec);
  if (!ec) {
    error.message +=
        fmt::format(" (the WAL holds {:.1f} MiB: up to that much free space is needed)",
                    static_cast<double>(wal) / (1024.0 * 1024.0));
  }
  return std::unexpected(std::move(error));
}

Result<MatchId> SqliteStore::create_match(const NewMatch& match) {
  auto options = detail::new_match_options_json(impl_->options, match);
  if (!options) return util::forward_error(options);
  auto insert = impl_->db.cached(
      "INSERT INTO matches (created, options, rules_version, status, last_seq, updated, game, "
      "game_version, is_private, takeover, clock, on_timeout) "
      "VALUES (?1, ?2, ?3, ?4, 0, ?1, ?5, ?6, ?7, ?8, ?9, ?10)");
  if (!insert) return util::forward_error(insert);
  (*insert)
      ->bind(1, detail::now_ms())
      .bind(2, *options)
      .bind(3, std::string_view(ERYANTIS_VERSION))
      .bind(4, status_name(match.status))
      .bind(5, match.game)
      .bind(6, std::int64_t{match.game_version})
      .bind(7, std::int64_t{match.private_match ? 1 : 0})
      .bind_optional(8, match.takeover)
      .bind_optional(9, match.clock)
      .bind_optional(10, match.on_timeout);
  if (auto done = (*insert)->run(); !done) return util::forward_error(done);
  return impl_->db.last_insert_rowid();
}

Result<void> SqliteStore::set_status(MatchId id, MatchStatus status,
                               const std::optional<std::string>& result_json) {
  auto update = impl_->db.cached(
      "UPDATE matches SET status = ?2, result = coalesce(?3, result), updated = ?4 WHERE id = ?1");
  if (!update) return util::forward_error(update);
  (*update)
      ->bind(1, id)
      .bind(2, status_name(status))
      .bind_optional(3, result_json)
      .bind(4, detail::now_ms());
  if (auto done = (*update)->run(); !done) return done;
  if (sqlite3_changes(impl_->db.handle()) == 0) {
    return fail(StoreCode::NotFound, fmt::format("no match {}", id));
  }
  return {};
}

namespace detail {
Result<void> upsert_seat_row(SqliteStore::Impl& impl, const SeatRecord& seat) {
  auto upsert = impl.db.cached(
      "INSERT INTO seats (match_id, seat, nickname, resume_token_hash, tower_color, wizard, "
      "computer, account_id, left_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
      "ON CONFLICT (match_id, seat) DO UPDATE SET nickname = excluded.nickname, "
      "resume_token_hash = excluded.resume_token_hash, tower_color = excluded.tower_color, "
      "wizard = excluded.wizard, computer = excluded.computer, "
      "account_id = excluded.account_id, left_by = excluded.left_by");
  if (!upsert) return util::forward_error(upsert);
  auto& statement = **upsert;
  statement.bind(1, seat.match_id)
      .bind(2, std::int64_t{seat.seat})
      .bind(3, std::string_view(seat.nickname))
      .bind(4, std::string_view(seat.resume_token_hash));
  if (seat.tower_color) {
    statement.bind(5, *seat.tower_color);
  } else {
    statement.bind_null(5);
  }
  if (seat.wizard) {
    statement.bind(6, std::int64_t{*seat.wizard});
  } else {
    statement.bind_null(6);
  }
  if (seat.computer) {
    statement.bind(7, std::string_view(*seat.computer));
  } else {
    statement.bind_null(7);
  }
  if (seat.account_id) {
    statement.bind(8, *seat.account_id);
  } else {
    statement.bind_null(8);
  }
  if (seat.left_by) {
    statement.bind(9, std::string_view(*seat.left_by));
  } else {
    statement.bind_null(9);
  }
  return statement.run();
}
}  // namespace detail

namespace detail {

SeatRecord seat_from_row(const sqlite::Statement& row, int first) {
  SeatRecord seat;
  seat.seat = static_cast<int>(row.column_int(first));
  seat.nickname = row.column_text(first + 1);
  seat.resume_token_hash = row.column_text(first + 2);
  if (!row.column_is_null(first + 3))
    seat.tower_color = std::string(row.column_text(first + 3));
  if (!row.column_is_null(first + 4)) seat.wizard = static_cast<int>(row.column_int(first + 4));
  if (!row.column_is_null(first + 5)) seat.computer = row.column_text(first + 5);
  if (!row.column_is_null(first + 6)) seat.account_id = row.column_int(first + 6);
  seat.left_by = row.column_optional_text(first + 7);
  return seat;
}

}  // namespace detail

Result<void> SqliteStore::upsert_seat(const SeatRecord& seat) {
  return detail::upsert_seat_row(*impl_, seat);
}

Result<std::vector<SeatRecord>> SqliteStore::seats(MatchId id) {
  auto select = impl_->db.cached(
      "SELECT seat, nickname, resume_token_hash, tower_color, wizard, computer, account_id, "
      "left_by FROM seats WHERE match_id = ?1 ORDER BY seat");
  if (!select) return util::forward_error(select);
  (*select)->bind(1, id);
  std::vector<SeatRecord> seats;
  for (;;) {
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    SeatRecord seat = detail::seat_from_row(**select, 0);
    seat.match_id = id;
    seats.push_back(std::move(seat));
  }
  return seats;
}

Result<std::vector<MatchSummary>> SqliteStore::list_matches() {
  auto select = impl_->db.cached(
      "SELECT id, status, players, mode, events, created, last_activity, result, "
      "quarantine_reason, game, game_version FROM match_summary ORDER BY id");
  if (!select) return util::forward_error(select);
  std::vector<MatchSummary> matches;
  for (;;) {
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    auto& s = **select;
    MatchSummary summary;
    summary.id = s.column_int(0);
    summary.status = parse_status(s.column_text(1)).value_or(MatchStatus::Quarantined);
    summary.players = static_cast<int>(s.column_int(2));
    summary.mode = s.column_text(3);
    summary.events = s.column_int(4);
    summary.created = s.column_text(5);
    summary.last_activity = s.column_text(6);
    summary.result = s.column_optional_text(7);
    summary.quarantine_reason = s.column_optional_text(8);
    summary.game = s.column_text(9);
    summary.game_version = static_cast<int>(s.column_int(10));
    matches.push_back(std::move(summary));
  }
  return matches;
}

Result<MatchId> SqliteStore::max_match_id() {
  auto select = impl_->db.cached("SELECT coalesce(max(id), 0) FROM matches");
  if (!select) return util::forward_error(select);
  auto row = (*select)->step();
  if (!row) return util::forward_error(row);
  return (*select)->column_int(0);
}

Result<StatusCounts> SqliteStore::count_by_status() {
  auto select = impl_->db.cached("SELECT status, count(*) FROM matches GROUP BY status");
  if (!select) return util::forward_error(select);
  StatusCounts counts{};
  for (;;) {
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    const auto status = parse_status((*select)->column_text(0)).value_or(MatchStatus::Quarantined);
    counts[static_cast<std::size_t>(status)] += static_cast<std::uint64_t>((*select)->column_int(1));
  }
  return counts;
}

Result<std::vector<FinishedMatch>> SqliteStore::finished_matches(FinishCursor after) {
  // One row per seat (a match without seat rows still gets one, with NULL seat
  // columns), in (finished, id, seat) order. `updated` is written with the last event,
  // never before it: matches updated before the cursor are skipped without looking up
  // their events (4 ms instead of 99 ms for 20,000 finished matches).
  auto select = impl_->db.cached(
      "SELECT f.id, f.game, f.game_version, f.players, f.started, f.finished, f.events, "
      "f.result, s.seat, s.nickname, s.computer, f.is_private, s.account_id, s.left_by FROM ("
      "  SELECT m.id, m.game, m.game_version, "
      "    coalesce(json_extract(m.options, '$.players'), 0) AS players, "
      "    coalesce((SELECT time FROM events WHERE match_id = m.id AND seq = 1), m.created) "
      "      AS started, "
      "    coalesce((SELECT time FROM events WHERE match_id = m.id AND seq = m.last_seq), "
      "      m.updated) AS finished, "
      "    m.last_seq AS events, m.result, m.is_private AS is_private "
      "  FROM matches m WHERE m.status = 'finished' AND m.updated >= ?1) f "
      "LEFT JOIN seats s ON s.match_id = f.id "
      "WHERE f.finished > ?1 OR (f.finished = ?1 AND f.id > ?2) "
      "ORDER BY f.finished, f.id, s.seat");
  if (!select) return util::forward_error(select);
  (*select)->bind(1, after.finished_ms).bind(2, after.match);
  std::vector<FinishedMatch> out;
  for (;;) {
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    auto& s = **select;
    const MatchId id = s.column_int(0);
    if (out.empty() || out.back().id != id) {
      FinishedMatch m;
      m.id = id;
      m.game = s.column_text(1);
      m.game_version = static_cast<int>(s.column_int(2));
      m.players = static_cast<int>(s.column_int(3));
      m.started_ms = s.column_int(4);
      m.finished_ms = s.column_int(5);
      m.events = s.column_int(6);
      m.result = s.column_optional_text(7);
      m.is_private = s.column_int(11) != 0;
      out.push_back(std::move(m));
    }
    if (s.column_is_null(8)) continue;
    SeatRecord seat;
    seat.match_id = id;
    seat.seat = static_cast<int>(s.column_int(8));
    seat.nickname = s.column_text(9);
    seat.computer = s.column_optional_text(10);
    if (!s.column_is_null(12)) seat.account_id = s.column_int(12);
    seat.left_by = s.column_optional_text(13);
    out.back().seats.push_back(std::move(seat));
  }
  return out;
}

Result<std::optional<DeadlineRecord>> SqliteStore::deadline(MatchId id) {
  auto select = impl_->db.cached(
      "SELECT deadline_kind, deadline_seat, deadline_at FROM matches WHERE id = ?1");
  if (!select) return util::forward_error(select);
  (*select)->bind(1, id);
  auto row = (*select)->step();
  if (!row) return util::forward_error(row);
  if (!*row) return fail(StoreCode::NotFound, fmt::format("no match {}", id));
  if ((*select)->column_is_null(0)) return std::optional<DeadlineRecord>{};
  return DeadlineRecord{std::string((*select)->column_text(0)),
                        static_cast<int>((*select)->column_int(1)), (*select)->column_int(2)};
}

Result<std::vector<ClockStepRecord>> SqliteStore::clock_steps(MatchId id) {
  auto select = impl_->db.cached(
      "SELECT after_seq, at_ms, kind, seats FROM clock_steps WHERE match_id = ?1 "
      "ORDER BY after_seq, id");
  if (!select) return util::forward_error(select);
  (*select)->bind(1, id);
  std::vector<ClockStepRecord> out;
  for (;;) {
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    out.push_back(ClockStepRecord{(*select)->column_int(0), (*select)->column_int(1),
                                  std::string((*select)->column_text(2)),
                                  static_cast<int>((*select)->column_int(3))});
  }
  return out;
}

Result<MatchPrivacy> SqliteStore::privacy(MatchId id) {
  auto flag = impl_->db.cached(
      "SELECT is_private, takeover, clock, on_timeout FROM matches WHERE id = ?1");
  if (!flag) return util::forward_error(flag);
  (*flag)->bind(1, id);
  auto found = (*flag)->step();
  if (!found) return util::forward_error(found);
  if (!*found) return fail(StoreCode::NotFound, fmt::format("no match {}", id));
  MatchPrivacy out;
  out.private_match = (*flag)->column_int(0) != 0;
  if (!(*flag)->column_is_null(1)) out.takeover = std::string((*flag)->column_text(1));
  if (!(*flag)->column_is_null(2)) out.clock = std::string((*flag)->column_text(2));
  if (!(*flag)->column_is_null(3)) out.on_timeout = std::string((*flag)->column_text(3));
  auto select = impl_->db.cached(
      "SELECT digest, created_ms, expires_ms, max_uses, uses, revoked FROM invites "
      "WHERE match_id = ?1 ORDER BY created_ms, digest");
  if (!select) return util::forward_error(select);
  (*select)->bind(1, id);
  for (;;) {
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    auto& r = **select;
    out.invites.push_back(MatchInvite{std::string(r.column_text(0)), id, r.column_int(1),
                                      r.column_int(2), static_cast<int>(r.column_int(3)),
                                      static_cast<int>(r.column_int(4)), r.column_int(5) != 0});
  }
  return out;
}

Result<std::vector<UnseenEnding>> SqliteStore::unseen_endings(std::size_t limit) {
  auto select = impl_->db.cached(
      "SELECT nickname, match_id, line FROM (SELECT * FROM unseen_endings ORDER BY time DESC, "
      "nickname LIMIT ?1) ORDER BY time, nickname");
  if (!select) return util::forward_error(select);
  (*select)->bind(1, static_cast<std::int64_t>(limit));
  std::vector<UnseenEnding> out;
  while (true) {
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    out.push_back(UnseenEnding{std::string((*select)->column_text(0)), (*select)->column_int(1),
                               std::string((*select)->column_text(2))});
  }
  return out;
}

Result<Seq> SqliteStore::last_seq(MatchId id) {
  auto select = impl_->db.cached("SELECT last_seq FROM matches WHERE id = ?1");
  if (!select) return util::forward_error(select);
  (*select)->bind(1, id);
  auto row = (*select)->step();
  if (!row) return util::forward_error(row);
  if (!*row) return fail(StoreCode::NotFound, fmt::format("no match {}", id));
  return (*select)->column_int(0);
}

namespace detail {

Result<Foldable> foldable_last_seq(SqliteStore::Impl& impl, MatchId id) {
  auto select = impl.db.cached("SELECT last_seq, game, game_version FROM matches WHERE id = ?1");
  if (!select) return util::forward_error(select);
  (*select)->bind(1, id);
  auto row = (*select)->step();
  if (!row) return util::forward_error(row);
  if (!*row) return fail(StoreCode::NotFound, fmt::format("no match {}", id));
  const std::string game((*select)->column_text(1));
  const int version = static_cast<int>((*select)->column_int(2));
  auto played = served_game(impl.options, id, game, version);
  if (!played) return util::forward_error(played);
  return Foldable{(*select)->column_int(0), *played};
}

}  // namespace detail

Result<std::vector<StoredEvent>> SqliteStore::load_events(MatchId id, Seq from_seq, Seq to_seq) {
  auto select = impl_->db.cached(
      "SELECT seq, time, actor, command_id, type, schema_version, payload, state_hash "
      "FROM events WHERE match_id = ?1 AND seq BETWEEN ?2 AND ?3 ORDER BY seq");
  if (!select) return util::forward_error(select);
  (*select)->bind(1, id).bind(2, from_seq).bind(3, to_seq);
  std::vector<StoredEvent> events;
  for (;;) {
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    auto& s = **select;
    events.push_back(StoredEvent{s.column_int(0), s.column_int(1), std::string(s.column_text(2)),
                                 s.column_optional_text(3), std::string(s.column_text(4)),
                                 static_cast<int>(s.column_int(5)), std::string(s.column_text(6)),
                                 std::string(s.column_text(7))});
  }
  return events;
}

Result<AppendOutcome> SqliteStore::append(MatchId id, Seq expected_seq, std::span<const NewEvent> events,
                                    const game::State* state_after) {
  auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Immediate);
  if (!tx) return util::forward_error(tx);
  auto outcome = detail::append_in_transaction(*impl_, id, expected_seq, events, state_after);
  if (!outcome) return outcome;  // the transaction rolls back: nothing written
  if (outcome->replayed) return outcome;
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  return outcome;
}

std::vector<Result<AppendOutcome>> SqliteStore::append_batch(std::span<const AppendRequest> requests) {
  std::vector<Result<AppendOutcome>> results;
  results.reserve(requests.size());
  auto fail_all = [&](const StoreError& error) {
    results.assign(requests.size(), std::unexpected(error));
    return std::move(results);
  };
  // Fast path: a failing request is rare, so first run the whole batch without a
  // savepoint per request. If one fails, everything is rolled back and the batch
  // runs again below with savepoints, so that only the failing request is undone.
  if (requests.size() > 1) {
    {
      auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Immediate);
      if (!tx) return fail_all(tx.error());
      bool clean = true;
      for (const AppendRequest& request : requests) {
        auto outcome = detail::apply_request_in_transaction(*impl_, request);
        if (!outcome) {
          clean = false;
          break;
        }
        results.push_back(std::move(outcome));
      }
      if (clean) {
        if (auto done = tx->commit(); !done) return fail_all(done.error());
        return results;
      }
    }  // not clean: the transaction's destructor rolled everything back
    results.clear();
  }
  auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Immediate);
  if (!tx) return fail_all(tx.error());
  for (const AppendRequest& request : requests) {
    auto savepoint = sqlite::Savepoint::begin(impl_->db);
    if (!savepoint) return fail_all(savepoint.error());
    auto outcome = detail::apply_request_in_transaction(*impl_, request);
    if (outcome) {
      if (auto kept = savepoint->release(); !kept) return fail_all(kept.error());
    }
    // On failure the savepoint's destructor undoes this request alone.
    results.push_back(std::move(outcome));
  }
  if (auto done = tx->commit(); !done) return fail_all(done.error());
  return results;
}

Result<Folded> SqliteStore::fold(MatchId id, const FoldPolicy& policy) {
  // One read transaction: a consistent picture even while another process writes.
  auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Deferred);
  if (!tx) return util::forward_error(tx);
  auto last = detail::foldable_last_seq(*impl_, id);
  if (!last) return util::forward_error(last);
  detail::SqliteRows rows(impl_->db);
  auto folded = detail::fold(rows, *last->played, id, last->last_seq, policy);
  if (!folded) return folded;
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  return folded;
}

}  // namespace eryantis::store
