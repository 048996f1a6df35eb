#include "eryantis/store/group_committer.hpp"

#include <spdlog/spdlog.h>

#include "eryantis/log/log_throttle.hpp"
#include "eryantis/util/expected.hpp"

namespace eryantis::store {

Result<std::unique_ptr<GroupCommitter>> GroupCommitter::start(const std::string& path,
                                                              const Options& options,
                                                              Notify notify) {
  if (options.store.read_only) return fail(StoreCode::ReadOnly, "a group committer writes");
  auto store = SqliteStore::open(path, options.store);
  if (!store) return util::forward_error(store);
  return start(std::make_unique<SqliteStore>(std::move(*store)), options, std::move(notify));
}

Result<std::unique_ptr<GroupCommitter>> GroupCommitter::start(std::unique_ptr<EventStore> store,
                                                              const Options& options,
                                                              Notify notify) {
  if (!store || store->options().read_only) {
    return fail(StoreCode::ReadOnly, "a group committer writes");
  }
  return std::make_unique<GroupCommitter>(Key{}, std::move(store), options, std::move(notify));
}

GroupCommitter::GroupCommitter(Key, std::unique_ptr<EventStore> store, const Options& options,
                               Notify notify)
    : store_(std::move(store)), options_(options), notify_(std::move(notify)) {
  if (options_.max_batch == 0) options_.max_batch = 1;
  writer_ = std::thread([this] { run_writer(); });
}

GroupCommitter::~GroupCommitter() {
  stop();
}

void GroupCommitter::submit(AppendRequest request, AppendCompletion completion) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      queue_.push_back(Pending{std::move(request), std::move(completion)});
      ++submitted_;
      work_ready_.notify_one();
      return;
    }
    completed_.push_back(
        Completed{std::move(completion), fail(StoreCode::Stopped, "the store is shutting down")});
  }
  notify_();
}

void GroupCommitter::run_on_writer(Job job) {
  std::lock_guard lock(mutex_);
  if (stopping_) return;
  jobs_.push_back(std::move(job));
  work_ready_.notify_one();
}

void GroupCommitter::run_on_writer_first(Job job) {
  std::lock_guard lock(mutex_);
  if (stopping_) return;
  first_jobs_.push_back(std::move(job));
  work_ready_.notify_one();
}

void GroupCommitter::post(std::function<void()> done) {
  {
    std::lock_guard lock(mutex_);
    jobs_done_.push_back(std::move(done));
  }
  notify_();
}

std::size_t GroupCommitter::deliver_completions() {
  std::vector<Completed> ready;
  std::vector<std::function<void()>> jobs_done;
  {
    std::lock_guard lock(mutex_);
    ready.swap(completed_);
    jobs_done.swap(jobs_done_);
  }
  // Jobs ran before the batch whose completions are delivered with them.
  for (auto& done : jobs_done)
    if (done) done();
  for (Completed& done : ready) {
    if (done.completion) done.completion(std::move(done.result));
  }
  return ready.size() + jobs_done.size();
}

void GroupCommitter::flush() {
  std::unique_lock lock(mutex_);
  const std::uint64_t target = submitted_;
  batch_done_.wait(lock, [&] { return finished_ >= target; });
}

void GroupCommitter::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    work_ready_.notify_one();
  }
  if (writer_.joinable()) writer_.join();
}

GroupCommitter::Stats GroupCommitter::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

std::vector<Result<AppendOutcome>> GroupCommitter::refuse_degraded(std::size_t count) const {
  return std::vector<Result<AppendOutcome>>(
      count, fail(StoreCode::Corrupt,
                  "not written: the server stopped writing when it found the "
                  "database damaged (" +
                      degraded_reason_ + ")"));
}

void GroupCommitter::note_damage(const std::vector<Result<AppendOutcome>>& results) {
  for (const auto& result : results) {
    if (result || result.error().code != StoreCode::Corrupt) continue;
    degraded_reason_ = result.error().message;
    degraded_.store(true, std::memory_order_release);
    // An error line: the server says the critical one, once, when it learns of it.
    spdlog::error(
        "store: the database file is damaged ({}); nothing more is written until the "
        "file is repaired and the server restarted",
        degraded_reason_);
    return;
  }
}

std::vector<Result<AppendOutcome>> GroupCommitter::refuse_full(std::size_t count) const {
  return std::vector<Result<AppendOutcome>>(
      count, fail(StoreCode::Full,
                  "not written: the disk is full; writing resumes once space is freed "
                  "(docs/operations.md, \"A full disk\")"));
}

