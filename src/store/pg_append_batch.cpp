// A whole group-commit batch in ONE statement: one round trip to PostgreSQL per
// batch, whatever its size (docs/cluster.md, "Appends in one round trip").
//
// The requests travel as arrays (`unnest`), one element per request, event,
// snapshot, seat or ending. The statement takes, in this order, the lease rows
// of the fenced requests FOR SHARE (the fence: a take-over waits for this
// statement to commit), then the matches rows FOR UPDATE (both in id order, the
// order every other locker of those rows uses), finds earlier appends of each
// first command id (a retry), and gives each request its verdict: fenced,
// retry, missing, quarantined, stale, or ok. Every write (events, the matches
// row, a snapshot, seats, endings, NOTIFY) is joined to the verdict, so a
// refused request writes nothing and the others are unharmed: no savepoint
// needed. Run outside a transaction block, the statement commits on its own
// (synchronous_commit on: after the WAL flush) before its result comes back, so
// nothing is acknowledged before it is durable.
//
// A batch whose requests collide (two for one match, a seat both written and
// removed, one nickname's ending kept and delivered, a snapshot due without the
// state), or whose statement fails (a reused command id, a constraint), runs
// request by request instead (pg_append.cpp), which pins the failing request.
#include <spdlog/fmt/fmt.h>

#include <set>
#include <utility>

#include "eryantis/store/pg_lobby_listener.hpp"
#include "pg_impl.hpp"

#ifndef ERYANTIS_VERSION
#define ERYANTIS_VERSION "unknown"
#endif

