#include "eryantis/accounts/worker_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

namespace eryantis::accounts {
namespace {

// A job that says when it started and waits to be let go: the pool's threads can be held
// busy on purpose, so what a full queue does is deterministic (no sleeps, no timing).
struct Gate {
  std::promise<void> started;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::function<void()> job() {
    return [this] {
      started.set_value();
      released.wait();
    };
  }
};

TEST(WorkerPool, AFullQueueRefusesAtOnceAndRunsEveryAcceptedJob) {
  std::atomic<int> ran{0};
  Gate gate;
  {
    WorkerPool pool(1, 3);
    ASSERT_TRUE(pool.try_submit(gate.job()));
    gate.started.get_future().wait();  // the only thread is busy
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(pool.try_submit([&] { ++ran; }));
    EXPECT_EQ(pool.waiting(), 3u);
    // A flood: each refused at once, none queued, none run.
    for (int i = 0; i < 1000; ++i) EXPECT_FALSE(pool.try_submit([&] { ran += 1000; }));
    EXPECT_EQ(pool.refused(), 1000u);
    EXPECT_EQ(pool.waiting(), 3u);
    gate.release.set_value();
  }  // the destructor runs what was accepted, then joins
  EXPECT_EQ(ran.load(), 3);
}

TEST(WorkerPool, ThreadsRunJobsInParallel) {
  // Two jobs that each wait for the other to start: they finish only if both run at once.
  WorkerPool pool(2, 4);
  std::promise<void> a_started, b_started;
  std::shared_future<void> a = a_started.get_future().share(), b = b_started.get_future().share();
  std::promise<void> done_a, done_b;
  ASSERT_TRUE(pool.try_submit([&] {
    a_started.set_value();
    b.wait();
    done_a.set_value();
  }));
  ASSERT_TRUE(pool.try_submit([&] {
    b_started.set_value();
    a.wait();
    done_b.set_value();
  }));
  done_a.get_future().wait();
  done_b.get_future().wait();
  EXPECT_EQ(pool.threads(), 2u);
}

// on_start runs once on each thread before it takes any job (the server lowers the
// threads' priority there).
TEST(WorkerPool, OnStartRunsOnEachThreadBeforeItsJobs) {
  std::mutex mutex;
  std::set<std::thread::id> started;
  std::atomic<int> jobs_before_start{0};
  {
    WorkerPool pool(3, 16, [&] {
      std::lock_guard lock(mutex);
      started.insert(std::this_thread::get_id());
    });
    std::promise<void> all;
    std::atomic<int> left{6};
    for (int i = 0; i < 6; ++i)
      ASSERT_TRUE(pool.try_submit([&] {
        {
          std::lock_guard lock(mutex);
          if (!started.contains(std::this_thread::get_id())) ++jobs_before_start;
        }
        if (--left == 0) all.set_value();
      }));
    ASSERT_EQ(all.get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);
  }
  EXPECT_EQ(started.size(), 3u);
  EXPECT_EQ(jobs_before_start.load(), 0);
}

TEST(WorkerPool, SizesAreClampedToAtLeastOne) {
  WorkerPool pool(0, 0);
  EXPECT_EQ(pool.threads(), 1u);
  EXPECT_EQ(pool.capacity(), 1u);
  std::promise<void> ran;
  ASSERT_TRUE(pool.try_submit([&] { ran.set_value(); }));
  ran.get_future().wait();
}

}  // namespace
}  // namespace eryantis::accounts
