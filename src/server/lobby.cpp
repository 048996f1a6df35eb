// The lobby: listing, creating, joining, quick-joining, leaving and watching
// matches, and the start-up restore of unfinished ones.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cassert>

#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/move_lists.hpp"
#include "eryantis/server/server.hpp"
#include "eryantis/server/token.hpp"
#include "games.hpp"
#include "server_messages.hpp"

namespace eryantis::server {

using protocol::error_code_name;
using protocol::ErrorCode;

namespace {
constexpr std::size_t kListLimit = 100;  // per section (open, running): keeps the reply small

// Finished or abandoned: the room lingers until its last write is done (<= 100 ms).
bool ended(const Room& room) {
  return room.status == store::MatchStatus::Finished ||
         room.status == store::MatchStatus::Abandoned;
}
std::string ended_message(const Room& room) {
  return "match " + std::to_string(room.id) + " has ended (" +
         std::string(store::status_name(room.status)) + ")";
}

// What a room keeps of its options, from its state (created or loaded).
void describe_options(Room& room) {
  room.options_json = room.game->options_json(room.game->options(room.state));
  room.mode = options_mode(room.options_json);
  room.seat_count = room.game->seats(room.state);
}

}  // namespace

void Server::send_state(ConnectionId conn, Room& room, const std::string& id) {
  const Session* s = nullptr;
  if (auto it = sessions_.find(conn); it != sessions_.end()) s = &it->second;
  const game::Seat seat = s && !s->spectator ? s->seat : game::kNoSeat;
  const game::Game& played = *room.game;
  const game::State view = played.view(room.state, seat);
  const MoveLists moves = room.moves(seat);
  room.update_deadlines(clock_());
  room.announced = room.next_deadline();
  protocol::JsonLine line("state", id);
  line.field("match", room.id)
      .field("game", room.game->name())
      .field("seq", room.seq)
      .field("status", store::status_name(room.status))
      .field("hash", detail::hex(played.hash(view)))
      .raw_field("seats", room.seats_json());
  room.takeover_field(line);
  room.clock_field(line);
  if (room.clock) line.raw_field("clocks", room.clocks_json(clock_()));
  line.raw_field("to_act", detail::to_act_json(played, room.state))
      .raw_field("allowed", moves.allowed)
      .raw_field("legal", moves.legal)
      .raw_field("deadline", room.deadline_json(clock_()));
  if (seat == game::kNoSeat)
    line.null_field("seat");
  else
    line.field("seat", seat);
  line.raw_field("view", played.view_to_json(view, seat));
  send(conn, line.str());
  if (auto it = sessions_.find(conn); it != sessions_.end() && it->second.chat_history_due &&
                                      it->second.match == room.id)
    send_chat_history(it->second);
}

void Server::handle(Session& s, const std::string& id, const protocol::ListMatches&) {
  send(s.id, match_list_line(s, id, match_listing()));
}

namespace {

// A match another node serves, as the database has it: waiting for players, so
// in setup at round 0. Whether its people are connected there is not known here.
std::string listed_match_json(const ListedMatch& m) {
  protocol::JsonArray seats;
  int computers = 0;
  for (int i = 0; i < m.players; ++i) {
    protocol::JsonLine seat = protocol::JsonLine::object();
    seat.field("seat", i);
    const store::SeatRecord* held = nullptr;
    for (const store::SeatRecord& r : m.seats)
      if (r.seat == i) held = &r;
    if (held)
      seat.field("nickname", held->nickname).field("connected", held->computer.has_value());
    else
      seat.null_field("nickname").field("connected", false);
    if (held && held->computer) {
      seat.field("computer", *held->computer);
      ++computers;
    } else {
      seat.null_field("computer");
    }
    seats.raw(seat.str());
  }
  protocol::JsonLine line = protocol::JsonLine::object();
  line.field("match", m.id)
      .field("game", m.game)
      .field("players", m.players)
      .field("mode", m.mode)
      .field("status", "lobby")
      .field("phase", "setup")
      .field("round", 0)
      .field("computers", computers)
      .raw_field("seats", seats.str());
  return std::move(line).str();
}

}  // namespace

Server::MatchListing Server::match_listing() const {
  protocol::JsonArray open;
  protocol::JsonArray running;
  std::size_t n_open = 0;
  std::size_t n_running = 0;
  // A match served here, or (a cluster) one waiting for players on another node.
  std::vector<std::pair<store::MatchId, const ListedMatch*>> ids;
  for (auto& [mid, room] : rooms_) ids.emplace_back(mid, nullptr);
  for (const ListedMatch& listed : cluster_lobby_)
    if (!rooms_.count(listed.id)) ids.emplace_back(listed.id, &listed);
  std::sort(ids.begin(), ids.end());
  for (const auto& [mid, listed] : ids) {
    if (listed) {
      int seated = 0;
      for (const store::SeatRecord& seat : listed->seats) seated += seat.seat < listed->players;
      const bool waiting = seated < listed->players;
      if (waiting ? n_open >= kListLimit : n_running >= kListLimit) continue;
      (waiting ? open : running).raw(listed_match_json(*listed));
      ++(waiting ? n_open : n_running);
      continue;
    }
    const Room& room = *rooms_.at(mid);
    if (room.status == store::MatchStatus::Finished || room.status == store::MatchStatus::Abandoned)
      continue;
    if (room.private_match) continue;  // never listed: its invite code is the way in
    const bool waiting = room.status == store::MatchStatus::Lobby && !room.full();
    if (waiting ? n_open >= kListLimit : n_running >= kListLimit) continue;
    protocol::JsonLine m = protocol::JsonLine::object();
    m.field("match", room.id)
        .field("game", room.game->name())
        .field("players", room.players())
        .field("mode", room.mode)
        .field("status", store::status_name(room.status))
        .field("phase", room.game->phase_name(room.state))
        .field("round", room.game->round(room.state))
        .field("computers", room.computers())
        .raw_field("seats", room.seats_json());
    room.takeover_field(m);
    room.clock_field(m);
    (waiting ? open : running).raw(m.str());
    ++(waiting ? n_open : n_running);
  }
  return MatchListing{open.str(), running.str()};
}

std::string Server::match_list_line(const Session& s, const std::string& id,
                                    const MatchListing& listing) const {
  protocol::JsonLine reply("match_list", id);
  reply.raw_field("open", listing.open).raw_field("running", listing.running);
  if (s.nickname)
    if (auto it = seated_in_.find(*s.nickname); it != seated_in_.end())
      reply.field("yours", it->second);
  return reply.str();
}

void Server::handle(Session& s, const std::string& id, const protocol::CreateMatchRequest& asked) {
  // The game named and its options as it reads them (the top-level `mode` included).
  auto requested = requested_options(games_, asked.game, asked.players, asked.game_options);
  if (!requested) {
    send_error(s.id, id, error_code_name(requested.error().code), requested.error().message);
    return;
  }
  const protocol::CreateMatchRequest& m = asked;
  const int players = requested->game->seats(requested->options);
  if (auto it = seated_in_.find(*s.nickname); it != seated_in_.end()) {
    send_error(s.id, id, error_code_name(ErrorCode::AlreadyInMatch),
               "you hold a seat in match " + std::to_string(it->second) + "; leave it first");
    return;
  }
  if (static_cast<int>(rooms_.size()) >= config_.limits.max_matches) {
    send_error(s.id, id, error_code_name(ErrorCode::TooManyMatches),
               "the server holds its maximum of matches; try later");
    return;
  }
  const auto level = computer_level(m.level);
  if (m.computers < 0 || m.computers >= players || !level ||
      (m.computers > 0 && !decisions_)) {
    send_error(s.id, id, error_code_name(ErrorCode::InvalidField),
               !decisions_
                   ? std::string("this server runs no computer players")
                   : "field \"computers\" must be between 0 and " +
                         std::to_string(players - 1) + ": at least one seat is yours");
    return;
  }
  if (m.takeover && (!decisions_ || players < 3)) {
    send_error(s.id, id, error_code_name(ErrorCode::InvalidField),
               !decisions_ ? std::string("field \"takeover\": this server runs no computer "
                                         "players, so none can take a seat over")
                           : "field \"takeover\" needs a match of 3 or 4 seats: with " +
                                 std::to_string(players) +
                                 " a player who leaves ends the match for everyone");
    return;
  }
  // Clocks for everyone (docs/protocol.md, "Clocks"): any game, any seats.
  if (m.clock || m.on_timeout) {
    const std::string_view bad = error_code_name(ErrorCode::BadTimeControl);
    auto action = clocks::on_timeout_from_name(m.on_timeout.value_or("skip"));
    if (!action) {
      send_error(s.id, id, bad,
                 "field \"on_timeout\" must be \"skip\", \"computer\" or \"forfeit\"");
      return;
    }
    if (*action == clocks::OnTimeout::Computer && !decisions_) {
      send_error(s.id, id, bad,
                 "\"on_timeout\":\"computer\": this server runs no computer players; choose "
                 "\"skip\" or \"forfeit\"");
      return;
    }
    auto control = clocks::parse_time_control(m.clock.value_or("none"), *action);
    if (!control) {
      send_error(s.id, id, bad,
                 "field \"clock\": " + control.error().message +
                     " (examples: \"10+5\", \"15m\", \"5m;d3s\", \"24h/turn\", \"none\")");
      return;
    }
    if (control->kind != clocks::ClockKind::None) requested->clock = *control;
  }
  if (cluster_) {  // the id and its lease come from the cluster, off the loop
    const ConnectionId conn = s.id;
    hold_requests(s);
    ++creating_;
    cluster_->new_match([this, conn, id, m, asked_match = *requested](
                            store::Result<store::HeldLease> lease) {
      --creating_;
      Session* s = session(conn);
      if (!s) return;
      if (!lease) {
        send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                   "the match could not be created: " + lease.error().message);
      } else if (s->nickname) {
        open_match(*s, id, m, asked_match, *lease);
      }
      release_requests(conn);
    });
    return;
  }
  open_match(s, id, m, *requested, std::nullopt);
}

