// Playing a match: one write at a time per match, persist then tell, broadcast
// every event in each recipient's view, and the timers for absent players.
#include <spdlog/spdlog.h>

#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/move_lists.hpp"
#include "eryantis/server/server.hpp"
#include "server_messages.hpp"

namespace eryantis::server {

using protocol::error_code_name;
using protocol::ErrorCode;

void Server::write(Room& room, MatchWrite write, WriteDone done) {
  ++writes_in_flight_;
  const store::MatchId mid = room.id;
  if (room.epoch != 0) write.fence = store::LeaseFence{cluster_->node(), room.epoch};
  persistence_.submit(std::move(write), [this, mid, done = std::move(done)](
                                            store::Result<store::AppendOutcome> r) {
    --writes_in_flight_;
    // Another node serves the match now: never retried, the match leaves memory.
    if (!r && r.error().code == store::StoreCode::Fenced && lose_match(mid, r.error().message))
      ++stats_.cluster.fenced;
    if (!r)
      log_throttle_.log(spdlog::level::err, "write failed",
                        fmt::format("match {}: write failed: {}", mid, r.error().message));
    if (!r && r.error().code == store::StoreCode::Corrupt) enter_degraded(r.error().message);
    done(std::move(r));
  });
}

RoomOwner::Ending Server::ending(const Room& room, const game::Outcome& outcome) {
  Ending e;
  e.line = ending_line(room, outcome);
  e.kept = absent_endings(room, seated_nicknames(room), e.line);
  return e;
}

void Server::accepted(Room& room, const std::vector<store::UnseenEnding>& kept) {
  ++stats_.commands_accepted;
  if (room.game->stage(room.state) == game::Stage::Over)
    finish_room(room, kept);
  else
    schedule_computers(room);
}

void Server::drop_room(store::MatchId id, std::string_view code, const std::string& message) {
  auto it = rooms_.find(id);
  if (it == rooms_.end()) return;
  std::vector<WaitingRequest> waiting = std::move(it->second->waiting);
  rooms_.erase(it);
  for (const WaitingRequest& w : waiting)
    if (w.conn) send_error(w.conn, w.id, code, message);
}

void Server::handle(Session& s, const std::string& id, const protocol::Play& m) {
  if (s.spectator) {
    send_error(s.id, id, error_code_name(ErrorCode::NotAPlayer),
               "spectators watch; they cannot play");
    return;
  }
  Room* room = s.match ? find_room(s.match) : nullptr;
  if (!room || s.seat == game::kNoSeat) {
    send_error(s.id, id, error_code_name(ErrorCode::NotInMatch),
               "you are not in a match: create or join one first");
    return;
  }
  const ConnectionId conn = s.id;
  const store::MatchId mid = room->id;
  const game::Seat seat = s.seat;
  if (room->idle() && config_.limits.max_queued_per_match > 0) {
    // Nothing ahead of it: what enqueue would do at once, without wrapping the
    // request (and a copy of its command) in a heap-allocated closure.
    play(*room, conn, id, m);
    if (Room* r = find_room(mid)) r->run_next();
    return;
  }
  room->enqueue(conn, id, [this, conn, id, mid, seat, m] {
    Room* room = find_room(mid);
    Session* s = session(conn);
    if (!room || !s) return;  // nobody left to answer
    if (s->match != mid || s->seat != seat) {
      send_error(conn, id, error_code_name(ErrorCode::NotInMatch),
                 "you are no longer in that match");
      return;
    }
    play(*room, conn, id, m);
  });
}

void Server::play(Room& room, ConnectionId conn, const std::string& id, const protocol::Play& m) {
  // A clocked match: a seat whose time is up by now (or clocks to resume after a
  // restart) is handled first; the command waits at the head of the queue behind
  // that write, then runs as if it had just arrived.
  if (room.clock && check_clock(room, clock_()) && room.busy) {
    const store::MatchId mid = room.id;
    const game::Seat seat = session(conn) ? session(conn)->seat : game::kNoSeat;
    room.waiting.insert(room.waiting.begin(), WaitingRequest{conn, id, [this, conn, id, mid, seat, m] {
      Room* r = find_room(mid);
      Session* s = session(conn);
      if (!r || !s) return;
      if (s->match != mid || s->seat != seat) {
        send_error(conn, id, error_code_name(ErrorCode::NotInMatch),
                   "you are no longer in that match");
        return;
      }
      play(*r, conn, id, m);
    }});
    return;
  }
  Session* s = session(conn);
  // Command ids are the client's: keep them per seat so two players' ids never collide.
  std::optional<std::string> command_id;
  if (m.command_id) command_id = std::to_string(s->seat) + ":" + *m.command_id;
  if (command_id)
    if (std::optional<store::Seq> seq = room.recent_commands.find(*command_id)) {
      // A retry of an accepted command: the same answer again.
      send(conn, protocol::JsonLine("ack", id)
                     .field("match", room.id)
                     .field("seq", *seq)
                     .field("replayed", true)
                     .str());
      return;
    }
  if (m.expected_seq && *m.expected_seq != room.seq) {
    send_error(conn, id, error_code_name(ErrorCode::StaleSeq),
               "the match is at seq " + std::to_string(room.seq) + ", not " +
                   std::to_string(*m.expected_seq) + "; sync and try again",
               &room);
    return;
  }
  if (room.status == store::MatchStatus::Lobby && !room.full()) {
    // The code the games give a command sent out of its phase.
    send_error(conn, id, "WRONG_PHASE",
               "wait until all " + std::to_string(room.players()) + " seats are taken", &room);
    return;
  }
  room.submit(s->seat, m.command, game::Authority::Player, conn, id, command_id);
}

std::string Server::ending_line(const Room& room, const game::Outcome& outcome) const {
  if (outcome.reason == "abandoned")
    return detail::abandoned_line(
        room.id, "the match was given up: nobody was connected to play it for " +
                     std::to_string(config_.abandon_after_ms / 60000) + " minutes; nobody wins");
  return detail::game_over_line(room.id, detail::result_json(room, outcome));
}

void Server::finish_room(Room& room, const std::vector<store::UnseenEnding>& kept) {
  const game::Outcome outcome = room.outcome();
  const std::string line = ending_line(room, outcome);
  tell_ending(room, seated_nicknames(room), line, kept);
  for (ConnectionId c : room.spectators) send(c, line);
  spdlog::info("match {}: {}, {}", room.id, store::status_name(room.status),
               detail::result_json(room, outcome));
  close_room(room);
}

void Server::close_room(Room& room) {
  for (int i = 0; i < game::kMaxSeats; ++i) {
    if (!room.seats[i] || room.seats[i]->computer) continue;
    if (auto it = seated_in_.find(room.seats[i]->nickname);
        it != seated_in_.end() && it->second == room.id)
      seated_in_.erase(it);
    if (Session* s = session(room.seats[i]->connection); s && s->match == room.id) {
      s->match = 0;
      s->seat = game::kNoSeat;
    }
    room.seats[i]->connection = 0;
  }
  for (ConnectionId c : room.spectators)
    if (Session* s = session(c); s && s->match == room.id) {
      s->match = 0;
      s->spectator = false;
    }
  room.spectators.clear();
  // Before anyone can sit down elsewhere: a match waiting for these players goes first.
  if (!waiting_matches_.empty()) resume_waiting_matches();
}

bool Server::check_timers(Room& room, std::int64_t now) {
  if (!room.idle()) return false;
  if (room.status == store::MatchStatus::Finished || room.status == store::MatchStatus::Abandoned) {
    rooms_.erase(room.id);  // idle and over: nothing refers to it any more
    return true;
  }
  if (check_clock(room, now)) return true;  // a seat out of time goes first
  const timers::Action act = room.due(now);
  switch (act.due) {
    case timers::Due::Nothing:
      return false;
    case timers::Due::RemoveLateSeats:
      remove_late_seats(room, now);
      return true;
    case timers::Due::AbandonIdleLobby:
      spdlog::info("match {}: abandoned (nobody joined or left for {} ms)", room.id,
                   config_.lobby_idle_ms);
      abandon_room(room, "the match was given up: nobody joined for " +
                             std::to_string(config_.lobby_idle_ms / 60000) + " minutes");
      return true;
    case timers::Due::AbandonLobby:
      spdlog::info("match {}: abandoned (nobody connected while waiting for players)", room.id);
      abandon_room(room, "the match could not start: a player stayed away");
      return true;
    case timers::Due::Forfeit:
      spdlog::info("match {}: {} is the only player left, wins by forfeit", room.id,
                   room.seats[act.seat]->nickname);
      room.submit(act.seat, room.game->award_forfeit(), game::Authority::Server, 0, "",
                     std::nullopt);
      return true;
    case timers::Due::AbandonDeserted:
      // Recorded as an event, so the match's log (and a replay) says how it ended.
      spdlog::info("match {}: abandoned: no player connected for {} ms (abandon_after_ms)",
                   room.id, config_.abandon_after_ms);
      room.submit(0, room.game->abandon_match(), game::Authority::Server, 0, "",
                     std::nullopt);
      return true;
    case timers::Due::SkipTurn:
      // Past the turn grace in a match with `takeover`: a computer takes the seat
      // (and plays the turn) instead of the turn being skipped.
      if (room.clocks.deadline.kind == DeadlineKind::TurnGrace &&
          room.clocks.deadline.seat == act.seat && room.takeover && room.seats[act.seat] &&
          !room.seats[act.seat]->computer) {
        take_over(room, act.seat, TakeoverReason::Absent);
        return true;
      }
      if (room.clocks.deadline.kind == DeadlineKind::TurnGrace &&
          room.clocks.deadline.seat == act.seat)
        spdlog::info("match {}: seat {} ({}) absent past the grace time, turn skipped", room.id,
                     act.seat, room.seats[act.seat]->nickname);
      room.submit(act.seat, room.game->skip_turn(), game::Authority::Server, 0, "",
                     std::nullopt);
      return true;
  }
  return false;
}

void Server::abandon_room(Room& room, std::string message) {
  const std::string line =
      protocol::JsonLine("match_abandoned").field("match", room.id).field("message", message).str();
  MatchWrite w;
  w.match = room.id;
  w.expected_seq = room.seq;
  w.status = store::MatchStatus::Abandoned;
  w.deadline = Deadline{};
  std::vector<store::UnseenEnding> kept = absent_endings(room, seated_nicknames(room), line);
  w.keep_endings = kept;
  room.persist(std::move(w),
      [this, line, kept = std::move(kept)](store::Result<store::AppendOutcome> done, Room* room) {
        if (!room || !done) return;
        moved(*room, room->status, store::MatchStatus::Abandoned);
        tell_ending(*room, seated_nicknames(*room), line, kept);
        for (ConnectionId c : room->spectators) send(c, line);
        close_room(*room);
      });
}

void Server::remove_late_seats(Room& room, std::int64_t now) {
  const std::vector<game::ToAct> late = room.game->to_act(room.state);
  MatchWrite w;
  w.match = room.id;
  w.expected_seq = room.seq;
  std::vector<std::pair<int, SeatHolder>> removed;
  for (const game::ToAct& act : late) {
    const game::Seat seat = act.seat;
    if (!room.seats[seat] || room.seats[seat]->computer) continue;  // computers always choose
    SeatHolder holder = *room.seats[seat];
    spdlog::info("match {}: {} did not choose in setup within {} ms, seat {} freed", room.id,
                 holder.nickname, config_.setup_choice_ms, seat);
    seated_in_.erase(holder.nickname);
    // Detached at once, so nothing they send meanwhile reaches the seat.
    if (Session* s = session(holder.connection); s && s->match == room.id) {
      s->match = 0;
      s->seat = game::kNoSeat;
    }
    w.remove_seats.push_back(seat);
    room.seats[seat].reset();
    removed.emplace_back(seat, std::move(holder));
  }
  room.clocks.setup = {};
  room.lobby_since_ms = now;
  const bool empty = room.seated() == room.computers();  // nobody but computers
  if (empty) w.status = store::MatchStatus::Abandoned;
  const std::string line = protocol::JsonLine("left")
                               .field("match", room.id)
                               .field("reason", "setup_timeout")
                               .field("message",
                                      "you did not make your setup choice (in Eriantys: "
                                      "your wizard and towers) in time; your seat was "
                                      "given up")
                               .str();
  std::vector<std::string> freed;
  for (const auto& [seat, holder] : removed) freed.push_back(holder.nickname);
  std::vector<store::UnseenEnding> kept = absent_endings(room, freed, line);
  w.keep_endings = kept;
  room.persist(std::move(w),
          [this, removed, empty, line, freed = std::move(freed), kept = std::move(kept)](
              store::Result<store::AppendOutcome> done, Room* room) {
            if (!room) return;
            if (!done) {  // nothing changed on disk: the seats are still theirs (tried again)
              for (const auto& [seat, holder] : removed) {
                room->seats[seat] = holder;
                seated_in_[holder.nickname] = room->id;
                if (Session* s = session(holder.connection); s && s->nickname == holder.nickname)
                  attach(*s, *room, static_cast<game::Seat>(seat), false);
              }
              return;
            }
            tell_ending(*room, freed, line, kept);  // the away ones at their next login
            if (empty) {
              moved(*room, room->status, store::MatchStatus::Abandoned);  // dropped next tick
              close_room(*room);
              return;
            }
            room->broadcast_seats();
            if (!waiting_matches_.empty()) resume_waiting_matches();
          });
}

std::string_view deadline_action(DeadlineKind kind) {
  switch (kind) {
    case DeadlineKind::None:
      break;
    case DeadlineKind::TurnGrace:
      return "skip_turn";
    case DeadlineKind::Forfeit:
      return "forfeit";
    case DeadlineKind::Abandon:
      return "abandon";
    case DeadlineKind::Remove:
      return "remove";
  }
  return "none";
}

}  // namespace eryantis::server
