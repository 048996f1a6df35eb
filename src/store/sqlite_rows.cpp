#include "sqlite_rows.hpp"

#include "eryantis/util/expected.hpp"

namespace eryantis::store::detail {

Result<void> SqliteRows::events_from(MatchId id, Seq from_seq, const EventVisitor& visit) {
  auto select = db_.cached(
      "SELECT seq, schema_version, payload, state_hash, type, actor FROM events "
      "WHERE match_id = ?1 AND seq >= ?2 ORDER BY seq");
  if (!select) return util::forward_error(select);
  auto& rows = **select;
  rows.bind(1, id).bind(2, from_seq);
  for (;;) {
    auto row = rows.step();
    if (!row) return util::forward_error(row);
    if (!*row) return {};
    const EventRow event{rows.column_int(0),  static_cast<int>(rows.column_int(1)),
                         rows.column_text(2), rows.column_text(3),
                         rows.column_text(4), rows.column_text(5)};
    if (!visit(event)) return {};
  }
}

Result<bool> SqliteRows::newest_snapshot(MatchId id, Seq at_most, const SnapshotVisitor& visit) {
  auto select = db_.cached(
      "SELECT seq, version, state FROM snapshots WHERE match_id = ?1 AND seq <= ?2 "
      "ORDER BY seq DESC LIMIT 1");
  if (!select) return util::forward_error(select);
  auto& rows = **select;
  rows.bind(1, id).bind(2, at_most);
  auto row = rows.step();
  if (!row) return util::forward_error(row);
  if (!*row) return false;
  visit(SnapshotRow{rows.column_int(0), static_cast<int>(rows.column_int(1)), rows.column_blob(2)});
  return true;
}

}  // namespace eryantis::store::detail
