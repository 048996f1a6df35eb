#include "eryantis/main/restore.hpp"

#include <spdlog/spdlog.h>

#include "eryantis/main/store_persistence.hpp"

namespace eryantis::app {

std::expected<Restored, std::string> restore_matches(store::EventStore& db) {
  auto report = db.restore_unfinished();
  if (!report) return std::unexpected(report.error().message);
  for (const auto& q : report->quarantined)
    spdlog::error("match {}: quarantined, not loaded: {} (see docs/operations.md)", q.id, q.reason);
  Restored out;
  out.quarantined = report->quarantined.size();
  for (auto& m : report->restored) {
    server::RestoredMatch r;
    r.id = m.id;
    r.status = m.status;
    r.last_seq = m.last_seq;
    r.state = std::move(m.state);
    auto seats = db.seats(m.id);
    if (!seats) return std::unexpected(seats.error().message);
    r.seats = std::move(*seats);
    auto recent = db.recent_command_ids(m.id, server::kRecentCommands);
    if (!recent) return std::unexpected(recent.error().message);
    r.recent_commands = std::move(*recent);
    auto deadline = db.deadline(m.id);
    if (deadline && *deadline) r.deadline = from_record(**deadline);
    out.matches.push_back(std::move(r));
  }
  auto unseen = db.unseen_endings(server::kUnseenEndings);
  if (!unseen) return std::unexpected(unseen.error().message);
  out.unseen_endings = std::move(*unseen);
  auto max_id = db.max_match_id();
  if (!max_id) return std::unexpected(max_id.error().message);
  out.next_match_id = *max_id + 1;
  return out;
}

}  // namespace eryantis::app
