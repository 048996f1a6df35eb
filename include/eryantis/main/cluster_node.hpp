#pragma once
// server::Cluster over the store's writer thread (docs/cluster.md): every lease,
// lookup and adoption is a job on the group committer's connection, so the event
// loop never waits on PostgreSQL; completions come back with the appends'.
#include <chrono>
#include <cstddef>
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "eryantis/log/log_throttle.hpp"
#include "eryantis/main/batch_queue.hpp"
#include "eryantis/main/config_file.hpp"
#include "eryantis/server/cluster.hpp"
#include "eryantis/store/group_committer.hpp"
#include "eryantis/store/pg_store.hpp"

namespace eryantis::app {

class ClusterNode final : public server::Cluster {
 public:
  // Look-ups taken together by one job on the writer (docs/cluster.md section 4):
  // a node adopting 1,000 matches after another died reads them in batches of
  // at most this many, ~8 statements a batch, instead of ~6 round trips per
  // match. The bound keeps a lease renewal (run first, between two jobs) and the
  // appends (between two batches) from waiting behind all of them: a batch of
  // 128 (a fold each from a snapshot and up to 64 events) took 40-80 ms in
  // bench/cluster.sh f, against a renewal every lease_ms / 3 (>= 333 ms).
  static constexpr std::size_t kLocateBatch = 128;
  // The logins' look-ups (where a nickname's seat is; its claim): one statement
  // or two per batch, no fold: a larger bound.
  static constexpr std::size_t kLoginBatch = 256;

  using Clock = std::chrono::steady_clock;

  // `committer` writes to PostgreSQL; both must outlive this object. `clock`
  // (tests) measures the time fence.
  ClusterNode(store::GroupCommitter& committer, const ClusterConfig& config,
              std::function<Clock::time_point()> clock = Clock::now);

  // Fencing by time (docs/cluster.md, "Fenced by time"): a lease PostgreSQL
  // holds for this node lasts lease_ms from the moment the statement that took
  // or renewed it ran, which is after the loop asked for it. So a match whose
  // last successful take or renewal was asked for more than lease_ms - margin
  // ago may already belong to another node: while a renewal is stuck (the
  // database frozen, the network cut) or failing, it is answered with those
  // matches as lost, and the server stops serving them before the database lets
  // another node take them. Call on every tick of the loop (a stuck renewal
  // answers nothing by itself).
  void check_time_fence();
  // The margin (lease_ms / 10, at least 150 ms: the tick's 100 ms plus slack).
  Clock::duration time_fence_margin() const;

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
  struct PendingRenewal {
    std::uint64_t id = 0;
    std::vector<store::HeldLease> held;
    RenewDone done;
    Clock::time_point asked;
  };
  struct PendingLocate {
    store::MatchId key = 0;  // the match
    LocateDone done;
  };
  struct PendingSeat {
    std::string key;  // the nickname
    SeatDone done;
  };
  struct PendingClaim {
    std::string key;  // the nickname
    ClaimDone done;   // empty: a release (release_nickname), nobody waits
  };
  std::chrono::milliseconds ttl() const { return std::chrono::milliseconds(config_.lease_ms); }
  // Loop thread: a lease taken or renewed by a request asked for at `asked`.
  void leased(store::MatchId id, Clock::time_point asked);
  // The held matches whose lease may have run out by now (loop thread).
  std::vector<store::MatchId> past_their_lease(const std::vector<store::HeldLease>& held) const;
  void finish_renewal(std::uint64_t id, store::Result<std::vector<store::MatchId>> lost);
  // Queues the job that takes `queue`'s waiting requests, one batch per run, and
  // gives each batch to `run` on the writer's connection.
  template <class Request, class Run>
  void drain(BatchQueue<Request>& queue, Run run);
  // Each request of a batch answered as soon as it is ready (writer thread).
  void locate_batch(store::PgStore& db, std::vector<PendingLocate>& batch);
  void seat_batch(store::PgStore& db, std::vector<PendingSeat>& batch);
  void claim_batch(store::PgStore& db, std::vector<PendingClaim>& batch);
  // Hands `result` to the request's callback on the loop thread, now.
  template <class Done, class Result>
  void answer(Done& done, Result result);

  store::GroupCommitter& committer_;
  ClusterConfig config_;
  std::function<Clock::time_point()> clock_;
  // Loop thread: until when each held match's lease surely runs (its last
  // successful take or renewal, as asked for, + lease_ms); the renewal in flight.
  std::unordered_map<store::MatchId, Clock::time_point> leased_until_;
  std::optional<PendingRenewal> renewal_;
  std::uint64_t renewals_asked_ = 0;
  BatchQueue<PendingLocate> locates_;
  BatchQueue<PendingSeat> seats_;
  BatchQueue<PendingClaim> claims_;
  // Writer thread: the lines about matches of a game this build does not serve.
  logging::LogThrottle unserved_log_;
};

// One unfinished match read back as the server takes it (the restart path's
// shape, for one match): folded from its newest valid snapshot, with its seats,
// armed timer and last server::kRecentCommands command ids. An error when its log
// diverges (the match is left alone, not served).
std::expected<server::LoadedMatch, std::string> load_match(store::EventStore& db,
                                                             store::MatchId id,
                                                             store::MatchStatus status);

// What a node does at start, on its own connection: records its address in the
// nodes table (where redirects send clients).
store::Result<void> register_node(store::PgStore& db, const ClusterConfig& config);

}  // namespace eryantis::app
