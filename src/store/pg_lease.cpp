// Match leases on PostgreSQL (docs/cluster.md): which node serves a match, until
// when (the database's clock), and the epoch that fences its writes.
#include <spdlog/fmt/fmt.h>

#include <unordered_map>

#include "eryantis/util/expected.hpp"
#include "fold_source.hpp"
#include "pg_impl.hpp"

namespace eryantis::store {

namespace {

constexpr const char* kLeaseColumns =
    "node, epoch, (extract(epoch FROM expires_at) * 1000)::bigint";

Lease lease_from(MatchId id, const pg::Rows& rows, int row = 0, int first = 0) {
  return Lease{id, std::string(rows.text(row, first)), rows.integer(row, first + 1),
               rows.integer(row, first + 2)};
}

// What acquire_lease answers when the row was not taken: who holds it.
StoreError not_taken(MatchId id, const std::optional<Lease>& holder) {
  if (!holder) return StoreError{StoreCode::Conflict, fmt::format("match {}: lease not taken", id)};
  return StoreError{StoreCode::Conflict,
                    fmt::format("match {} is served by node {} (lease epoch {}, expires at {} ms)",
                                id, holder->node, holder->epoch, holder->expires_at_ms)};
}

// The condition under which a lease of match `id` (an SQL expression) may be
// taken: no match row yet (a node leases the id it is about to create), or one of
// a game and version this store serves ($served_games, $served_versions: Options::
// serves). A node never takes the lease of a match it cannot serve: it could only
// give it back, and meanwhile the node that serves the game would be told the
// match is served here and send its players to the wrong node (docs/cluster.md).
std::string served_or_new(std::string_view id, int served_games, int served_versions) {
  return fmt::format(
      "NOT EXISTS (SELECT 1 FROM matches unserved WHERE unserved.id = {} AND "
      "(unserved.game, unserved.game_version) NOT IN "
      "(SELECT * FROM unnest(${}::text[], ${}::int[])))",
      id, served_games, served_versions);
}

// Why each of `ids` was not taken, into `why`: Conflict naming the holder while
// another node's lease runs (its client is sent there: a node need not serve a
// game to redirect to one that does), else Unserved for a match of a game this
// store does not serve, else Conflict. One statement.
// (An out-parameter: g++ 12 warns wrongly, -Wfree-nonheap-object, on a map
// returned inside a std::expected here.)
Result<void> not_taken(pg::Connection& conn, const Options& options,
                       std::span<const MatchId> ids,
                       std::unordered_map<MatchId, StoreError>& why) {
  auto rows = conn.query(
      "SELECT batch.id, m.game, m.game_version, l.node, l.epoch, "
      "(extract(epoch FROM l.expires_at) * 1000)::bigint, "
      "coalesce(l.expires_at > clock_timestamp(), false) FROM unnest($1::bigint[]) AS batch(id) "
      "LEFT JOIN matches m ON m.id = batch.id LEFT JOIN leases l ON l.match_id = batch.id",
      pg::Params().add(detail::pg_id_array(ids)));
  if (!rows) return util::forward_error(rows);
  for (int row = 0; row < rows->size(); ++row) {
    const MatchId id = rows->integer(row, 0);
    const bool live = rows->text(row, 6) == "t";
    if (!live && !rows->is_null(row, 1)) {
      const std::string game(rows->text(row, 1));
      const int version = static_cast<int>(rows->integer(row, 2));
      if (!options.serves_game(game, version)) {
        // Said of the node (a lease is a node's), to be shown to the client
        // that asked for the match (UNSERVED_GAME, docs/protocol.md).
        why.emplace(id, StoreError{StoreCode::Unserved,
                                   fmt::format("match {} plays {} version {}, which this node "
                                               "does not serve",
                                               id, game, version)});
        continue;
      }
    }
    std::optional<Lease> holder;
    if (!rows->is_null(row, 3)) holder = lease_from(id, *rows, row, 3);
    why.emplace(id, not_taken(id, holder));
  }
  return {};
}

}  // namespace

Result<Lease> PgStore::acquire_lease(MatchId id, std::string_view node,
                                     std::chrono::milliseconds ttl) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  // One statement, so two nodes racing for a free lease serialise on the row:
  // the second sees the first's unexpired lease and gets nothing back.
  const auto served = detail::pg_served_arrays(impl_->options);
  auto taken = impl_->conn.query(
      fmt::format("INSERT INTO leases (match_id, node, epoch, expires_at) "
                  "SELECT $1::bigint, $2::text, 1, clock_timestamp() + $3::bigint * "
                  "interval '1 millisecond' WHERE {} "
                  "ON CONFLICT (match_id) DO UPDATE SET node = excluded.node, "
                  "epoch = leases.epoch + 1, expires_at = excluded.expires_at "
                  "WHERE leases.expires_at <= clock_timestamp() OR leases.node = excluded.node "
                  "RETURNING {}",
                  served_or_new("$1::bigint", 4, 5), kLeaseColumns),
      pg::Params()
          .add(id)
          .add(node)
          .add(static_cast<std::int64_t>(ttl.count()))
          .add(served.first)
          .add(served.second));
  if (!taken) return util::forward_error(taken);
  if (!taken->empty()) return lease_from(id, *taken);
  const MatchId one[] = {id};
  std::unordered_map<MatchId, StoreError> why;
  if (auto found = not_taken(impl_->conn, impl_->options, one, why); !found)
    return util::forward_error(found);
  if (auto it = why.find(id); it != why.end()) return std::unexpected(std::move(it->second));
  return std::unexpected(not_taken(id, std::nullopt));
}

