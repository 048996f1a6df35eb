#include "support/process_memory.hpp"

#include <algorithm>
#include <fstream>
#include <string>

namespace eryantis::test {

std::size_t resident_bytes(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // in kB
  return 0;
}

PeakResident::PeakResident(pid_t pid, std::size_t base, std::chrono::milliseconds every)
    : peak_(base), sampler_([this, pid, every] {
        while (sampling_) {
          peak_ = std::max(peak_.load(), resident_bytes(pid));
          std::this_thread::sleep_for(every);
        }
      }) {}

PeakResident::~PeakResident() {
  stop();
}

std::size_t PeakResident::stop() {
  sampling_ = false;
  if (sampler_.joinable()) sampler_.join();
  return peak_;
}

}  // namespace eryantis::test
