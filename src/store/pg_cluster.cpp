// What the nodes of a cluster share beside the leases (docs/cluster.md): where
// each node is reached, the match id sequence, where a nickname's seat is.
#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <unordered_map>

#include "eryantis/util/expected.hpp"
#include "pg_impl.hpp"

namespace eryantis::store {

namespace {

// '{1,2,3}': a bigint[] parameter as text.
std::string array_text(std::span<const HeldLease> held, bool epochs) {
  std::string out = "{";
  for (const HeldLease& h : held) {
    if (out.size() > 1) out += ',';
    out += std::to_string(epochs ? h.epoch : h.match_id);
  }
  return out + "}";
}

}  // namespace

Result<std::vector<MatchId>> PgStore::renew_leases(std::string_view node,
                                                   std::span<const HeldLease> held,
                                                   std::chrono::milliseconds ttl) {
  if (held.empty()) return std::vector<MatchId>{};
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  // The rows locked in id order first (as acquire_leases locks its own): another
  // node adopting some of these matches waits for this statement, or it for
  // that one, but they never deadlock.
  auto renewed = impl_->conn.query(
      "WITH locked AS (SELECT l.match_id FROM leases l "
      "JOIN unnest($2::bigint[], $3::bigint[]) AS held(match_id, epoch) "
      "ON l.match_id = held.match_id AND l.epoch = held.epoch "
      "WHERE l.node = $1 AND l.expires_at > clock_timestamp() ORDER BY l.match_id FOR UPDATE OF l) "
      "UPDATE leases SET expires_at = clock_timestamp() + $4::bigint * interval '1 millisecond' "
      "FROM locked WHERE leases.match_id = locked.match_id RETURNING leases.match_id",
      pg::Params()
          .add(node)
          .add(array_text(held, false))
          .add(array_text(held, true))
          .add(static_cast<std::int64_t>(ttl.count())));
  if (!renewed) return util::forward_error(renewed);
  std::vector<MatchId> kept;
  for (int row = 0; row < renewed->size(); ++row) kept.push_back(renewed->integer(row, 0));
  std::sort(kept.begin(), kept.end());
  std::vector<MatchId> lost;
  for (const HeldLease& h : held)
    if (!std::binary_search(kept.begin(), kept.end(), h.match_id)) lost.push_back(h.match_id);
  return lost;
}

Result<std::size_t> PgStore::release_leases(std::string_view node,
                                            std::span<const HeldLease> held) {
  if (held.empty()) return std::size_t{0};
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  // Locked in id order, as renew_leases.
  auto released = impl_->conn.query(
      "WITH locked AS (SELECT l.match_id FROM leases l "
      "JOIN unnest($2::bigint[], $3::bigint[]) AS held(match_id, epoch) "
      "ON l.match_id = held.match_id AND l.epoch = held.epoch "
      "WHERE l.node = $1 AND l.expires_at > clock_timestamp() ORDER BY l.match_id FOR UPDATE OF l) "
      "UPDATE leases SET expires_at = clock_timestamp() "
      "FROM locked WHERE leases.match_id = locked.match_id RETURNING leases.match_id",
      pg::Params().add(node).add(array_text(held, false)).add(array_text(held, true)));
  if (!released) return util::forward_error(released);
  return static_cast<std::size_t>(released->size());
}

Result<void> PgStore::register_node(const NodeInfo& info) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto upserted = impl_->conn.query(
      "INSERT INTO nodes (node, public_address, public_web) VALUES ($1, $2, $3) "
      "ON CONFLICT (node) DO UPDATE SET public_address = excluded.public_address, "
      "public_web = excluded.public_web, started_at = clock_timestamp()",
      pg::Params().add(info.node).add(info.public_address).add_optional(info.public_web));
  if (!upserted) return util::forward_error(upserted);
  // Nicknames this node claimed in a previous life (it was killed): nobody is
  // logged in here yet.
  if (auto released = release_nicknames(info.node); !released) return released;
  // Matches a single server (no [cluster]) created took max(id) + 1, not the
  // sequence. Only moves it forward: nodes running meanwhile keep their ids.
  auto bumped = impl_->conn.query(
      "SELECT setval('match_ids', m) FROM (SELECT max(id) AS m FROM matches) AS x "
      "WHERE m IS NOT NULL AND m >= (SELECT last_value FROM match_ids)");
  if (!bumped) return util::forward_error(bumped);
  return {};
}

Result<std::optional<NodeInfo>> PgStore::node_info(std::string_view node) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "SELECT node, public_address, public_web FROM nodes WHERE node = $1", pg::Params().add(node));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return std::optional<NodeInfo>{};
  return std::optional<NodeInfo>(NodeInfo{
      std::string(rows->text(0, 0)), std::string(rows->text(0, 1)), rows->optional_text(0, 2)});
}

Result<MatchId> PgStore::next_match_id() {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query("SELECT nextval('match_ids')");
  if (!rows) return util::forward_error(rows);
  return rows->integer(0, 0);
}

Result<std::optional<MatchId>> PgStore::unfinished_seat_of(std::string_view nickname) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "SELECT s.match_id FROM seats s JOIN matches m ON m.id = s.match_id "
      "WHERE s.nickname = $1 AND s.computer IS NULL AND m.status IN ('lobby', 'running') "
      "ORDER BY s.match_id DESC LIMIT 1",
      pg::Params().add(nickname));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return std::optional<MatchId>{};
  return std::optional<MatchId>(rows->integer(0, 0));
}