Result<std::vector<Result<Lease>>> PgStore::acquire_leases(std::span<const MatchId> ids,
                                                           std::string_view node,
                                                           std::chrono::milliseconds ttl) {
  std::vector<Result<Lease>> out;
  if (ids.empty()) return out;
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  // acquire_lease's statement over the whole batch. Rows another node's lease
  // visibly holds are left out before any is locked (ON CONFLICT locks the row
  // even when its WHERE then refuses: the redirect storm while a dead node's
  // leases run would lock them all, again and again), and the rest are locked in
  // id order, as renew_leases and release_leases lock theirs: two nodes' batches
  // wait for each other, never deadlock (PostgreSQL then aborts one only after
  // deadlock_timeout, 1 s: seen in bench/cluster.sh f before the order was fixed).
  // A match of a game this store does not serve is left out too (served_or_new).
  const auto served = detail::pg_served_arrays(impl_->options);
  auto taken = impl_->conn.query(
      fmt::format("INSERT INTO leases (match_id, node, epoch, expires_at) "
                  "SELECT batch.id, $1, 1, clock_timestamp() + $3::bigint * interval '1 "
                  "millisecond' FROM unnest($2::bigint[]) AS batch(id) "
                  "LEFT JOIN leases held ON held.match_id = batch.id "
                  "WHERE (held.match_id IS NULL OR held.expires_at <= clock_timestamp() OR "
                  "held.node = $1) AND {} ORDER BY batch.id "
                  "ON CONFLICT (match_id) DO UPDATE SET node = excluded.node, "
                  "epoch = leases.epoch + 1, expires_at = excluded.expires_at "
                  "WHERE leases.expires_at <= clock_timestamp() OR leases.node = excluded.node "
                  "RETURNING match_id, {}",
                  served_or_new("batch.id", 4, 5), kLeaseColumns),
      pg::Params()
          .add(node)
          .add(detail::pg_id_array(ids))
          .add(static_cast<std::int64_t>(ttl.count()))
          .add(served.first)
          .add(served.second));
  if (!taken) return util::forward_error(taken);
  std::unordered_map<MatchId, Lease> won;
  for (int row = 0; row < taken->size(); ++row) {
    const MatchId id = taken->integer(row, 0);
    won.emplace(id, lease_from(id, *taken, row, 1));
  }
  // Why the rest were not taken (their holders, or their game), in one more statement.
  std::vector<MatchId> lost;
  for (const MatchId id : ids)
    if (!won.contains(id)) lost.push_back(id);
  std::unordered_map<MatchId, StoreError> why;
  if (!lost.empty()) {
    auto found = not_taken(impl_->conn, impl_->options, lost, why);
    if (!found) return util::forward_error(found);
  }
  out.reserve(ids.size());
  for (const MatchId id : ids) {
    if (auto it = won.find(id); it != won.end()) {
      out.emplace_back(std::move(it->second));
      continue;
    }
    auto reason = why.find(id);
    out.emplace_back(std::unexpected(reason == why.end() ? not_taken(id, std::nullopt)
                                                         : reason->second));
  }
  return out;
}

Result<Lease> PgStore::renew_lease(MatchId id, const LeaseFence& fence,
                                   std::chrono::milliseconds ttl) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto renewed = impl_->conn.query(
      fmt::format("UPDATE leases SET expires_at = clock_timestamp() + $4::bigint * interval '1 "
                  "millisecond' WHERE match_id = $1 AND node = $2 AND epoch = $3 AND "
                  "expires_at > clock_timestamp() RETURNING {}",
                  kLeaseColumns),
      pg::Params()
          .add(id)
          .add(fence.node)
          .add(fence.epoch)
          .add(static_cast<std::int64_t>(ttl.count())));
  if (!renewed) return util::forward_error(renewed);
  if (renewed->empty()) {
    return fail(StoreCode::Fenced,
                fmt::format("match {}: node {} lost its lease (epoch {}): it expired or another "
                            "node took it",
                            id, fence.node, fence.epoch));
  }
  return lease_from(id, *renewed);
}

Result<void> PgStore::release_lease(MatchId id, const LeaseFence& fence) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto released = impl_->conn.query(
      "UPDATE leases SET expires_at = clock_timestamp() WHERE match_id = $1 AND node = $2 AND "
      "epoch = $3 AND expires_at > clock_timestamp()",
      pg::Params().add(id).add(fence.node).add(fence.epoch));
  if (!released) return util::forward_error(released);
  return {};
}

Result<std::optional<Lease>> PgStore::lease(MatchId id) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows =
      impl_->conn.query(fmt::format("SELECT {} FROM leases WHERE match_id = $1", kLeaseColumns),
                        pg::Params().add(id));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return std::optional<Lease>{};
  return std::optional<Lease>(lease_from(id, *rows));
}

Result<std::vector<Lease>> PgStore::leases(std::span<const MatchId> ids) {
  if (ids.empty()) return std::vector<Lease>{};
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      fmt::format("SELECT match_id, {} FROM leases WHERE match_id = ANY($1::bigint[])",
                  kLeaseColumns),
      pg::Params().add(detail::pg_id_array(ids)));
  if (!rows) return util::forward_error(rows);
  std::vector<Lease> out;
  out.reserve(static_cast<std::size_t>(rows->size()));
  for (int row = 0; row < rows->size(); ++row)
    out.push_back(lease_from(rows->integer(row, 0), *rows, row, 1));
  return out;
}

}  // namespace eryantis::store
