// A nickname is logged in on one node of the cluster at a time (docs/cluster.md):
// a claim row per logged-in nickname, renewed with the node's leases, run out
// when the node dies.
#include <unordered_map>
#include <unordered_set>

#include "eryantis/util/expected.hpp"
#include "pg_impl.hpp"

namespace eryantis::store {

Result<std::optional<std::string>> PgStore::claim_nickname(std::string_view nickname,
                                                           std::string_view node,
                                                           std::chrono::milliseconds ttl) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  // A claim released between the two statements is tried again (twice at most:
  // the second insert then finds the row gone or another holder).
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto claimed = impl_->conn.query(
        "INSERT INTO nicknames (nickname, node, expires_at) "
        "VALUES ($1, $2, clock_timestamp() + $3::bigint * interval '1 millisecond') "
        "ON CONFLICT (nickname) DO UPDATE SET node = excluded.node, "
        "expires_at = excluded.expires_at "
        "WHERE nicknames.node = excluded.node OR nicknames.expires_at <= clock_timestamp() "
        "RETURNING nickname",
        pg::Params().add(nickname).add(node).add(static_cast<std::int64_t>(ttl.count())));
    if (!claimed) return util::forward_error(claimed);
    if (!claimed->empty()) return std::optional<std::string>{};
    auto holder = impl_->conn.query("SELECT node FROM nicknames WHERE nickname = $1",
                                    pg::Params().add(nickname));
    if (!holder) return util::forward_error(holder);
    if (!holder->empty()) return std::optional<std::string>(std::string(holder->text(0, 0)));
  }
  return fail(StoreCode::Busy, "the nickname's claim changed hands twice meanwhile; try again");
}

Result<std::vector<Result<std::optional<std::string>>>> PgStore::claim_nicknames(
    std::span<const std::string> nicknames, std::string_view node, std::chrono::milliseconds ttl) {
  std::vector<Result<std::optional<std::string>>> out;
  if (nicknames.empty()) return out;
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  const std::string names = detail::pg_text_array(nicknames);
  // claim_nickname's statement over the batch. As in acquire_leases: the claims
  // another node visibly holds are left out before any row is locked, the rest
  // locked in nickname order (renew_nicknames locks its own so): no deadlock.
  auto claimed = impl_->conn.query(
      "INSERT INTO nicknames (nickname, node, expires_at) "
      "SELECT batch.name, $1, clock_timestamp() + $3::bigint * interval '1 millisecond' "
      "FROM unnest($2::text[]) AS batch(name) LEFT JOIN nicknames held ON held.nickname = "
      "batch.name WHERE held.nickname IS NULL OR held.expires_at <= clock_timestamp() OR "
      "held.node = $1 ORDER BY batch.name "
      "ON CONFLICT (nickname) DO UPDATE SET node = excluded.node, "
      "expires_at = excluded.expires_at "
      "WHERE nicknames.node = excluded.node OR nicknames.expires_at <= clock_timestamp() "
      "RETURNING nickname",
      pg::Params().add(node).add(names).add(static_cast<std::int64_t>(ttl.count())));
  if (!claimed) return util::forward_error(claimed);
  std::unordered_set<std::string> won;
  for (int row = 0; row < claimed->size(); ++row) won.emplace(claimed->text(row, 0));
  std::unordered_map<std::string, std::string> holders;
  if (won.size() < nicknames.size()) {
    auto held =
        impl_->conn.query("SELECT nickname, node FROM nicknames WHERE nickname = ANY($1::text[])",
                          pg::Params().add(names));
    if (!held) return util::forward_error(held);
    for (int row = 0; row < held->size(); ++row)
      holders.emplace(held->text(row, 0), held->text(row, 1));
  }
  out.reserve(nicknames.size());
  for (const std::string& nickname : nicknames) {
    if (won.contains(nickname)) {
      out.emplace_back(std::optional<std::string>{});
    } else if (auto it = holders.find(nickname); it != holders.end()) {
      out.emplace_back(std::optional<std::string>(it->second));
    } else {
      // Released between the two statements: asked again on its own.
      out.push_back(claim_nickname(nickname, node, ttl));
    }
  }
  return out;
}

Result<void> PgStore::renew_nicknames(std::string_view node, std::chrono::milliseconds ttl) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto renewed = impl_->conn.query(
      // Locked in nickname order, as claim_nicknames locks its own: a renewal and
      // another node's batch of claims never deadlock.
      "WITH locked AS (SELECT nickname FROM nicknames WHERE node = $1 ORDER BY nickname "
      "FOR UPDATE) UPDATE nicknames SET expires_at = clock_timestamp() + $2::bigint * "
      "interval '1 millisecond' FROM locked WHERE nicknames.nickname = locked.nickname AND "
      "nicknames.node = $1",
      pg::Params().add(node).add(static_cast<std::int64_t>(ttl.count())));
  if (!renewed) return util::forward_error(renewed);
  return {};
}

Result<void> PgStore::release_nickname(std::string_view nickname, std::string_view node) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto deleted = impl_->conn.query("DELETE FROM nicknames WHERE nickname = $1 AND node = $2",
                                   pg::Params().add(nickname).add(node));
  if (!deleted) return util::forward_error(deleted);
  return {};
}

Result<void> PgStore::release_nicknames(std::string_view node) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto deleted = impl_->conn.query("DELETE FROM nicknames WHERE node = $1", pg::Params().add(node));
  if (!deleted) return util::forward_error(deleted);
  return {};
}

}  // namespace eryantis::store
