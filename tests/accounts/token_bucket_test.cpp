#include "eryantis/accounts/token_bucket.hpp"

#include <gtest/gtest.h>

namespace eryantis::accounts {
namespace {

TEST(TokenBucket, ABurstThenTheSustainedRateWithTheWaitToTheMillisecond) {
  TokenBucket bucket(BucketRate{3.0, 2.0}, 1000);  // 3 at once, then 2 a second
  for (int i = 0; i < 3; ++i) EXPECT_EQ(bucket.take(1000), 0);
  EXPECT_EQ(bucket.take(1000), 500);  // half a second to the next token
  EXPECT_EQ(bucket.take(1250), 250);
  EXPECT_EQ(bucket.take(1500), 0);
  EXPECT_EQ(bucket.take(1500), 500);
  // Idle time refills up to the burst, no further.
  EXPECT_DOUBLE_EQ(bucket.tokens_at(1'000'000), 3.0);
  EXPECT_TRUE(bucket.full_at(1'000'000));
}

TEST(TokenBucket, TimeThatStepsBackRefillsNothing) {
  TokenBucket bucket(BucketRate{1.0, 1.0}, 5000);
  EXPECT_EQ(bucket.take(5000), 0);
  EXPECT_GT(bucket.take(1000), 0);  // earlier: still empty
  EXPECT_EQ(bucket.take(5999), 1);
  EXPECT_EQ(bucket.take(6000), 0);
}

TEST(TokenBucket, ARateOfZeroNeverRefills) {
  TokenBucket bucket(BucketRate{1.0, 0.0}, 0);
  EXPECT_EQ(bucket.take(0), 0);
  EXPECT_GT(bucket.take(1'000'000'000), 1'000'000'000);
}

TEST(KeyedLimiter, EachKeyHasItsOwnBucket) {
  KeyedLimiter limiter(BucketRate{2.0, 1.0}, 100);
  EXPECT_EQ(limiter.take("alice", 0), 0);
  EXPECT_EQ(limiter.take("alice", 0), 0);
  EXPECT_EQ(limiter.take("alice", 0), 1000);
  EXPECT_EQ(limiter.take("bob", 0), 0);
  EXPECT_EQ(limiter.take("alice", 1000), 0);
}

// A token given back (an action refused for another reason after the limit let it
// through) is there again, never more than the burst; an unknown key gains nothing.
TEST(KeyedLimiter, ATokenGivenBackIsThereAgainUpToTheBurst) {
  KeyedLimiter limiter(BucketRate{2.0, 0.0}, 100);  // no refill: only give_back adds
  EXPECT_EQ(limiter.take("alice", 0), 0);
  EXPECT_EQ(limiter.take("alice", 0), 0);
  EXPECT_GT(limiter.take("alice", 0), 0);
  limiter.give_back("alice", 0);
  EXPECT_EQ(limiter.take("alice", 0), 0);
  EXPECT_GT(limiter.take("alice", 0), 0);
  for (int i = 0; i < 5; ++i) limiter.give_back("alice", 0);
  EXPECT_EQ(limiter.take("alice", 0), 0);
  EXPECT_EQ(limiter.take("alice", 0), 0);
  EXPECT_GT(limiter.take("alice", 0), 0) << "never above the burst";
  limiter.give_back("bob", 0);
  EXPECT_EQ(limiter.size(), 1u);
}

TEST(KeyedLimiter, AFloodOfNewKeysNeitherGrowsMemoryNorResetsAnyonesLimit) {
  KeyedLimiter limiter(BucketRate{1.0, 1.0}, 3);
  EXPECT_EQ(limiter.take("alice", 0), 0);  // alice is now limited for 1 s
  EXPECT_EQ(limiter.take("k1", 0), 0);
  EXPECT_EQ(limiter.take("k2", 0), 0);
  // Full of buckets in use: a new key waits, alice's bucket is not dropped.
  EXPECT_EQ(limiter.take("k3", 500), 500);
  EXPECT_EQ(limiter.size(), 3u);
  EXPECT_EQ(limiter.take("alice", 500), 500);
  // Once they refilled, they are forgotten and make room.
  EXPECT_EQ(limiter.take("k3", 1000), 0);
  EXPECT_LE(limiter.size(), 3u);
  for (int i = 0; i < 1000; ++i) (void)limiter.take("flood" + std::to_string(i), 2000 + i * 1000);
  EXPECT_LE(limiter.size(), 3u);
}

}  // namespace
}  // namespace eryantis::accounts
