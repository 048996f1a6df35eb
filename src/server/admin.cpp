// The operator's actions on a running server (eryantis-admin, through the admin
// socket in the net layer). Everything a player could see changes through the
// same paths as a player's request: an ended match gets an end_match event, a
// kicked player the shutdown line a heartbeat timeout sends.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/server.hpp"

namespace eryantis::server {

using protocol::ErrorCode;

std::vector<Server::AdminSession> Server::admin_sessions() const {
  const std::int64_t now = clock_();
  std::vector<AdminSession> out;
  out.reserve(sessions_.size());
  for (const auto& [id, s] : sessions_) {
    AdminSession a;
    a.connection = id;
    a.peer = s.peer;
    a.nickname = s.nickname.value_or("");
    a.match = s.match;
    a.seat = s.spectator ? -1 : s.seat;
    a.spectator = s.spectator;
    a.idle_ms = now - s.last_seen_ms;
    a.rate_limited = s.rate_limited;
    out.push_back(std::move(a));
  }
  std::sort(out.begin(), out.end(), [](const AdminSession& a, const AdminSession& b) {
    return a.connection < b.connection;
  });
  return out;
}

std::vector<Server::AdminMatch> Server::admin_matches() const {
  const std::int64_t now = clock_();
  std::vector<AdminMatch> out;
  out.reserve(rooms_.size());
  for (const auto& [id, room] : rooms_) {
    AdminMatch m;
    m.id = id;
    m.game = std::string(room->game->name());
    m.status = room->status;
    m.players = room->players();
    m.connected = room->connected();
    m.spectators = room->spectators.size();
    m.seq = room->seq;
    m.phase = std::string(room->game->phase_name(room->state));
    m.round = room->game->round(room->state);
    for (int i = 0; i < room->players(); ++i)
      m.nicknames.push_back(room->seats[i] ? room->seats[i]->nickname : std::string());
    m.in_play = in_play(*room);
    m.deadline = room->deadline_json(now);
    out.push_back(std::move(m));
  }
  std::sort(out.begin(), out.end(),
            [](const AdminMatch& a, const AdminMatch& b) { return a.id < b.id; });
  return out;
}

std::expected<void, std::string> Server::admin_end_match(store::MatchId id,
                                                         std::string_view reason) {
  Room* room = find_room(id);
  if (!room || room->status == store::MatchStatus::Finished ||
      room->status == store::MatchStatus::Abandoned)
    return std::unexpected("match " + std::to_string(id) +
                           " is not an unfinished match of this server (see `eryantis-admin "
                           "matches`)");
  if (degraded_)
    return std::unexpected(std::string("the server is degraded: it writes nothing any more"));
  if (shutting_down_) return std::unexpected(std::string("the server is shutting down"));
  spdlog::info("match {}: ended by the operator: {}", id, reason);
  // Behind any request already waiting for the room: one write at a time.
  room->enqueue(0, "", [this, id] {
    if (Room* r = find_room(id); r && r->game->stage(r->state) != game::Stage::Over)
      r->submit(0, r->game->end_match(), game::Authority::Server, 0, "", std::nullopt);
  });
  return {};
}

bool Server::admin_kick(std::string_view nickname, std::string_view reason) {
  auto it = online_.find(std::string(nickname));
  if (it == online_.end()) return false;
  const ConnectionId conn = it->second;
  spdlog::info("conn {}: {} kicked by the operator: {}", conn, nickname, reason);
  send(conn, protocol::JsonLine("shutdown")
                 .field("message", "an operator disconnected you: " + std::string(reason))
                 .str());
  transport_.close(conn);
  return true;
}

bool Server::in_play(const Room& room) {
  // A full match choosing wizards is being played too; a lobby still waiting for
  // players is kept in the database and waits again after the restart.
  return room.status == store::MatchStatus::Running ||
         (room.status == store::MatchStatus::Lobby && room.full());
}

std::vector<Server::AdminMatch> Server::admin_in_play() const {
  std::vector<AdminMatch> out = admin_matches();
  std::erase_if(out, [](const AdminMatch& m) { return !m.in_play; });
  return out;
}

void Server::admin_drain() {
  if (draining_) return;
  draining_ = true;
  spdlog::info("drain: no new matches from now on");
  next_drain_report_ms_ = clock_();
  report_drain(next_drain_report_ms_);
}

void Server::report_drain(std::int64_t now) {
  if (!draining_ || now < next_drain_report_ms_) return;
  next_drain_report_ms_ = now + kDrainReportMs;
  const std::vector<AdminMatch> waiting = admin_in_play();
  if (waiting.empty()) return;
  // One line: each match, who is there, and the timer that will end it if nobody
  // plays; the first kDrainReportList only (eryantis-admin drain-status has them all).
  std::string list;
  for (const AdminMatch& m : waiting) {
    if (&m - waiting.data() == static_cast<std::ptrdiff_t>(kDrainReportList)) {
      list += fmt::format("; and {} more (eryantis-admin drain-status)",
                          waiting.size() - kDrainReportList);
      break;
    }
    const Room* room = this->room(m.id);
    const Deadline next = room ? room->next_deadline() : Deadline{};
    list += fmt::format("{}match {} ({}, {}, {} of {} player(s) connected{})",
                        list.empty() ? "" : "; ", m.id, store::status_name(m.status), m.phase,
                        m.connected, m.players,
                        next.kind == DeadlineKind::None
                            ? std::string(", no timer: it ends when its players finish it")
                            : fmt::format(", {} in {} s", deadline_action(next.kind),
                                          (std::max<std::int64_t>(0, next.at_ms - now) + 999) / 1000));
  }
  spdlog::info("drain: waiting for {} match(es) in play: {}", waiting.size(), list);
}

bool Server::drained() const {
  if (!draining_ || writes_in_flight_ != 0) return false;
  for (const auto& [id, room] : rooms_)
    if (in_play(*room)) return false;
  return true;
}

bool Server::refused_while_draining(Session& s, const std::string& id, const protocol::Request& r) {
  if (!draining_) return false;
  if (!std::holds_alternative<protocol::CreateMatchRequest>(r) &&
      !std::holds_alternative<protocol::JoinMatch>(r) &&
      !std::holds_alternative<protocol::QuickJoin>(r))
    return false;
  send_error(s.id, id, error_code_name(ErrorCode::ShuttingDown),
             "the server is about to restart for an upgrade: no new match starts now; "
             "try again in a few minutes");
  return true;
}

}  // namespace eryantis::server
