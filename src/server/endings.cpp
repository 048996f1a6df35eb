// Endings a player missed: a match that finished, was abandoned or freed their seat
// while they were not connected. The push they missed is stored in the same write
// as the ending (so a restart does not lose it), sent after their next logged_in,
// and then deleted from the store: each ending is told exactly once.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "eryantis/server/server.hpp"
#include "server_messages.hpp"

namespace eryantis::server {

std::vector<std::string> Server::seated_nicknames(const Room& room) const {
  std::vector<std::string> out;
  for (int i = 0; i < room.players(); ++i)
    if (room.seats[i]) out.push_back(room.seats[i]->nickname);
  return out;
}

std::vector<store::UnseenEnding> Server::absent_endings(const Room& room,
                                                        const std::vector<std::string>& nicknames,
                                                        const std::string& line) const {
  std::vector<store::UnseenEnding> out;
  for (const std::string& nickname : nicknames)
    if (!online_.contains(nickname) && detail::valid_nickname(nickname))
      out.push_back(store::UnseenEnding{nickname, room.id, line});
  return out;
}

void Server::tell_ending(Room& room, const std::vector<std::string>& nicknames,
                         const std::string& line, const std::vector<store::UnseenEnding>& kept) {
  MatchWrite fix;
  fix.match = room.id;
  fix.expected_seq = room.seq;
  for (const std::string& nickname : nicknames) {
    // Only a name someone can log in with is told later (not a computer seat's).
    if (!detail::valid_nickname(nickname)) continue;
    const bool stored = std::any_of(kept.begin(), kept.end(), [&](const store::UnseenEnding& e) {
      return e.nickname == nickname;
    });
    if (auto it = online_.find(nickname); it != online_.end()) {
      send(it->second, line);
      if (stored) fix.delivered_endings.push_back(nickname);  // came back while it was written
    } else {
      // A cluster node keeps none in memory: the player may come back on another
      // node, which reads it from the database (tell_stored_ending).
      if (!cluster_) keep_unseen(store::UnseenEnding{nickname, room.id, line});
      if (!stored) fix.keep_endings.push_back(store::UnseenEnding{nickname, room.id, line});
    }
  }
  if (fix.delivered_endings.empty() && fix.keep_endings.empty()) return;
  room.persist(std::move(fix), [](store::Result<store::AppendOutcome>, Room*) {});
}

void Server::keep_unseen(store::UnseenEnding ending) {
  std::string nickname = ending.nickname;
  if (unseen_endings_.insert_or_assign(nickname, std::move(ending)).second)
    unseen_order_.push_back(std::move(nickname));
  while (unseen_endings_.size() > kUnseenEndings && !unseen_order_.empty()) {
    unseen_endings_.erase(unseen_order_.front());
    unseen_order_.pop_front();
  }
}

void Server::load_unseen_endings(std::vector<store::UnseenEnding> endings) {
  for (store::UnseenEnding& e : endings) keep_unseen(std::move(e));
  if (!unseen_endings_.empty())
    spdlog::info("{} ending(s) kept for players who have not logged in since",
                 unseen_endings_.size());
}

void Server::deliver_unseen_ending(Session& s) {
  auto it = unseen_endings_.find(*s.nickname);
  if (it == unseen_endings_.end()) return;
  store::UnseenEnding ending = std::move(it->second);
  unseen_endings_.erase(it);
  std::erase(unseen_order_, ending.nickname);
  send(s.id, ending.line);
  // Told: forget it on disk too. If this write is lost (a crash right now), the
  // player is told once more after the restart: at least once, never lost.
  MatchWrite w;
  w.match = ending.match_id;
  w.delivered_endings.push_back(ending.nickname);
  ++writes_in_flight_;
  persistence_.submit(
      std::move(w), [this, match = ending.match_id](store::Result<store::AppendOutcome> done) {
        --writes_in_flight_;
        if (!done)
          log_throttle_.log(spdlog::level::err, "write failed",
                            fmt::format("match {}: a delivered ending could not be forgotten: {}",
                                        match, done.error().message));
      });
}

}  // namespace eryantis::server
