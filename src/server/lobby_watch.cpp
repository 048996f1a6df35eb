// Lobby push (watch_lobby / unwatch_lobby): instead of asking list_matches every
// few seconds, a client in the lobby is sent a new match_list when the list changes.
// Changes are found by comparing what the list would say now with what the watcher
// was last sent (a hash of the line), once per tick (100 ms in eryantis-server), so
// nothing else in the server has to remember to announce a change: matches created,
// joined, left, started, advancing a round or phase, players coming and going.
// At most one push per kLobbyPushGapMs per connection: a busy server with matches
// changing every few milliseconds costs each watcher at most 4 lists a second.
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/server.hpp"

namespace eryantis::server {

namespace {
constexpr std::int64_t kLobbyPushGapMs = 250;

std::size_t line_hash(const std::string& line) {
  return std::hash<std::string>{}(line);
}
}  // namespace

void Server::handle(Session& s, const std::string& id, const protocol::WatchLobby&) {
  const MatchListing listing = match_listing();
  // The watcher's hash is of the push form (no id): the next push compares against it.
  lobby_watchers_[s.id] = LobbyWatch{clock_(), line_hash(match_list_line(s, {}, listing))};
  send(s.id, match_list_line(s, id, listing));
}

void Server::handle(Session& s, const std::string& id, const protocol::UnwatchLobby&) {
  lobby_watchers_.erase(s.id);
  send(s.id, protocol::JsonLine("unwatched", id).str());
}

void Server::push_lobby_updates(std::int64_t now) {
  if (lobby_watchers_.empty()) return;
  std::optional<MatchListing> listing;  // built once per tick, only if a watcher is due
  // Sent after the walk: a transport that reported a close from inside send() would
  // erase from lobby_watchers_ under the loop.
  std::vector<std::pair<ConnectionId, std::string>> pushes;
  for (auto& [conn, watch] : lobby_watchers_) {
    if (now - watch.pushed_ms < kLobbyPushGapMs) continue;
    const Session* s = session(conn);
    if (!s) continue;  // on_closed erases it
    if (!listing) listing = match_listing();
    std::string line = match_list_line(*s, {}, *listing);
    const std::size_t hash = line_hash(line);
    if (hash == watch.hash) continue;
    watch.hash = hash;
    watch.pushed_ms = now;
    pushes.emplace_back(conn, std::move(line));
  }
  for (auto& [conn, line] : pushes) send(conn, std::move(line));
}

}  // namespace eryantis::server