namespace eryantis::store::detail {

namespace {

// $1..$17 one element per request; $18 the fenced matches, $19 the matches to
// lock; $20..$27 per event, $28..$30 per snapshot, $31..$37 per seat written,
// $38..$39 per seat removed, $40..$43 per ending kept, $44..$45 per ending delivered;
// $46..$47 one element per request again (a new match's game and game version);
// $48..$49 per seat written again (schema 14: its account and left_by).
constexpr std::string_view kAppendBatch = R"SQL(
WITH r AS MATERIALIZED (
  SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::int[],
                       $7::text[], $8::bigint[], $9::text[], $10::text[], $11::bool[], $12::text[],
                       $13::int[], $14::bigint[], $15::text[], $17::bool[], $46::text[],
                       $47::int[])
    WITH ORDINALITY AS r(match_id, expected_seq, fence_node, fence_epoch, first_command_id, events,
                         kind, time, status, result, set_deadline, deadline_kind, deadline_seat,
                         deadline_at, options, notify, game, game_version, i)
),
lease AS MATERIALIZED (
  SELECT match_id, node, epoch, expires_at > clock_timestamp() AS live FROM leases
  WHERE match_id = ANY($18::bigint[]) ORDER BY match_id FOR SHARE
),
locked AS MATERIALIZED (
  SELECT id, last_seq, status FROM matches
  WHERE id = ANY($19::bigint[]) AND (SELECT count(*) FROM lease) >= 0
  ORDER BY id FOR UPDATE
),
v AS MATERIALIZED (
  SELECT r.*, l.node AS lease_node, l.epoch AS lease_epoch, k.last_seq, e.seq AS retry_seq,
    CASE
      WHEN r.fence_node IS NOT NULL AND (l.node IS DISTINCT FROM r.fence_node
           OR l.epoch IS DISTINCT FROM r.fence_epoch OR NOT l.live) THEN 'fenced'
      WHEN r.kind = 'endings' THEN 'endings'
      WHEN r.kind = 'create' THEN CASE WHEN r.expected_seq = 0 THEN 'ok' ELSE 'stale' END
      WHEN e.seq IS NOT NULL THEN 'retry'
      WHEN k.id IS NULL THEN 'missing'
      WHEN k.status = 'quarantined' THEN 'quarantined'
      WHEN k.last_seq <> r.expected_seq THEN 'stale'
      ELSE 'ok'
    END AS verdict
  FROM r
  LEFT JOIN lease l ON l.match_id = r.match_id
  LEFT JOIN locked k ON k.id = r.match_id
  LEFT JOIN events e ON e.match_id = r.match_id AND e.command_id = r.first_command_id
),
created AS (
  INSERT INTO matches (id, created, options, rules_version, status, last_seq, updated, result,
                       deadline_kind, deadline_seat, deadline_at, game, game_version)
  SELECT match_id, time, options, $16, status, expected_seq + events, time, result,
         deadline_kind, deadline_seat, deadline_at, game, game_version
  FROM v WHERE kind = 'create' AND verdict = 'ok'
),
moved AS (
  UPDATE matches m SET
    last_seq = v.expected_seq + v.events,
    updated = CASE WHEN v.events > 0 OR v.status IS NOT NULL THEN v.time ELSE m.updated END,
    status = coalesce(v.status, m.status),
    result = CASE WHEN v.status IS NOT NULL THEN coalesce(v.result, m.result) ELSE m.result END,
    deadline_kind = CASE WHEN v.set_deadline THEN v.deadline_kind ELSE m.deadline_kind END,
    deadline_seat = CASE WHEN v.set_deadline THEN v.deadline_seat ELSE m.deadline_seat END,
    deadline_at = CASE WHEN v.set_deadline THEN v.deadline_at ELSE m.deadline_at END
  FROM v
  WHERE m.id = v.match_id AND v.kind = 'match' AND v.verdict = 'ok'
    AND (v.events > 0 OR v.status IS NOT NULL OR v.set_deadline)
),
appended AS (
  INSERT INTO events (match_id, seq, time, actor, command_id, type, schema_version, payload,
                      state_hash)
  SELECT v.match_id, v.expected_seq + e.off, v.time, e.actor, e.command_id, e.type, e.version,
         e.payload, e.hash
  FROM unnest($20::int[], $21::int[], $22::text[], $23::text[], $24::text[], $25::int[],
              $26::text[], $27::text[]) AS e(req, off, actor, command_id, type, version, payload, hash)
  JOIN v ON v.i = e.req AND v.verdict = 'ok'
),
snapshot AS (
  INSERT INTO snapshots (match_id, seq, version, state)
  SELECT v.match_id, v.expected_seq + v.events, s.version, s.state
  FROM unnest($28::int[], $29::int[], $30::bytea[]) AS s(req, version, state)
  JOIN v ON v.i = s.req AND v.verdict = 'ok'
  ON CONFLICT DO NOTHING
),
seated AS (
  INSERT INTO seats (match_id, seat, nickname, resume_token_hash, tower_color, wizard, computer,
                     account_id, left_by)
  SELECT v.match_id, s.seat, s.nickname, s.token, s.tower, s.wizard, s.computer, s.account,
         s.left_by
  FROM unnest($31::int[], $32::int[], $33::text[], $34::text[], $35::text[], $36::int[],
              $37::text[], $48::bigint[], $49::text[])
       AS s(req, seat, nickname, token, tower, wizard, computer, account, left_by)
  JOIN v ON v.i = s.req AND v.verdict IN ('ok', 'retry')
  ON CONFLICT (match_id, seat) DO UPDATE SET nickname = excluded.nickname,
    resume_token_hash = excluded.resume_token_hash, tower_color = excluded.tower_color,
    wizard = excluded.wizard, computer = excluded.computer,
    account_id = excluded.account_id, left_by = excluded.left_by
),
unseated AS (
  DELETE FROM seats t USING unnest($38::int[], $39::int[]) AS s(req, seat), v
  WHERE v.i = s.req AND v.verdict IN ('ok', 'retry') AND t.match_id = v.match_id
    AND t.seat = s.seat
),
kept AS (
  INSERT INTO unseen_endings (nickname, match_id, time, line)
  SELECT k.nickname, k.match_id, v.time, k.line
  FROM unnest($40::int[], $41::text[], $42::bigint[], $43::text[]) AS k(req, nickname, match_id, line)
  JOIN v ON v.i = k.req AND v.verdict IN ('ok', 'retry')
  ON CONFLICT (nickname) DO UPDATE SET match_id = excluded.match_id, time = excluded.time,
    line = excluded.line
),
delivered AS (
  DELETE FROM unseen_endings u USING unnest($44::int[], $45::text[]) AS d(req, nickname), v
  WHERE v.i = d.req AND v.verdict IN ('ok', 'retry', 'endings') AND u.nickname = d.nickname
    AND u.match_id = v.match_id
),
notified AS (
  SELECT pg_notify('eryantis_lobby', '') FROM v WHERE notify AND verdict = 'ok' LIMIT 1
)
SELECT verdict, last_seq, retry_seq, lease_node, lease_epoch, (SELECT count(*) FROM notified)
FROM v ORDER BY i)SQL";

