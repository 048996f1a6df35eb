#pragma once
// libsodium's sodium_init, once per process before any other call (it is thread-safe and
// idempotent; it fails only when the OS has no random source, which nothing here survives).
#include <sodium.h>

#include <cstdlib>

namespace eryantis::accounts {

inline void ensure_sodium() {
  static const bool ready = [] {
    if (sodium_init() < 0) std::abort();
    return true;
  }();
  (void)ready;
}

}  // namespace eryantis::accounts
