// The periodic heap trim: it runs only when enough memory sits free in the
// allocator, and then gives it back.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "eryantis/main/heap_trim.hpp"

namespace eryantis::app {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kOwnAllocator = true;  // ASan's allocator: glibc's statistics do not see it
#else
constexpr bool kOwnAllocator = false;
#endif

TEST(HeapTrim, DoesNothingBelowTheThreshold) {
  const HeapTrim trim = trim_heap(std::size_t{1} << 50);
  EXPECT_FALSE(trim.trimmed);
  EXPECT_FALSE(trim.released);
}

TEST(HeapTrim, GivesBackWhatABurstLeftBehind) {
  if (kOwnAllocator) GTEST_SKIP() << "glibc's allocator is replaced in this build";
  // A burst: 16 MiB in 4 KiB blocks (below the mmap threshold, so inside the
  // arena), every other one kept alive, as long-lived objects pin a heap.
  std::vector<std::unique_ptr<char[]>> blocks;
  for (int i = 0; i < 4096; ++i) {
    blocks.push_back(std::make_unique<char[]>(4096));
    blocks.back()[0] = static_cast<char>(i);
  }
  for (std::size_t i = 0; i < blocks.size(); i += 2) blocks[i].reset();
  const HeapTrim trim = trim_heap(4u << 20);
  EXPECT_GE(trim.free_before, std::size_t{4} << 20);
  EXPECT_TRUE(trim.trimmed);
  EXPECT_TRUE(trim.released);
}

}  // namespace
}  // namespace eryantis::app
