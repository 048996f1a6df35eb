// The process_* series from /proc (Linux), read at each scrape: CPU time and the
// start time from /proc/self/stat, memory from /proc/self/statm, descriptors by
// listing /proc/self/fd (one readdir of ~100 entries on a quiet server, ~20,000 at
// max_connections: a few ms, once per scrape), the limit from getrlimit.
#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "eryantis/metrics/metrics.hpp"

namespace eryantis::metrics {

namespace {

// The machine's boot time (unix seconds), from the btime line of /proc/stat.
double boot_time() {
  std::ifstream in("/proc/stat");
  std::string key;
  while (in >> key) {
    if (key == "btime") {
      double t = -1;
      in >> t;
      return t;
    }
    in.ignore(1 << 20, '\n');
  }
  return -1;
}

}  // namespace

ProcessSample read_process() {
  ProcessSample out;
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  const double page = static_cast<double>(::sysconf(_SC_PAGESIZE));
  {
    std::ifstream in("/proc/self/stat");
    std::string line;
    if (std::getline(in, line)) {
      // The command name (field 2) may hold spaces and parentheses: fields are
      // counted from after its closing parenthesis, which starts at field 3.
      const auto close = line.rfind(')');
      if (close != std::string::npos && ticks > 0) {
        std::istringstream fields(line.substr(close + 2));
        std::string field;
        double utime = -1, stime = -1, start = -1;
        for (int n = 3; fields >> field; ++n) {
          if (n == 14) utime = std::stod(field);
          if (n == 15) stime = std::stod(field);
          if (n == 22) {
            start = std::stod(field);
            break;
          }
        }
        if (utime >= 0 && stime >= 0) out.cpu_seconds = (utime + stime) / ticks;
        if (const double boot = boot_time(); boot >= 0 && start >= 0)
          out.start_time_seconds = boot + start / ticks;
      }
    }
  }
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    unsigned long size = 0, resident = 0;
    if (std::fscanf(f, "%lu %lu", &size, &resident) == 2) {
      out.virtual_bytes = static_cast<double>(size) * page;
      out.resident_bytes = static_cast<double>(resident) * page;
    }
    std::fclose(f);
  }
  if (DIR* fds = ::opendir("/proc/self/fd")) {
    double n = 0;
    while (const dirent* e = ::readdir(fds))
      if (e->d_name[0] != '.') ++n;
    ::closedir(fds);
    out.open_fds = n - 1;  // the listing's own descriptor
  }
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0)
    out.max_fds = limit.rlim_cur == RLIM_INFINITY ? -1 : static_cast<double>(limit.rlim_cur);
  return out;
}

}  // namespace eryantis::metrics
