#pragma once
// server::Persistence over the store's group committer: the writer thread commits
// batches, a libuv wakeup brings the completions back to the loop thread. Move
// logs are read on a reader thread of their own, with its own connection, so a
// fold of a whole match delays neither the loop nor the writer's batches.
#include <functional>
#include <memory>

#include "eryantis/main/standings.hpp"
#include "eryantis/metrics/metrics.hpp"
#include "eryantis/server/persistence.hpp"
#include "eryantis/store/event_store.hpp"
#include "eryantis/store/group_committer.hpp"
#include "eryantis/store/open_store.hpp"

namespace eryantis::app {

// Move logs waiting for the reader at most; more are refused (Busy) at once. One
// read folds one match (at most 289 events; 162 took 1.1 ms, 7-18 ms at load
// average 25): 64 waiting are answered within about a second even then.
inline constexpr std::size_t kMaxQueuedMoveLogReads = 64;

class StorePersistence final : public server::Persistence {
 public:
  // Opens the reader's connection (read-only), on the reader thread at its first
  // read; a failure answers that read and the next read tries again.
  using OpenReader = std::function<store::Result<std::unique_ptr<store::EventStore>>()>;

  // `notify`: called on the reader thread when an answer is ready (the caller then
  // runs deliver() on its own thread), as the committer's Notify is for writes.
  StorePersistence(store::GroupCommitter& committer, OpenReader open_reader,
                   std::function<void()> notify = {});
  ~StorePersistence() override;  // stops the reader; reads not done are dropped
  StorePersistence(const StorePersistence&) = delete;
  StorePersistence& operator=(const StorePersistence&) = delete;

  void submit(server::MatchWrite write, server::WriteDone done) override;
  int snapshot_every() const override { return committer_.snapshot_every(); }
  // Answered by deliver(), on the loop thread.
  void read_move_log(server::MoveLogRead read, server::MoveLogDone done) override;
  // Chat messages go to the committer's writer as one job for all those waiting
  // (one transaction, between two batches of appends); their answers come with
  // the writes'. Chat histories are read by the move logs' reader.
  void submit_chat(store::NewChatMessage message, server::ChatWriteDone done) override;
  void read_chat(store::ChatQuery query, server::ChatReadDone done) override;
  void delete_chat(store::ChatMessageId id, std::string by, std::int64_t at_ms,
                   server::ChatDeleteDone done) override;
  // Finished matches for ratings and histories (standings.hpp's read_rated), read by the
  // move logs' reader; `done` runs on the loop thread (deliver()).
  using RatedDone = std::function<void(store::Result<std::vector<RatedMatch>>)>;
  void read_rated(store::FinishCursor after, RatedDone done);
  // On the loop thread, when woken: runs the completions that are ready (the move
  // logs read, then the writes); returns how many writes completed.
  std::size_t deliver();
  // Observes each write's commit latency and counts nothing else; null = off.
  void set_metrics(metrics::Metrics* metrics) { metrics_ = metrics; }

 private:
  class Reader;
  struct ChatQueue;
  store::GroupCommitter& committer_;
  std::unique_ptr<Reader> reader_;
  std::shared_ptr<ChatQueue> chat_;
  metrics::Metrics* metrics_ = nullptr;
};

// What main passes as the reader: opens `location` read-only with `options`.
StorePersistence::OpenReader read_only_opener(store::StoreLocation location,
                                              store::Options options);

// The lines of a match's move log from..to (every one, in seq order), folded from
// the first event by the store's one fold and said by the game's describe_event. Corrupt when
// the stored events stop being trustworthy before `to`.
store::Result<std::vector<server::MoveLogLine>> read_move_log(store::EventStore& db,
                                                              const server::MoveLogRead& read);

// The store's record of a deadline <-> the server's.
store::DeadlineRecord to_record(const server::Deadline& d);
server::Deadline from_record(const store::DeadlineRecord& r);

}  // namespace eryantis::app
