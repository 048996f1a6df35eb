#include "eryantis/main/load.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>

#include "eryantis/main/store_persistence.hpp"

namespace eryantis::app {

static_assert(server::kRecentCommands <= store::kLoadedCommandIds,
              "restoring must read every command id the server keeps");

std::expected<Loaded, std::string> load_matches(store::EventStore& db) {
  auto report = db.load_unfinished();
  if (!report) return std::unexpected(report.error().message);
  for (const auto& q : report->quarantined)
    spdlog::error("match {}: quarantined, not loaded: {} (see docs/operations.md)", q.id, q.reason);
  // Left exactly as stored: no timer, no lobby listing, no status change.
  for (const auto& u : report->unserved)
    spdlog::warn(
        "match {}: game {} version {} quarantined: this build does not serve it; a build that "
        "has it will",
        u.id, u.game, u.game_version);
  Loaded out;
  out.quarantined = report->quarantined.size();
  out.unserved = report->unserved.size();
  out.matches.reserve(report->restored.size());
  for (auto& m : report->restored) {
    server::LoadedMatch r;
    r.id = m.id;
    r.status = m.status;
    r.game = m.played;
    r.last_seq = m.last_seq;
    r.state = std::move(m.state);
    r.seats = std::move(m.seats);
    // The store reads kLoadedCommandIds; the server keeps the newest kRecentCommands.
    const std::size_t keep = std::min(server::kRecentCommands, m.recent_commands.size());
    r.recent_commands.assign(std::make_move_iterator(m.recent_commands.end() - keep),
                             std::make_move_iterator(m.recent_commands.end()));
    if (m.deadline) r.deadline = from_record(*m.deadline);
    r.private_match = m.private_match;
    if (m.takeover) r.takeover = game::parse_level(*m.takeover);
    r.invites = std::move(m.invites);
    // Schema 13: the clocks, folded again from every event's stored time and the
    // clock steps (a stop's pause among them: the downtime is not charged).
    if (m.clock) {
      const auto action = clocks::on_timeout_from_name(m.on_timeout.value_or("skip"));
      auto control = clocks::parse_time_control(*m.clock, action.value_or(clocks::OnTimeout::Skip));
      if (!control) {
        spdlog::warn("match {}: its clock \"{}\" does not read back ({}): no clock", m.id,
                     *m.clock, control.error().message);
      } else {
        auto events = db.load_events(m.id);
        if (!events) return std::unexpected(events.error().message);
        auto steps = db.clock_steps(m.id);
        if (!steps) return std::unexpected(steps.error().message);
        r.clock = server::fold_match_clock(*r.game, *control, r.game->seats(r.state), *events,
                                           *steps);
      }
    }
    out.matches.push_back(std::move(r));
  }
  auto unseen = db.unseen_endings(server::kUnseenEndings);
  if (!unseen) return std::unexpected(unseen.error().message);
  out.unseen_endings = std::move(*unseen);
  auto counted = db.count_by_status();
  if (!counted) return std::unexpected(counted.error().message);
  out.matches_by_status = *counted;
  auto max_id = db.max_match_id();
  if (!max_id) return std::unexpected(max_id.error().message);
  out.next_match_id = *max_id + 1;
  return out;
}

}  // namespace eryantis::app
