#pragma once
// Requests of one kind waiting for the store's writer thread, taken in batches
// (docs/cluster.md section 4): the loop thread pushes, one drain job at a time
// on the writer takes what waits. No waiting for company: the first request
// runs at once, and whatever queues while a batch runs makes the next one (the
// appends' group commit, for look-ups).
#include <cstddef>
#include <deque>
#include <iterator>
#include <mutex>
#include <unordered_set>
#include <vector>

namespace eryantis::app {

// Request: movable, with a `key` member (hashable): two requests of one key never
// share a batch (a statement takes a row once), the second waits for the next.
template <class Request>
class BatchQueue {
 public:
  // Queues `request`. True when no drain job is queued: the caller queues one.
  bool push(Request request) {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(request));
    if (drain_queued_) return false;
    drain_queued_ = true;
    return true;
  }

  // Up to `limit` requests of distinct keys, oldest first (writer thread).
  // `more`: some are left, and the caller queues the next drain; otherwise the
  // next push does.
  std::vector<Request> take(std::size_t limit, bool& more) {
    std::vector<Request> batch;
    std::deque<Request> later;  // a key already in the batch
    std::unordered_set<decltype(Request::key)> keys;
    std::lock_guard lock(mutex_);
    while (!queue_.empty() && batch.size() < limit) {
      Request request = std::move(queue_.front());
      queue_.pop_front();
      if (keys.insert(request.key).second) {
        batch.push_back(std::move(request));
      } else {
        later.push_back(std::move(request));
      }
    }
    queue_.insert(queue_.begin(), std::make_move_iterator(later.begin()),
                  std::make_move_iterator(later.end()));
    more = !queue_.empty();
    if (!more) drain_queued_ = false;
    return batch;
  }

 private:
  std::mutex mutex_;
  std::deque<Request> queue_;  // oldest first
  bool drain_queued_ = false;  // a drain job is queued or running
};

}  // namespace eryantis::app
