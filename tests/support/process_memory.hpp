#pragma once
// A process's resident memory, as the memory-budget tests measure a server: once
// (resident_bytes) or its peak over a stretch of the test (PeakResident).
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <thread>

namespace eryantis::test {

// Resident memory of a process in bytes (VmRSS of /proc/<pid>/status), 0 if unknown.
std::size_t resident_bytes(pid_t pid);

// Samples a process's resident memory every `every` on a thread of its own, from
// construction until stop() (or destruction); the peak includes `base`.
class PeakResident {
 public:
  PeakResident(pid_t pid, std::size_t base,
               std::chrono::milliseconds every = std::chrono::milliseconds(5));
  PeakResident(const PeakResident&) = delete;
  PeakResident& operator=(const PeakResident&) = delete;
  ~PeakResident();

  // Stops sampling; the peak seen. Idempotent.
  std::size_t stop();

 private:
  std::atomic<bool> sampling_{true};
  std::atomic<std::size_t> peak_;
  std::thread sampler_;
};

}  // namespace eryantis::test