static_assert(kLobbyChannel == "eryantis_lobby", "the statement's pg_notify names the channel");

constexpr int kParams = 49;

// The arrays of one statement, element by element.
struct BatchParams {
  std::array<pg::Array, kParams> arrays;
  pg::Array& operator[](int n) { return arrays[static_cast<std::size_t>(n - 1)]; }

  pg::Params params() {
    pg::Params out;
    for (int n = 1; n <= kParams; ++n) {
      if (n == 16) {
        out.add(std::string_view(ERYANTIS_VERSION));
      } else {
        out.add((*this)[n].str());
      }
    }
    return out;
  }
};

bool notifies_lobby(const AppendRequest& r) {
  return r.create || !r.seats.empty() || !r.remove_seats.empty() || r.status;
}

// Requests whose writes would meet in one statement (PostgreSQL changes a row
// once per statement), or a snapshot the statement cannot make: these go request
// by request.
// A request with events or a new match must say its game (request_game).
bool fits_one_statement(std::span<const AppendRequest> requests, const Options& options) {
  const int snapshot_every = options.snapshot_every;
  std::set<MatchId> matches;
  std::set<std::string> kept;
  std::set<std::string> delivered;
  for (const AppendRequest& r : requests) {
    if (!matches.insert(r.match_id).second) return false;
    const game::Game* played = request_game(options, r);
    if ((r.create || !r.events.empty()) && !played) return false;
    // Invites and private matches (schema 10) are rare: written request by request.
    // So are takeover matches (schema 12), and clocks' steps and times (schema 13).
    if (!r.invites.empty() ||
        (r.create && (r.create->private_match || r.create->takeover || r.create->clock)))
      return false;
    if (!r.clock_steps.empty() || r.time_ms) return false;
    std::set<int> seats;
    for (const SeatRecord& seat : r.seats)
      if (!seats.insert(seat.seat).second) return false;
    for (int seat : r.remove_seats)
      if (!seats.insert(seat).second) return false;
    for (const UnseenEnding& ending : r.keep_endings)
      if (!kept.insert(ending.nickname).second || delivered.count(ending.nickname)) return false;
    for (const std::string& nickname : r.delivered_endings)
      if (!delivered.insert(nickname).second || kept.count(nickname)) return false;
    if (r.events.empty() || snapshot_every <= 0) continue;
    const Seq before = r.expected_seq;
    const Seq after = before + static_cast<Seq>(r.events.size());
    // A snapshot due: from the caller's state, checked against the last hash
    // (the request by request path folds one, or refuses a state that disagrees).
    if (before / snapshot_every != after / snapshot_every &&
        (!r.state_after || played->hash(*r.state_after) != r.events.back().state_hash))
      return false;
  }
  return true;
}

