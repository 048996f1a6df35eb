// The server as one node of a cluster (docs/cluster.md): leases kept, matches
// adopted or redirected, matches lost when the store fences a write. None of it
// runs without a Cluster (the SQLite default): every caller checks cluster_.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "eryantis/server/server.hpp"
#include "server_messages.hpp"

namespace eryantis::server {

using protocol::error_code_name;

namespace {
// How often a node reads the cluster's open matches without LISTEN/NOTIFY (its
// connection is down): a match created on another node is listed here within
// this (one indexed query per node per period).
constexpr std::int64_t kClusterLobbyMs = 500;
// The same while notices flow: only a safety net for a notice lost in a
// reconnection window the fallback did not cover.
constexpr std::int64_t kClusterLobbySafetyMs = 10'000;
// As many as one match_list shows (lobby.cpp's kListLimit), plus this node's own.
constexpr std::size_t kClusterLobbyLimit = 200;
// Matches one sweep adopts at most: 50 folds (a snapshot and up to 64 events each)
// on the writer's connection between two commits, every lease_ms per node, keep
// the appends' latency unharmed; more wait for the next sweep or another node.
constexpr std::size_t kSweepLimit = 50;
// The housekeeping tick (main.cpp's 100 ms timer): a refused claim is asked again
// at the next one.
constexpr std::int64_t kTickMs = 100;
// How many times a nickname another node holds is asked again, a tick apart,
// before the login is refused: for one whole lease, plus two ticks (the first
// retry may come at once after the refusal; the last must run after the expiry).
// The holder may have died a moment ago: its claim runs out lease_ms after its
// last renewal, and its players, reconnecting at once to another node, must not
// be refused by a dead node (5 retries, 0.5 s, against a 1000 ms lease were, in
// ClusterFailoverTest). A client following a redirect is let in sooner: the node
// it left gives the claim back as soon as it sees the close (a few ms). The cost:
// a nickname logged in on a live node is refused after this long (1.2 s at
// lease_ms 1000, 3.2 s at the default 3000).
int claim_retries(std::int64_t lease_ms) {
  return static_cast<int>(lease_ms / kTickMs) + 2;
}
}  // namespace
using protocol::ErrorCode;

void Server::handle(Session& s, const std::string& id, const protocol::Login& m) {
  // Not a cluster: nothing to ask. A bad nickname is refused by login() before
  // anything is looked up.
  if (!cluster_ || s.nickname || !detail::valid_nickname(m.nickname)) {
    login(s, id, m);
    return;
  }
  hold_requests(s);
  cluster_login(s.id, id, m, 0);
}

void Server::cluster_login(ConnectionId conn, const std::string& id, const protocol::Login& m,
                           int attempt) {
  if (!session(conn)) return;  // closed while its claim waited for a retry
  // The seat is here: only the nickname's claim is asked.
  if (seated_in_.count(m.nickname)) {
    claim_then_login(conn, id, m, attempt);
    return;
  }
  // The nickname may hold a seat in a match another node created or serves.
  cluster_->seat_of(
      m.nickname, [this, conn, id, m, attempt](store::Result<std::optional<store::MatchId>> seat) {
        Session* s = session(conn);
        if (!s) return;
        if (s->nickname) {
          release_requests(conn);
          return;
        }
        if (!seat) {
          send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                     "your seat could not be looked up: " + seat.error().message + "; try again");
          release_requests(conn);
          return;
        }
        if (!*seat || find_room(**seat)) {
          claim_then_login(conn, id, m, attempt);
          return;
        }
        locate_match(**seat, [this, conn, id, m, attempt, mid = **seat](const Located& found) {
          Session* s = session(conn);
          if (!s) return;
          if (found.kind != Located::Kind::Adopted && found.kind != Located::Kind::Missing) {
            // Elsewhere: logged in there, and claimed there: nothing is claimed
            // here. Failed or Unserved: a login here could sit them down in a
            // second match while their seat waits in this one.
            if (s->nickname) {
              // Logged in meanwhile by another request: nothing to answer.
            } else if (found.kind == Located::Kind::Elsewhere) {
              send_redirect(conn, id, mid, found.holder);
            } else if (found.kind == Located::Kind::Unserved) {
              // For good on this node (not STORE_FAILURE, which clients send
              // again): a node whose build has the game serves the seat.
              send_error(conn, id, error_code_name(ErrorCode::UnservedGame),
                         "your seat is in a match no node of the cluster serves now: " +
                             found.message +
                             "; log in on a node that serves it (this node refuses you until "
                             "one holds it)");
            } else {
              send_error(
                  conn, id, error_code_name(ErrorCode::StoreFailure),
                  "the match of your seat could not be located: " + found.message + "; try again");
            }
            release_requests(conn);
            return;
          }
          // Adopted (the room is here now) or gone: an ordinary login.
          claim_then_login(conn, id, m, attempt);
        });
      });
}

