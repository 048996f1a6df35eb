#include "eryantis/net/event_loop.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <atomic>
#include <csignal>
#include <thread>

namespace eryantis::net {
namespace {

int count_handles(uv_loop_t* loop) {
  int count = 0;
  uv_walk(
      loop, [](uv_handle_t*, void* arg) { ++*static_cast<int*>(arg); }, &count);
  return count;
}

// Fails the test (instead of hanging it) if the loop is still running.
void guard(EventLoop& loop, bool& timed_out) {
  loop.after(5000, [&loop, &timed_out] {
    timed_out = true;
    loop.stop();
  });
}

TEST(EventLoop, RepeatingTimerFiresUntilStopped) {
  EventLoop loop;
  bool timed_out = false;
  guard(loop, timed_out);
  int ticks = 0;
  loop.every(2, [&] {
    if (++ticks == 5) loop.stop();
  });
  loop.run();
  EXPECT_FALSE(timed_out);
  EXPECT_EQ(ticks, 5);
  EXPECT_EQ(loop.close(), 0);
}

TEST(EventLoop, AfterFiresOnceAndFreesItsTimer) {
  EventLoop loop;
  int fired = 0;
  loop.after(1, [&] { ++fired; });
  loop.run();  // returns on its own: the one-shot timer closed itself
  EXPECT_EQ(fired, 1);
  EXPECT_EQ(count_handles(loop.raw()), 0);
  EXPECT_EQ(loop.close(), 0);
}

TEST(EventLoop, WakeupRunsOnTheLoopThread) {
  EventLoop loop;
  bool timed_out = false;
  guard(loop, timed_out);
  const auto loop_thread = std::this_thread::get_id();
  std::atomic<int> calls{0};
  bool on_loop_thread = true;
  std::shared_ptr<Wakeup> wakeup = loop.make_wakeup([&] {
    on_loop_thread = on_loop_thread && std::this_thread::get_id() == loop_thread;
    if (++calls == 1) loop.stop();
  });
  std::thread notifier([wakeup] { wakeup->notify(); });
  loop.run();
  notifier.join();
  EXPECT_FALSE(timed_out);
  EXPECT_EQ(calls.load(), 1);
  EXPECT_TRUE(on_loop_thread);
  EXPECT_EQ(loop.close(), 0);
}

TEST(EventLoop, ManyNotifiesFromManyThreadsAreSeen) {
  EventLoop loop;
  bool timed_out = false;
  guard(loop, timed_out);
  std::atomic<int> sent{0};
  int seen = 0;
  constexpr int kThreads = 4;
  constexpr int kEach = 1000;
  std::shared_ptr<Wakeup> wakeup = loop.make_wakeup([&] {
    seen = sent.load();  // notifies merge: read the shared state instead
    if (seen == kThreads * kEach) loop.stop();
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&sent, wakeup] {
      for (int i = 0; i < kEach; ++i) {
        ++sent;
        wakeup->notify();
      }
    });
  }
  loop.run();
  for (auto& thread : threads) thread.join();
  EXPECT_FALSE(timed_out);
  EXPECT_EQ(seen, kThreads * kEach);
}

TEST(EventLoop, NotifyAfterStopOrCloseIsHarmless) {
  std::shared_ptr<Wakeup> wakeup;
  {
    EventLoop loop;
    wakeup = loop.make_wakeup([] {});
    loop.stop();
    wakeup->notify();
    loop.run();
    EXPECT_EQ(loop.close(), 0);
  }
  wakeup->notify();  // the loop is gone: nothing happens
}

TEST(EventLoop, SignalWatcherSeesSigterm) {
  EventLoop loop;
  bool timed_out = false;
  guard(loop, timed_out);
  int received = 0;
  loop.on_signals([&](int signum) {
    received = signum;
    loop.stop();
  });
  loop.after(1, [] { uv_kill(getpid(), SIGTERM); });
  loop.run();
  EXPECT_FALSE(timed_out);
  EXPECT_EQ(received, SIGTERM);
  EXPECT_EQ(loop.close(), 0);
}

TEST(EventLoop, StopClosesEveryHandleItOwns) {
  EventLoop loop;
  loop.every(1000, [] {});
  loop.after(1000, [] {});
  auto wakeup = loop.make_wakeup([] {});
  loop.on_signals([](int) {});
  int hooks = 0;
  EventLoop::StopHook hook = loop.add_stop_hook([&] { ++hooks; });
  loop.every(1, [&] { loop.stop(); });
  loop.run();
  EXPECT_EQ(hooks, 1);
  EXPECT_EQ(count_handles(loop.raw()), 0);
  EXPECT_EQ(uv_loop_alive(loop.raw()), 0);
  EXPECT_EQ(loop.close(), 0);
}

TEST(EventLoop, DroppedStopHookIsNotRun) {
  EventLoop loop;
  int hooks = 0;
  {
    EventLoop::StopHook hook = loop.add_stop_hook([&] { ++hooks; });
  }
  loop.stop();
  EXPECT_EQ(hooks, 0);
}

TEST(EventLoop, CloseClosesLeftoverForeignHandles) {
  EventLoop loop;
  uv_timer_t foreign;  // owned by the test, outlives the loop's close()
  uv_timer_init(loop.raw(), &foreign);
  uv_timer_start(
      &foreign, [](uv_timer_t*) {}, 100000, 0);
  EXPECT_EQ(loop.close(), 0);
  EXPECT_EQ(loop.close(), 0);  // idempotent
}

}  // namespace
}  // namespace eryantis::net
