// Appending events: the conflict check, idempotent retries and snapshots.
#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include "eryantis/util/expected.hpp"
#include "sqlite_rows.hpp"
#include "sqlite_impl.hpp"

namespace eryantis::store::detail {

namespace {

// The seqs an earlier append stored for the same first command id, if any.
Result<std::optional<AppendOutcome>> find_retry(sqlite::Database& db, MatchId id,
                                                const NewEvent& first, std::size_t count) {
  if (!first.command_id) return std::nullopt;
  auto select = db.cached("SELECT seq FROM events WHERE match_id = ?1 AND command_id = ?2");
  if (!select) return util::forward_error(select);
  (*select)->bind(1, id).bind(2, *first.command_id);
  auto row = (*select)->step();
  if (!row) return util::forward_error(row);
  if (!*row) return std::nullopt;
  Seq first_seq = (*select)->column_int(0);
  return AppendOutcome{first_seq, first_seq + static_cast<Seq>(count) - 1, true};
}

Result<void> write_snapshot(SqliteStore::Impl& impl, const game::Game& played, MatchId id, Seq seq,
                            const game::State& state) {
  auto insert = impl.db.cached(
      "INSERT OR IGNORE INTO snapshots (match_id, seq, version, state) VALUES (?1, ?2, ?3, ?4)");
  if (!insert) return util::forward_error(insert);
  (*insert)
      ->bind(1, id)
      .bind(2, seq)
      .bind(3, std::int64_t{played.state_schema()})
      .bind_blob(4, played.state_to_binary(state));
  return (*insert)->run();
}

Result<void> snapshot_if_due(SqliteStore::Impl& impl, const game::Game& played, MatchId id,
                             Seq before, Seq after, std::uint64_t last_hash,
                             const game::State* state_after) {
  SqliteRows rows(impl.db);
  auto due = snapshot_due(rows, played, impl.options.snapshot_every, id, before, after, last_hash,
                          state_after);
  if (!due) return util::forward_error(due);
  if (!*due) return {};
  return write_snapshot(impl, played, id, after, **due);
}

}  // namespace

Result<AppendOutcome> append_in_transaction(SqliteStore::Impl& impl, MatchId id, Seq expected_seq,
                                            std::span<const NewEvent> events,
                                            const game::State* state_after,
                                            std::optional<std::int64_t> time_ms) {
  if (impl.options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  if (events.empty()) return fail(StoreCode::Invalid, "an append needs at least one event");

  // Before the conflict check: a retry carries the stale expected_seq of its first attempt.
  auto retry = find_retry(impl.db, id, events.front(), events.size());
  if (!retry) return util::forward_error(retry);
  if (*retry) return **retry;

  auto match =
      impl.db.cached("SELECT last_seq, status, game, game_version FROM matches WHERE id = ?1");
  if (!match) return util::forward_error(match);
  (*match)->bind(1, id);
  auto row = (*match)->step();
  if (!row) return util::forward_error(row);
  if (!*row) return fail(StoreCode::NotFound, fmt::format("no match {}", id));
  const Seq last_seq = (*match)->column_int(0);
  if ((*match)->column_text(1) == status_name(MatchStatus::Quarantined)) {
    return fail(StoreCode::Conflict, fmt::format("match {} is quarantined", id));
  }
  if (last_seq != expected_seq) {
    StoreError error{
        StoreCode::Conflict,
        fmt::format("match {} is at seq {}, the append expected {}", id, last_seq, expected_seq),
        last_seq};
    return std::unexpected(std::move(error));
  }
  // The match's game encodes its events and snapshots.
  auto played = served_game(impl.options, id, (*match)->column_text(2),
                            static_cast<int>((*match)->column_int(3)));
  if (!played) return util::forward_error(played);

  auto insert = impl.db.cached(
      "INSERT INTO events (match_id, seq, time, actor, command_id, type, schema_version, "
      "payload, state_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
  if (!insert) return util::forward_error(insert);
  const std::int64_t time = time_ms.value_or(now_ms());
  Seq seq = last_seq;
  for (const NewEvent& event : events) {
    ++seq;
    const EventText text = event_text(**played, event);
    (*insert)
        ->bind(1, id)
        .bind(2, seq)
        .bind(3, time)
        .bind(4, event.actor.text())
        .bind_optional(5, event.command_id)
        .bind(6, text.type)
        .bind(7, std::int64_t{(*played)->event_schema()})
        .bind(8, text.payload)
        .bind(9, hash_to_hex(event.state_hash));
    auto done = (*insert)->run();
    (*insert)->reset();
    if (!done) {
      if (done.error().code == StoreCode::Conflict && event.command_id) {
        done.error().message = fmt::format("match {}: command id '{}' was already used ({})", id,
                                           *event.command_id, done.error().message);
      }
      return util::forward_error(done);
    }
  }

  auto update = impl.db.cached("UPDATE matches SET last_seq = ?2, updated = ?3 WHERE id = ?1");
  if (!update) return util::forward_error(update);
  (*update)->bind(1, id).bind(2, seq).bind(3, time);
  if (auto done = (*update)->run(); !done) return util::forward_error(done);

  if (auto done = snapshot_if_due(impl, **played, id, last_seq, seq, events.back().state_hash,
                                  state_after);
      !done) {
    return util::forward_error(done);
  }
  return AppendOutcome{last_seq + 1, seq, false};
}

namespace {

Result<void> run_row_changes(SqliteStore::Impl& impl, const AppendRequest& r) {
  const MatchId id = r.match_id;
  const std::int64_t time = now_ms();
  if (r.create) {
    auto options = new_match_options_json(impl.options, *r.create);
    if (!options) return util::forward_error(options);
    auto insert = impl.db.cached(
        "INSERT INTO matches (id, created, options, rules_version, status, last_seq, updated, "
        "game, game_version, is_private, takeover, clock, on_timeout) "
        "VALUES (?1, ?2, ?3, ?4, ?5, 0, ?2, ?6, ?7, ?8, ?9, ?10, ?11)");
    if (!insert) return util::forward_error(insert);
    (*insert)
        ->bind(1, id)
        .bind(2, time)
        .bind(3, *options)
        .bind(4, std::string_view(ERYANTIS_VERSION))
        .bind(5, status_name(r.create->status))
        .bind(6, r.create->game)
        .bind(7, std::int64_t{r.create->game_version})
        .bind(8, std::int64_t{r.create->private_match ? 1 : 0});
    (*insert)->bind_optional(9, r.create->takeover);
    (*insert)->bind_optional(10, r.create->clock).bind_optional(11, r.create->on_timeout);
    if (auto done = (*insert)->run(); !done) return done;
  }
  for (const MatchInvite& invite : r.invites) {
    auto upsert = impl.db.cached(
        "INSERT INTO invites (digest, match_id, created_ms, expires_ms, max_uses, uses, "
        "revoked) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (digest) DO UPDATE SET "
        "uses = excluded.uses, revoked = excluded.revoked WHERE match_id = excluded.match_id");
    if (!upsert) return util::forward_error(upsert);
    (*upsert)
        ->bind(1, invite.digest)
        .bind(2, id)
        .bind(3, invite.created_ms)
        .bind(4, invite.expires_ms)
        .bind(5, std::int64_t{invite.max_uses})
        .bind(6, std::int64_t{invite.uses})
        .bind(7, std::int64_t{invite.revoked ? 1 : 0});
    if (auto done = (*upsert)->run(); !done) return done;
  }
  for (const SeatRecord& seat : r.seats) {
    SeatRecord copy = seat;
    copy.match_id = id;
    if (auto done = upsert_seat_row(impl, copy); !done) return done;
  }
  for (const UnseenEnding& ending : r.keep_endings) {
    auto upsert = impl.db.cached(
        "INSERT INTO unseen_endings (nickname, match_id, time, line) VALUES (?1, ?2, ?3, ?4) "
        "ON CONFLICT (nickname) DO UPDATE SET match_id = excluded.match_id, time = "
        "excluded.time, line = excluded.line");
    if (!upsert) return util::forward_error(upsert);
    (*upsert)->bind(1, ending.nickname).bind(2, ending.match_id).bind(3, time).bind(4, ending.line);
    if (auto done = (*upsert)->run(); !done) return done;
  }
  for (int seat : r.remove_seats) {
    auto remove = impl.db.cached("DELETE FROM seats WHERE match_id = ?1 AND seat = ?2");
    if (!remove) return util::forward_error(remove);
    (*remove)->bind(1, id).bind(2, std::int64_t{seat});
    if (auto done = (*remove)->run(); !done) return done;
  }
  return {};
}

Result<void> run_status_and_deadline(SqliteStore::Impl& impl, const AppendRequest& r) {
  const MatchId id = r.match_id;
  if (r.status) {
    auto update = impl.db.cached(
        "UPDATE matches SET status = ?2, result = coalesce(?3, result), updated = ?4 WHERE id = "
        "?1");
    if (!update) return util::forward_error(update);
    (*update)
        ->bind(1, id)
        .bind(2, status_name(*r.status))
        .bind_optional(3, r.result_json)
        .bind(4, now_ms());
    if (auto done = (*update)->run(); !done) return done;
  }
  if (r.deadline) {
    auto update = impl.db.cached(
        "UPDATE matches SET deadline_kind = ?2, deadline_seat = ?3, deadline_at = ?4 WHERE id = "
        "?1");
    if (!update) return util::forward_error(update);
    (*update)->bind(1, id);
    if (r.deadline->kind.empty()) {
      (*update)->bind_null(2).bind_null(3).bind_null(4);
    } else {
      (*update)
          ->bind(2, r.deadline->kind)
          .bind(3, std::int64_t{r.deadline->seat})
          .bind(4, r.deadline->at_ms);
    }
    if (auto done = (*update)->run(); !done) return done;
  }
  for (const ClockStepRecord& step : r.clock_steps) {
    auto insert = impl.db.cached(
        "INSERT INTO clock_steps (match_id, after_seq, at_ms, kind, seats) "
        "VALUES (?1, ?2, ?3, ?4, ?5)");
    if (!insert) return util::forward_error(insert);
    (*insert)
        ->bind(1, id)
        .bind(2, step.after_seq)
        .bind(3, step.at_ms)
        .bind(4, step.kind)
        .bind(5, std::int64_t{step.seats});
    if (auto done = (*insert)->run(); !done) return done;
  }
  return {};
}

// Deleted only if the row still holds this match's ending (a newer one stays).
Result<void> forget_delivered_endings(SqliteStore::Impl& impl, const AppendRequest& r) {
  for (const std::string& nickname : r.delivered_endings) {
    auto remove =
        impl.db.cached("DELETE FROM unseen_endings WHERE nickname = ?1 AND match_id = ?2");
    if (!remove) return util::forward_error(remove);
    (*remove)->bind(1, nickname).bind(2, r.match_id);
    if (auto done = (*remove)->run(); !done) return done;
  }
  return {};
}

}  // namespace

Result<AppendOutcome> apply_request_in_transaction(SqliteStore::Impl& impl, const AppendRequest& r) {
  if (impl.options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  if (r.fence) {
    return fail(StoreCode::Invalid,
                "a lease fence needs the PostgreSQL backend: an SQLite file has one writer, "
                "held by its writer lock");
  }
  if (auto done = forget_delivered_endings(impl, r); !done) return util::forward_error(done);
  if (r.only_delivers_endings()) return AppendOutcome{};
  if (auto done = run_row_changes(impl, r); !done) return util::forward_error(done);
  AppendOutcome outcome;
  if (!r.events.empty()) {
    const game::State* state_after = r.state_after ? &*r.state_after : nullptr;
    auto appended =
        append_in_transaction(impl, r.match_id, r.expected_seq, r.events, state_after, r.time_ms);
    if (!appended) return appended;
    if (appended->replayed) return appended;  // a retry changes nothing else either
    outcome = *appended;
  } else {
    // Rows only: still refuse a writer that is behind the match.
    auto select = impl.db.cached("SELECT last_seq FROM matches WHERE id = ?1");
    if (!select) return util::forward_error(select);
    (*select)->bind(1, r.match_id);
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) return fail(StoreCode::NotFound, fmt::format("no match {}", r.match_id));
    const Seq last = (*select)->column_int(0);
    if (last != r.expected_seq) {
      return std::unexpected(StoreError{StoreCode::Conflict,
                                        fmt::format("match {} is at seq {}, the write expected {}",
                                                    r.match_id, last, r.expected_seq),
                                        last});
    }
    outcome = AppendOutcome{last, last, false};
  }
  if (auto done = run_status_and_deadline(impl, r); !done) return util::forward_error(done);
  return outcome;
}

}  // namespace eryantis::store::detail
