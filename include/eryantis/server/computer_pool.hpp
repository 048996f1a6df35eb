#pragma once
// The worker threads that run computer decisions beside the event loop. Shaped like
// the store's group committer: submit() queues from the loop thread, a worker runs
// run_decision (the game's own player), the finished results are queued and `notify` tells the loop's
// thread (net::Wakeup, i.e. uv_async_send) to call deliver(), which runs each
// result's callback there. The loop never runs a decision itself.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "eryantis/server/computer.hpp"

namespace eryantis::server {

class ComputerPool final : public DecisionRunner {
 public:
  struct Options {
    int workers = 1;
    // A cap on the strong level's search (0 = playouts only), counted from the moment
    // a worker takes the request off the queue: time spent waiting behind other
    // decisions is not taken from this one's search.
    int think_ms = 1000;
    // Runs on the worker thread just before each decision (tests check the thread).
    std::function<void(const DecisionRequest&)> on_worker;
  };
  // Called on a worker thread whenever results are ready; cheap and thread-safe.
  using Notify = std::function<void()>;
  // The clock of the time cap: steady_clock::now unless a test passes a manual one.
  using Now = std::function<std::chrono::steady_clock::time_point()>;

  ComputerPool(Options options, Notify notify, Now now = {});
  ComputerPool(const ComputerPool&) = delete;
  ComputerPool& operator=(const ComputerPool&) = delete;
  ~ComputerPool() override;  // stop()

  // Thread-safe; returns at once.
  void submit(DecisionRequest request, Done done) override;
  // Runs the callbacks of the finished decisions on the calling thread; how many.
  std::size_t deliver();
  // Workers finish the decision in hand and exit; queued requests are dropped
  // (their callbacks never run). Idempotent.
  void stop();

  std::size_t queued() const;

 private:
  struct Job {
    DecisionRequest request;
    Done done;
  };
  struct Finished {
    Done done;
    DecisionResult result;
  };
  void run_worker();

  Options options_;
  Notify notify_;
  Now now_;
  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::deque<Job> queue_;
  std::vector<Finished> finished_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;  // last: started once everything above exists
};

}  // namespace eryantis::server
