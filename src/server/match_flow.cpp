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

namespace {
// A game over without an outcome would break the game's contract (outcome() is
// set once stage() is Over); the platform still ends the match, nobody winning.
game::Outcome ended_outcome() {
  game::Outcome o;
  o.reason = "ended";
  return o;
}
}  // namespace

void Server::enqueue(Room& room, ConnectionId conn, const std::string& id,
                     std::function<void()> op) {
  if (static_cast<int>(room.waiting.size()) >= config_.limits.max_queued_per_match) {
    if (conn)  // 0: the server's own operation (a token binding), nobody to answer
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
  for (const WaitingRequest& w : waiting)
    if (w.conn) send_error(w.conn, w.id, code, message);
}

void Server::persist(Room& room, MatchWrite write,
                     std::function<void(store::Result<store::AppendOutcome>, Room*)> after) {
  room.busy = true;
  ++writes_in_flight_;
  const store::MatchId mid = room.id;
  if (room.epoch != 0) write.fence = store::LeaseFence{cluster_->node(), room.epoch};
  write.game = room.game;
  persistence_.submit(std::move(write), [this, mid, after = std::move(after)](
                                            store::Result<store::AppendOutcome> r) {
    --writes_in_flight_;
    // Another node serves the match now: never retried, the match leaves memory.
    if (!r && r.error().code == store::StoreCode::Fenced && lose_match(mid, r.error().message))
      ++stats_.cluster.fenced;
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
  if (!room || s.seat == game::kNoSeat) {
    send_error(s.id, id, error_code_name(ErrorCode::NotInMatch),
               "you are not in a match: create or join one first");
    return;
  }
  const ConnectionId conn = s.id;
  const store::MatchId mid = room->id;
  const game::Seat seat = s.seat;
  if (!room->busy && room->waiting.empty() && config_.limits.max_queued_per_match > 0) {
    // Nothing ahead of it: what enqueue would do at once, without wrapping the
    // request (and a copy of its command) in a heap-allocated closure.
    play(*room, conn, id, m);
    run_next(mid);
    return;
  }
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
  submit_command(room, s->seat, m.command, game::Authority::Player, conn, id, command_id);
}

void Server::submit_command(Room& room, game::Seat seat, const game::Command& command,
                            game::Authority authority, ConnectionId reply_to,
                            const std::string& id, std::optional<std::string> command_id) {
  const game::Game& played = *room.game;
  // One execution of the rules gives both the event and the state it leads to.
  auto decision = played.decide(room.state, seat, command, authority);
  if (!decision) {
    if (reply_to)
      send_error(reply_to, id, decision.error().code, decision.error().message, &room);
    return;
  }
  game::Event event = std::move(decision->event);
  game::State next = std::move(decision->next);
  MatchWrite w;
  w.match = room.id;
  w.expected_seq = room.seq;
  const store::Actor actor =
      authority == game::Authority::Server ? store::Actor::server() : store::Actor::player(seat);
  // Encoded once: the same JSON is stored and (where every viewer may see all of
  // it) broadcast.
  std::string payload = played.event_to_json(event);
  w.events.push_back(store::NewEvent{actor, command_id, event, played.hash(next), payload});
  // The store snapshots every snapshot_every events: only then does it need the
  // state (a State copy per command otherwise).
  if (const int every = persistence_.snapshot_every();
      every > 0 && room.seq / every != (room.seq + 1) / every)
    w.state_after = next;
  std::optional<store::MatchStatus> status;
  const game::Stage stage = played.stage(next);
  if (room.status == store::MatchStatus::Lobby && stage != game::Stage::Setup)
    status = store::MatchStatus::Running;
  // The result, and its push kept for the players away, are stored with the last event.
  std::vector<store::UnseenEnding> kept;
  if (stage == game::Stage::Over) {
    const game::Outcome outcome = played.outcome(next).value_or(ended_outcome());
    // Given up (abandon_match): abandoned, like a lobby nobody came back to.
    const bool given_up = outcome.reason == "abandoned";
    status = given_up ? store::MatchStatus::Abandoned : store::MatchStatus::Finished;
    w.result_json = detail::result_json(room, outcome);
    kept = absent_endings(room, seated_nicknames(room), ending_line(room, outcome));
    w.keep_endings = kept;
  }
  w.status = status;
  if (room.clocks.deadline.kind != DeadlineKind::None || room.clocks.deserted.kind != DeadlineKind::None)
    w.deadline = Deadline{};  // the situation changed: re-armed as the event is told
  persist(room, std::move(w),
          [this, reply_to, id, seat, command_id, status, ev = std::move(event),
           next = std::move(next),
           payload = std::move(payload),
           kept = std::move(kept)](store::Result<store::AppendOutcome> done, Room* room) mutable {
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
            const game::Game& played = *room->game;
            // The sentence of the move log, once for every viewer, from the states around it.
            const std::string text =
                played.describe_event(room->state, ev, next, detail::seat_names(*room));
            room->state = std::move(next);
            room->seq = done->last_seq;
            room->clocks.deadline = Deadline{};
            room->clocks.deserted = Deadline{};
            if (status) moved(*room, room->status, *status);
            if (command_id) room->recent_commands.remember(*command_id, room->seq);
            ++stats_.commands_accepted;
            // The ack carries the fingerprint of the sender's view (of the public
            // view when every viewer sees the same: one hash serves every update).
            if (reply_to && session(reply_to))
              send(reply_to,
                   protocol::JsonLine("ack", id)
                       .field("match", room->id)
                       .field("seq", room->seq)
                       .field("hash", detail::hex(played.hash(played.view(
                                          room->state, played.views_are_public() ? game::kNoSeat
                                                                                : seat))))
                       .str());
            broadcast_event(*room, ev, payload, text);
            if (status == store::MatchStatus::Running) spdlog::info("match {}: started", room->id);
            if (played.stage(room->state) == game::Stage::Over)
              finish_room(*room, kept);
            else
              schedule_computers(*room);
          });
}

void Server::broadcast_event(Room& room, const game::Event& event, const std::string& payload,
                             const std::string& text) {
  const game::Game& played = *room.game;
  const game::State& st = room.state;
  const std::string to_act = detail::to_act_json(played, st);
  update_deadlines(room, clock_());
  room.announced = next_deadline(room);
  const std::string deadline = deadline_json(room, clock_());
  // What a viewer's line shares with others' is written once per view (the event
  // as that viewer may see it, the hash of its view, the sentence, who acts): once
  // for everybody when the game's views are public, else once per seat and once
  // for the spectators. Each viewer's line is that text without its closing
  // brace, then its own moves, the deadline and (if asked for) its view: the same
  // bytes JsonLine wrote field by field for each viewer.
  const bool one_view = played.views_are_public();
  auto common_for = [&](game::Seat viewer) {
    const game::Event seen = played.event_for(event, viewer);
    std::string common =
        protocol::JsonLine("event")
            .field("match", room.id)
            .field("seq", room.seq)
            .field("hash", detail::hex(played.hash(played.view(st, viewer))))
            // The stored text when the viewer sees all of the event (no copy to encode).
            .raw_field("event", seen == event ? payload : played.event_to_json(seen))
            .field("text", text)
            .raw_field("to_act", to_act)
            .str();
    common.pop_back();  // the closing '}'
    return common;
  };
  const std::string shared = common_for(game::kNoSeat);  // spectators' (everybody's if public)
  auto line_for = [&](ConnectionId conn, game::Seat seat) {
    const MoveLists moves = move_lists(played, st, seat);
    const Session* s = nullptr;
    if (auto it = sessions_.find(conn); it != sessions_.end()) s = &it->second;
    std::string own;
    if (!one_view && seat != game::kNoSeat) own = common_for(seat);
    const std::string& common = own.empty() ? shared : own;
    std::string view;
    if (s && s->full_views) view = played.view_to_json(played.view(st, seat), seat);
    std::string line;
    line.reserve(common.size() + moves.allowed.size() + moves.legal.size() + deadline.size() +
                 view.size() + 48);
    line.append(common)
        .append(",\"allowed\":")
        .append(moves.allowed)
        .append(",\"legal\":")
        .append(moves.legal)
        .append(",\"deadline\":")
        .append(deadline);
    if (!view.empty()) line.append(",\"view\":").append(view);
    line.push_back('}');
    send(conn, std::move(line));
  };
  for (int i = 0; i < room.players(); ++i)
    if (room.seats[i] && room.seats[i]->connection)
      line_for(room.seats[i]->connection, static_cast<game::Seat>(i));
  for (ConnectionId c : room.spectators) line_for(c, game::kNoSeat);
}

std::string Server::ending_line(const Room& room, const game::Outcome& outcome) const {
  if (outcome.reason == "abandoned")
    return detail::abandoned_line(
        room.id, "the match was given up: nobody was connected to play it for " +
                     std::to_string(config_.abandon_after_ms / 60000) + " minutes; nobody wins");
  return detail::game_over_line(room.id, detail::result_json(room, outcome));
}

void Server::finish_room(Room& room, const std::vector<store::UnseenEnding>& kept) {
  const game::Outcome outcome = room.game->outcome(room.state).value_or(ended_outcome());
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

void Server::save_deadline(Room& room) {
  // The room's own write comes first (a write behind it would use a stale seq):
  // the deadline is written after it, as it stands then.
  auto save = [this, mid = room.id] {
    Room* r = find_room(mid);
    if (!r || r->status == store::MatchStatus::Finished ||
        r->status == store::MatchStatus::Abandoned)
      return;
    MatchWrite w;
    w.match = mid;
    w.expected_seq = r->seq;
    w.deadline = timers::stored(r->clocks);
    persist(*r, std::move(w), [](store::Result<store::AppendOutcome>, Room*) {});
  };
  if (room.busy || !room.waiting.empty())
    room.waiting.push_back(WaitingRequest{0, "", std::move(save)});
  else
    save();
}

timers::Settings Server::timer_settings() const {
  return {config_.turn_grace_ms, config_.forfeit_after_ms, config_.abandon_after_ms,
          config_.setup_choice_ms, config_.lobby_idle_ms};
}

timers::Situation Server::situation(const Room& room) const {
  timers::Situation s;
  s.lobby = room.status == store::MatchStatus::Lobby;
  s.over = room.status == store::MatchStatus::Finished ||
           room.status == store::MatchStatus::Abandoned;
  // The game's stage and who must act with what wait, as the game says them.
  s.stage = room.game->stage(room.state);
  s.to_act = room.game->to_act(room.state);
  s.players = room.players();
  for (int i = 0; i < s.players; ++i)
    if (room.seats[i])
      s.seats[i] = {true, room.seats[i]->connection != 0, room.seats[i]->computer.has_value()};
  s.lobby_since_ms = room.lobby_since_ms;
  return s;
}

void Server::update_deadlines(Room& room, std::int64_t now) {
  // A degraded server decides nothing more (and writes nothing).
  if (degraded_) return;
  timers::Update u = timers::update(situation(room), room.clocks, timer_settings(), now);
  room.clocks = u.clocks;
  if (u.store) save_deadline(room);
}

bool Server::check_timers(Room& room, std::int64_t now) {
  if (room.busy || !room.waiting.empty()) return false;
  if (room.status == store::MatchStatus::Finished || room.status == store::MatchStatus::Abandoned) {
    rooms_.erase(room.id);  // idle and over: nothing refers to it any more
    return true;
  }
  update_deadlines(room, now);
  if (room.busy) return false;  // a new timer is being written: it starts now
  const timers::Action act = timers::due(situation(room), room.clocks, timer_settings(), now);
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
      submit_command(room, act.seat, room.game->award_forfeit(), game::Authority::Server, 0, "",
                     std::nullopt);
      return true;
    case timers::Due::AbandonDeserted:
      // Recorded as an event, so the match's log (and a replay) says how it ended.
      spdlog::info("match {}: abandoned: no player connected for {} ms (abandon_after_ms)",
                   room.id, config_.abandon_after_ms);
      submit_command(room, 0, room.game->abandon_match(), game::Authority::Server, 0, "",
                     std::nullopt);
      return true;
    case timers::Due::SkipTurn:
      if (room.clocks.deadline.kind == DeadlineKind::TurnGrace &&
          room.clocks.deadline.seat == act.seat)
        spdlog::info("match {}: seat {} ({}) absent past the grace time, turn skipped", room.id,
                     act.seat, room.seats[act.seat]->nickname);
      submit_command(room, act.seat, room.game->skip_turn(), game::Authority::Server, 0, "",
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
  persist(
      room, std::move(w),
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
  persist(room, std::move(w),
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
            broadcast_seats(*room);
            if (!waiting_matches_.empty()) resume_waiting_matches();
          });
}

Deadline Server::next_deadline(const Room& room) const {
  return timers::next(situation(room), room.clocks, timer_settings());
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

std::string Server::deadline_json(const Room& room, std::int64_t now) const {
  const Deadline d = next_deadline(room);
  if (d.kind == DeadlineKind::None) return "null";
  protocol::JsonLine out = protocol::JsonLine::object();
  out.field("action", deadline_action(d.kind));
  if (d.seat >= 0 && d.seat < room.players() && room.seats[d.seat])
    out.field("seat", static_cast<int>(d.seat)).field("nickname", room.seats[d.seat]->nickname);
  else
    out.null_field("seat").null_field("nickname");
  out.field("in_ms", std::max<std::int64_t>(0, d.at_ms - now));
  return out.str();
}

void Server::announce_deadline(Room& room) {
  if (next_deadline(room) == room.announced) return;
  broadcast_seats(room);  // records what it announced
}

}  // namespace eryantis::server