Result<std::vector<std::optional<MatchId>>> PgStore::unfinished_seats_of(
    std::span<const std::string> nicknames) {
  std::vector<std::optional<MatchId>> out(nicknames.size());
  if (nicknames.empty()) return out;
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      "SELECT DISTINCT ON (s.nickname) s.nickname, s.match_id FROM seats s "
      "JOIN matches m ON m.id = s.match_id WHERE s.nickname = ANY($1::text[]) AND "
      "s.computer IS NULL AND m.status IN ('lobby', 'running') "
      "ORDER BY s.nickname, s.match_id DESC",
      pg::Params().add(detail::pg_text_array(nicknames)));
  if (!rows) return util::forward_error(rows);
  std::unordered_map<std::string, MatchId> found;
  for (int row = 0; row < rows->size(); ++row)
    found.emplace(std::string(rows->text(row, 0)), rows->integer(row, 1));
  for (std::size_t i = 0; i < nicknames.size(); ++i)
    if (auto it = found.find(nicknames[i]); it != found.end()) out[i] = it->second;
  return out;
}

Result<std::optional<MatchStatus>> PgStore::match_status(MatchId id) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query("SELECT status FROM matches WHERE id = $1", pg::Params().add(id));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return std::optional<MatchStatus>{};
  auto status = parse_status(rows->text(0, 0));
  if (!status)
    return fail(StoreCode::Corrupt,
                fmt::format("match {}: unknown status '{}'", id, rows->text(0, 0)));
  return std::optional<MatchStatus>(*status);
}

Result<std::vector<std::optional<MatchStatus>>> PgStore::match_statuses(
    std::span<const MatchId> ids) {
  std::vector<std::optional<MatchStatus>> out(ids.size());
  if (ids.empty()) return out;
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query("SELECT id, status FROM matches WHERE id = ANY($1::bigint[])",
                                pg::Params().add(detail::pg_id_array(ids)));
  if (!rows) return util::forward_error(rows);
  std::unordered_map<MatchId, MatchStatus> found;
  for (int row = 0; row < rows->size(); ++row) {
    const MatchId id = rows->integer(row, 0);
    auto status = parse_status(rows->text(row, 1));
    if (!status)
      return fail(StoreCode::Corrupt,
                  fmt::format("match {}: unknown status '{}'", id, rows->text(row, 1)));
    found.emplace(id, *status);
  }
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (auto it = found.find(ids[i]); it != found.end()) out[i] = it->second;
  return out;
}

Result<std::vector<OpenMatch>> PgStore::open_matches(std::size_t limit) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  const auto served = detail::pg_served_arrays(impl_->options);
  // One statement: the matches and their seats (a match with no seat row yet
  // comes once with a NULL seat).
  auto rows = impl_->conn.query(
      "SELECT m.id, (m.options::jsonb ->> 'players')::int, m.options::jsonb ->> 'mode', s.seat, "
      "s.nickname, s.computer, m.game, m.game_version FROM (SELECT id, options, game, "
      "game_version FROM matches WHERE status = 'lobby' AND NOT is_private AND (game, game_version) IN "
      "(SELECT * FROM unnest($2::text[], $3::int[])) ORDER BY id LIMIT $1) AS m "
      "LEFT JOIN seats s ON s.match_id = m.id ORDER BY m.id, s.seat",
      pg::Params()
          .add(static_cast<std::int64_t>(limit))
          .add(served.first)
          .add(served.second));
  if (!rows) return util::forward_error(rows);
  std::vector<OpenMatch> out;
  for (int row = 0; row < rows->size(); ++row) {
    const MatchId id = rows->integer(row, 0);
    if (out.empty() || out.back().id != id)
      out.push_back(OpenMatch{id,
                              static_cast<int>(rows->integer(row, 1)),
                              std::string(rows->text(row, 2)),
                              {},
                              std::string(rows->text(row, 6)),
                              static_cast<int>(rows->integer(row, 7))});
    if (!rows->optional_text(row, 3)) continue;
    SeatRecord seat;
    seat.match_id = id;
    seat.seat = static_cast<int>(rows->integer(row, 3));
    seat.nickname = std::string(rows->text(row, 4));
    seat.computer = rows->optional_text(row, 5);
    out.back().seats.push_back(std::move(seat));
  }
  return out;
}

Result<std::vector<MatchId>> PgStore::due_orphans(std::int64_t due_before_ms, std::size_t limit) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  const auto served = detail::pg_served_arrays(impl_->options);
  auto rows = impl_->conn.query(
      "SELECT m.id FROM matches m LEFT JOIN leases l ON l.match_id = m.id "
      "WHERE m.status IN ('lobby', 'running') AND "
      "(m.deadline_kind IS NULL OR m.deadline_at <= $1) AND "
      "(l.match_id IS NULL OR l.expires_at <= clock_timestamp()) AND "
      "(m.game, m.game_version) IN (SELECT * FROM unnest($3::text[], $4::int[])) "
      "ORDER BY m.deadline_at NULLS LAST, m.id LIMIT $2",
      pg::Params()
          .add(due_before_ms)
          .add(static_cast<std::int64_t>(limit))
          .add(served.first)
          .add(served.second));
  if (!rows) return util::forward_error(rows);
  std::vector<MatchId> out;
  for (int row = 0; row < rows->size(); ++row) out.push_back(rows->integer(row, 0));
  return out;
}

}  // namespace eryantis::store
