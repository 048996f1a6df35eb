#pragma once
// RENAISSANCE_ASSERT(condition): a contract the caller must keep (apply's precondition), checked
// where ERYANTIS_ASSERTIONS is defined (Debug and the sanitizer build; see the root
// CMakeLists.txt), compiled out otherwise. The same habit as Eriantys's ERYANTIS_ASSERT, under a
// name of this module so that both headers can meet in one translation unit.

#if defined(ERYANTIS_ASSERTIONS)
#include <cstdio>
#include <cstdlib>

namespace eryantis::renaissance::detail {
[[noreturn]] inline void assertion_failed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: contract broken: %s\n", file, line, condition);
  std::abort();
}
}  // namespace eryantis::renaissance::detail

#define RENAISSANCE_ASSERT(condition) \
  ((condition) ? (void)0              \
               : ::eryantis::renaissance::detail::assertion_failed(#condition, __FILE__, __LINE__))
#else
#define RENAISSANCE_ASSERT(condition) ((void)sizeof(!(condition)))
#endif
