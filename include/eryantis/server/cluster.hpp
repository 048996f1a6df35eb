#pragma once
// The server as one node of a cluster sharing one PostgreSQL database
// (docs/cluster.md): what it asks of the cluster, never on its own thread.
// Every call completes later on the server's thread, like Persistence. Without
// a Cluster (the SQLite default) the server does no lease work at all.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "eryantis/server/loaded_match.hpp"
#include "eryantis/store/error.hpp"
#include "eryantis/store/records.hpp"

namespace eryantis::server {

// Where a client is sent for a match another node serves.
struct NodeAddress {
  std::string address;             // host:port of its TCP listener
  std::optional<std::string> web;  // ws://host:port/ws, if it has one
  friend bool operator==(const NodeAddress&, const NodeAddress&) = default;
};

// A match this node just took the lease of.
struct Adopted {
  std::int64_t epoch = 0;  // the lease's epoch: every write of the match carries it
  LoadedMatch match;     // folded from its snapshot and events
};

// What locate() found for a match this node does not hold.
struct Located {
  enum class Kind : std::uint8_t {
    Adopted,    // free or expired: this node took it (`adopted`)
    Elsewhere,  // another node's lease runs: send the client to `holder`
    Missing,    // no such unfinished match
    Failed,     // the database could not answer (`message`): asking again may succeed
    // A match of a game (or rules version) this node's build does not serve, and
    // no live node holds it: this node never takes its lease; `message` names the
    // match, its game and version. Asking this node again changes nothing until a
    // node that serves the game holds it (then the answer is Elsewhere).
    Unserved,
  };
  Kind kind = Kind::Missing;
  Adopted adopted;
  NodeAddress holder;
  std::string message;
};

// A match waiting for players that another node may serve: listed in match_list.
struct ListedMatch {
  store::MatchId id = 0;
  int players = 0;
  std::string mode;                      // "simple" / "expert"
  std::vector<store::SeatRecord> seats;  // nickname and computer
  std::string game;                      // as stored with the match
};

class Cluster {
 public:
  virtual ~Cluster() = default;
  // This node's name (the fence's node), and the lease's length.
  virtual const std::string& node() const = 0;
  virtual std::int64_t lease_ms() const = 0;

  // A match id no other node gets, with its lease taken by this node.
  using NewMatchDone = std::function<void(store::Result<store::HeldLease>)>;
  virtual void new_match(NewMatchDone done) = 0;
  // Takes an unfinished match this node does not hold if its lease is free or
  // expired (folding it), else says who holds it.
  using LocateDone = std::function<void(Located)>;
  virtual void locate(store::MatchId id, LocateDone done) = 0;
  // The unfinished match where `nickname` holds a person's seat, on any node.
  using SeatDone = std::function<void(store::Result<std::optional<store::MatchId>>)>;
  virtual void seat_of(const std::string& nickname, SeatDone done) = 0;
  // Renews all of these leases in one call, and this node's nickname claims;
  // `done` gets the matches lost.
  using RenewDone = std::function<void(store::Result<std::vector<store::MatchId>>)>;
  virtual void renew(std::vector<store::HeldLease> held, RenewDone done) = 0;
  // Gives these leases up now (a graceful shutdown, after the last write
  // committed), and every nickname claim of this node; `done` gets how many
  // leases were still held and are released.
  using ReleaseDone = std::function<void(store::Result<std::size_t>)>;
  virtual void release(std::vector<store::HeldLease> held, ReleaseDone done) = 0;
  // The sweeper's question: unfinished matches no node serves (lease expired or
  // absent) whose stored timer is due at or before `due_before_ms` (the server's
  // clock, unix ms), soonest first, then those with no stored timer (their node
  // died with players connected: once adopted, nobody is, and their abandonment
  // is armed), at most `limit`. A hint: adopting each still goes through
  // locate(), where the lease decides.
  using OrphansDone = std::function<void(store::Result<std::vector<store::MatchId>>)>;
  virtual void due_orphans(std::int64_t due_before_ms, std::size_t limit, OrphansDone done) = 0;
  // Claims `nickname` for this node (a login): nullopt when claimed (free, its
  // node died, or already this node's), else the live node holding it.
  using ClaimDone = std::function<void(store::Result<std::optional<std::string>>)>;
  virtual void claim_nickname(const std::string& nickname, ClaimDone done) = 0;
  // Gives the claim up (the nickname's connection here closed); nothing waits.
  virtual void release_nickname(const std::string& nickname) = 0;
  // The ending kept for `nickname`, whichever node stored it (a login here).
  using EndingDone = std::function<void(store::Result<std::optional<store::UnseenEnding>>)>;
  virtual void unseen_ending(const std::string& nickname, EndingDone done) = 0;
  // The cluster's open matches (status lobby), oldest first, at most `limit`.
  using LobbyDone = std::function<void(store::Result<std::vector<ListedMatch>>)>;
  virtual void open_matches(std::size_t limit, LobbyDone done) = 0;
};

// What a node's LISTEN connection tells the server, on the loop thread (the
// main layer owns the connection and its watch; docs/cluster.md). The server
// implements it.
class LobbyNotices {
 public:
  virtual ~LobbyNotices() = default;
  // Another transaction changed the cluster's lobby (NOTIFY eryantis_lobby).
  virtual void lobby_changed() = 0;
  // The notices flow (`live`) or stopped (the connection dropped: poll until it
  // is back). Starts stopped.
  virtual void lobby_notices(bool live) = 0;
};

}  // namespace eryantis::server
