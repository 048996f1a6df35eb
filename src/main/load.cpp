#include "eryantis/main/load.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>

#include "eryantis/main/store_persistence.hpp"

namespace eryantis::app {

static_assert(server::kRecentCommands <= store::kLoadedCommandIds,
              "restoring must read every command id the server keeps");

std::expected<void, std::string> fold_stored_clock(store::EventStore& db, server::LoadedMatch& m,
                                                   const std::optional<std::string>& clock,
                                                   const std::optional<std::string>& on_timeout) {
  if (!clock || !m.game) return {};
  const auto action = clocks::on_timeout_from_name(on_timeout.value_or("skip"));
  auto control = clocks::parse_time_control(*clock, action.value_or(clocks::OnTimeout::Skip));
  if (!control) {
    spdlog::warn("match {}: its clock \"{}\" does not read back ({}): no clock", m.id, *clock,
                 control.error().message);
    return {};
  }
  auto events = db.load_events(m.id);
  if (!events) return std::unexpected(events.error().message);
  auto steps = db.clock_steps(m.id);
  if (!steps) return std::unexpected(steps.error().message);
  m.clock = server::fold_match_clock(*m.game, *control, m.game->seats(m.state), *events, *steps);
  return {};
}

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
    if (auto folded = fold_stored_clock(db, r, m.clock, m.on_timeout); !folded)
      return std::unexpected(folded.error());
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
