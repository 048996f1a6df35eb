// Appending on PostgreSQL: the same promises as append.cpp (conflict check,
// idempotent retries, snapshots, row changes in the same transaction), plus the
// lease fence. Writers of one match are serialised by locking its matches row
// (SELECT ... FOR UPDATE), whichever node they run on.
#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

#include "eryantis/store/pg_lobby_listener.hpp"
#include "eryantis/util/expected.hpp"
#include "pg_impl.hpp"

#ifndef ERYANTIS_VERSION
#define ERYANTIS_VERSION "unknown"
#endif

namespace eryantis::store {

namespace detail {

Result<void> pg_upsert_seat(pg::Connection& conn, const SeatRecord& seat);

namespace {

// The seqs an earlier append stored for the same first command id, if any.
Result<std::optional<AppendOutcome>> find_retry(pg::Connection& conn, MatchId id,
                                                const NewEvent& first, std::size_t count) {
  if (!first.command_id) return std::nullopt;
  auto rows = conn.query("SELECT seq FROM events WHERE match_id = $1 AND command_id = $2",
                         pg::Params().add(id).add(*first.command_id));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return std::nullopt;
  const Seq first_seq = rows->integer(0, 0);
  return AppendOutcome{first_seq, first_seq + static_cast<Seq>(count) - 1, true};
}

// The match's row, locked until the transaction ends: its last seq and game.
struct LockedMatch {
  Seq last_seq = 0;
  std::string game;
  int game_version = 0;
};

// Conflict when the match is quarantined or when `expected_seq` is stale.
Result<LockedMatch> lock_match(pg::Connection& conn, MatchId id, Seq expected_seq) {
  auto rows = conn.query(
      "SELECT last_seq, status, game, game_version FROM matches WHERE id = $1 FOR UPDATE",
      pg::Params().add(id));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return fail(StoreCode::NotFound, fmt::format("no match {}", id));
  const Seq last_seq = rows->integer(0, 0);
  if (rows->text(0, 1) == status_name(MatchStatus::Quarantined)) {
    return fail(StoreCode::Conflict, fmt::format("match {} is quarantined", id));
  }
  if (last_seq != expected_seq) {
    return std::unexpected(StoreError{
        StoreCode::Conflict,
        fmt::format("match {} is at seq {}, the write expected {}", id, last_seq, expected_seq),
        last_seq});
  }
  return LockedMatch{last_seq, std::string(rows->text(0, 2)),
                     static_cast<int>(rows->integer(0, 3))};
}

// The fence: the lease row must still name this node and epoch and not have
// expired (the database's clock). FOR SHARE holds a take-over (an UPDATE of the
// row) back until this transaction ends, so no write slips past a new epoch.
Result<void> check_fence(pg::Connection& conn, MatchId id, const LeaseFence& fence) {
  auto rows = conn.query(
      "SELECT node, epoch, expires_at > clock_timestamp() FROM leases WHERE match_id = $1 "
      "FOR SHARE",
      pg::Params().add(id));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) {
    return fail(StoreCode::Fenced, fmt::format("match {}: node {} holds no lease on it (epoch {})",
                                               id, fence.node, fence.epoch));
  }
  if (rows->text(0, 0) != fence.node || rows->integer(0, 1) != fence.epoch) {
    return fail(StoreCode::Fenced,
                fmt::format("match {}: node {} lost its lease (epoch {}); {} holds epoch {}", id,
                            fence.node, fence.epoch, rows->text(0, 0), rows->integer(0, 1)));
  }
  if (rows->text(0, 2) != "t") {
    return fail(StoreCode::Fenced,
                fmt::format("match {}: the lease of node {} (epoch {}) expired; renew it first", id,
                            fence.node, fence.epoch));
  }
  return {};
}

Result<AppendOutcome> append_events(PgStore::Impl& impl, MatchId id, Seq expected_seq,
                                    std::span<const NewEvent> events,
                                    const game::State* state_after,
                                    std::optional<std::int64_t> time_ms) {
  if (events.empty()) return fail(StoreCode::Invalid, "an append needs at least one event");
  pg::Connection& conn = impl.conn;
  // Before the conflict check: a retry carries the stale expected_seq of its first attempt.
  auto retry = find_retry(conn, id, events.front(), events.size());
  if (!retry) return util::forward_error(retry);
  if (*retry) return **retry;
  auto locked = lock_match(conn, id, expected_seq);
  if (!locked) return util::forward_error(locked);
  const Seq last_seq = locked->last_seq;
  // The match's game encodes its events and snapshots.
  auto played = served_game(impl.options, id, locked->game, locked->game_version);
  if (!played) return util::forward_error(played);

  const std::int64_t time = time_ms.value_or(now_ms());
  Seq seq = last_seq;
  for (const NewEvent& event : events) {
    ++seq;
    const EventColumns row = event_columns(**played, event);
    auto inserted = conn.query(
        "INSERT INTO events (match_id, seq, time, actor, command_id, type, schema_version, "
        "payload, state_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        pg::Params()
            .add(id)
            .add(seq)
            .add(time)
            .add(row.actor)
            .add_optional(event.command_id)
            .add(row.type)
            .add(row.schema_version)
            .add(row.payload)
            .add(row.state_hash));
    if (!inserted) {
      if (inserted.error().code == StoreCode::Conflict && event.command_id) {
        inserted.error().message = fmt::format("match {}: command id '{}' was already used ({})",
                                               id, *event.command_id, inserted.error().message);
      }
      return util::forward_error(inserted);
    }
  }
  auto updated = conn.query("UPDATE matches SET last_seq = $2, updated = $3 WHERE id = $1",
                            pg::Params().add(id).add(seq).add(time));
  if (!updated) return util::forward_error(updated);

  PgRows rows(conn);
  auto due = snapshot_due(rows, **played, impl.options.snapshot_every, id, last_seq, seq,
                          events.back().state_hash, state_after);
  if (!due) return util::forward_error(due);
  if (*due) {
    auto stored = conn.query(
        "INSERT INTO snapshots (match_id, seq, version, state) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT DO NOTHING",
        pg::Params()
            .add(id)
            .add(seq)
            .add(std::int64_t{(*played)->state_schema()})
            .add_bytes((*played)->state_to_binary(**due)));
    if (!stored) return util::forward_error(stored);
  }
  return AppendOutcome{last_seq + 1, seq, false};
}

Result<void> row_changes(PgStore::Impl& impl, const AppendRequest& r) {
  pg::Connection& conn = impl.conn;
  const MatchId id = r.match_id;
  const std::int64_t time = now_ms();
  if (r.create) {
    auto options = new_match_options_json(impl.options, *r.create);
    if (!options) return util::forward_error(options);
    auto inserted = conn.query(
        "INSERT INTO matches (id, created, options, rules_version, status, last_seq, updated, "
        "game, game_version, is_private, takeover, clock, on_timeout) "
        "VALUES ($1, $2, $3, $4, $5, 0, $2, $6, $7, $8::int <> 0, $9, $10, $11)",
        pg::Params()
            .add(id)
            .add(time)
            .add(*options)
            .add(std::string_view(ERYANTIS_VERSION))
            .add(status_name(r.create->status))
            .add(r.create->game)
            .add(std::int64_t{r.create->game_version})
            .add(std::int64_t{r.create->private_match ? 1 : 0})
            .add_optional(r.create->takeover)
            .add_optional(r.create->clock)
            .add_optional(r.create->on_timeout));
    if (!inserted) return util::forward_error(inserted);
  }
  for (const MatchInvite& invite : r.invites) {
    auto upserted = conn.query(
        "INSERT INTO invites (digest, match_id, created_ms, expires_ms, max_uses, uses, "
        "revoked) VALUES ($1, $2, $3, $4, $5, $6, $7::int <> 0) ON CONFLICT (digest) DO UPDATE "
        "SET uses = excluded.uses, revoked = excluded.revoked "
        "WHERE invites.match_id = excluded.match_id",
        pg::Params()
            .add(invite.digest)
            .add(id)
            .add(invite.created_ms)
            .add(invite.expires_ms)
            .add(std::int64_t{invite.max_uses})
            .add(std::int64_t{invite.uses})
            .add(std::int64_t{invite.revoked ? 1 : 0}));
    if (!upserted) return util::forward_error(upserted);
  }
  for (const SeatRecord& seat : r.seats) {
    SeatRecord copy = seat;
    copy.match_id = id;
    if (auto done = pg_upsert_seat(conn, copy); !done) return done;
  }
  for (const UnseenEnding& ending : r.keep_endings) {
    auto kept = conn.query(
        "INSERT INTO unseen_endings (nickname, match_id, time, line) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (nickname) DO UPDATE SET match_id = excluded.match_id, "
        "time = excluded.time, line = excluded.line",
        pg::Params().add(ending.nickname).add(ending.match_id).add(time).add(ending.line));
    if (!kept) return util::forward_error(kept);
  }
  for (int seat : r.remove_seats) {
    auto removed = conn.query("DELETE FROM seats WHERE match_id = $1 AND seat = $2",
                              pg::Params().add(id).add(std::int64_t{seat}));
    if (!removed) return util::forward_error(removed);
  }
  return {};
}

Result<void> status_and_deadline(pg::Connection& conn, const AppendRequest& r) {
  if (r.status) {
    auto updated = conn.query(
        "UPDATE matches SET status = $2, result = coalesce($3, result), updated = $4 "
        "WHERE id = $1",
        pg::Params()
            .add(r.match_id)
            .add(status_name(*r.status))
            .add_optional(r.result_json)
            .add(now_ms()));
    if (!updated) return util::forward_error(updated);
  }
  if (r.deadline) {
    pg::Params params;
    params.add(r.match_id);
    if (r.deadline->kind.empty()) {
      params.add_null().add_null().add_null();
    } else {
      params.add(r.deadline->kind).add(std::int64_t{r.deadline->seat}).add(r.deadline->at_ms);
    }
    auto updated = conn.query(
        "UPDATE matches SET deadline_kind = $2, deadline_seat = $3, deadline_at = $4 "
        "WHERE id = $1",
        params);
    if (!updated) return util::forward_error(updated);
  }
  for (const ClockStepRecord& step : r.clock_steps) {
    auto inserted = conn.query(
        "INSERT INTO clock_steps (match_id, after_seq, at_ms, kind, seats) "
        "VALUES ($1, $2, $3, $4, $5)",
        pg::Params()
            .add(r.match_id)
            .add(step.after_seq)
            .add(step.at_ms)
            .add(step.kind)
            .add(std::int64_t{step.seats}));
    if (!inserted) return util::forward_error(inserted);
  }
  return {};
}

// As SQLite's: deleted only if the row still holds this match's ending (a newer one stays).
Result<void> forget_delivered_endings(pg::Connection& conn, const AppendRequest& r) {
  for (const std::string& nickname : r.delivered_endings) {
    auto removed = conn.query("DELETE FROM unseen_endings WHERE nickname = $1 AND match_id = $2",
                              pg::Params().add(nickname).add(r.match_id));
    if (!removed) return util::forward_error(removed);
  }
  return {};
}

// A request that may change the cluster's lobby (a match created, a seat taken or
// freed, a status) tells every listening node (docs/cluster.md). Delivered at
// commit, dropped with a rollback; PostgreSQL sends one per transaction however
// many requests of the batch notify.
Result<void> notify_lobby(pg::Connection& conn, const AppendRequest& r) {
  if (!r.create && r.seats.empty() && r.remove_seats.empty() && !r.status) return {};
  return conn.exec("NOTIFY " + std::string(kLobbyChannel));
}

}  // namespace

Result<AppendOutcome> pg_apply_request(PgStore::Impl& impl, const AppendRequest& r) {
  if (impl.options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  if (r.fence) {
    if (auto done = check_fence(impl.conn, r.match_id, *r.fence); !done) {
      return util::forward_error(done);
    }
  }
  // Told a player their ending: changes nothing of the match, so no seq check.
  if (auto done = forget_delivered_endings(impl.conn, r); !done) return util::forward_error(done);
  if (r.only_delivers_endings()) return AppendOutcome{};
  if (auto done = row_changes(impl, r); !done) return util::forward_error(done);
  AppendOutcome outcome;
  if (!r.events.empty()) {
    const game::State* state_after = r.state_after ? &*r.state_after : nullptr;
    auto appended =
        append_events(impl, r.match_id, r.expected_seq, r.events, state_after, r.time_ms);
    if (!appended) return appended;
    if (appended->replayed) return appended;  // a retry changes nothing else either
    outcome = *appended;
  } else {
    // Rows only: still refuse a writer that is behind the match.
    auto locked = lock_match(impl.conn, r.match_id, r.expected_seq);
    if (!locked) return util::forward_error(locked);
    outcome = AppendOutcome{locked->last_seq, locked->last_seq, false};
  }
  if (auto done = status_and_deadline(impl.conn, r); !done) return util::forward_error(done);
  if (auto done = notify_lobby(impl.conn, r); !done) return util::forward_error(done);
  return outcome;
}

}  // namespace detail

Result<AppendOutcome> PgStore::append(MatchId id, Seq expected_seq,
                                      std::span<const NewEvent> events,
                                      const game::State* state_after) {
  if (events.empty()) return fail(StoreCode::Invalid, "an append needs at least one event");
  AppendRequest request = AppendRequest::of(id, expected_seq, {events.begin(), events.end()});
  if (state_after) request.state_after = *state_after;
  auto results = append_batch(std::span(&request, 1));
  return std::move(results.front());
}

std::vector<Result<AppendOutcome>> PgStore::append_batch(std::span<const AppendRequest> requests) {
  auto fail_all = [&](const StoreError& error) {
    return std::vector<Result<AppendOutcome>>(requests.size(), std::unexpected(error));
  };
  if (impl_->options.read_only) return fail_all({StoreCode::ReadOnly, "the store is read-only"});
  // The requests run in match id order, whatever order they came in: their lease
  // rows (FOR SHARE, the fence) and matches rows are then locked in the order
  // acquire_leases, renew_leases and release_leases lock theirs, so an append batch
  // and another node's take-over wait for each other, never deadlock (PostgreSQL
  // would abort one only after deadlock_timeout, 1 s). The results keep the
  // requests' order.
  std::vector<std::size_t> order(requests.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return requests[a].match_id < requests[b].match_id;
  });
  // One round trip for the batch (pg_append_batch.cpp) whenever it can.
  if (impl_->append_path != AppendPath::RequestByRequest) {
    if (auto done = impl_->conn.reconnect_if_broken(); !done) return fail_all(done.error());
    auto results = impl_->append_path == AppendPath::OneStatement
                       ? detail::pg_append_in_one_statement(*impl_, requests, order)
                       : detail::pg_append_pipelined(*impl_, requests, order);
    if (results) return std::move(*results);
  }
  std::vector<Result<AppendOutcome>> results(requests.size());
  // Request by request, as SQLite's: first the whole batch without a savepoint per request (a
  // failing request is rare); if one fails, all is rolled back and the batch runs again with
  // savepoints, so only the failing request is undone.
  {
    auto tx = pg::Transaction::begin(impl_->conn);
    if (!tx) return fail_all(tx.error());
    bool clean = true;
    for (const std::size_t i : order) {
      results[i] = detail::pg_apply_request(*impl_, requests[i]);
      if (!results[i]) {
        clean = false;
        break;
      }
    }
    if (clean) {
      if (auto done = tx->commit(); !done) return fail_all(done.error());
      return results;
    }
    if (requests.size() == 1) return results;  // the transaction rolls back
  }
  auto tx = pg::Transaction::begin(impl_->conn);
  if (!tx) return fail_all(tx.error());
  for (const std::size_t i : order) {
    auto savepoint = pg::Savepoint::begin(impl_->conn);
    if (!savepoint) return fail_all(savepoint.error());
    results[i] = detail::pg_apply_request(*impl_, requests[i]);
    if (results[i]) {
      if (auto kept = savepoint->release(); !kept) return fail_all(kept.error());
    }
    // On failure the savepoint's destructor undoes this request alone.
  }
  if (auto done = tx->commit(); !done) return fail_all(done.error());
  return results;
}

}  // namespace eryantis::store
