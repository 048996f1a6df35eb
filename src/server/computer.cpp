// Computer seats: adding and removing them in the lobby, asking the decision runner
// for their moves and playing the answers through submit_command, the path every
// person's command takes. The decisions themselves never run here (computer_pool.cpp).
#include "eryantis/server/computer.hpp"

#include <spdlog/spdlog.h>

#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/server.hpp"
#include "server_messages.hpp"

namespace eryantis::server {

using protocol::error_code_name;
using protocol::ErrorCode;

namespace {
// SplitMix64's finaliser: every input bit reaches every output bit.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

std::uint64_t computer_bot_seed(const game::Seed& match_seed, game::Seat seat, store::Seq seq) {
  std::uint64_t h = mix(match_seed.lo);
  h = mix(h ^ match_seed.hi);
  h = mix(h ^ static_cast<std::uint64_t>(seat));
  return mix(h ^ static_cast<std::uint64_t>(seq));
}

DecisionRequest computer_request(const game::Game& game, store::MatchId match,
                                 const game::State& state, const game::Seed& seed, store::Seq seq,
                                 game::Seat seat, game::Level level, std::uint32_t playouts) {
  DecisionRequest request;
  request.game = &game;
  request.match = match;
  request.position = seq;
  request.seat = seat;
  request.view = game.view(state, seat);
  request.level = level;
  request.bot_seed = computer_bot_seed(seed, seat, seq);
  request.playouts = playouts;
  return request;
}

DecisionResult run_decision(const DecisionRequest& request, const game::Deadline* deadline) {
  DecisionResult result;
  result.match = request.match;
  result.position = request.position;
  result.seat = request.seat;
  if (!request.game) return result;
  auto choice = request.game->choose(request.view, request.seat, request.level,
                                     game::Budget{request.playouts, deadline}, request.bot_seed);
  if (choice) {
    result.command = std::move(choice->command);
    result.playouts = choice->playouts;
  }
  return result;
}

std::string computer_nickname(int seat) {
  return "Computer " + std::to_string(seat);
}

void Server::set_decision_runner(DecisionRunner* runner) {
  decisions_ = runner;
}

std::optional<game::Level> Server::computer_level(const std::optional<std::string>& name) const {
  if (!name) return config_.computer.level;
  return game::parse_level(*name);
}

std::string Server::match_owner(const Room& room) const {
  for (int i = 0; i < room.players(); ++i)
    if (room.seats[i] && !room.seats[i]->computer && room.seats[i]->nickname == room.creator)
      return room.creator;
  // The creator left (or the server restarted): the person in the lowest seat.
  for (int i = 0; i < room.players(); ++i)
    if (room.seats[i] && !room.seats[i]->computer) return room.seats[i]->nickname;
  return {};
}

// The lobby match the session holds a seat in and may change, or an error sent.
Room* Server::owned_lobby_room(Session& s, const std::string& id) {
  if (!decisions_) {
    send_error(s.id, id, error_code_name(ErrorCode::InvalidField),
               "this server runs no computer players");
    return nullptr;
  }
  auto it = seated_in_.find(*s.nickname);
  Room* room = it == seated_in_.end() ? nullptr : find_room(it->second);
  if (!room) {
    send_error(s.id, id, error_code_name(ErrorCode::NotInMatch),
               "you are not in a match: create one first");
    return nullptr;
  }
  return room;
}

// Checked when the request's turn on the room comes (it may have filled meanwhile).
bool Server::may_change_computers(Room& room, ConnectionId conn, const std::string& id,
                                  const std::string& nickname, bool adding) {
  if (room.status != store::MatchStatus::Lobby || (!adding && room.full())) {
    send_error(conn, id, error_code_name(ErrorCode::MatchStarted),
               "match " + std::to_string(room.id) +
                   " has started: its seats stay as they are until it ends",
               &room);
    return false;
  }
  if (match_owner(room) != nickname) {
    send_error(conn, id, error_code_name(ErrorCode::NotCreator),
               "only " + match_owner(room) + ", who created match " + std::to_string(room.id) +
                   ", may add or remove computer players",
               &room);
    return false;
  }
  if (adding && room.full()) {
    send_error(conn, id, error_code_name(ErrorCode::MatchFull),
               "match " + std::to_string(room.id) + " has no free seat for a computer player",
               &room);
    return false;
  }
  return true;
}

void Server::handle(Session& s, const std::string& id, const protocol::AddComputer& m) {
  const auto level = computer_level(m.level);
  Room* room = owned_lobby_room(s, id);
  if (!room || !level) return;
  const ConnectionId conn = s.id;
  const store::MatchId mid = room->id;
  const std::string nickname = *s.nickname;
  const game::Level lv = *level;
  room->enqueue(conn, id, [this, conn, id, mid, nickname, lv] {
    Room* room = find_room(mid);
    if (!room || !may_change_computers(*room, conn, id, nickname, true)) return;
    int seat = 0;
    while (room->seats[seat]) ++seat;
    room->seats[seat] = SeatHolder{computer_nickname(seat), "", 0, lv};
    room->lobby_since_ms = clock_();
    MatchWrite w;
    w.match = mid;
    w.expected_seq = room->seq;
    w.seats.push_back(detail::seat_record(*room, seat));
    room->persist(std::move(w),
            [this, conn, id, seat, lv](store::Result<store::AppendOutcome> done, Room* room) {
              if (!room) return;
              if (!done) {
                room->seats[seat].reset();
                send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                           "the computer player could not be saved: " + done.error().message);
                return;
              }
              spdlog::info("match {}: a {} computer player took seat {}", room->id,
                           game::level_name(lv), seat);
              room->broadcast_seats(conn, id);
              schedule_computers(*room);  // a full match starts its setup
            });
  });
}

void Server::handle(Session& s, const std::string& id, const protocol::RemoveComputer& m) {
  Room* room = owned_lobby_room(s, id);
  if (!room) return;
  const ConnectionId conn = s.id;
  const store::MatchId mid = room->id;
  const std::string nickname = *s.nickname;
  const int seat = m.seat;
  room->enqueue(conn, id, [this, conn, id, mid, nickname, seat] {
    Room* room = find_room(mid);
    if (!room || !may_change_computers(*room, conn, id, nickname, false)) return;
    if (seat >= room->players() || !room->is_computer(seat)) {
      send_error(conn, id, error_code_name(ErrorCode::NotAComputer),
                 "no computer player holds seat " + std::to_string(seat) + " of match " +
                     std::to_string(mid) + "; see the seats message",
                 room);
      return;
    }
    const SeatHolder holder = *room->seats[seat];
    room->seats[seat].reset();
    room->computer_turns[seat] = {};
    room->lobby_since_ms = clock_();
    MatchWrite w;
    w.match = mid;
    w.expected_seq = room->seq;
    w.remove_seats.push_back(seat);
    room->persist(std::move(w),
            [this, conn, id, seat, holder](store::Result<store::AppendOutcome> done, Room* room) {
              if (!room) return;
              if (!done) {  // nothing changed on disk: the computer keeps its seat
                room->seats[seat] = holder;
                send_error(
                    conn, id, error_code_name(ErrorCode::StoreFailure),
                    "removing the computer player could not be saved: " + done.error().message);
                return;
              }
              spdlog::info("match {}: the computer player left seat {}", room->id, seat);
              room->broadcast_seats(conn, id);
            });
  });
}

void Server::schedule_computers(Room& room) {
  if (!decisions_ || shutting_down_ || degraded_ || room.busy) return;
  if (room.status != store::MatchStatus::Lobby && room.status != store::MatchStatus::Running)
    return;
  if (!room.full() || room.game->stage(room.state) == game::Stage::Over) return;
  // Nobody to play with: no CPU spent until a person comes back (tick asks again).
  if (room.connected() == 0) return;
  const std::int64_t now = clock_();
  for (const game::ToAct& act : room.game->to_act(room.state)) {
    const game::Seat seat = act.seat;
    if (!room.is_computer(seat)) continue;
    ComputerTurn& turn = room.computer_turns[seat];
    if (turn.asked && turn.position == room.seq) continue;
    turn = ComputerTurn{true, room.seq, now + config_.computer.pause_ms, {}};
    const store::MatchId mid = room.id;
    decisions_->submit(computer_request(*room.game, room.id, room.state,
                                        room.game->secret(room.state),
                                        room.seq, seat, *room.seats[seat]->computer,
                                        static_cast<std::uint32_t>(config_.computer.playouts)),
                       [this, mid](DecisionResult result) { on_decision(mid, std::move(result)); });
  }
}

void Server::on_decision(store::MatchId mid, DecisionResult result) {
  Room* room = find_room(mid);
  if (!room || result.seat < 0 || result.seat >= room->players()) return;
  ComputerTurn& turn = room->computer_turns[result.seat];
  // Someone moved meanwhile (a timer, a person in setup, a resignation): too late.
  if (!turn.asked || turn.position != result.position || room->seq != result.position ||
      !result.command)
    return;
  turn.command = std::move(result.command);
  play_due_computer(*room, result.seat, clock_());
}

void Server::play_due_computers(Room& room, std::int64_t now) {
  for (int seat = 0; seat < room.players(); ++seat)
    play_due_computer(room, static_cast<game::Seat>(seat), now);
}

void Server::play_due_computer(Room& room, game::Seat seat, std::int64_t now) {
  ComputerTurn& turn = room.computer_turns[seat];
  if (!turn.command || now < turn.due_ms || room.connected() == 0 || shutting_down_ || degraded_)
    return;
  game::Command command = std::move(*turn.command);
  turn.command.reset();
  const store::Seq position = turn.position;
  const store::MatchId mid = room.id;
  room.enqueue(0, "", [this, mid, seat, position, command = std::move(command)] {
    Room* r = find_room(mid);
    if (!r || r->seq != position || !r->is_computer(seat)) return;
    // Exactly a person's path: the rules check it, the store keeps it, everyone sees it.
    r->submit(seat, command, game::Authority::Player, 0, "", std::nullopt);
  });
}

}  // namespace eryantis::server
