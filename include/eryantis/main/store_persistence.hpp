#pragma once
// server::Persistence over the store's group committer: the writer thread commits
// batches, a libuv wakeup brings the completions back to the loop thread.
#include <memory>

#include "eryantis/metrics/metrics.hpp"
#include "eryantis/server/persistence.hpp"
#include "eryantis/store/group_committer.hpp"

namespace eryantis::app {

class StorePersistence final : public server::Persistence {
 public:
  explicit StorePersistence(store::GroupCommitter& committer) : committer_(committer) {}
  void submit(server::MatchWrite write, server::WriteDone done) override;
  int snapshot_every() const override { return committer_.snapshot_every(); }
  // On the loop thread, when woken: runs the completions that are ready.
  std::size_t deliver() { return committer_.deliver_completions(); }
  // Observes each write's commit latency and counts nothing else; null = off.
  void set_metrics(metrics::Metrics* metrics) { metrics_ = metrics; }

 private:
  store::GroupCommitter& committer_;
  metrics::Metrics* metrics_ = nullptr;
};

// The store's record of a deadline <-> the server's.
store::DeadlineRecord to_record(const server::Deadline& d);
server::Deadline from_record(const store::DeadlineRecord& r);

}  // namespace eryantis::app
