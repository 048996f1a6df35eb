// Playing a match: one write at a time per match, persist then tell, broadcast
// every event in each recipient's view, and the timers for absent players.
#include <spdlog/spdlog.h>

#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/server.hpp"
#include "server_messages.hpp"

namespace eryantis::server {

using protocol::error_code_name;
using protocol::ErrorCode;

void Server::enqueue(Room& room, ConnectionId conn, const std::string& id,
                     std::function<void()> op) {
  if (static_cast<int>(room.waiting.size()) >= config_.limits.max_queued_per_match) {
    send_error(conn, id, error_code_name(ErrorCode::RateLimited),
               "this match is busy; send your request again", &room);
    return;
  }
  room.waiting.push_back(WaitingRequest{conn, id, std::move(op)});
  run_next(room.id);
}

void Server::run_next(store::MatchId id) {
  // Ops that do not write run at once; the first that writes makes the room busy.
  while (Room* room = find_room(id)) {
    if (room->busy || room->waiting.empty()) return;
    auto op = std::move(room->waiting.front().run);
    room->waiting.erase(room->waiting.begin());
    op();
  }
}

void Server::drop_room(store::MatchId id, std::string_view code, const std::string& message) {
  auto it = rooms_.find(id);
  if (it == rooms_.end()) return;
  std::vector<WaitingRequest> waiting = std::move(it->second->waiting);
  rooms_.erase(it);
  for (const WaitingRequest& w : waiting) send_error(w.conn, w.id, code, message);
}

void Server::persist(Room& room, MatchWrite write,
                     std::function<void(store::Result<store::AppendOutcome>, Room*)> after) {
  room.busy = true;
  ++writes_in_flight_;
  const store::MatchId mid = room.id;
  persistence_.submit(std::move(write), [this, mid, after = std::move(after)](
                                            store::Result<store::AppendOutcome> r) {
    --writes_in_flight_;
    Room* room = find_room(mid);
    if (room) room->busy = false;
    if (!r)
      log_throttle_.log(spdlog::level::err, "write failed",
                        fmt::format("match {}: write failed: {}", mid, r.error().message));
    if (!r && r.error().code == store::StoreCode::Corrupt) enter_degraded(r.error().message);
    after(std::move(r), room);
    run_next(mid);
  });
}

void Server::handle(Session& s, const std::string& id, const protocol::Play& m) {
  if (s.spectator) {
    send_error(s.id, id, error_code_name(ErrorCode::NotAPlayer),
               "spectators watch; they cannot play");
    return;
  }
  Room* room = s.match ? find_room(s.match) : nullptr;
  if (!room || s.seat == rules::kNoSeat) {
    send_error(s.id, id, error_code_name(ErrorCode::NotInMatch),
               "you are not in a match: create or join one first");
    return;
  }
  const ConnectionId conn = s.id;
  const store::MatchId mid = room->id;
  const rules::Seat seat = s.seat;
  enqueue(*room, conn, id, [this, conn, id, mid, seat, m] {
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
  Session* s = session(conn);
  // Command ids are the client's: keep them per seat so two players' ids never collide.
  std::optional<std::string> command_id;
  if (m.command_id) command_id = std::to_string(s->seat) + ":" + *m.command_id;
  if (command_id)
    for (const auto& [cid, seq] : room.recent_commands)
      if (cid == *command_id) {  // a retry of an accepted command: the same answer again
        send(conn, protocol::JsonLine("ack", id)
                       .field("match", room.id)
                       .field("seq", seq)
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
    send_error(conn, id, rules::rule_code_name(rules::RuleCode::WrongPhase),
               "wait until all " + std::to_string(room.players()) + " seats are taken", &room);
    return;
  }
  submit_command(room, s->seat, m.command, rules::Authority::Player, conn, id, command_id);
}

void Server::submit_command(Room& room, rules::Seat seat, const rules::Command& command,
                            rules::Authority authority, ConnectionId reply_to,
                            const std::string& id, std::optional<std::string> command_id) {
  // One execution of the rules gives both the event and the state it leads to.
  auto decision = rules::decide(room.state, seat, command, authority);
  if (!decision) {
    if (reply_to)
      send_error(reply_to, id, rules::rule_code_name(decision.error().code),
                 decision.error().message, &room);
    return;
  }
  rules::Event* event = &decision->event;
  rules::State next = std::move(decision->next);
  MatchWrite w;
  w.match = room.id;
  w.expected_seq = room.seq;
  const store::Actor actor =
      authority == rules::Authority::Server ? store::Actor::server() : store::Actor::player(seat);
  // Encoded once: the same JSON is stored and (create_match aside) broadcast.
  std::string payload = codec::event_to_json(*event);
  w.events.push_back(store::NewEvent{actor, command_id, *event, rules::hash(next), payload});
  w.state_after = next;
  std::optional<store::MatchStatus> status;
  if (room.status == store::MatchStatus::Lobby && next.phase != rules::Phase::Setup)
    status = store::MatchStatus::Running;
  if (next.phase == rules::Phase::GameOver) {
    status = store::MatchStatus::Finished;
    w.result_json = detail::result_json(room, next);
  }
  w.status = status;
  if (room.deadline.kind != DeadlineKind::None)
    w.deadline = Deadline{};  // the situation changed: re-armed by tick
  persist(
      room, std::move(w),
      [this, reply_to, id, command_id, status, ev = std::move(*event), next = std::move(next),
       payload = std::move(payload)](store::Result<store::AppendOutcome> done, Room* room) mutable {
        if (!room) return;
        if (!done) {
          if (reply_to)
            send_error(reply_to, id, error_code_name(ErrorCode::StoreFailure),
                       "your command could not be saved: " + done.error().message, room);
          return;
        }
        if (done->replayed) {
          if (reply_to)
            send(reply_to, protocol::JsonLine("ack", id)
                               .field("match", room->id)
                               .field("seq", done->last_seq)
                               .field("replayed", true)
                               .str());
          return;
        }
        room->state = std::move(next);
        room->seq = done->last_seq;
        room->deadline = Deadline{};
        if (status) room->status = *status;
        if (command_id) {
          room->recent_commands.emplace_back(*command_id, room->seq);
          if (room->recent_commands.size() > kRecentCommands)
            room->recent_commands.erase(room->recent_commands.begin());
        }
        ++stats_.commands_accepted;
        // One fingerprint of the public state serves the ack and every update.
        const std::string view_hash =
            detail::hex(rules::hash(rules::view(room->state, rules::kNoSeat).state));
        if (reply_to && session(reply_to))
          send(reply_to, protocol::JsonLine("ack", id)
                             .field("match", room->id)
                             .field("seq", room->seq)
                             .field("hash", view_hash)
                             .str());
        broadcast_event(*room, view_hash,
                        std::holds_alternative<rules::CreateMatch>(ev.command)
                            ? detail::public_event_json(ev)
                            : payload);
        if (status == store::MatchStatus::Running) spdlog::info("match {}: started", room->id);
        if (room->state.phase == rules::Phase::GameOver) finish_room(*room);
      });
}

void Server::broadcast_event(const Room& room, const std::string& view_hash,
                             const std::string& event_json) {
  const rules::State& st = room.state;
  const std::string to_act = detail::to_act_json(st);
  auto line_for = [&](ConnectionId conn, rules::Seat seat) {
    protocol::JsonLine line("event");
    line.field("match", room.id)
        .field("seq", room.seq)
        .field("hash", view_hash)
        .raw_field("event", event_json)
        .raw_field("to_act", to_act)
        .raw_field("allowed", detail::allowed_json(st, seat));
    const Session* s = nullptr;
    if (auto it = sessions_.find(conn); it != sessions_.end()) s = &it->second;
    if (s && s->full_views) line.raw_field("view", codec::view_to_json(rules::view(st, seat)));
    send(conn, line.str());
  };
  for (int i = 0; i < room.players(); ++i)
    if (room.seats[i] && room.seats[i]->connection)
      line_for(room.seats[i]->connection, static_cast<rules::Seat>(i));
  for (ConnectionId c : room.spectators) line_for(c, rules::kNoSeat);
}

void Server::finish_room(Room& room) {
  const std::string result = detail::result_json(room, room.state);
  const std::string line =
      protocol::JsonLine("game_over").field("match", room.id).raw_field("result", result).str();
  for (int i = 0; i < room.players(); ++i)
    if (room.seats[i] && room.seats[i]->connection) send(room.seats[i]->connection, line);
  for (ConnectionId c : room.spectators) send(c, line);
  spdlog::info("match {}: finished, {}", room.id, result);
  close_room(room);
}

void Server::close_room(Room& room) {
  for (int i = 0; i < rules::kMaxPlayers; ++i) {
    if (!room.seats[i]) continue;
    if (auto it = seated_in_.find(room.seats[i]->nickname);
        it != seated_in_.end() && it->second == room.id)
      seated_in_.erase(it);
    if (Session* s = session(room.seats[i]->connection); s && s->match == room.id) {
      s->match = 0;
      s->seat = rules::kNoSeat;
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

void Server::arm(Room& room, Deadline d) {
  room.deadline = d;
  MatchWrite w;
  w.match = room.id;
  w.expected_seq = room.seq;
  w.deadline = d;
  persist(room, std::move(w), [](store::Result<store::AppendOutcome>, Room*) {});
}

void Server::check_timers(Room& room, std::int64_t now) {
  if (room.busy || !room.waiting.empty()) return;
  if (room.status == store::MatchStatus::Finished || room.status == store::MatchStatus::Abandoned) {
    rooms_.erase(room.id);  // idle and over: nothing refers to it any more
    return;
  }
  const int connected = room.connected();
  Deadline want;
  if (room.status == store::MatchStatus::Lobby) {
    // Nobody here, or a full match stuck in setup because someone left: give up
    // after abandon_after (a match that never started has no forfeit).
    if (connected == 0 || (room.full() && connected < room.players()))
      want = {DeadlineKind::Abandon, rules::kNoSeat, now + config_.abandon_after_ms};
  } else if (room.state.phase == rules::Phase::Planning ||
             room.state.phase == rules::Phase::Action) {
    // The forfeit clock measures how long one player has been waiting alone: it
    // stops when they leave too (nobody connected) or someone comes back, and a
    // restart (which disconnects everybody) gives the others the full time again.
    if (connected == 1 && room.players() > 1) {
      rules::Seat alone = rules::kNoSeat;
      for (int i = 0; i < room.players(); ++i)
        if (room.seats[i] && room.seats[i]->connection) alone = static_cast<rules::Seat>(i);
      if (room.forfeit.kind != DeadlineKind::Forfeit || room.forfeit.seat != alone) {
        room.forfeit = {DeadlineKind::Forfeit, alone, now + config_.forfeit_after_ms};
      } else if (now >= room.forfeit.at_ms) {
        room.forfeit = {};
        spdlog::info("match {}: {} is the only player left, wins by forfeit", room.id,
                     room.seats[alone]->nickname);
        submit_command(room, alone, rules::AwardForfeit{}, rules::Authority::Server, 0, "",
                       std::nullopt);
        return;
      }
    } else {
      room.forfeit = {};
    }
    // Nobody to play with: no turn is skipped, and the turn grace deadline (of this
    // turn, perhaps restored from before a restart) is kept as it is.
    if (connected == 0) return;
    const rules::Seat actor = room.state.current_seat();
    if (room.state.phase == rules::Phase::Action && actor != rules::kNoSeat &&
        room.state.boards[actor].skipped_planning) {
      // Absent in planning: the rules only allow skipping this turn, so do it now (decision 23).
      submit_command(room, actor, rules::SkipTurn{}, rules::Authority::Server, 0, "", std::nullopt);
      return;
    }
    // The grace clock runs from when the absent seat's turn came, whoever else
    // comes and goes; it skips the turn only while two players are connected
    // (one player alone is the forfeit clock's business).
    if (actor != rules::kNoSeat && room.seats[actor] && room.seats[actor]->connection == 0) {
      want = {DeadlineKind::TurnGrace, actor, now + config_.turn_grace_ms};
      if (connected < 2 && room.deadline.kind == want.kind && room.deadline.seat == want.seat)
        return;
    }
  }
  if (want.kind == DeadlineKind::None) {
    if (room.deadline.kind != DeadlineKind::None) arm(room, Deadline{});
    return;
  }
  if (room.deadline.kind != want.kind || room.deadline.seat != want.seat) {
    arm(room, want);  // a new situation (a deadline restored from before a restart is kept below)
    return;
  }
  if (now < room.deadline.at_ms) return;
  switch (want.kind) {
    case DeadlineKind::TurnGrace:
      spdlog::info("match {}: seat {} ({}) absent past the grace time, turn skipped", room.id,
                   want.seat, room.seats[want.seat]->nickname);
      submit_command(room, want.seat, rules::SkipTurn{}, rules::Authority::Server, 0, "",
                     std::nullopt);
      break;
    case DeadlineKind::Abandon: {
      spdlog::info("match {}: abandoned (nobody connected while waiting for players)", room.id);
      MatchWrite w;
      w.match = room.id;
      w.expected_seq = room.seq;
      w.status = store::MatchStatus::Abandoned;
      w.deadline = Deadline{};
      persist(room, std::move(w), [this](store::Result<store::AppendOutcome> done, Room* room) {
        if (!room || !done) return;
        room->status = store::MatchStatus::Abandoned;
        const std::string line =
            protocol::JsonLine("match_abandoned")
                .field("match", room->id)
                .field("message", "the match could not start: a player stayed away")
                .str();
        for (int i = 0; i < room->players(); ++i)
          if (room->seats[i] && room->seats[i]->connection) send(room->seats[i]->connection, line);
        for (ConnectionId c : room->spectators) send(c, line);
        close_room(*room);
      });
      break;
    }
    case DeadlineKind::Forfeit:  // not persisted any more (see Room::forfeit)
    case DeadlineKind::None:
      break;
  }
}

}  // namespace eryantis::server
