// Full verification of one match: the fold from the first event with every check
// on, and every snapshot compared with the state the fold reaches at its seq.
// Slow by design; used by the replay tool.
#include <map>

#include "eryantis/codec/codec.hpp"
#include "eryantis/util/expected.hpp"
#include "store_impl.hpp"

namespace eryantis::store {

namespace {

// Every snapshot of the match, by seq, as (version, bytes).
Result<std::map<Seq, std::pair<int, std::string>>> all_snapshots(sqlite::Database& db, MatchId id) {
  auto select = db.cached("SELECT seq, version, state FROM snapshots WHERE match_id = ?1");
  if (!select) return util::forward_error(select);
  (*select)->bind(1, id);
  std::map<Seq, std::pair<int, std::string>> snapshots;
  for (;;) {
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    snapshots.emplace((*select)->column_int(0),
                      std::pair{static_cast<int>((*select)->column_int(1)),
                                std::string((*select)->column_blob(2))});
  }
  return snapshots;
}

}  // namespace

Result<VerifyReport> Store::verify(MatchId id) {
  auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Deferred);
  if (!tx) return util::forward_error(tx);
  auto last = last_seq(id);
  if (!last) return util::forward_error(last);
  auto snapshots = all_snapshots(impl_->db, id);
  if (!snapshots) return util::forward_error(snapshots);

  VerifyReport report;
  report.id = id;
  FoldPolicy policy{.start = FoldStart::FirstEvent, .check_columns = true};
  policy.on_event = [&](Seq seq, const rules::Event&, const rules::State& state) {
    ++report.events_checked;
    auto snapshot = snapshots->find(seq);
    if (snapshot == snapshots->end()) return;
    ++report.snapshots_checked;
    const auto& [version, bytes] = snapshot->second;
    auto decoded = version == codec::kStateSchemaVersion ? codec::state_from_binary(bytes)
                                                         : std::unexpected(codec::DecodeError{});
    if (!decoded || !(*decoded == state)) report.bad_snapshots.push_back(seq);
  };
  auto folded = detail::fold(*impl_, id, *last, policy);
  if (!folded) return util::forward_error(folded);
  report.divergence = std::move(folded->divergence);
  return report;
}

}  // namespace eryantis::store
