#include "eryantis/accounts/worker_pool.hpp"

#include <algorithm>

namespace eryantis::accounts {

WorkerPool::WorkerPool(int threads, std::size_t capacity, std::function<void()> on_start)
    : capacity_(std::max<std::size_t>(1, capacity)) {
  const int n = std::max(1, threads);
  threads_.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    threads_.emplace_back([this, on_start] {
      if (on_start) on_start();
      run();
    });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  ready_.notify_all();
  for (std::thread& t : threads_) t.join();
}

bool WorkerPool::try_submit(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() >= capacity_) {
      ++refused_;
      return false;
    }
    queue_.push_back(std::move(job));
  }
  ready_.notify_one();
  return true;
}

std::size_t WorkerPool::waiting() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

std::uint64_t WorkerPool::refused() const {
  std::lock_guard lock(mutex_);
  return refused_;
}

void WorkerPool::run() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      // Stopping still runs what was accepted: a caller was told "queued" for it.
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    job();
  }
}

}  // namespace eryantis::accounts
