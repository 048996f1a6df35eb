// The heap trimmer: when it trims (policy, with a fake resident size), and that
// a real trim gives a burst's freed pages back to the system.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "eryantis/main/heap_trim.hpp"

namespace eryantis::app {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// A resident size the test sets; trims lower it to `after_trim`.
struct FakeProcess {
  std::optional<std::size_t> resident = 20 * kMiB;
  std::size_t after_trim = 20 * kMiB;
  int trims = 0;
  HeapTrimmer trimmer(std::size_t growth) {
    return HeapTrimmer(
        growth, [this] { return resident; },
        [this] {
          ++trims;
          resident = after_trim;
        });
  }
};

TEST(HeapTrimmer, TrimsOnlyAfterEnoughGrowth) {
  FakeProcess p;
  HeapTrimmer trimmer = p.trimmer(4 * kMiB);
  EXPECT_FALSE(trimmer.tick().trimmed);  // nothing grew
  p.resident = 23 * kMiB;
  EXPECT_FALSE(trimmer.tick().trimmed);  // 3 MiB: below the threshold
  p.resident = 60 * kMiB;                // a burst
  p.after_trim = 27 * kMiB;
  const HeapTrimmer::Tick tick = trimmer.tick();
  EXPECT_TRUE(tick.trimmed);
  EXPECT_EQ(tick.resident_before, 60 * kMiB);
  EXPECT_EQ(tick.resident_after, 27 * kMiB);
  EXPECT_EQ(p.trims, 1);
}

TEST(HeapTrimmer, DoesNotTrimAgainAtASteadySize) {
  // The flaw this design avoids: free memory already handed back still counts
  // as free in glibc's statistics, which would trigger a trim on every tick.
  FakeProcess p;
  HeapTrimmer trimmer = p.trimmer(4 * kMiB);
  p.resident = 60 * kMiB;
  p.after_trim = 58 * kMiB;  // the heap is really in use: a trim gains little
  EXPECT_TRUE(trimmer.tick().trimmed);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(trimmer.tick().trimmed);
  p.resident = 61 * kMiB;
  EXPECT_FALSE(trimmer.tick().trimmed);
  p.resident = 63 * kMiB;  // grown by 5 MiB since the last trim
  EXPECT_TRUE(trimmer.tick().trimmed);
  EXPECT_EQ(p.trims, 2);
}

TEST(HeapTrimmer, GrowthCountsFromTheLowestPoint) {
  FakeProcess p;
  p.resident = 50 * kMiB;
  HeapTrimmer trimmer = p.trimmer(4 * kMiB);
  p.resident = 30 * kMiB;  // large blocks were unmapped
  EXPECT_FALSE(trimmer.tick().trimmed);
  p.resident = 35 * kMiB;
  EXPECT_TRUE(trimmer.tick().trimmed);
}

TEST(HeapTrimmer, NeverTrimsBlind) {
  FakeProcess p;
  p.resident = std::nullopt;  // no /proc
  HeapTrimmer trimmer = p.trimmer(4 * kMiB);
  EXPECT_FALSE(trimmer.tick().trimmed);
  EXPECT_EQ(p.trims, 0);
}

TEST(HeapTrimmer, WhereTheAllocatorCountsItsUnusedPagesTheyDecide) {
  FakeProcess p;
  std::optional<std::size_t> unused = 0;
  HeapTrimmer trimmer(
      4 * kMiB, [&] { return p.resident; },
      [&] {
        ++p.trims;
        unused = 0;
      },
      [&] { return unused; });
  p.resident = 60 * kMiB;  // grown, but all of it in use
  EXPECT_FALSE(trimmer.tick().trimmed);
  unused = 3 * kMiB;
  EXPECT_FALSE(trimmer.tick().trimmed);
  unused = 5 * kMiB;  // freed without the resident size growing
  EXPECT_TRUE(trimmer.tick().trimmed);
  EXPECT_EQ(p.trims, 1);
  EXPECT_FALSE(trimmer.tick().trimmed);
  unused = std::nullopt;  // the allocator cannot tell: the resident size decides
  p.resident = 70 * kMiB;
  EXPECT_TRUE(trimmer.tick().trimmed);
}

TEST(HeapTrimmer, ReadsThisProcesssResidentMemory) {
  const auto bytes = anonymous_resident_bytes();
  ASSERT_TRUE(bytes);
  EXPECT_GT(*bytes, 0u);
}

TEST(HeapTrimmer, ARealTrimGivesBackWhatABurstLeftBehind) {
#if defined(ERYANTIS_SANITIZER_BUILD)
  GTEST_SKIP() << "the sanitizer's allocator replaces glibc's here";
#endif
  // A burst: 64 MiB in 64 KiB blocks (below glibc's mmap threshold, so inside
  // the heap), every page touched; then every other block freed while its
  // neighbours stay alive, as long-lived objects pin a real server's heap.
  constexpr std::size_t kBlock = 64 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks;
  for (std::size_t i = 0; i < 1024; ++i) {
    blocks.push_back(std::make_unique<char[]>(kBlock));
    for (std::size_t b = 0; b < kBlock; b += 4096) blocks.back()[b] = static_cast<char>(i);
  }
  for (std::size_t i = 0; i < blocks.size(); i += 2) blocks[i].reset();
    // Freed, but still resident: glibc does not give back pages between live
    // blocks by itself. Growth 0: this trimmer trims on its first tick.
#if defined(ERYANTIS_JEMALLOC)
  EXPECT_GT(allocator_unused_bytes().value_or(0), 24 * kMiB);  // it knows they are unused
#endif
  HeapTrimmer real(0);
  const HeapTrimmer::Tick tick = real.tick();
  ASSERT_TRUE(tick.trimmed);
  // ~32 MiB were free in 64 KiB holes: nearly all of it goes back.
  EXPECT_LT(tick.resident_after + 24 * kMiB, tick.resident_before)
      << "before " << tick.resident_before << " after " << tick.resident_after;
#if defined(ERYANTIS_JEMALLOC)
  // jemalloc counted those pages as unused, and counts them no more.
  const std::optional<std::size_t> unused = allocator_unused_bytes();
  ASSERT_TRUE(unused);
  EXPECT_LT(*unused, 4 * kMiB);
#endif
}

}  // namespace
}  // namespace eryantis::app
