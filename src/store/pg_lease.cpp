// Match leases on PostgreSQL (docs/cluster.md): which node serves a match, until
// when (the database's clock), and the epoch that fences its writes.
#include <spdlog/fmt/fmt.h>

#include <unordered_map>

#include "eryantis/util/expected.hpp"
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

}  // namespace

Result<Lease> PgStore::acquire_lease(MatchId id, std::string_view node,
                                     std::chrono::milliseconds ttl) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  // One statement, so two nodes racing for a free lease serialise on the row:
  // the second sees the first's unexpired lease and gets nothing back.
  auto taken = impl_->conn.query(
      fmt::format("INSERT INTO leases (match_id, node, epoch, expires_at) "
                  "VALUES ($1, $2, 1, clock_timestamp() + $3::bigint * interval '1 millisecond') "
                  "ON CONFLICT (match_id) DO UPDATE SET node = excluded.node, "
                  "epoch = leases.epoch + 1, expires_at = excluded.expires_at "
                  "WHERE leases.expires_at <= clock_timestamp() OR leases.node = excluded.node "
                  "RETURNING {}",
                  kLeaseColumns),
      pg::Params().add(id).add(node).add(static_cast<std::int64_t>(ttl.count())));
  if (!taken) return util::forward_error(taken);
  if (!taken->empty()) return lease_from(id, *taken);
  auto holder = lease(id);
  if (!holder) return util::forward_error(holder);
  return std::unexpected(not_taken(id, *holder));
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
  auto taken = impl_->conn.query(
      fmt::format("INSERT INTO leases (match_id, node, epoch, expires_at) "
                  "SELECT batch.id, $1, 1, clock_timestamp() + $3::bigint * interval '1 "
                  "millisecond' FROM unnest($2::bigint[]) AS batch(id) "
                  "LEFT JOIN leases held ON held.match_id = batch.id "
                  "WHERE held.match_id IS NULL OR held.expires_at <= clock_timestamp() OR "
                  "held.node = $1 ORDER BY batch.id "
                  "ON CONFLICT (match_id) DO UPDATE SET node = excluded.node, "
                  "epoch = leases.epoch + 1, expires_at = excluded.expires_at "
                  "WHERE leases.expires_at <= clock_timestamp() OR leases.node = excluded.node "
                  "RETURNING match_id, {}",
                  kLeaseColumns),
      pg::Params()
          .add(node)
          .add(detail::pg_id_array(ids))
          .add(static_cast<std::int64_t>(ttl.count())));
  if (!taken) return util::forward_error(taken);
  std::unordered_map<MatchId, Lease> won;
  for (int row = 0; row < taken->size(); ++row) {
    const MatchId id = taken->integer(row, 0);
    won.emplace(id, lease_from(id, *taken, row, 1));
  }
  // The holders of the rest, in one more statement.
  std::vector<MatchId> lost;
  for (const MatchId id : ids)
    if (!won.contains(id)) lost.push_back(id);
  std::unordered_map<MatchId, Lease> holders;
  if (!lost.empty()) {
    auto held = leases(lost);
    if (!held) return util::forward_error(held);
    for (Lease& lease : *held) holders.emplace(lease.match_id, std::move(lease));
  }
  out.reserve(ids.size());
  for (const MatchId id : ids) {
    if (auto it = won.find(id); it != won.end()) {
      out.emplace_back(std::move(it->second));
      continue;
    }
    auto holder = holders.find(id);
    out.emplace_back(std::unexpected(
        not_taken(id, holder == holders.end() ? std::nullopt : std::optional(holder->second))));
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