void Server::open_match(Session& s, const std::string& id, const protocol::CreateMatchRequest& m,
                        const RequestedMatch& requested, std::optional<store::HeldLease> lease) {
  // Checked again after the cluster's answer: the player may have sat down meanwhile.
  if (auto it = seated_in_.find(*s.nickname); lease && it != seated_in_.end()) {
    send_error(s.id, id, error_code_name(ErrorCode::AlreadyInMatch),
               "you hold a seat in match " + std::to_string(it->second) + "; leave it first");
    return;
  }
  const auto level = computer_level(m.level);
  if (s.spectator) detach(s);
  // 128 secret bits from the kernel: every future draw of the match follows from them.
  const auto seed = draw_seed(secrets_);
  const game::Game& played = *requested.game;
  auto created = played.create_match(requested.options, game::Seed{seed[0], seed[1]});
  if (!created) {
    send_error(s.id, id, created.error().code, created.error().message);
    return;
  }
  auto room = std::make_unique<Room>(links_);
  room->id = lease ? lease->match_id : next_match_id_++;
  room->game = &played;
  room->epoch = lease ? lease->epoch : 0;
  room->state = played.apply(played.empty_state(), *created);
  describe_options(*room);
  room->status = store::MatchStatus::Lobby;
  room->seats[0] = SeatHolder{*s.nickname, token_hash(s.token), 0, std::nullopt};
  if (s.account != 0) room->seats[0]->account_id = s.account;
  room->lobby_since_ms = clock_();
  room->creator = *s.nickname;
  if (m.takeover) room->takeover = game::parse_level(*m.takeover);
  // A clocked match's clocks start paused: they run once the match does (Room::submit).
  const std::int64_t created_ms = clock_();
  std::optional<clocks::ClockStep> pause;
  if (requested.clock) {
    room->clock = clocks::start_clocks(*requested.clock, played.seats(room->state));
    clocks::ClockStep created;
    created.at_ms = created_ms;
    created.to_act = room->to_act_mask(room->state);
    room->clock = clocks::advance(std::move(*room->clock), created);
    pause = clocks::ClockStep{clocks::ClockStep::Kind::Pause, created_ms};
    room->clock = clocks::advance(std::move(*room->clock), *pause);
  }
  for (int seat = 1; seat <= m.computers; ++seat)
    room->seats[seat] = SeatHolder{computer_nickname(seat), "", 0, *level};
  Room& r = *room;
  rooms_[r.id] = std::move(room);
  seated_in_[*s.nickname] = r.id;

  MatchWrite w;
  w.match = r.id;
  w.create = store::NewMatch{requested.options, store::MatchStatus::Lobby,
                             std::string(played.name()), played.version(), m.private_match,
                             m.takeover};
  if (requested.clock) {
    w.create->clock = clocks::time_control_text(*requested.clock);
    w.create->on_timeout = std::string(clocks::on_timeout_name(requested.clock->on_timeout));
  }
  // A private match's first invite code, written with the match (only its digest).
  std::optional<std::string> invite;
  if (m.private_match) {
    r.private_match = true;
    invite = new_invite(r, w);
  }
  for (int seat = 0; seat <= m.computers; ++seat) w.seats.push_back(detail::seat_record(r, seat));
  w.expected_seq = 0;
  w.events.push_back(
      store::NewEvent{store::Actor::server(), std::nullopt, *created, played.hash(r.state)});
  w.state_after = r.state;
  if (pause) {
    w.time_ms = created_ms;
    r.add_clock_step(w, *pause);
  }
  const ConnectionId conn = s.id;
  const std::string nickname = *s.nickname;
  r.persist(std::move(w),
          [this, conn, id, nickname, invite](store::Result<store::AppendOutcome> done, Room* room) {
            if (!room) return;
            if (!done) {
              const std::string why =
                  "match " + std::to_string(room->id) +
                  " could not be saved, so it does not exist: " + done.error().message;
              send_error(conn, id, error_code_name(ErrorCode::StoreFailure), why);
              seated_in_.erase(nickname);
              // Joins that queued behind the creation get the same answer.
              drop_room(room->id, error_code_name(ErrorCode::StoreFailure),
                        why + "; create or join another match");
              return;
            }
            room->seq = done->last_seq;
            moved(*room, std::nullopt, store::MatchStatus::Lobby);
            Session* s = session(conn);
            if (!s || s->nickname != nickname) return;
            attach(*s, *room, 0, false);
            spdlog::info("match {}: created by {} ({}, {})", room->id, nickname,
                         room->game->name(), room->options_json);
            send(conn,
                 protocol::JsonLine("joined", id).field("match", room->id).field("seat", 0).str());
            if (invite) send(conn, invite_line("", room->id, invite));
            send_state(conn, *room);
            schedule_computers(*room);  // full with computers: they choose in setup
          });
}

