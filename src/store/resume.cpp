// Loading every unfinished match at server start, quarantining the ones whose log
// cannot be trusted.
#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include "store_impl.hpp"

namespace eryantis::store {

namespace {

struct Candidate {
  MatchId id;
  MatchStatus status;
  Seq last_seq;
};

Result<std::vector<Candidate>> unfinished_matches(sqlite::Database& db) {
  auto select = db.cached(
      "SELECT id, status, last_seq FROM matches WHERE status IN ('lobby', 'running') ORDER BY id");
  if (!select) return std::unexpected(std::move(select.error()));
  std::vector<Candidate> matches;
  for (;;) {
    auto row = (*select)->step();
    if (!row) return std::unexpected(std::move(row.error()));
    if (!*row) break;
    auto status = parse_status((*select)->column_text(1)).value_or(MatchStatus::Running);
    matches.push_back(Candidate{(*select)->column_int(0), status, (*select)->column_int(2)});
  }
  return matches;
}

// Marks matches quarantined; their events stay exactly as they are.
Result<void> quarantine(sqlite::Database& db, const std::vector<QuarantinedMatch>& matches) {
  auto tx = sqlite::Transaction::begin(db, sqlite::Transaction::Kind::Immediate);
  if (!tx) return std::unexpected(std::move(tx.error()));
  auto update = db.cached(
      "UPDATE matches SET status = 'quarantined', quarantine_reason = ?2, updated = ?3 "
      "WHERE id = ?1 AND status IN ('lobby', 'running')");
  if (!update) return std::unexpected(std::move(update.error()));
  for (const QuarantinedMatch& match : matches) {
    (*update)->bind(1, match.id).bind(2, match.reason).bind(3, detail::now_ms());
    auto done = (*update)->run();
    (*update)->reset();
    if (!done) return done;
  }
  return tx->commit();
}

}  // namespace

Result<ResumeReport> Store::load_unfinished() {
  ResumeReport report;
  {
    // One read transaction: a consistent picture even while another process writes.
    auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Deferred);
    if (!tx) return std::unexpected(std::move(tx.error()));
    auto candidates = unfinished_matches(impl_->db);
    if (!candidates) return std::unexpected(std::move(candidates.error()));
    report.loaded.reserve(candidates->size());
    for (const Candidate& match : *candidates) {
      auto rebuilt = detail::rebuild(*impl_, match.id, match.last_seq,
                                     impl_->options.check_every_hash_on_resume);
      if (!rebuilt) return std::unexpected(std::move(rebuilt.error()));
      if (rebuilt->state) {
        report.loaded.push_back(LoadedMatch{match.id, match.status, match.last_seq,
                                            rebuilt->snapshot_seq, std::move(*rebuilt->state)});
      } else {
        report.quarantined.push_back(QuarantinedMatch{match.id, std::move(rebuilt->problem)});
      }
    }
    if (auto done = tx->commit(); !done) return std::unexpected(std::move(done.error()));
  }
  for (const QuarantinedMatch& match : report.quarantined) {
    spdlog::warn("store: match {} quarantined: {}", match.id, match.reason);
  }
  if (!report.quarantined.empty() && !impl_->options.read_only) {
    if (auto done = quarantine(impl_->db, report.quarantined); !done) {
      return std::unexpected(std::move(done.error()));
    }
  }
  return report;
}

}  // namespace eryantis::store