void GroupCommitter::note_full(const std::vector<Result<AppendOutcome>>& results) {
  for (const auto& result : results) {
    if (result || result.error().code != StoreCode::Full) continue;
    spdlog::error(
        "store: the disk is full ({}); nothing more is written until space is freed, then "
        "the WAL is moved into the database and truncated first (tried every {} ms; "
        "docs/operations.md, \"A full disk\")",
        result.error().message, kReclaimEvery.count());
    disk_full_.store(true, std::memory_order_release);
    reclaim_reported_ = false;
    next_reclaim_ = std::chrono::steady_clock::now() + kReclaimEvery;
    return;
  }
}

void GroupCommitter::try_reclaim() {
  if (!disk_full() || std::chrono::steady_clock::now() < next_reclaim_) return;
  auto reclaimed = store_->reclaim_space();
  if (reclaimed) {
    disk_full_.store(false, std::memory_order_release);
    spdlog::warn(
        "store: disk space is back: the WAL was moved into the database and truncated; "
        "writing again");
    return;
  }
  next_reclaim_ = std::chrono::steady_clock::now() + kReclaimEvery;
  if (!reclaim_reported_) {
    reclaim_reported_ = true;
    spdlog::warn("store: still no room to give the WAL's space back: {}",
                 reclaimed.error().message);
  }
}

void GroupCommitter::run_writer() {
  std::vector<Pending> batch;
  std::vector<AppendRequest> requests;
  std::deque<Job> jobs;
  // A full disk fails every append: one line per 10 s, with a count (the server
  // logs the same failures per match, also throttled).
  logging::LogThrottle failures;
  for (;;) {
    batch.clear();
    {
      std::unique_lock lock(mutex_);
      auto ready = [&] {
        return stopping_ || !queue_.empty() || !jobs_.empty() || !first_jobs_.empty();
      };
      // With the disk full, also wake up for the next try to give the WAL's space back.
      if (disk_full()) {
        work_ready_.wait_until(lock, next_reclaim_, ready);
      } else {
        work_ready_.wait(lock, ready);
      }
      if (stopping_ && queue_.empty() && jobs_.empty() && first_jobs_.empty())
        return;  // stopping, and everything is committed
      jobs.swap(jobs_);
      // Whatever queued while the previous commit ran becomes this batch.
      while (!queue_.empty() && batch.size() < options_.max_batch) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    // The jobs taken, one at a time, each delivered as soon as it ran (the loop
    // serves an adopted match without waiting for the other adoptions), and a
    // run_on_writer_first job as soon as the running one is done.
    for (;;) {
      Job job;
      {
        std::lock_guard lock(mutex_);
        if (!first_jobs_.empty()) {
          job = std::move(first_jobs_.front());
          first_jobs_.pop_front();
        }
      }
      if (!job) {
        if (jobs.empty()) break;
        job = std::move(jobs.front());
        jobs.pop_front();
      }
      std::function<void()> done = job(*store_);
      {
        std::lock_guard lock(mutex_);
        jobs_done_.push_back(std::move(done));
      }
      notify_();
    }
    try_reclaim();
    if (batch.empty()) continue;
    requests.clear();
    for (Pending& pending : batch) requests.push_back(std::move(pending.request));
    auto results = degraded()    ? refuse_degraded(requests.size())
                   : disk_full() ? refuse_full(requests.size())
                                 : store_->append_batch(requests);
    if (!degraded()) note_damage(results);
    if (!disk_full()) note_full(results);

    std::uint64_t events = 0;
    {
      std::lock_guard lock(mutex_);
      for (std::size_t i = 0; i < batch.size(); ++i) {
        if (results[i]) {
          if (!results[i]->replayed) events += requests[i].events.size();
        } else if (results[i].error().code != StoreCode::Conflict) {
          failures.log(spdlog::level::err, "append failed",
                       fmt::format("store: append to match {} failed: {}", requests[i].match_id,
                                   results[i].error().message));
        }
        completed_.push_back(Completed{std::move(batch[i].completion), std::move(results[i])});
      }
      finished_ += batch.size();
      ++stats_.batches;
      stats_.requests += batch.size();
      stats_.events += events;
    }
    failures.flush();
    batch_done_.notify_all();
    notify_();
  }
}

}  // namespace eryantis::store
