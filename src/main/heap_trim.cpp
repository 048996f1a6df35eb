#include "eryantis/main/heap_trim.hpp"

#include <cstdint>
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

std::optional<std::size_t> allocator_unused_bytes() {
#if defined(ERYANTIS_JEMALLOC)
  // The statistics are a snapshot taken at the last "epoch": refresh it first.
  std::uint64_t epoch = 1;
  std::size_t size = sizeof epoch;
  if (mallctl("epoch", &epoch, &size, &epoch, sizeof epoch) != 0) return std::nullopt;
  std::size_t dirty = 0, muzzy = 0, page = 0;
  size = sizeof(std::size_t);
  if (mallctl("stats.arenas.4096.pdirty", &dirty, &size, nullptr, 0) != 0 ||
      mallctl("stats.arenas.4096.pmuzzy", &muzzy, &size, nullptr, 0) != 0 ||
      mallctl("arenas.page", &page, &size, nullptr, 0) != 0)
    return std::nullopt;
  return (dirty + muzzy) * page;
#else
  return std::nullopt;
#endif
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

HeapTrimmer::HeapTrimmer(std::size_t growth_bytes, ResidentBytes resident, Trim trim,
                         ResidentBytes unused)
    : growth_bytes_(growth_bytes),
      resident_(std::move(resident)),
      trim_(std::move(trim)),
      unused_(std::move(unused)) {
  baseline_ = resident_();
}

HeapTrimmer::Tick HeapTrimmer::tick() {
  Tick tick;
  const std::optional<std::size_t> now = resident_();
  if (!now) return tick;  // nothing to go by: never trim blindly
  tick.resident_before = tick.resident_after = *now;
  if (const std::optional<std::size_t> unused = unused_ ? unused_() : std::nullopt) {
    if (*unused < growth_bytes_) return tick;
    trim_();
    tick.trimmed = true;
    tick.resident_after = resident_().value_or(*now);
    return tick;
  }
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
