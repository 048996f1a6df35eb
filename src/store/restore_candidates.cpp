// Restoring unfinished matches on several threads. The connection is used on
// the caller's thread only (SQLite's and libpq's connections are not shared):
// it reads each match's rows into memory, and workers fold them. Folding
// (decoding JSON, re-validating, hashing) is ~3/4 of a restore's CPU, and at a
// restart the other cores are idle: the clients are still waiting to reconnect.
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "eryantis/util/expected.hpp"
#include "fold_source.hpp"

namespace eryantis::store::detail {

namespace {

// Below this many matches a restore takes milliseconds: threads would only add.
constexpr std::size_t kParallelFrom = 256;
// Matches per unit of work, and units read ahead of the workers (bounds the
// memory held: at most (kQueuedChunks + threads) × kChunk matches' rows).
constexpr std::size_t kChunk = 64;
constexpr std::size_t kQueuedChunks = 8;

struct OwnedEvent {
  Seq seq = 0;
  int schema_version = 0;
  std::string payload, state_hash, type, actor;
};

struct OwnedSnapshot {
  Seq seq = 0;
  int version = 0;
  std::string state;
};

// One match's rows as the fold from its newest snapshot reads them.
struct ReadMatch {
  std::size_t index = 0;  // in the candidates
  std::optional<OwnedSnapshot> snapshot;
  Seq events_from = 1;
  std::vector<OwnedEvent> events;
};

// A FoldSource over rows read before. Asked for anything else (an older
// snapshot after the newest was refused, which only a damaged store makes
// happen), it says so and the match is folded again from the database.
class MemoryRows final : public FoldSource {
 public:
  explicit MemoryRows(const ReadMatch& match) : match_(match) {}

  Result<void> events_from(MatchId, Seq from_seq, const EventVisitor& visit) override {
    if (from_seq < match_.events_from) return not_read();
    for (const OwnedEvent& e : match_.events) {
      if (e.seq < from_seq) continue;
      if (!visit(EventRow{e.seq, e.schema_version, e.payload, e.state_hash, e.type, e.actor}))
        break;
    }
    return {};
  }

  Result<bool> newest_snapshot(MatchId, Seq at_most, const SnapshotVisitor& visit) override {
    if (!match_.snapshot) return false;  // none at all: the fold starts from the first event
    if (match_.snapshot->seq > at_most) return not_read();
    visit(SnapshotRow{match_.snapshot->seq, match_.snapshot->version, match_.snapshot->state});
    return true;
  }

  bool missed() const { return missed_; }

 private:
  std::unexpected<StoreError> not_read() {
    missed_ = true;
    return fail(StoreCode::NotFound, "rows not read ahead");
  }

  const ReadMatch& match_;
  bool missed_ = false;
};

Result<ReadMatch> read_match(FoldSource& source, const RestoreCandidate& candidate,
                             std::size_t index) {
  ReadMatch out;
  out.index = index;
  auto any = source.newest_snapshot(candidate.id, candidate.last_seq, [&](const SnapshotRow& row) {
    out.snapshot = OwnedSnapshot{row.seq, row.version, std::string(row.state)};
  });
  if (!any) return util::forward_error(any);
  // The fold reads the snapshot's own row first: its stored hash vouches for it.
  out.events_from = out.snapshot ? out.snapshot->seq : 1;
  auto read = source.events_from(candidate.id, out.events_from, [&](const EventRow& row) {
    out.events.push_back(OwnedEvent{row.seq, row.schema_version, std::string(row.payload),
                                    std::string(row.state_hash), std::string(row.type),
                                    std::string(row.actor)});
    return true;
  });
  if (!read) return util::forward_error(read);
  return out;
}

// The chunks read and not yet folded, shared by the reader and the workers.
class WorkQueue {
 public:
  // Blocks while kQueuedChunks wait; false once closed.
  void push(std::vector<ReadMatch> chunk) {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return chunks_.size() < kQueuedChunks; });
    chunks_.push_back(std::move(chunk));
    ready_.notify_one();
  }
  // A chunk if one waits (nullopt at once otherwise): the reader folds one
  // itself instead of waiting for room.
  std::optional<std::vector<ReadMatch>> try_pop() {
    std::lock_guard lock(mutex_);
    return pop_locked();
  }
  bool full() const {
    std::lock_guard lock(mutex_);
    return chunks_.size() >= kQueuedChunks;
  }
  // Blocks for a chunk; nullopt once closed and drained.
  std::optional<std::vector<ReadMatch>> pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return closed_ || !chunks_.empty(); });
    return pop_locked();
  }
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    ready_.notify_all();
  }

 private:
  std::optional<std::vector<ReadMatch>> pop_locked() {
    if (chunks_.empty()) return std::nullopt;
    std::vector<ReadMatch> chunk = std::move(chunks_.front());
    chunks_.pop_front();
    room_.notify_one();
    return chunk;
  }

  mutable std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<std::vector<ReadMatch>> chunks_;
  bool closed_ = false;
};

