#pragma once
// ERYANTIS_ASSERT(condition): a contract the caller must keep, checked where it
// is cheap to be wrong (SQLite's assert()/ALWAYS() habit). Active when
// ERYANTIS_ASSERTIONS is defined: the root CMakeLists.txt defines it for Debug
// and for the sanitizer build. It does not follow NDEBUG on purpose: the
// sanitizer build is RelWithDebInfo, which defines NDEBUG, so a plain assert()
// never ran there. Compiled out otherwise, the condition not evaluated.
//
// A failure is a bug in the caller (an event `check` never produced reached
// `apply`), not a player's mistake: it prints the condition and aborts.

#if defined(ERYANTIS_ASSERTIONS)
#include <cstdio>
#include <cstdlib>

namespace eryantis::rules::detail {
[[noreturn]] inline void assertion_failed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: contract broken: %s\n", file, line, condition);
  std::abort();
}
}  // namespace eryantis::rules::detail

#define ERYANTIS_ASSERT(condition) \
  ((condition) ? (void)0           \
               : ::eryantis::rules::detail::assertion_failed(#condition, __FILE__, __LINE__))
#else
// sizeof: the condition still compiles (and names stay "used") but never runs.
#define ERYANTIS_ASSERT(condition) ((void)sizeof(!(condition)))
#endif
