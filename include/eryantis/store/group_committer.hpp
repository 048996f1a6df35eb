#pragma once
// Group commit: a writer thread with its own connection turns every append
// queued meanwhile (for any number of matches) into ONE transaction, so a
// single fsync makes a whole batch durable. Callers never wait for the disk:
// completions are queued and `notify` tells the caller's thread to run them.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "eryantis/store/error.hpp"
#include "eryantis/store/event_store.hpp"
#include "eryantis/store/records.hpp"
#include "eryantis/store/sqlite_store.hpp"

namespace eryantis::store {

// Runs on the caller's thread (inside deliver_completions), after the request's
// transaction committed (success) or was refused/failed (error).
using AppendCompletion = std::function<void(Result<AppendOutcome>)>;

class GroupCommitter {
 public:
  struct Options {
    store::Options store;
    std::size_t max_batch = 512;  // requests per transaction
  };
  struct Stats {
    std::uint64_t batches = 0;
    std::uint64_t requests = 0;
    std::uint64_t events = 0;  // durably appended
  };
  // Called on the writer thread whenever completions are ready; must be cheap
  // and thread-safe (the server passes uv_async_send, tests a condition variable).
  using Notify = std::function<void()>;

  // Opens its own connection to the SQLite file (migrating if needed) and starts
  // the writer.
  static Result<std::unique_ptr<GroupCommitter>> start(const std::string& path,
                                                       const Options& options, Notify notify);
  // Starts the writer on a connection the caller opened (any backend, writable);
  // options.store is not used.
  static Result<std::unique_ptr<GroupCommitter>> start(std::unique_ptr<EventStore> store,
                                                       const Options& options, Notify notify);
  // Only start() can make the key: construction goes through it.
  class Key {
    friend class GroupCommitter;
    Key() = default;
  };
  GroupCommitter(Key, std::unique_ptr<EventStore> store, const Options& options, Notify notify);
  GroupCommitter(const GroupCommitter&) = delete;
  GroupCommitter& operator=(const GroupCommitter&) = delete;
  ~GroupCommitter();  // stop()

  // Thread-safe; never waits for I/O. Requests for one match are applied in the
  // order they are submitted. After stop() the completion reports Stopped.
  void submit(AppendRequest request, AppendCompletion completion);

  // Runs `job` on the writer thread with the writer's connection, between two
  // transactions: a job submitted before an append runs before it. The function
  // it returns runs on the caller's thread in deliver_completions(). What a
  // cluster node asks of the database besides appends (leases, adopting a
  // match, docs/cluster.md) goes here, so the event loop never waits on the
  // network. Thread-safe; after stop() the job is dropped unrun.
  using Job = std::function<std::function<void()>(EventStore&)>;
  void run_on_writer(Job job);
  // Like run_on_writer, but ahead of every job still waiting (not of the one
  // running, nor of an append batch): lease renewals. A node adopting 1,000
  // matches at once queues hundreds of look-ups (a fold each, ~5 ms on a loaded
  // machine); a renewal behind them arrived after the fresh leases expired, and the
  // node dropped the matches it had just adopted (bench/cluster.sh f).
  void run_on_writer_first(Job job);
  // From a job, on the writer thread: hands `done` to the caller's thread now,
  // before the job ends (a job that answers many requests answers each as soon
  // as it is ready: a batch of adoptions, docs/cluster.md section 4).
  void post(std::function<void()> done);

  // Runs the completions that are ready, on the calling thread. Returns how many.
  std::size_t deliver_completions();

  // Blocks until everything submitted before the call has committed or failed.
  void flush();
  // Commits everything pending, then stops the writer (graceful shutdown).
  // Completions stay queued for deliver_completions().
  void stop();

  Stats stats() const;
  // The store's snapshot interval (Options::store.snapshot_every): a request whose
  // events cross a multiple of it should carry state_after, or the writer folds
  // the match from its previous snapshot instead. Thread-safe (fixed at start).
  int snapshot_every() const { return options_.store.snapshot_every; }

  // True once a transaction failed because the file is damaged (SQLITE_CORRUPT,
  // SQLITE_NOTADB). From then on nothing is written: every request completes
  // at once with Corrupt, so a damaged file is not retried batch after batch.
  // Thread-safe.
  bool degraded() const { return degraded_.load(std::memory_order_acquire); }

  // How often a writer that found the disk full tries to give the WAL's space back
  // (EventStore::reclaim_space). Until one try succeeds, every request completes at
  // once with Full and nothing is written: a write would put its frames in whatever
  // was freed, and the WAL, unable to move into a database that cannot grow, would
  // keep that space too (issue 23: writes then never resumed until the disk grew).
  static constexpr std::chrono::milliseconds kReclaimEvery{1000};
  // True from a write that found the disk full until the WAL gave its space back.
  // Thread-safe.
  bool disk_full() const { return disk_full_.load(std::memory_order_acquire); }

 private:
  struct Pending {
    AppendRequest request;
    AppendCompletion completion;
  };
  struct Completed {
    AppendCompletion completion;
    Result<AppendOutcome> result;
  };

  void run_writer();
  // Every request of a batch refused without touching the file (degraded).
  std::vector<Result<AppendOutcome>> refuse_degraded(std::size_t count) const;
  // Degrades on the first result that reports a damaged file.
  void note_damage(const std::vector<Result<AppendOutcome>>& results);
  // Every request of a batch refused without touching the file (disk full).
  std::vector<Result<AppendOutcome>> refuse_full(std::size_t count) const;
  // Notes a result that found the disk full (the first one is logged).
  void note_full(const std::vector<Result<AppendOutcome>>& results);
  // After a full disk, when due: gives the WAL's space back, and writes resume.
  void try_reclaim();

  std::unique_ptr<EventStore> store_;  // used by the writer thread only
  Options options_;
  Notify notify_;

  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable batch_done_;
  std::deque<Pending> queue_;
  std::vector<Completed> completed_;
  std::deque<Job> jobs_;                          // run_on_writer, run before the next batch
  std::deque<Job> first_jobs_;                    // run_on_writer_first, run next
  std::vector<std::function<void()>> jobs_done_;  // their completions
  std::uint64_t submitted_ = 0;
  std::uint64_t finished_ = 0;
  bool stopping_ = false;
  Stats stats_;
  std::atomic<bool> degraded_{false};
  std::string degraded_reason_;  // the first damage reported (writer thread only)
  std::atomic<bool> disk_full_{false};
  std::chrono::steady_clock::time_point next_reclaim_;  // writer thread only
  bool reclaim_reported_ = false;  // the first failed try is logged (writer thread only)

  std::thread writer_;  // last: started once everything above exists
};

}  // namespace eryantis::store
