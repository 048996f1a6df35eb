// An operator's way back for a player who lost their resume token: a new token
// bound to the seat (the admin channel calls it; docs/protocol.md, Sessions).
#include <spdlog/spdlog.h>

#include "eryantis/server/server.hpp"
#include "eryantis/server/token.hpp"
#include "server_messages.hpp"

namespace eryantis::server {

void Server::reissue_token(const std::string& nickname, ReissueDone done) {
  auto it = seated_in_.find(nickname);
  Room* room = it == seated_in_.end() ? nullptr : find_room(it->second);
  if (!room) {
    for (const LoadedMatch& m : waiting_matches_)
      for (const store::SeatRecord& r : m.seats)
        if (r.nickname == nickname) {
          done(std::unexpected(nickname + "'s match " + std::to_string(m.id) +
                               " waits for its players to be free (quarantine); try once it "
                               "is loaded"));
          return;
        }
    done(std::unexpected(nickname + " holds no seat in an unfinished match"));
    return;
  }
  if (static_cast<int>(room->waiting.size()) >= config_.limits.max_queued_per_match) {
    done(std::unexpected("match " + std::to_string(room->id) + " is busy; try again"));
    return;
  }
  const store::MatchId mid = room->id;
  // Queued behind the match's pending write, like a player's request.
  room->enqueue(0, "", [this, mid, nickname, done] {
    Room* room = find_room(mid);
    int seat = -1;
    for (int i = 0; room && i < room->players(); ++i)
      if (room->seats[i] && room->seats[i]->nickname == nickname) seat = i;
    if (seat < 0) {
      done(std::unexpected(nickname + " no longer holds a seat in match " + std::to_string(mid)));
      return;
    }
    const std::string token = new_token();
    const std::string old_hash = room->seats[seat]->token_hash;
    room->seats[seat]->token_hash = token_hash(token);
    MatchWrite w;
    w.match = mid;
    w.expected_seq = room->seq;
    w.seats.push_back(detail::seat_record(*room, seat));
    room->persist(
        std::move(w),
        [nickname, seat, token, old_hash, done](store::Result<store::AppendOutcome> r, Room* room) {
          if (!r) {
            if (room && room->seats[seat] && room->seats[seat]->nickname == nickname)
              room->seats[seat]->token_hash = old_hash;  // nothing changed on disk
            done(std::unexpected("the new token could not be saved: " + r.error().message));
            return;
          }
          spdlog::info("match {}: a new resume token was issued for {} (seat {})",
                       room ? room->id : 0, nickname, seat);
          done(ReissuedToken{room ? room->id : 0, seat, token});
        });
  });
}

}  // namespace eryantis::server