void Server::claim_then_login(ConnectionId conn, const std::string& id, const protocol::Login& m,
                              int attempt) {
  Session* s = session(conn);
  if (!s) return;
  // Logged in here already (another connection of this nickname): the claim is
  // this node's, and login() decides between the two connections.
  if (s->nickname || online_.count(m.nickname)) {
    if (!s->nickname) login(*s, id, m);
    release_requests(conn);
    return;
  }
  // A stopping node claims nothing more: its claims are being given back.
  if (shutting_down_) {
    send_error(conn, id, error_code_name(ErrorCode::ShuttingDown),
               "the server is shutting down; reconnect later");
    release_requests(conn);
    return;
  }
  claiming_.insert(m.nickname);
  cluster_->claim_nickname(m.nickname, [this, conn, id, m,
                                        attempt](store::Result<std::optional<std::string>> holder) {
    claiming_.erase(claiming_.find(m.nickname));
    Session* s = session(conn);
    if (s && !s->nickname && holder && *holder && attempt < claim_retries(cluster_->lease_ms()) &&
        !shutting_down_) {
      claim_retries_.push_back(ClaimRetry{conn, id, m, attempt + 1});
      return;  // its requests stay held
    }
    bool told = false;  // the ending's lookup releases the requests
    if (s && !s->nickname) {
      if (!holder) {
        send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                   "your nickname could not be claimed: " + holder.error().message + "; try again");
      } else if (*holder) {
        send_error(conn, id, error_code_name(ErrorCode::NicknameTaken),
                   m.nickname + " is logged in on node " + **holder +
                       " of the cluster; log out there first or pick another nickname");
      } else {
        login(*s, id, m);
        // Not resuming a seat: their last match may have ended while they were
        // away, on any node (a single server tells it from memory in login()).
        if (s->nickname && !seated_in_.count(m.nickname)) {
          tell_stored_ending(conn);
          told = true;
        }
      }
    }
    // A claim no connection here uses (the login was refused, or its
    // connection closed meanwhile) is given back at once.
    if (holder && !*holder && !online_.count(m.nickname) && !claiming_.count(m.nickname))
      cluster_->release_nickname(m.nickname);
    if (s && !told) release_requests(conn);
  });
}

void Server::tell_stored_ending(ConnectionId conn) {
  const std::string nickname = *session(conn)->nickname;
  cluster_->unseen_ending(
      nickname, [this, conn, nickname](store::Result<std::optional<store::UnseenEnding>> ending) {
        Session* s = session(conn);
        if (!s) return;
        if (!ending) {
          // Still stored: told at a later login.
          log_throttle_.log(spdlog::level::warn, "unseen ending lookup failed",
                            fmt::format("cluster: the ending kept for {} could not be read: {}",
                                        nickname, ending.error().message));
        } else if (*ending && s->nickname == nickname) {
          keep_unseen(std::move(**ending));
          deliver_unseen_ending(*s);  // sent, and deleted from the store
        }
        release_requests(conn);
      });
}

void Server::hold_requests(Session& s) {
  ++s.awaiting;
}

void Server::release_requests(ConnectionId conn) {
  Session* s = session(conn);
  if (!s) return;
  if (s->awaiting > 0) --s->awaiting;
  // Each held request may start another lookup, which holds the rest again.
  while (s && s->awaiting == 0 && !s->held.empty()) {
    protocol::Envelope env = std::move(s->held.front());
    s->held.erase(s->held.begin());
    dispatch(*s, std::move(env));
    s = session(conn);
  }
}

void Server::route_elsewhere(Session& s, const std::string& id, store::MatchId mid,
                             std::function<void()> retry) {
  const ConnectionId conn = s.id;
  hold_requests(s);
  locate_match(mid, [this, conn, id, mid, retry = std::move(retry)](const Located& found) {
    if (!session(conn)) return;
    switch (found.kind) {
      case Located::Kind::Adopted:
        retry();
        break;
      case Located::Kind::Elsewhere:
        send_redirect(conn, id, mid, found.holder);
        break;
      case Located::Kind::Missing:
        send_error(conn, id, error_code_name(ErrorCode::NoSuchMatch),
                   "there is no unfinished match " + std::to_string(mid));
        break;
      case Located::Kind::Unserved:
        // Not STORE_FAILURE, which clients send again: this node never serves it.
        send_error(conn, id, error_code_name(ErrorCode::UnservedGame),
                   found.message + "; connect to a node that serves it");
        break;
      case Located::Kind::Failed:
        send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                   "match " + std::to_string(mid) + " could not be looked up: " + found.message);
        break;
    }
    release_requests(conn);
  });
}

