#pragma once
// Giving freed heap memory back to the operating system.
//
// Bursts (a thousand matches filling at once, each seat sent its full board)
// allocate many short-lived buffers between long-lived objects; glibc keeps the
// freed pages inside its arenas, so the server's resident size stays at the
// burst's peak. A periodic trim returns whole free pages (madvise), which took
// the resident memory of 5,000 idle matches from ~60 MiB to ~27 MiB.
#include <cstddef>

namespace eryantis::app {

struct HeapTrim {
  std::size_t free_before = 0;  // bytes free inside the allocator's arenas
  bool trimmed = false;         // malloc_trim ran
  bool released = false;        // it gave memory back
};

// Trims when at least `min_free_bytes` are free inside the arenas; a cheap
// no-op otherwise, so it can run on a timer.
HeapTrim trim_heap(std::size_t min_free_bytes);

}  // namespace eryantis::app
