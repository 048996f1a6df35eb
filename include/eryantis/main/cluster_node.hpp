#pragma once
// server::Cluster over the store's writer thread (docs/cluster.md): every lease,
// lookup and adoption is a job on the group committer's connection, so the event
// loop never waits on PostgreSQL; completions come back with the appends'.
#include <chrono>
#include <expected>
#include <string>

#include "eryantis/main/config_file.hpp"
#include "eryantis/server/cluster.hpp"
#include "eryantis/store/group_committer.hpp"
#include "eryantis/store/pg_store.hpp"

namespace eryantis::app {

class ClusterNode final : public server::Cluster {
 public:
  // `committer` writes to PostgreSQL; both must outlive this object.
  ClusterNode(store::GroupCommitter& committer, const ClusterConfig& config);

  const std::string& node() const override { return config_.node; }
  std::int64_t lease_ms() const override { return config_.lease_ms; }
  void new_match(NewMatchDone done) override;
  void locate(store::MatchId id, LocateDone done) override;
  void seat_of(const std::string& nickname, SeatDone done) override;
  void renew(std::vector<store::HeldLease> held, RenewDone done) override;
  void release(std::vector<store::HeldLease> held, ReleaseDone done) override;
  void open_matches(std::size_t limit, LobbyDone done) override;
  void due_orphans(std::int64_t due_before_ms, std::size_t limit, OrphansDone done) override;
  void claim_nickname(const std::string& nickname, ClaimDone done) override;
  void release_nickname(const std::string& nickname) override;
  void unseen_ending(const std::string& nickname, EndingDone done) override;

 private:
  std::chrono::milliseconds ttl() const { return std::chrono::milliseconds(config_.lease_ms); }
  store::GroupCommitter& committer_;
  ClusterConfig config_;
};

// One unfinished match read back as the server takes it (the restart path's
// shape, for one match): folded from its newest valid snapshot, with its seats,
// armed timer and last server::kRecentCommands command ids. An error when its log
// diverges (the match is left alone, not served).
std::expected<server::RestoredMatch, std::string> read_match(store::EventStore& db,
                                                             store::MatchId id,
                                                             store::MatchStatus status);

// What a node does at start, on its own connection: records its address in the
// nodes table (where redirects send clients).
store::Result<void> register_node(store::PgStore& db, const ClusterConfig& config);

}  // namespace eryantis::app
