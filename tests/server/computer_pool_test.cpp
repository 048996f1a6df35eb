// The worker pool that runs computer players' decisions off the event loop: each
// decision on a worker thread, each callback on the thread that calls deliver()
// (the loop), the same answer for the same request, nothing after stop(). Its own
// small binary so the ThreadSanitizer build (`make test-tsan`) runs it.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "eryantis/rules/decider.hpp"
#include "eryantis/eriantys/game/game.hpp"
#include "eryantis/server/computer.hpp"
#include "eryantis/server/computer_pool.hpp"
#include "computer_request.hpp"

namespace eryantis::server {
namespace {

using testing::computer_request;
using testing::to_seed;

TEST(ComputerPool, DecidesOnWorkersAndDeliversOnTheCallersThread) {
  const std::thread::id caller = std::this_thread::get_id();
  std::mutex mutex;
  std::condition_variable cv;
  int notified = 0;
  std::set<std::thread::id> deciding;
  ComputerPool::Options options;
  options.workers = 2;
  options.think_ms = 0;
  options.on_worker = [&](const DecisionRequest&) {
    std::lock_guard lock(mutex);
    deciding.insert(std::this_thread::get_id());
  };
  ComputerPool pool(options, [&] {
    std::lock_guard lock(mutex);
    ++notified;
    cv.notify_all();
  });
  auto created =
      rules::create_match(rules::MatchOptions{2, rules::Mode::Expert}, rules::MatchSeed{11, 12});
  const rules::State state = rules::apply(rules::State{}, *created);
  constexpr int kRequests = 6;
  std::vector<std::thread::id> delivered_on;
  std::vector<DecisionResult> results;
  for (int i = 0; i < kRequests; ++i)
    pool.submit(computer_request(i, state, 1, static_cast<rules::Seat>(i % 2),
                                 i < 3 ? game::Level::Strong : game::Level::Greedy, 40),
                [&](DecisionResult r) {
                  delivered_on.push_back(std::this_thread::get_id());
                  results.push_back(std::move(r));
                });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (static_cast<int>(results.size()) < kRequests &&
         std::chrono::steady_clock::now() < deadline) {
    {
      std::unique_lock lock(mutex);
      cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return notified > 0; });
      notified = 0;
    }
    pool.deliver();  // the loop's side: callbacks run here, never on a worker
  }
  ASSERT_EQ(static_cast<int>(results.size()), kRequests);
  for (const auto& id : delivered_on) EXPECT_EQ(id, caller);
  {
    std::lock_guard lock(mutex);
    EXPECT_FALSE(deciding.empty());
    EXPECT_EQ(deciding.count(caller), 0u) << "a decision ran on the caller's thread";
  }
  for (const auto& r : results) EXPECT_TRUE(r.command.has_value());
  // The same requests decided again give the same commands (no clock: think_ms 0).
  for (const auto& r : results) {
    const auto again = run_decision(
        computer_request(static_cast<store::MatchId>(r.match), state, 1, r.seat,
                         r.match < 3 ? game::Level::Strong : game::Level::Greedy, 40));
    EXPECT_EQ(again.command, r.command) << "match " << r.match;
  }
  pool.stop();
  pool.submit(computer_request(9, state, 1, 0, game::Level::Random, 1),
              [](DecisionResult) { ADD_FAILURE() << "ran after stop"; });
  EXPECT_EQ(pool.deliver(), 0u);
}

// think_ms counts from the moment a worker takes a request, not from submit(): a
// decision that waited behind another one still gets its whole search. On a manual
// clock: the second request waits (the worker is held in the first) while the clock
// runs past its cap; it must still run every playout, since its cap only starts
// when the worker takes it and the clock stands still from then on.
TEST(ComputerPool, TheTimeCapStartsWhenAWorkerTakesTheRequest) {
  using Clock = std::chrono::steady_clock;
  std::mutex mutex;
  std::condition_variable cv;
  Clock::time_point now{};  // the manual clock, behind `mutex`
  bool release = false;
  int taken = 0;
  std::vector<DecisionResult> results;
  ComputerPool::Options options;
  options.workers = 1;
  options.think_ms = 50;
  const ComputerPool::Now manual = [&] {
    std::lock_guard lock(mutex);
    return now;
  };
  options.on_worker = [&](const DecisionRequest&) {
    std::unique_lock lock(mutex);
    ++taken;
    cv.notify_all();
    cv.wait(lock, [&] { return release; });  // the first request holds the worker
  };
  ComputerPool pool(options, [&] { cv.notify_all(); }, manual);
  auto created =
      rules::create_match(rules::MatchOptions{2, rules::Mode::Expert}, rules::MatchSeed{21, 22});
  rules::State state = rules::apply(rules::State{}, *created);
  // Past setup, so the strong level searches.
  while (state.phase == rules::Phase::Setup) {
    const rules::Seat seat = rules::seats_to_act(state).front();
    state = rules::decide(state, seat, rules::legal_commands(state, seat).front())->next;
  }
  const rules::Seat seat = rules::seats_to_act(state).front();
  constexpr std::uint32_t kPlayouts = 300;  // far more than one deadline check (every 32)
  for (int i = 0; i < 2; ++i)
    pool.submit(computer_request(i, state, 1, seat, game::Level::Strong, kPlayouts),
                [&](DecisionResult r) { results.push_back(std::move(r)); });
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(20), [&] { return taken == 1; }));
  }
  EXPECT_EQ(pool.queued(), 1u);
  {
    std::lock_guard lock(mutex);
    now += std::chrono::seconds(10);  // the queued request waits 200 times its cap
    release = true;
  }
  cv.notify_all();
  const auto give_up = Clock::now() + std::chrono::seconds(60);
  while (results.size() < 2 && Clock::now() < give_up) {
    {
      std::unique_lock lock(mutex);
      cv.wait_for(lock, std::chrono::milliseconds(50));
    }
    pool.deliver();
  }
  ASSERT_EQ(results.size(), 2u);
  for (const auto& r : results) EXPECT_EQ(r.playouts, kPlayouts) << "request " << r.match;
  // And the cap does bind: a clock that moves a second at every reading stops the
  // search at its first check of the deadline.
  options.on_worker = nullptr;
  const ComputerPool::Now racing = [&] {
    std::lock_guard lock(mutex);
    const auto t = now;
    now += std::chrono::seconds(1);
    return t;
  };
  results.clear();
  {
    ComputerPool capped(options, [&] { cv.notify_all(); }, racing);
    capped.submit(computer_request(3, state, 1, seat, game::Level::Strong, kPlayouts),
                  [&](DecisionResult r) { results.push_back(std::move(r)); });
    const auto until = Clock::now() + std::chrono::seconds(60);
    while (results.empty() && Clock::now() < until) {
      {
        std::unique_lock lock(mutex);
        cv.wait_for(lock, std::chrono::milliseconds(50));
      }
      capped.deliver();
    }
  }
  ASSERT_EQ(results.size(), 1u);
  EXPECT_LT(results.front().playouts, kPlayouts);
}

}  // namespace
}  // namespace eryantis::server
