// Full verification of one match: the fold from the first event with every check
// on, and every snapshot compared with the state the fold reaches at its seq.
// Slow by design; used by the replay tool.
#include <map>

#include "eryantis/util/expected.hpp"
#include "fold_source.hpp"
#include "sqlite_rows.hpp"
#include "sqlite_impl.hpp"

namespace eryantis::store {

namespace detail {

Result<VerifyReport> verify(FoldSource& source, const game::Game& played, MatchId id,
                            Seq last_seq) {
  // Every snapshot of the match, by seq, as (version, bytes).
  std::map<Seq, std::pair<int, std::string>> snapshots;
  for (Seq at_most = last_seq; at_most > 0;) {
    Seq seq = 0;
    auto any = source.newest_snapshot(id, at_most, [&](const SnapshotRow& row) {
      seq = row.seq;
      snapshots.emplace(row.seq, std::pair{row.version, std::string(row.state)});
    });
    if (!any) return util::forward_error(any);
    if (!*any) break;
    at_most = seq - 1;
  }

  VerifyReport report;
  report.id = id;
  FoldPolicy policy{.start = FoldStart::FirstEvent, .check_columns = true};
  policy.on_event = [&](const game::Game&, Seq seq, const game::Event&, const game::State& state) {
    ++report.events_checked;
    auto snapshot = snapshots.find(seq);
    if (snapshot == snapshots.end()) return;
    ++report.snapshots_checked;
    const auto& [version, bytes] = snapshot->second;
    auto decoded = version == played.state_schema() ? played.state_from_binary(bytes)
                                                    : std::unexpected(game::DecodeError{});
    if (!decoded || !(*decoded == state)) report.bad_snapshots.push_back(seq);
  };
  auto folded = fold(source, played, id, last_seq, policy);
  if (!folded) return util::forward_error(folded);
  report.divergence = std::move(folded->divergence);
  return report;
}

}  // namespace detail

Result<VerifyReport> SqliteStore::verify(MatchId id) {
  auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Deferred);
  if (!tx) return util::forward_error(tx);
  auto last = detail::foldable_last_seq(*impl_, id);
  if (!last) return util::forward_error(last);
  detail::SqliteRows rows(impl_->db);
  return detail::verify(rows, *last->played, id, last->last_seq);
}

}  // namespace eryantis::store