void Server::join_seat(Room& room, ConnectionId conn, const std::string& id,
                       std::optional<int> wanted, const std::optional<std::string>& code) {
  Session* s = session(conn);
  if (!s || !s->nickname) return;
  // A private match says nothing (not even that it ended) to one without its code.
  if (room.private_match) {
    if (auto refused = check_invite(room, code, true); !refused) {
      send_error(conn, id, refused.error().code, refused.error().message);
      return;
    }
  }
  if (ended(room)) {  // it ended while this request waited for the match's write
    send_error(conn, id, error_code_name(ErrorCode::NoSuchMatch), ended_message(room));
    return;
  }
  if (room.status != store::MatchStatus::Lobby || room.full()) {
    send_error(conn, id, error_code_name(ErrorCode::MatchFull),
               "match " + std::to_string(room.id) + " has no free seat");
    return;
  }
  if (auto it = seated_in_.find(*s->nickname); it != seated_in_.end()) {
    send_error(conn, id, error_code_name(ErrorCode::AlreadyInMatch),
               "you hold a seat in match " + std::to_string(it->second) + "; leave it first");
    return;
  }
  int seat = 0;
  if (wanted) {
    if (*wanted >= room.players() || room.seats[*wanted]) {
      send_error(conn, id, error_code_name(ErrorCode::MatchFull),
                 "seat " + std::to_string(*wanted) + " of match " + std::to_string(room.id) +
                     " is not free; leave out \"seat\" to take any free one");
      return;
    }
    seat = *wanted;
  } else {
    while (room.seats[seat]) ++seat;
  }
  room.seats[seat] = SeatHolder{*s->nickname, token_hash(s->token), 0, std::nullopt};
  if (s->account != 0) room.seats[seat]->account_id = s->account;
  room.lobby_since_ms = clock_();
  seated_in_[*s->nickname] = room.id;
  if (s->spectator) detach(*s);
  MatchWrite w;
  w.match = room.id;
  w.expected_seq = room.seq;
  w.seats.push_back(detail::seat_record(room, seat));
  // The join takes one use of the code, written with the seat.
  std::string used_digest;
  if (room.private_match) {
    if (auto used = check_invite(room, code, true)) {
      store::MatchInvite& invite = room.invites[*used];
      ++invite.uses;
      used_digest = invite.digest;
      w.invites.push_back(invite);
    }
  }
  const std::string nickname = *s->nickname;
  room.persist(std::move(w),
      [this, conn, id, nickname, seat, used_digest](store::Result<store::AppendOutcome> done,
                                                    Room* room) {
        if (!room) return;
        if (!done) {
          for (store::MatchInvite& invite : room->invites)
            if (invite.digest == used_digest) --invite.uses;
          room->seats[seat].reset();
          seated_in_.erase(nickname);
          send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                     "the seat could not be saved: " + done.error().message);
          return;
        }
        spdlog::info("match {}: {} joined seat {}", room->id, nickname, seat);
        Session* s = session(conn);
        if (s && s->nickname == nickname) {
          attach(*s, *room, static_cast<game::Seat>(seat), false);
          send(conn,
               protocol::JsonLine("joined", id).field("match", room->id).field("seat", seat).str());
          send_state(conn, *room);
        }
        room->broadcast_seats();
        schedule_computers(*room);
      });
}

