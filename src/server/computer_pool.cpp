#include "eryantis/server/computer_pool.hpp"

#include <chrono>

namespace eryantis::server {

namespace {
// The strong level's time cap: `budget` from its construction, when the worker has
// taken the request off the queue.
class StartedDeadline final : public game::Deadline {
 public:
  StartedDeadline(const ComputerPool::Now& now, std::chrono::milliseconds budget)
      : now_(now), at_(now() + budget) {}
  bool passed() const override { return now_() >= at_; }

 private:
  const ComputerPool::Now& now_;
  std::chrono::steady_clock::time_point at_;
};
}  // namespace

ComputerPool::ComputerPool(Options options, Notify notify, Now now)
    : options_(std::move(options)), notify_(std::move(notify)), now_(std::move(now)) {
  if (!now_) now_ = [] { return std::chrono::steady_clock::now(); };
  const int n = options_.workers < 1 ? 1 : options_.workers;
  workers_.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) workers_.emplace_back([this] { run_worker(); });
}

ComputerPool::~ComputerPool() {
  stop();
}

void ComputerPool::submit(DecisionRequest request, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    queue_.push_back(Job{std::move(request), std::move(done)});
  }
  work_ready_.notify_one();
}

std::size_t ComputerPool::deliver() {
  std::vector<Finished> ready;
  {
    std::lock_guard lock(mutex_);
    ready.swap(finished_);
  }
  for (Finished& f : ready) f.done(std::move(f.result));
  return ready.size();
}

void ComputerPool::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && workers_.empty()) return;
    stopping_ = true;
    queue_.clear();
  }
  work_ready_.notify_all();
  for (std::thread& t : workers_)
    if (t.joinable()) t.join();
  workers_.clear();
}

std::size_t ComputerPool::queued() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

void ComputerPool::run_worker() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    if (options_.on_worker) options_.on_worker(job.request);
    DecisionResult result;
    if (options_.think_ms > 0) {
      const StartedDeadline deadline{now_, std::chrono::milliseconds(options_.think_ms)};
      result = run_decision(job.request, &deadline);
    } else {
      result = run_decision(job.request);
    }
    {
      std::lock_guard lock(mutex_);
      finished_.push_back(Finished{std::move(job.done), std::move(result)});
    }
    notify_();
  }
}

}  // namespace eryantis::server
