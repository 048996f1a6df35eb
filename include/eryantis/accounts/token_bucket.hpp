#pragma once
// Rate limits as token buckets, time as an argument (no clock inside: the server passes
// its loop's time, a test a number). A bucket holds at most `burst` tokens and gains
// `per_second` a second; each action takes one. Used for chat (per sender) and for login
// attempts (per account and per address).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace eryantis::accounts {

struct BucketRate {
  double burst = 5.0;       // tokens when full: actions allowed back to back
  double per_second = 1.0;  // refill: the sustained rate
};

// One bucket; starts full.
class TokenBucket {
 public:
  explicit TokenBucket(BucketRate rate, std::int64_t now_ms = 0);
  // Takes a token at `now_ms`: 0 when granted, else the milliseconds until one is there
  // (>= 1). A time before the last one counts as no time (never a refill backwards).
  std::int64_t take(std::int64_t now_ms);
  // Returns a token taken for an action that did not happen (never above `burst`).
  void give_back(std::int64_t now_ms);
  double tokens_at(std::int64_t now_ms) const;
  bool full_at(std::int64_t now_ms) const { return tokens_at(now_ms) >= rate_.burst; }

 private:
  BucketRate rate_;
  double tokens_;
  std::int64_t at_ms_;
};

// A bucket per key (a sender's account, an address), bounded: at most `max_keys` buckets;
// when full, buckets that have refilled completely are dropped (they hold nothing a fresh
// bucket would not), and if none has, the key is refused as limited: a flood of new keys
// cannot grow memory nor reset anyone's limit.
class KeyedLimiter {
 public:
  KeyedLimiter(BucketRate rate, std::size_t max_keys);
  // 0 when granted, else the milliseconds to wait.
  std::int64_t take(std::string_view key, std::int64_t now_ms);
  // Returns the token `take` granted for `key` when the action did not happen after all
  // (a login the password workers were too busy to try). Nothing for an unknown key.
  void give_back(std::string_view key, std::int64_t now_ms);
  std::size_t size() const { return buckets_.size(); }

 private:
  void forget_full(std::int64_t now_ms);

  BucketRate rate_;
  std::size_t max_keys_;
  std::map<std::string, TokenBucket, std::less<>> buckets_;
};

}  // namespace eryantis::accounts