RestoredMatch restored_from(const RestoreCandidate& match, Folded folded) {
  RestoredMatch restored;
  restored.id = match.id;
  restored.status = match.status;
  restored.last_seq = match.last_seq;
  restored.snapshot_seq = folded.snapshot_seq;
  restored.state = std::move(folded.state);
  restored.deadline = match.deadline;
  return restored;
}

}  // namespace

Result<RestoreReport> restore_candidates(FoldSource& source,
                                         const std::vector<RestoreCandidate>& candidates,
                                         HashCheck hashes, unsigned threads) {
  const FoldPolicy policy{.hashes = hashes};
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  // Each slot is written by the one thread that folds its match, read after the joins.
  std::vector<std::optional<Folded>> folded(candidates.size());
  std::vector<char> again(candidates.size(), 0);  // to fold again from the database

  if (threads > 1 && candidates.size() >= kParallelFrom) {
    WorkQueue queue;
    auto fold_chunk = [&](const std::vector<ReadMatch>& chunk) {
      for (const ReadMatch& m : chunk) {
        MemoryRows rows(m);
        const RestoreCandidate& c = candidates[m.index];
        auto result = fold(rows, c.id, c.last_seq, policy);
        if (result && !rows.missed())
          folded[m.index] = std::move(*result);
        else
          again[m.index] = 1;  // the database answers it below, with its own error if any
      }
    };
    std::vector<std::jthread> workers;
    for (unsigned i = 1; i < threads; ++i)
      workers.emplace_back([&] {
        while (auto chunk = queue.pop()) fold_chunk(*chunk);
      });
    std::optional<StoreError> failed;
    std::vector<ReadMatch> chunk;
    for (std::size_t i = 0; i < candidates.size() && !failed; ++i) {
      auto read = read_match(source, candidates[i], i);
      if (!read) {
        failed = read.error();
        break;
      }
      chunk.push_back(std::move(*read));
      if (chunk.size() == kChunk || i + 1 == candidates.size()) {
        // The workers are behind: fold one chunk here rather than wait for room.
        while (queue.full())
          if (auto waiting = queue.try_pop()) fold_chunk(*waiting);
        queue.push(std::move(chunk));
        chunk.clear();
      }
    }
    // Reading is done: this thread folds what is left with the workers.
    while (auto waiting = queue.try_pop()) fold_chunk(*waiting);
    queue.close();
    workers.clear();  // joins
    if (failed) return std::unexpected(*failed);
  } else {
    std::fill(again.begin(), again.end(), 1);
  }

  RestoreReport report;
  report.restored.reserve(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const RestoreCandidate& match = candidates[i];
    if (again[i]) {
      auto result = fold(source, match.id, match.last_seq, policy);
      if (!result) return util::forward_error(result);
      folded[i] = std::move(*result);
    }
    if (folded[i]->ok()) {
      report.restored.push_back(restored_from(match, std::move(*folded[i])));
    } else {
      report.quarantined.push_back(
          QuarantinedMatch{match.id, std::move(folded[i]->divergence->reason)});
    }
  }
  return report;
}

}  // namespace eryantis::store::detail
