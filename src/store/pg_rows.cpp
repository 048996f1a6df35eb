#include "eryantis/util/expected.hpp"
#include "pg_impl.hpp"

namespace eryantis::store::detail {

std::string pg_id_array(std::span<const MatchId> ids) {
  std::string out = "{";
  for (const MatchId id : ids) {
    if (out.size() > 1) out += ',';
    out += std::to_string(id);
  }
  return out + "}";
}

std::string pg_text_array(std::span<const std::string> texts) {
  std::string out = "{";
  for (const std::string& text : texts) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (const char c : text) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

std::pair<std::string, std::string> pg_served_arrays(const Options& options) {
  std::vector<std::string> games;
  std::vector<MatchId> versions;
  for (const GameVersion& served : options.served_versions()) {
    games.push_back(served.game);
    versions.push_back(served.version);
  }
  return {pg_text_array(games), pg_id_array(versions)};
}

SeatRecord pg_seat_row(const pg::Rows& rows, int row, int first, MatchId id) {
  SeatRecord seat;
  seat.match_id = id;
  seat.seat = static_cast<int>(rows.integer(row, first));
  seat.nickname = rows.text(row, first + 1);
  seat.resume_token_hash = rows.text(row, first + 2);
  if (!rows.is_null(row, first + 3))
    seat.tower_color = std::string(rows.text(row, first + 3));
  if (!rows.is_null(row, first + 4)) seat.wizard = static_cast<int>(rows.integer(row, first + 4));
  if (!rows.is_null(row, first + 5)) seat.computer = rows.text(row, first + 5);
  if (!rows.is_null(row, first + 6)) seat.account_id = rows.integer(row, first + 6);
  if (!rows.is_null(row, first + 7)) seat.left_by = std::string(rows.text(row, first + 7));
  return seat;
}

Result<void> PgRows::events_from(MatchId id, Seq from_seq, const EventVisitor& visit) {
  auto rows = conn_.query(
      "SELECT seq, schema_version, payload, state_hash, type, actor FROM events "
      "WHERE match_id = $1 AND seq >= $2 ORDER BY seq",
      pg::Params().add(id).add(from_seq));
  if (!rows) return util::forward_error(rows);
  for (int r = 0; r < rows->size(); ++r) {
    const EventRow event{rows->integer(r, 0), static_cast<int>(rows->integer(r, 1)),
                         rows->text(r, 2),    rows->text(r, 3),
                         rows->text(r, 4),    rows->text(r, 5)};
    if (!visit(event)) break;
  }
  return {};
}

Result<bool> PgRows::newest_snapshot(MatchId id, Seq at_most, const SnapshotVisitor& visit) {
  auto rows = conn_.query(
      "SELECT seq, version, state FROM snapshots WHERE match_id = $1 AND seq <= $2 "
      "ORDER BY seq DESC LIMIT 1",
      pg::Params().add(id).add(at_most));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return false;
  const std::string state = rows->bytes(0, 2);
  visit(SnapshotRow{rows->integer(0, 0), static_cast<int>(rows->integer(0, 1)), state});
  return true;
}

}  // namespace eryantis::store::detail
