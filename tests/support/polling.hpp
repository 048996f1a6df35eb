#pragma once
// Waiting with a deadline, and what randomised or timed tests need to know
// about the run they are in.
#include <chrono>
#include <cstdint>
#include <thread>

namespace eryantis::test {

// True when the tests run under a sanitizer (CI sets ERYANTIS_SANITIZER_RUN):
// randomised tests then do less work and waits are longer.
bool sanitizer_run();

// `d`, five times longer in a sanitizer run (everything is slower there).
std::chrono::milliseconds scaled(std::chrono::milliseconds d);

// Calls `probe` every `every` until it returns true (true) or `timeout` (scaled)
// has passed (false). The probe runs at least once, and once more at the deadline.
template <class Probe>
bool eventually(std::chrono::milliseconds timeout, Probe probe,
                std::chrono::milliseconds every = std::chrono::milliseconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + scaled(timeout);
  for (;;) {
    if (probe()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(every);
  }
}

// The seed of a randomised test: ERYANTIS_TEST_SEED if set, else from the OS.
// Print it in the test so that a failure can be replayed.
std::uint64_t test_seed();

}  // namespace eryantis::test