void Server::locate_match(store::MatchId mid, std::function<void(const Located&)> then) {
  auto [waiting, first] = locating_.try_emplace(mid);
  waiting->second.push_back(std::move(then));
  if (!first) return;
  cluster_->locate(mid, [this, mid](Located found) {
    if (found.kind == Located::Kind::Adopted && !find_room(mid)) {
      const std::int64_t epoch = found.adopted.epoch;
      Room& room = load(std::move(found.adopted.match));
      room.epoch = epoch;
      ++stats_.cluster.adoptions;
      spdlog::info("match {}: adopted by node {} (lease epoch {}, {} events)", mid,
                   cluster_->node(), epoch, room.seq);
    }
    auto it = locating_.find(mid);
    if (it == locating_.end()) return;
    auto callbacks = std::move(it->second);
    locating_.erase(it);
    for (auto& callback : callbacks) callback(found);
  });
}

void Server::send_redirect(ConnectionId conn, const std::string& id, store::MatchId mid,
                           const NodeAddress& holder) {
  spdlog::info("conn {}: match {} is served by {}: redirected", conn, mid, holder.address);
  ++stats_.cluster.redirects;
  send(conn, protocol::encode_redirect(
                 id, holder.address, holder.web, mid,
                 "match " + std::to_string(mid) + " is served by another node of the cluster"));
}

void Server::renew_leases(std::int64_t now) {
  // Released leases stay released: renewing them would find them lost.
  if (renewing_ || release_ != Release::None || now < next_renewal_ms_) return;
  next_renewal_ms_ = now + cluster_->lease_ms() / 3;
  std::vector<store::HeldLease> held;
  for (const auto& [mid, room] : rooms_)
    if (room->epoch != 0) held.push_back(store::HeldLease{mid, room->epoch});
  // The nicknames logged in here are renewed with the leases.
  if (held.empty() && online_.empty()) {
    stats_.cluster.last_renewal_ms = now;  // nothing to keep is kept (the metrics' lag)
    return;
  }
  renewing_ = true;
  cluster_->renew(held, [this, held](store::Result<std::vector<store::MatchId>> lost) {
    renewing_ = false;
    stats_.cluster.postgresql_up = lost.has_value();
    if (!lost) {
      ++stats_.cluster.renewals_failed;
      // The database is away: the leases run out unless a later renewal reaches it,
      // and then every write is fenced (nothing is written twice).
      log_throttle_.log(spdlog::level::warn, "lease renewal failed",
                        fmt::format("cluster: renewing {} lease(s) failed: {}", held.size(),
                                    lost.error().message));
      return;
    }
    ++stats_.cluster.renewals;
    stats_.cluster.last_renewal_ms = clock_();
    for (store::MatchId mid : *lost) {
      const Room* room = find_room(mid);
      const bool same_lease = room && std::any_of(held.begin(), held.end(), [&](const auto& h) {
                                return h.match_id == mid && h.epoch == room->epoch;
                              });
      if (same_lease && lose_match(mid, "its lease expired or another node took it"))
        ++stats_.cluster.lost;
    }
  });
}

bool Server::leases_released() {
  if (!cluster_ || release_ == Release::Done) return true;
  if (release_ == Release::InFlight || !idle() || creating_ != 0 || !locating_.empty() ||
      !claiming_.empty())
    return false;
  std::vector<store::HeldLease> held;
  for (const auto& [mid, room] : rooms_)
    if (room->epoch != 0) held.push_back(store::HeldLease{mid, room->epoch});
  // The release gives back the nicknames logged in here too.
  if (held.empty() && online_.empty()) {
    release_ = Release::Done;
    return true;
  }
  release_ = Release::InFlight;
  cluster_->release(held, [this, count = held.size()](store::Result<std::size_t> released) {
    release_ = Release::Done;
    if (!released) {
      spdlog::warn("cluster: releasing {} lease(s) failed ({}); they run out after {} ms", count,
                   released.error().message, cluster_->lease_ms());
      return;
    }
    spdlog::info("cluster: node {} released {} of {} lease(s); other nodes adopt them at once",
                 cluster_->node(), *released, count);
  });
  return false;
}