void Server::handle(Session& s, const std::string& id, const protocol::JoinMatch& m) {
  if (auto refused = malformed_invite(m.code)) {
    send_error(s.id, id, refused->code, refused->message);
    return;
  }
  Room* room = find_room(m.match);
  if (!room && cluster_) {
    route_elsewhere(s, id, m.match, [this, conn = s.id, id, m] {
      if (Session* s = session(conn)) handle(*s, id, m);
    });
    return;
  }
  if (room && room->private_match) {
    if (auto refused = check_invite(*room, m.code, true); !refused) {
      send_error(s.id, id, refused.error().code, refused.error().message);
      return;
    }
  }
  if (!room || ended(*room)) {
    send_error(s.id, id, error_code_name(ErrorCode::NoSuchMatch),
               room ? ended_message(*room) : missing_match(m.match, true, m.code.has_value()));
    return;
  }
  const ConnectionId conn = s.id;
  const store::MatchId mid = room->id;
  const std::optional<int> seat = m.seat;
  room->enqueue(conn, id, [this, conn, id, mid, seat, code = m.code] {
    if (Room* r = find_room(mid)) join_seat(*r, conn, id, seat, code);
  });
}

void Server::handle(Session& s, const std::string& id, const protocol::QuickJoin& m) {
  const game::Game* wanted = served_game(games_, m.game);
  if (!wanted) {  // the same refusal as create_match's
    auto refused = requested_options(games_, m.game, m.players.value_or(2), std::nullopt);
    send_error(s.id, id, error_code_name(refused.error().code), refused.error().message);
    return;
  }
  Room* best = nullptr;
  for (auto& [mid, room] : rooms_) {
    if (room->status != store::MatchStatus::Lobby || room->full()) continue;
    if (room->game != wanted) continue;
    if (room->private_match) continue;  // only its invite code opens it
    if (m.players && room->players() != *m.players) continue;
    if (m.mode && room->mode != *m.mode) continue;
    if (!best || room->id < best->id) best = room.get();
  }
  if (!best) {
    // A new match of the kind asked for: the game's defaults for the rest.
    std::optional<std::string> options;
    if (m.mode) {
      options = "{\"mode\":\"";
      options->append(*m.mode).append("\"}");
    }
    handle(s, id,
           protocol::CreateMatchRequest{m.players.value_or(std::max(2, wanted->min_seats())), 0,
                                        std::nullopt, m.game, options});
    return;
  }
  handle(s, id, protocol::JoinMatch{best->id, std::nullopt});
}

