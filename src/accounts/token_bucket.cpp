#include "eryantis/accounts/token_bucket.hpp"

#include <algorithm>
#include <cmath>

namespace eryantis::accounts {

TokenBucket::TokenBucket(BucketRate rate, std::int64_t now_ms) : rate_(rate), tokens_(rate.burst), at_ms_(now_ms) {}

double TokenBucket::tokens_at(std::int64_t now_ms) const {
  if (now_ms <= at_ms_) return tokens_;
  const double gained = static_cast<double>(now_ms - at_ms_) * rate_.per_second / 1000.0;
  return std::min(rate_.burst, tokens_ + gained);
}

std::int64_t TokenBucket::take(std::int64_t now_ms) {
  tokens_ = tokens_at(now_ms);
  at_ms_ = std::max(at_ms_, now_ms);
  if (tokens_ >= 1.0) {
    tokens_ -= 1.0;
    return 0;
  }
  if (!(rate_.per_second > 0.0)) return std::int64_t{1} << 40;  // never refills: "a very long time"
  // Less a nanosecond's worth: 0.999 tokens at 1/s wait 1 ms, not 2 for a rounding's sake.
  const double wait = std::ceil((1.0 - tokens_) * 1000.0 / rate_.per_second - 1e-6);
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(wait));
}

void TokenBucket::give_back(std::int64_t now_ms) {
  tokens_ = std::min(rate_.burst, tokens_at(now_ms) + 1.0);
  at_ms_ = std::max(at_ms_, now_ms);
}

KeyedLimiter::KeyedLimiter(BucketRate rate, std::size_t max_keys) : rate_(rate), max_keys_(std::max<std::size_t>(1, max_keys)) {}

void KeyedLimiter::forget_full(std::int64_t now_ms) {
  std::erase_if(buckets_, [&](const auto& entry) { return entry.second.full_at(now_ms); });
}

std::int64_t KeyedLimiter::take(std::string_view key, std::int64_t now_ms) {
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    if (buckets_.size() >= max_keys_) forget_full(now_ms);
    // Still full: every kept bucket is in use. Refuse the new key rather than evict someone
    // mid-limit (which would reset their limit); retry when one has refilled.
    if (buckets_.size() >= max_keys_) {
      if (!(rate_.per_second > 0.0)) return std::int64_t{1} << 40;
      double soonest = rate_.burst;  // tokens missing from the fullest bucket
      for (const auto& [k, bucket] : buckets_) soonest = std::min(soonest, rate_.burst - bucket.tokens_at(now_ms));
      return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(soonest * 1000.0 / rate_.per_second)));
    }
    it = buckets_.emplace(std::string(key), TokenBucket(rate_, now_ms)).first;
  }
  return it->second.take(now_ms);
}

void KeyedLimiter::give_back(std::string_view key, std::int64_t now_ms) {
  if (auto it = buckets_.find(key); it != buckets_.end()) it->second.give_back(now_ms);
}

}  // namespace eryantis::accounts
