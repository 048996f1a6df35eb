#pragma once
// A few worker threads and a bounded queue: what keeps slow, CPU-bound work (password
// hashing, tens of milliseconds each) off the event loop without letting a flood of it
// grow memory or latency without bound. try_submit never blocks: when `capacity` jobs are
// already waiting it refuses at once, and the caller answers "busy, try again" (a login
// flood costs the server a refusal each, not a stall). No libuv here: the caller learns of
// results through its own wake-up (password_pool.hpp).
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace eryantis::accounts {

class WorkerPool {
 public:
  // `threads` >= 1 and `capacity` >= 1 (clamped): the number of jobs that may wait beside
  // those running.
  // `on_start` runs first on each thread (the server lowers their priority there).
  WorkerPool(int threads, std::size_t capacity, std::function<void()> on_start = {});
  // Takes no more work, runs what is waiting (at most `capacity` jobs: a bounded wait),
  // joins the threads.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues `job`; false (the job is dropped, never run) when `capacity` jobs wait already
  // or the pool is stopping. Never blocks on the jobs: only on the queue's mutex.
  bool try_submit(std::function<void()> job);

  std::size_t waiting() const;       // queued, not yet taken by a thread
  std::uint64_t refused() const;     // try_submit calls that returned false
  std::size_t threads() const { return threads_.size(); }
  std::size_t capacity() const { return capacity_; }

 private:
  void run();

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::uint64_t refused_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace eryantis::accounts