void Server::handle(Session& s, const std::string& id, const protocol::LeaveMatch&) {
  if (s.spectator) {
    const store::MatchId mid = s.match;
    detach(s);
    send(s.id, protocol::JsonLine("left", id).field("match", mid).str());
    return;
  }
  auto it = seated_in_.find(*s.nickname);
  Room* room = it == seated_in_.end() ? nullptr : find_room(it->second);
  if (!room) {
    send_error(s.id, id, error_code_name(ErrorCode::NotInMatch), "you are not in a match");
    return;
  }
  const ConnectionId conn = s.id;
  const store::MatchId mid = room->id;
  const std::string nickname = *s.nickname;
  room->enqueue(conn, id, [this, conn, id, mid, nickname] {
    Room* room = find_room(mid);
    if (!room) return;
    int seat = -1;
    for (int i = 0; i < room->players(); ++i)
      if (room->seats[i] && room->seats[i]->nickname == nickname) seat = i;
    if (seat < 0) {
      send_error(conn, id, error_code_name(ErrorCode::NotInMatch), "you are not in a match");
      return;
    }
    // Until play starts (setup included) a seat can be given back: nobody waits for
    // a player who wants to go. Afterwards the seat stays theirs, or they resign.
    // Unless the match was created with `takeover`: a computer plays on for them.
    if (room->status == store::MatchStatus::Running && room->takeover) {
      take_over(*room, static_cast<game::Seat>(seat), TakeoverReason::Left, conn, id);
      return;
    }
    if (room->status != store::MatchStatus::Lobby) {
      send_error(conn, id, error_code_name(ErrorCode::AlreadyInMatch),
                 "match " + std::to_string(mid) +
                     " has started: your seat stays yours (disconnect and come back any time, "
                     "or resign to give up)");
      return;
    }
    seated_in_.erase(nickname);
    spdlog::info("match {}: {} left seat {}", mid, nickname, seat);
    if (Session* s = session(conn); s && s->match == mid) {
      s->match = 0;
      s->seat = game::kNoSeat;
    }
    MatchWrite w;
    w.match = mid;
    w.expected_seq = room->seq;
    w.remove_seats.push_back(seat);
    SeatHolder holder = *room->seats[seat];
    room->seats[seat].reset();
    room->lobby_since_ms = clock_();
    const bool empty = room->seated() == room->computers();  // nobody but computers
    if (empty) w.status = store::MatchStatus::Abandoned;
    room->persist(std::move(w),
            [this, conn, id, mid, empty, seat, nickname, holder](
                store::Result<store::AppendOutcome> done, Room* room) {
              if (!done) {
                if (room) {  // nothing changed on disk: the seat is still theirs
                  room->seats[seat] = holder;
                  seated_in_[nickname] = mid;
                  if (Session* s = session(conn); s && s->nickname == nickname)
                    attach(*s, *room, static_cast<game::Seat>(seat), false);
                }
                send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                           "leaving could not be saved: " + done.error().message);
                return;
              }
              send(conn, protocol::JsonLine("left", id).field("match", mid).str());
              if (!room) return;
              if (empty) {
                moved(*room, room->status, store::MatchStatus::Abandoned);  // dropped next tick
                close_room(*room);
                return;
              }
              room->broadcast_seats();
              if (!waiting_matches_.empty()) resume_waiting_matches();
            });
  });
}