void Server::retry_claims() {
  std::vector<ClaimRetry> due;
  due.swap(claim_retries_);
  // From the seat's lookup again: the nickname may have sat down on the node
  // that held it before giving it back (then this login is redirected there).
  for (ClaimRetry& r : due) cluster_login(r.conn, r.id, r.login, r.attempt);
}

void Server::sweep_orphans(std::int64_t now) {
  if (sweeping_ || now < next_sweep_ms_) return;
  next_sweep_ms_ = now + cluster_->lease_ms();
  sweeping_ = true;
  cluster_->due_orphans(
      now + cluster_->lease_ms(), kSweepLimit,
      [this](store::Result<std::vector<store::MatchId>> due) {
        sweeping_ = false;
        stats_.cluster.postgresql_up = due.has_value();
        if (!due) {
          log_throttle_.log(spdlog::level::warn, "sweep failed",
                            fmt::format("cluster: looking for matches nobody serves failed: {}",
                                        due.error().message));
          return;
        }
        for (store::MatchId mid : *due) {
          if (shutting_down_ || find_room(mid)) continue;
          spdlog::info("match {}: no node serves it and its timer falls due (or it has none): "
                       "adopting it",
                       mid);
          locate_match(mid, [mid](const Located& found) {
            if (found.kind == Located::Kind::Failed)
              spdlog::warn("match {}: not adopted: {}", mid, found.message);
          });
        }
      });
}

void Server::refresh_cluster_lobby(std::int64_t now) {
  if (lobby_refreshing_ || now < next_lobby_refresh_ms_) return;
  read_cluster_lobby(now);
}

void Server::read_cluster_lobby(std::int64_t now) {
  next_lobby_refresh_ms_ = now + (lobby_notices_live_ ? kClusterLobbySafetyMs : kClusterLobbyMs);
  lobby_refreshing_ = true;
  lobby_stale_ = false;
  cluster_->open_matches(kClusterLobbyLimit,
                         [this](store::Result<std::vector<ListedMatch>> listed) {
                           lobby_refreshing_ = false;
                           stats_.cluster.postgresql_up = listed.has_value();
                           if (listed) {
                             cluster_lobby_ = std::move(*listed);
                             // Watchers see it now, not at the next tick (100 ms).
                             if (!shutting_down_ && !degraded_) push_lobby_updates(clock_());
                           }
                           // Changed while it was read: it may predate that commit.
                           if (lobby_stale_ && !shutting_down_) read_cluster_lobby(clock_());
                         });
}

void Server::lobby_changed() {
  if (!cluster_ || shutting_down_) return;
  // One read at a time: notices during it make one more read after it, so a burst
  // of commits costs two reads, not one per commit.
  if (lobby_refreshing_) {
    lobby_stale_ = true;
    return;
  }
  read_cluster_lobby(clock_());
}

void Server::lobby_notices(bool live) {
  if (lobby_notices_live_ == live) return;
  lobby_notices_live_ = live;
  stats_.cluster.notices_live = live;
  spdlog::info("cluster: lobby changes {}", live ? "arrive by NOTIFY (poll every 10 s)"
                                                 : "polled every 500 ms (no LISTEN connection)");
  // Polling again: the next read is due within kClusterLobbyMs, not the safety period.
  if (!live) next_lobby_refresh_ms_ = std::min(next_lobby_refresh_ms_, clock_() + kClusterLobbyMs);
}

bool Server::lose_match(store::MatchId mid, std::string_view why) {
  Room* room = find_room(mid);
  if (!room || room->epoch == 0) return false;
  spdlog::warn("match {}: node {} no longer serves it ({}); dropped, its clients reconnect", mid,
               cluster_->node(), why);
  std::vector<ConnectionId> connections(room->spectators.begin(), room->spectators.end());
  for (int i = 0; i < game::kMaxSeats; ++i) {
    if (!room->seats[i] || room->seats[i]->computer) continue;
    if (auto it = seated_in_.find(room->seats[i]->nickname);
        it != seated_in_.end() && it->second == mid)
      seated_in_.erase(it);
    if (room->seats[i]->connection != 0) connections.push_back(room->seats[i]->connection);
  }
  for (ConnectionId c : connections) {
    Session* s = session(c);
    if (!s || s->match != mid) continue;
    s->match = 0;
    s->seat = game::kNoSeat;
    s->spectator = false;
    // Closed without a word: clients reconnect and resume after a dropped connection,
    // and their resuming login is redirected to whoever serves the match now.
    transport_.close(c);
  }
  drop_room(mid, error_code_name(ErrorCode::NoSuchMatch),
            "match " + std::to_string(mid) +
                " moved to another node of the cluster; reconnect and try again");
  return true;
}

}  // namespace eryantis::server
