#include "eryantis/main/heap_trim.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace eryantis::app {

HeapTrim trim_heap(std::size_t min_free_bytes) {
  HeapTrim result;
#if defined(__GLIBC__)
  const struct mallinfo2 info = mallinfo2();
  result.free_before = info.fordblks;
  if (result.free_before < min_free_bytes) return result;
  result.trimmed = true;
  result.released = malloc_trim(0) != 0;
#else
  (void)min_free_bytes;  // other allocators return memory on their own terms
#endif
  return result;
}

}  // namespace eryantis::app