void Server::handle(Session& s, const std::string& id, const protocol::Spectate& m) {
  if (auto refused = malformed_invite(m.code)) {
    send_error(s.id, id, refused->code, refused->message);
    return;
  }
  Room* room = find_room(m.match);
  if (!room && cluster_) {
    route_elsewhere(s, id, m.match, [this, conn = s.id, id, m] {
      if (Session* s = session(conn)) handle(*s, id, m);
    });
    return;
  }
  if (room && room->private_match) {
    if (auto refused = check_invite(*room, m.code, false); !refused) {
      send_error(s.id, id, refused.error().code, refused.error().message);
      return;
    }
  }
  if (!room || ended(*room)) {
    send_error(s.id, id, error_code_name(ErrorCode::NoSuchMatch),
               room ? ended_message(*room) : missing_match(m.match, false, m.code.has_value()));
    return;
  }
  if (s.nickname && seated_in_.count(*s.nickname)) {
    send_error(s.id, id, error_code_name(ErrorCode::AlreadyInMatch),
               "players cannot watch another match; leave yours first");
    return;
  }
  detach(s);
  attach(s, *room, game::kNoSeat, true);
  send(s.id, protocol::JsonLine("spectating", id).field("match", room->id).str());
  send_state(s.id, *room);
}

void Server::load_matches(std::vector<LoadedMatch> matches, store::MatchId next_match_id) {
  next_match_id_ = std::max(next_match_id_, next_match_id);
  // Newest first: the players are in the match they sat down in last.
  std::sort(matches.begin(), matches.end(),
            [](const LoadedMatch& a, const LoadedMatch& b) { return a.id > b.id; });
  for (LoadedMatch& m : matches) {
    next_match_id_ = std::max(next_match_id_, m.id + 1);
    // The store folded it with its game; a game this server does not play (a
    // store opened with other games than the server's) is left alone, never
    // played by the wrong rules.
    if (!m.game || served_game(games_, m.game->name()) != m.game) {
      spdlog::warn(
          "match {}: game {} quarantined: this server does not play it; a server that does will",
          m.id, m.game ? m.game->name() : "(none)");
      continue;
    }
    std::string busy;
    for (const store::SeatRecord& r : m.seats)
      if (auto it = seated_in_.find(r.nickname); it != seated_in_.end())
        busy += (busy.empty() ? "" : ", ") + r.nickname + " in match " + std::to_string(it->second);
    if (!busy.empty()) {
      spdlog::warn(
          "match {}: not resumed yet: its players hold seats in newer unfinished matches ({}); "
          "it resumes when they are free (see docs/operations.md, Quarantine)",
          m.id, busy);
      waiting_matches_.push_back(std::move(m));
      continue;
    }
    load(std::move(m));
  }
}

