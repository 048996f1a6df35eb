// A computer takes the seat (docs/accounts.md, "A computer takes the seat"): in a
// match of 3 or 4 seats created with `takeover`, a player who leaves the started
// match, or stays away past the turn grace, hands the seat to a computer player of
// that level, and the others play on.
#include <spdlog/spdlog.h>

#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/computer.hpp"
#include "eryantis/server/server.hpp"
#include "eryantis/store/rating_keys.hpp"
#include "server_messages.hpp"

namespace eryantis::server {

using protocol::error_code_name;
using protocol::ErrorCode;

void Server::take_over(Room& room, game::Seat seat, TakeoverReason reason, ConnectionId conn,
                       const std::string& id) {
  // A clock's timeout under on_timeout "computer" needs no `takeover`: the match's
  // level if it has one, else kTimeoutLevel (docs/protocol.md, "Clocks").
  const std::optional<game::Level> chosen =
      reason == TakeoverReason::Timeout ? room.takeover.value_or(kTimeoutLevel) : room.takeover;
  if (!chosen || !room.seats[seat] || room.seats[seat]->computer) return;
  const game::Level level = *chosen;
  const SeatHolder holder = *room.seats[seat];
  const store::MatchId mid = room.id;
  spdlog::info("match {}: a {} computer player takes seat {} of {} ({})", mid,
               game::level_name(level), seat, holder.nickname,
               reason == TakeoverReason::Left      ? "left"
               : reason == TakeoverReason::Timeout ? "out of time"
                                                   : "absent past the turn grace");
  // Freed at once, so nothing they send meanwhile reaches the seat.
  seated_in_.erase(holder.nickname);
  if (Session* s = session(holder.connection); s && s->match == mid) {
    s->match = 0;
    s->seat = game::kNoSeat;
  }
  // Who held the seat is kept with it: their rating counts the match as theirs, last
  // (store::rating_result, docs/accounts.md "Who is rated").
  const std::string leaver = store::rating_id(detail::seat_record(room, seat));
  room.seats[seat] = SeatHolder{computer_nickname(seat), "", 0, level};
  room.seats[seat]->left_by = leaver;
  room.computer_turns[seat] = {};
  MatchWrite w;
  w.match = mid;
  w.expected_seq = room.seq;
  w.seats.push_back(detail::seat_record(room, seat));
  // Its clock stops for good with the same write.
  std::optional<clocks::ClockStep> untimed;
  if (room.clock) {
    untimed = clocks::ClockStep{clocks::ClockStep::Kind::Untimed, clock_()};
    untimed->seats = clocks::seat_bit(seat);
    room.add_clock_step(w, *untimed);
  }
  // The player who stayed away is told at their next login, stored with the seat.
  std::string line;
  std::vector<store::UnseenEnding> kept;
  if (reason == TakeoverReason::Absent || reason == TakeoverReason::Timeout) {
    const bool timeout = reason == TakeoverReason::Timeout;
    line = protocol::JsonLine("left")
               .field("match", mid)
               .field("reason", timeout ? "timeout" : "taken_over")
               .field("message",
                      timeout ? "your clock ran out; a computer player took your seat and the "
                                "match goes on without you"
                              : "you stayed away past the turn grace time; a computer player "
                                "took your seat and the match goes on without you")
               .str();
    kept = absent_endings(room, {holder.nickname}, line);
    w.keep_endings = kept;
  }
  room.persist(std::move(w), [this, seat, reason, conn, id, holder, line, kept, untimed](
                                 store::Result<store::AppendOutcome> done, Room* room) {
    if (!room) return;
    if (done && untimed && room->clock)
      room->clock = clocks::advance(std::move(*room->clock), *untimed);
    if (!done) {  // nothing changed on disk: the seat is still theirs
      room->seats[seat] = holder;
      room->computer_turns[seat] = {};
      seated_in_[holder.nickname] = room->id;
      if (Session* s = session(holder.connection); s && s->nickname == holder.nickname)
        attach(*s, *room, seat, false);
      if (reason == TakeoverReason::Left)
        send_error(
            conn, id, error_code_name(ErrorCode::StoreFailure),
            "leaving could not be saved: " + done.error().message + "; your seat is still yours");
      return;
    }
    if (reason == TakeoverReason::Left)
      send(conn, protocol::JsonLine("left", id).field("match", room->id).str());
    else
      tell_ending(*room, {holder.nickname}, line, kept);
    // Asked before the seats push, whose deadline write would make the room busy.
    schedule_computers(*room);  // its turn: the computer plays
    room->broadcast_seats();
    if (!waiting_matches_.empty()) resume_waiting_matches();
  });
}

}  // namespace eryantis::server