// PRECONDITION: fits_one_statement accepted `r`.
void add_request(BatchParams& p, const Options& options, const AppendRequest& r,
                 std::int64_t request, std::int64_t time) {
  const int snapshot_every = options.snapshot_every;
  const game::Game* played = request_game(options, r);
  const bool endings_only = r.only_delivers_endings();
  p[1].add(r.match_id);
  p[2].add(r.expected_seq);
  if (r.fence) {
    p[3].add(r.fence->node);
    p[4].add(r.fence->epoch);
    p[18].add(r.match_id);
  } else {
    p[3].add_null();
    p[4].add_null();
  }
  if (!endings_only && !r.events.empty() && r.events.front().command_id) {
    p[5].add(*r.events.front().command_id);
  } else {
    p[5].add_null();
  }
  p[6].add(static_cast<std::int64_t>(endings_only ? 0 : r.events.size()));
  p[7].add(endings_only ? "endings" : r.create ? "create" : "match");
  if (!endings_only && !r.create) p[19].add(r.match_id);
  p[8].add(time);
  // A new match's row is written whole: its status is the final one, its result
  // only with a status (as an update would set it).
  std::optional<std::string> status;
  if (r.status) {
    status = std::string(status_name(*r.status));
  } else if (r.create) {
    status = std::string(status_name(r.create->status));
  }
  p[9].add_optional(status);
  p[10].add_optional(r.status ? r.result_json : std::nullopt);
  const bool deadline = r.deadline && !r.deadline->kind.empty();
  p[11].add_bool(r.deadline.has_value());
  p[12].add_optional(deadline ? std::optional<std::string>(r.deadline->kind) : std::nullopt);
  p[13].add_optional(deadline ? std::optional<std::int64_t>(r.deadline->seat) : std::nullopt);
  p[14].add_optional(deadline ? std::optional<std::int64_t>(r.deadline->at_ms) : std::nullopt);
  p[15].add_optional(r.create ? std::optional<std::string>(played->options_json(r.create->options))
                              : std::nullopt);
  p[17].add_bool(notifies_lobby(r));
  p[46].add_optional(r.create ? std::optional<std::string>(r.create->game) : std::nullopt);
  p[47].add_optional(r.create ? std::optional<std::int64_t>(r.create->game_version)
                              : std::nullopt);
  if (endings_only) {
    for (const std::string& nickname : r.delivered_endings) {
      p[44].add(request);
      p[45].add(nickname);
    }
    return;
  }

  std::int64_t offset = 0;
  for (const NewEvent& event : r.events) {
    const EventColumns row = event_columns(*played, event);
    p[20].add(request);
    p[21].add(++offset);
    p[22].add(row.actor);
    p[23].add_optional(event.command_id);
    p[24].add(row.type);
    p[25].add(row.schema_version);
    p[26].add(row.payload);
    p[27].add(row.state_hash);
  }
  const Seq after = r.expected_seq + static_cast<Seq>(r.events.size());
  if (!r.events.empty() && snapshot_every > 0 &&
      r.expected_seq / snapshot_every != after / snapshot_every) {
    p[28].add(request);
    p[29].add(std::int64_t{played->state_schema()});
    p[30].add_bytes(played->state_to_binary(*r.state_after));  // fits_one_statement checked it
  }
  for (const SeatRecord& seat : r.seats) {
    p[31].add(request);
    p[32].add(std::int64_t{seat.seat});
    p[33].add(seat.nickname);
    p[34].add(seat.resume_token_hash);
    p[35].add_optional(seat.tower_color);
    p[36].add_optional(seat.wizard ? std::optional<std::int64_t>(*seat.wizard) : std::nullopt);
    p[37].add_optional(seat.computer);
    p[48].add_optional(seat.account_id);
    p[49].add_optional(seat.left_by);
  }
  for (int seat : r.remove_seats) {
    p[38].add(request);
    p[39].add(std::int64_t{seat});
  }
  for (const UnseenEnding& ending : r.keep_endings) {
    p[40].add(request);
    p[41].add(ending.nickname);
    p[42].add(ending.match_id);
    p[43].add(ending.line);
  }
  for (const std::string& nickname : r.delivered_endings) {
    p[44].add(request);
    p[45].add(nickname);
  }
}

