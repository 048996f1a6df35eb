#include "eryantis/main/heap_trim.hpp"

#include <cstdio>
#include <cstring>

#if defined(ERYANTIS_JEMALLOC)
#include <jemalloc/jemalloc.h>
#elif defined(__GLIBC__)
#include <malloc.h>
#endif

namespace eryantis::app {

std::optional<std::size_t> anonymous_resident_bytes() {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (status == nullptr) return std::nullopt;
  std::optional<std::size_t> bytes;
  char line[256];
  while (std::fgets(line, sizeof line, status) != nullptr) {
    unsigned long long kib = 0;
    if (std::strncmp(line, "RssAnon:", 8) == 0 && std::sscanf(line + 8, "%llu", &kib) == 1) {
      bytes = static_cast<std::size_t>(kib) * 1024;
      break;
    }
  }
  std::fclose(status);
  return bytes;
}

void trim_allocator() {
#if defined(ERYANTIS_JEMALLOC)
  // jemalloc gives dirty pages back by itself, but only after dirty_decay_ms
  // (10 s): a purge of every arena does it now, as malloc_trim does for glibc.
  static_assert(MALLCTL_ARENAS_ALL == 4096);
  mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
#elif defined(__GLIBC__)
  malloc_trim(0);
#endif
}

HeapTrimmer::HeapTrimmer(std::size_t growth_bytes, ResidentBytes resident, Trim trim)
    : growth_bytes_(growth_bytes), resident_(std::move(resident)), trim_(std::move(trim)) {
  baseline_ = resident_();
}

HeapTrimmer::Tick HeapTrimmer::tick() {
  Tick tick;
  const std::optional<std::size_t> now = resident_();
  if (!now) return tick;  // nothing to go by: never trim blindly
  tick.resident_before = tick.resident_after = *now;
  if (!baseline_ || *now < *baseline_) {
    baseline_ = *now;  // measure growth from the lowest point
    return tick;
  }
  if (*now - *baseline_ < growth_bytes_) return tick;
  trim_();
  tick.trimmed = true;
  tick.resident_after = resident_().value_or(*now);
  baseline_ = tick.resident_after;
  return tick;
}

}  // namespace eryantis::app
