#pragma once
// Giving freed heap memory back to the operating system.
//
// Bursts (a thousand matches filling at once, each seat sent its full board)
// allocate many short-lived buffers between long-lived objects; glibc keeps the
// freed pages inside its arenas (jemalloc for up to 10 s), so the server's resident size stays at
// the burst's peak. A trim returns whole free pages (madvise): it took the resident memory of 5,000
// idle matches from ~60 MiB to ~27 MiB.
//
// When to trim: glibc's own statistics cannot tell free pages already given
// back from free pages still resident, so there the trigger is the process's
// resident anonymous memory: a trim runs when it has grown by `growth_bytes`
// since the last trim (or since the start). A busy server at a steady size never
// trims; a server whose heap keeps growing trims once per `growth_bytes` of
// growth. jemalloc counts its unused resident pages itself: there a trim runs
// when they reach `growth_bytes`, whatever the resident size did.
#include <cstddef>
#include <functional>
#include <optional>

namespace eryantis::app {

// Resident anonymous memory of this process (RssAnon in /proc/self/status),
// or nothing where that cannot be read.
std::optional<std::size_t> anonymous_resident_bytes();

// Freed pages the allocator still holds resident, where it can tell: jemalloc's
// dirty and muzzy pages of every arena. Nothing under glibc, which cannot.
std::optional<std::size_t> allocator_unused_bytes();

// Hands the allocator's free pages back (jemalloc's purge of every arena, or
// glibc's malloc_trim; a no-op elsewhere).
void trim_allocator();

class HeapTrimmer {
 public:
  using ResidentBytes = std::function<std::optional<std::size_t>()>;
  using Trim = std::function<void()>;

  struct Tick {
    bool trimmed = false;
    std::size_t resident_before = 0;
    std::size_t resident_after = 0;
  };

  // `unused`: the allocator's own count of freed pages still resident. Where it
  // answers, a trim runs when it reaches `growth_bytes` (after a burst, or when
  // the pages of a connection storm are freed without the resident size growing);
  // where it does not (empty, or nothing), the resident size's growth decides.
  explicit HeapTrimmer(std::size_t growth_bytes, ResidentBytes resident = anonymous_resident_bytes,
                       Trim trim = trim_allocator, ResidentBytes unused = {});

  // Called on a timer: trims if the resident memory grew enough since the last trim.
  Tick tick();

 private:
  std::size_t growth_bytes_;
  ResidentBytes resident_;
  Trim trim_;
  ResidentBytes unused_;
  std::optional<std::size_t> baseline_;  // resident bytes after the last trim (or the lowest seen)
};

}  // namespace eryantis::app
