#include "eryantis/accounts/password_pool.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <future>
#include <map>
#include <mutex>

namespace eryantis::accounts {
namespace {

// What the server's loop does, with a condition variable for its uv_async_t: wait for a
// wake, take what is done.
struct Loop {
  std::mutex mutex;
  std::condition_variable woken;
  int wakes = 0;
  std::map<std::uint64_t, PasswordOutcome> outcomes;

  std::function<void()> wake() {
    return [this] {
      std::lock_guard lock(mutex);
      ++wakes;
      woken.notify_all();
    };
  }
  // Waits (bounded by the pool: every accepted request wakes once) for `n` outcomes.
  void collect(PasswordPool& pool, std::size_t n) {
    while (outcomes.size() < n) {
      {
        std::unique_lock lock(mutex);
        woken.wait(lock, [&] { return wakes > 0; });
        wakes = 0;
      }
      for (PasswordOutcome& o : pool.take_done()) outcomes[o.id] = std::move(o);
    }
  }
};

PasswordPoolConfig fast(int threads = 2, std::size_t capacity = 16) {
  return PasswordPoolConfig{min_password_params(), threads, capacity, {}};
}

TEST(PasswordPool, HashesAndVerifiesOffTheCallersThread) {
  Loop loop;
  PasswordPool pool(fast(), loop.wake());
  ASSERT_TRUE(pool.submit({1, PasswordTask::Hash, "correct horse battery", ""}));
  loop.collect(pool, 1);
  const PasswordOutcome& hashed = loop.outcomes.at(1);
  ASSERT_TRUE(hashed.ok);
  EXPECT_FALSE(hashed.error);
  EXPECT_TRUE(verify_password(hashed.hash, "correct horse battery"));

  ASSERT_TRUE(pool.submit({2, PasswordTask::Verify, "correct horse battery", hashed.hash}));
  ASSERT_TRUE(pool.submit({3, PasswordTask::Verify, "wrong horse battery", hashed.hash}));
  ASSERT_TRUE(pool.submit({4, PasswordTask::Verify, "correct horse battery", ""}));  // unknown name
  loop.collect(pool, 4);
  EXPECT_TRUE(loop.outcomes.at(2).ok);
  EXPECT_TRUE(loop.outcomes.at(2).hash.empty());  // same parameters: no rehash
  EXPECT_FALSE(loop.outcomes.at(3).ok);
  EXPECT_FALSE(loop.outcomes.at(4).ok);
  EXPECT_TRUE(pool.take_done().empty());  // each outcome is given once
}

TEST(PasswordPool, ALoginWithAnOldHashGetsANewOneWithTheCurrentParameters) {
  PasswordParams old_params = min_password_params();
  const auto old = hash_password("correct horse battery", old_params);
  ASSERT_TRUE(old);
  PasswordPoolConfig config = fast();
  config.params.passes = old_params.passes + 1;
  ASSERT_TRUE(needs_rehash(*old, config.params));
  Loop loop;
  PasswordPool pool(config, loop.wake());
  ASSERT_TRUE(pool.submit({1, PasswordTask::Verify, "correct horse battery", *old}));
  ASSERT_TRUE(pool.submit({2, PasswordTask::Verify, "wrong horse battery", *old}));
  loop.collect(pool, 2);
  const PasswordOutcome& ok = loop.outcomes.at(1);
  ASSERT_TRUE(ok.ok);
  ASSERT_FALSE(ok.hash.empty());
  EXPECT_FALSE(needs_rehash(ok.hash, config.params));
  EXPECT_TRUE(verify_password(ok.hash, "correct horse battery"));
  // A wrong password gets no rehash (nothing to hash it with).
  EXPECT_FALSE(loop.outcomes.at(2).ok);
  EXPECT_TRUE(loop.outcomes.at(2).hash.empty());
}

TEST(PasswordPool, AFloodIsRefusedWithBusyAtOnceWhileTheWorkersAreHeld) {
  // The only worker is held inside `wake` after its first outcome, as a slow hash would
  // hold it: the loop keeps submitting and gets answers at once.
  std::promise<void> first_done;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  bool first = true;
  std::mutex m;
  int woken = 0;
  std::condition_variable cv;
  auto wake = [&] {
    if (first) {
      first = false;
      first_done.set_value();
      released.wait();
    }
    std::lock_guard lock(m);
    ++woken;
    cv.notify_all();
  };
  {
    PasswordPool pool(fast(1, 4), wake);
    ASSERT_TRUE(pool.submit({0, PasswordTask::Hash, "correct horse battery", ""}));
    first_done.get_future().wait();
    for (std::uint64_t id = 1; id <= 4; ++id)
      EXPECT_TRUE(pool.submit({id, PasswordTask::Verify, "correct horse battery", ""}));
    for (std::uint64_t id = 5; id < 105; ++id) {
      const auto refused = pool.submit({id, PasswordTask::Verify, "correct horse battery", ""});
      ASSERT_FALSE(refused);
      EXPECT_EQ(refused.error().code, AccountErrorCode::Busy);
      EXPECT_EQ(code_name(refused.error().code), "BUSY");
    }
    EXPECT_EQ(pool.refused(), 100u);
    EXPECT_EQ(pool.waiting(), 4u);
    release.set_value();
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return woken == 5; });
    lock.unlock();
    const auto done = pool.take_done();
    EXPECT_EQ(done.size(), 5u);  // the 4 accepted and the first; none of the refused
    for (const PasswordOutcome& o : done) EXPECT_LT(o.id, 5u);
  }
}

TEST(PasswordPool, StoppingFinishesWhatWasAccepted) {
  Loop loop;
  {
    PasswordPool pool(fast(1, 8), loop.wake());
    for (std::uint64_t id = 1; id <= 8; ++id) ASSERT_TRUE(pool.submit({id, PasswordTask::Hash, "correct horse battery", ""}));
  }  // destroyed with requests in flight: each runs to its end and wakes the loop
  EXPECT_EQ(loop.wakes, 8);
}

}  // namespace
}  // namespace eryantis::accounts