// One request's answer from its row of the statement's result.
Result<AppendOutcome> outcome_of(const AppendRequest& r, const pg::Rows& rows, int row) {
  const std::string_view verdict = rows.text(row, 0);
  const MatchId id = r.match_id;
  const Seq count = static_cast<Seq>(r.events.size());
  if (verdict == "ok") {
    if (count == 0) return AppendOutcome{r.expected_seq, r.expected_seq, false};
    return AppendOutcome{r.expected_seq + 1, r.expected_seq + count, false};
  }
  if (verdict == "endings") return AppendOutcome{};
  if (verdict == "retry") {
    const Seq first = rows.integer(row, 2);
    return AppendOutcome{first, first + count - 1, true};
  }
  if (verdict == "fenced") {
    const LeaseFence& fence = *r.fence;
    if (rows.is_null(row, 3))
      return fail(StoreCode::Fenced,
                  fmt::format("match {}: node {} holds no lease on it (epoch {})", id, fence.node,
                              fence.epoch));
    if (rows.text(row, 3) != fence.node || rows.integer(row, 4) != fence.epoch)
      return fail(StoreCode::Fenced,
                  fmt::format("match {}: node {} lost its lease (epoch {}); {} holds epoch {}", id,
                              fence.node, fence.epoch, rows.text(row, 3), rows.integer(row, 4)));
    return fail(StoreCode::Fenced,
                fmt::format("match {}: the lease of node {} (epoch {}) expired; renew it first", id,
                            fence.node, fence.epoch));
  }
  if (verdict == "missing") return fail(StoreCode::NotFound, fmt::format("no match {}", id));
  if (verdict == "quarantined")
    return fail(StoreCode::Conflict, fmt::format("match {} is quarantined", id));
  const Seq last_seq = r.create ? 0 : rows.integer(row, 1);
  return std::unexpected(StoreError{
      StoreCode::Conflict,
      fmt::format("match {} is at seq {}, the write expected {}", id, last_seq, r.expected_seq),
      last_seq});
}

}  // namespace

const game::Game* request_game(const Options& options, const AppendRequest& r) {
  if (r.game) return r.game;
  if (r.create) return options.served(r.create->game, r.create->game_version);
  return nullptr;
}

EventColumns event_columns(const game::Game& played, const NewEvent& event) {
  EventText text = event_text(played, event);
  return EventColumns{event.actor.text(), std::move(text.type),
                      std::int64_t{played.event_schema()}, std::move(text.payload),
                      hash_to_hex(event.state_hash)};
}

std::optional<std::vector<Result<AppendOutcome>>> pg_append_in_one_statement(
    PgStore::Impl& impl, std::span<const AppendRequest> requests,
    std::span<const std::size_t> order) {
  if (!fits_one_statement(requests, impl.options)) return std::nullopt;
  BatchParams p;
  const std::int64_t time = now_ms();
  std::int64_t number = 0;
  for (const std::size_t i : order)
    add_request(p, impl.options, requests[i], ++number, time);
  auto rows = impl.conn.query(kAppendBatch, p.params());
  if (!rows) {
    // The connection is gone: whether it committed is unknown, nothing is
    // acknowledged (a retry by command id finds it if it did).
    if (impl.conn.broken())
      return std::vector<Result<AppendOutcome>>(requests.size(), std::unexpected(rows.error()));
    return std::nullopt;  // a request broke a constraint: request by request finds which
  }
  std::vector<Result<AppendOutcome>> results(requests.size());
  int row = 0;
  for (const std::size_t i : order) results[i] = outcome_of(requests[i], *rows, row++);
  return results;
}

std::optional<std::vector<Result<AppendOutcome>>> pg_append_pipelined(
    PgStore::Impl& impl, std::span<const AppendRequest> requests,
    std::span<const std::size_t> order) {
  if (!fits_one_statement(requests, impl.options)) return std::nullopt;
  const std::int64_t time = now_ms();
  std::vector<pg::Connection::Step> steps;
  steps.reserve(order.size() + 2);
  steps.push_back({"BEGIN", {}});
  for (const std::size_t i : order) {
    BatchParams p;
    add_request(p, impl.options, requests[i], 1, time);
    steps.push_back({kAppendBatch, p.params()});
  }
  steps.push_back({"COMMIT", {}});
  auto results = impl.conn.pipeline(steps);
  const auto& commit = results.back();
  if (!commit || std::string_view(PQcmdStatus(const_cast<PGresult*>(commit->raw()))) != "COMMIT") {
    if (impl.conn.broken()) {
      const StoreError error =
          commit ? StoreError{StoreCode::Io, "COMMIT: the connection was lost", -1}
                 : commit.error();
      return std::vector<Result<AppendOutcome>>(requests.size(), std::unexpected(error));
    }
    (void)impl.conn.exec("ROLLBACK");  // the transaction block the failure left open
    return std::nullopt;
  }
  std::vector<Result<AppendOutcome>> out(requests.size());
  std::size_t step = 1;
  for (const std::size_t i : order) out[i] = outcome_of(requests[i], *results[step++], 0);
  return out;
}

}  // namespace eryantis::store::detail
