#include "eryantis/accounts/password_pool.hpp"

#include <memory>

#include "sodium_init.hpp"

namespace eryantis::accounts {

PasswordPool::PasswordPool(PasswordPoolConfig config, std::function<void()> wake)
    : config_(std::move(config)), wake_(std::move(wake)), workers_(config_.threads, config_.capacity, config_.on_thread_start) {}

// workers_ is the last member: its destructor (first to run) finishes the accepted jobs,
// which still use done_ and wake_, then joins; only then do they go.
PasswordPool::~PasswordPool() = default;

const std::string& PasswordPool::dummy_hash() {
  std::call_once(dummy_once_, [&] {
    // A hash of a random password nobody knows: verifying against it costs a real login.
    ensure_sodium();
    std::string secret(32, '\0');
    randombytes_buf(secret.data(), secret.size());
    auto h = hash_password(secret, config_.params);
    wipe(secret);
    if (h) dummy_ = std::move(*h);
  });
  return dummy_;
}

PasswordOutcome PasswordPool::work(PasswordRequest& r) {
  PasswordOutcome out;
  out.id = r.id;
  out.task = r.task;
  if (r.task == PasswordTask::Hash) {
    auto h = hash_password(r.password, config_.params);
    if (h) {
      out.ok = true;
      out.hash = std::move(*h);
    } else {
      out.error = std::move(h.error());
    }
  } else if (r.stored.empty()) {
    // An unknown name: the same work as a known one, and always false.
    (void)verify_password(dummy_hash(), r.password);
    out.ok = false;
  } else {
    out.ok = verify_password(r.stored, r.password);
    if (out.ok && needs_rehash(r.stored, config_.params)) {
      if (auto h = hash_password(r.password, config_.params)) out.hash = std::move(*h);
    }
  }
  wipe(r.password);
  return out;
}

std::expected<void, AccountError> PasswordPool::submit(PasswordRequest request) {
  // The job owns the request; std::function needs a copyable callable, hence shared_ptr.
  auto owned = std::make_shared<PasswordRequest>(std::move(request));
  const bool queued = workers_.try_submit([this, owned] {
    PasswordOutcome out = work(*owned);
    {
      std::lock_guard lock(done_mutex_);
      done_.push_back(std::move(out));
    }
    if (wake_) wake_();
  });
  if (!queued) {
    wipe(owned->password);
    return std::unexpected(busy());
  }
  return {};
}

AccountError PasswordPool::busy() {
  return AccountError{AccountErrorCode::Busy,
                      "the server is checking many passwords right now: try again in a moment"};
}

std::vector<PasswordOutcome> PasswordPool::take_done() {
  std::lock_guard lock(done_mutex_);
  std::vector<PasswordOutcome> out;
  out.swap(done_);
  return out;
}

}  // namespace eryantis::accounts