Room& Server::load(LoadedMatch m) {
  auto room = std::make_unique<Room>(links_);
  room->id = m.id;
  // PRECONDITION: its game is served (load_matches checked it; an adopted match
  // was loaded by a store that serves only those, Options::serves).
  room->game = m.game;
  assert(room->game);
  room->state = std::move(m.state);
  describe_options(*room);
  room->seq = m.last_seq;
  room->status = m.status;
  room->clocks = timers::restored(m.deadline, m.status == store::MatchStatus::Running,
                                 room->players(), links_.timers);
  room->lobby_since_ms = clock_();
  room->recent_commands.assign(m.recent_commands);
  room->private_match = m.private_match;
  room->takeover = m.takeover;
  room->clock = std::move(m.clock);
  room->invites = std::move(m.invites);
  for (const store::SeatRecord& r : m.seats) {
    if (r.seat < 0 || r.seat >= game::kMaxSeats) continue;
    std::optional<game::Level> computer;
    if (r.computer) computer = game::parse_level(*r.computer);
    room->seats[r.seat] = SeatHolder{r.nickname, r.resume_token_hash, 0, computer};
    room->seats[r.seat]->account_id = r.account_id;
    room->seats[r.seat]->left_by = r.left_by;
    if (!computer) seated_in_[r.nickname] = m.id;
  }
  Room& loaded = *room;
  rooms_[m.id] = std::move(room);
  return loaded;
}

std::vector<store::MatchId> Server::waiting_matches() const {
  std::vector<store::MatchId> ids;
  for (const LoadedMatch& m : waiting_matches_) ids.push_back(m.id);
  return ids;
}

void Server::resume_waiting_matches() {
  for (auto it = waiting_matches_.begin(); it != waiting_matches_.end();) {
    const bool free = std::none_of(it->seats.begin(), it->seats.end(),
                                   [&](const auto& r) { return seated_in_.count(r.nickname); });
    if (!free) {
      ++it;
      continue;
    }
    LoadedMatch m = std::move(*it);
    it = waiting_matches_.erase(it);
    // Its stored timers are as old as the wait: they start again from now.
    const bool stale_deadline = m.deadline.kind != DeadlineKind::None;
    m.deadline = {};
    Room& room = load(std::move(m));
    spdlog::info("match {}: resumed, its players are free again", room.id);
    if (stale_deadline) {
      room.clocks.deadline = {};
      room.save_deadline();
    }
    // Players online in the lobby are seated back at once (a state push tells them),
    // if their session holds the seat's token: a free nickname may be anybody's.
    bool seated = false;
    for (int i = 0; i < room.players(); ++i) {
      if (!room.seats[i]) continue;
      auto online = online_.find(room.seats[i]->nickname);
      Session* s = online == online_.end() ? nullptr : session(online->second);
      if (!s || (s->match && !s->spectator) ||
          !same_secret(token_hash(s->token), room.seats[i]->token_hash))
        continue;
      if (s->spectator) detach(*s);
      attach(*s, room, static_cast<game::Seat>(i), false);
      send_state(s->id, room);
      seated = true;
    }
    if (seated) room.broadcast_seats();
  }
}

}  // namespace eryantis::server
