#pragma once
// Password work off the event loop: hashing (register, reset) and verifying (login) on a
// WorkerPool, results collected for the loop to take. The loop submits, returns to its
// other players at once, and takes the outcomes when `wake` tells it some are ready (the
// server wires `wake` to a uv_async_t; a test, to a condition variable).
//
// - A full queue refuses at once with Busy ("try again in a moment"): with 2 workers at
//   ~70 ms a hash and 32 waiting, a login is answered within ~1.2 s on an idle machine or
//   refused at once, never later; submitting costs the loop microseconds (docs/home.md).
// - A login for a name that does not exist is verified against a dummy hash of the same
//   parameters: it costs what a real login costs, so timing does not tell which names exist.
// - A successful login whose stored hash used other parameters also returns a new hash
//   with the current ones (`rehash`): store it, and old hashes migrate as players log in.
// - Passwords are wiped from memory once used.
#include <cstddef>
#include <cstdint>
#include <expected>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "eryantis/accounts/error.hpp"
#include "eryantis/accounts/password.hpp"
#include "eryantis/accounts/worker_pool.hpp"

namespace eryantis::accounts {

struct PasswordPoolConfig {
  PasswordParams params{};
  int threads = 2;             // hashes run in parallel (each holds params.memory_bytes)
  std::size_t capacity = 32;   // requests that may wait; more are refused with Busy
  // Runs first on each worker thread: the server lowers their scheduling priority there,
  // so a burst of hashing yields the CPU to the event loop (docs/accounts.md).
  std::function<void()> on_thread_start;
};

enum class PasswordTask : std::uint8_t {
  Hash,    // make a stored hash of `password` (registration, a new password)
  Verify,  // does `password` match `stored`? ("" = the account does not exist)
};

struct PasswordRequest {
  std::uint64_t id = 0;  // the caller's, given back in the outcome
  PasswordTask task = PasswordTask::Verify;
  std::string password;
  std::string stored;  // Verify: the account's stored hash, or "" for an unknown name
};

struct PasswordOutcome {
  std::uint64_t id = 0;
  PasswordTask task = PasswordTask::Verify;
  bool ok = false;           // Hash: `hash` is set; Verify: the password matches
  std::string hash;          // Hash: the new hash; Verify: the rehash, if one is due
  std::optional<AccountError> error;  // Hash: HashFailed (then ok is false)
};

class PasswordPool {
 public:
  // `wake` runs on a worker thread after each outcome is ready; it must be cheap and
  // thread-safe (uv_async_send is both). Precondition: check_password_params(config.params).
  PasswordPool(PasswordPoolConfig config, std::function<void()> wake);
  ~PasswordPool();  // finishes what was accepted (wake still called), then stops

  // Accepted, or Busy when the queue is full (nothing runs, the password is wiped).
  // Checks nothing else: run check_password before a Hash.
  std::expected<void, AccountError> submit(PasswordRequest request);

  // The outcomes ready so far, in the order they finished; each is returned once.
  std::vector<PasswordOutcome> take_done();

  std::size_t waiting() const { return workers_.waiting(); }
  // True when submit would answer Busy now (a caller checks before it spends anything).
  bool full() const { return workers_.waiting() >= config_.capacity; }
  // The Busy refusal submit gives.
  static AccountError busy();
  std::uint64_t refused() const { return workers_.refused(); }
  const PasswordPoolConfig& config() const { return config_; }

 private:
  PasswordOutcome work(PasswordRequest& request);
  const std::string& dummy_hash();

  const PasswordPoolConfig config_;
  const std::function<void()> wake_;
  std::once_flag dummy_once_;
  std::string dummy_;
  std::mutex done_mutex_;
  std::vector<PasswordOutcome> done_;
  WorkerPool workers_;  // last: its threads stop (in its destructor) before the rest goes
};

}  // namespace eryantis::accounts
