#include "eryantis/net/line_splitter.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace eryantis::net {
namespace {

constexpr const char* kTooLong = "<too long>";

// Records lines and too-long reports in one sequence, to check their order.
struct Recorder final : LineSplitter::Sink {
  std::vector<std::string> items;
  void on_line(std::string_view line) override { items.emplace_back(line); }
  void on_too_long() override { items.emplace_back(kTooLong); }
};

std::vector<std::string> split_in_two(std::size_t max, std::string_view bytes, std::size_t at) {
  LineSplitter splitter(max);
  Recorder recorder;
  splitter.feed(bytes.substr(0, at), recorder);
  splitter.feed(bytes.substr(at), recorder);
  return recorder.items;
}

std::vector<std::string> byte_by_byte(std::size_t max, std::string_view bytes) {
  LineSplitter splitter(max);
  Recorder recorder;
  for (char c : bytes) splitter.feed(std::string_view(&c, 1), recorder);
  return recorder.items;
}

TEST(LineSplitter, SplitsAtEveryPosition) {
  const std::string bytes = "hello\nworld\r\n\n{\"a\":1}\r\nlast line\npartial";
  const std::vector<std::string> expected = {"hello", "world", "", "{\"a\":1}", "last line"};
  for (std::size_t at = 0; at <= bytes.size(); ++at) {
    EXPECT_EQ(split_in_two(64, bytes, at), expected) << "split at " << at;
  }
  EXPECT_EQ(byte_by_byte(64, bytes), expected);
}

TEST(LineSplitter, SplitsAtEveryPairOfPositions) {
  const std::string bytes = "ab\r\ncd\n\r\nef\n";
  const std::vector<std::string> expected = {"ab", "cd", "", "ef"};
  for (std::size_t i = 0; i <= bytes.size(); ++i) {
    for (std::size_t j = i; j <= bytes.size(); ++j) {
      LineSplitter splitter(8);
      Recorder recorder;
      splitter.feed(std::string_view(bytes).substr(0, i), recorder);
      splitter.feed(std::string_view(bytes).substr(i, j - i), recorder);
      splitter.feed(std::string_view(bytes).substr(j), recorder);
      EXPECT_EQ(recorder.items, expected) << i << "," << j;
      EXPECT_EQ(splitter.buffered_bytes(), 0u);
    }
  }
}

TEST(LineSplitter, ManyLinesInOneFeed) {
  std::string bytes;
  std::vector<std::string> expected;
  for (int i = 0; i < 1000; ++i) {
    expected.push_back("message " + std::to_string(i));
    bytes += expected.back() + "\n";
  }
  LineSplitter splitter(64);
  Recorder recorder;
  splitter.feed(bytes, recorder);
  EXPECT_EQ(recorder.items, expected);
}

TEST(LineSplitter, StripsOnlyOneTrailingCarriageReturn) {
  LineSplitter splitter(64);
  Recorder recorder;
  splitter.feed("a\r\r\nb\rc\r\n\r\n", recorder);
  EXPECT_EQ(recorder.items, (std::vector<std::string>{"a\r", "b\rc", ""}));
}

TEST(LineSplitter, KeepsAnUnfinishedLine) {
  LineSplitter splitter(64);
  Recorder recorder;
  splitter.feed("abc", recorder);
  EXPECT_TRUE(recorder.items.empty());
  EXPECT_EQ(splitter.buffered_bytes(), 3u);
  splitter.feed("def\n", recorder);
  EXPECT_EQ(recorder.items, std::vector<std::string>{"abcdef"});
  EXPECT_EQ(splitter.buffered_bytes(), 0u);
}

TEST(LineSplitter, ExactLimitIsAccepted) {
  EXPECT_EQ(split_in_two(8, "12345678\n", 4), std::vector<std::string>{"12345678"});
  EXPECT_EQ(byte_by_byte(8, "12345678\r\n"), std::vector<std::string>{"12345678"});
  EXPECT_EQ(split_in_two(8, "123456789\n", 4), std::vector<std::string>{kTooLong});
  EXPECT_EQ(byte_by_byte(8, "123456789\r\n"), std::vector<std::string>{kTooLong});
  EXPECT_EQ(byte_by_byte(8, "12345678\r\r\n"), std::vector<std::string>{kTooLong});
}

TEST(LineSplitter, TooLongIsReportedOnceAndLaterLinesStillArrive) {
  const std::string bytes = "ok\n" + std::string(100, 'x') + "\nnext\r\nthen\n";
  const std::vector<std::string> expected = {"ok", kTooLong, "next", "then"};
  for (std::size_t at = 0; at <= bytes.size(); ++at) {
    EXPECT_EQ(split_in_two(16, bytes, at), expected) << "split at " << at;
  }
  EXPECT_EQ(byte_by_byte(16, bytes), expected);
}

TEST(LineSplitter, TooLongIsReportedBeforeItsNewlineArrives) {
  LineSplitter splitter(16);
  Recorder recorder;
  for (int i = 0; i < 1000; ++i) splitter.feed(std::string(1024, 'x'), recorder);
  EXPECT_EQ(recorder.items, std::vector<std::string>{kTooLong});
  EXPECT_EQ(splitter.buffered_bytes(), 0u);  // discarded, not buffered
  splitter.feed("tail\nnext\n", recorder);
  EXPECT_EQ(recorder.items, (std::vector<std::string>{kTooLong, "next"}));
}

TEST(LineSplitter, ConsecutiveTooLongLinesAreReportedEach) {
  const std::string bytes = std::string(20, 'a') + "\n" + std::string(20, 'b') + "\nc\n";
  EXPECT_EQ(byte_by_byte(8, bytes), (std::vector<std::string>{kTooLong, kTooLong, "c"}));
  LineSplitter splitter(8);
  Recorder recorder;
  splitter.feed(bytes, recorder);
  EXPECT_EQ(recorder.items, (std::vector<std::string>{kTooLong, kTooLong, "c"}));
}

// The peer's EOF ends the last line even without its '\n' (a client that
// writes one request and half-closes, e.g. `printf '...' | nc -N`).
TEST(LineSplitter, EndOfStreamFinishesTheLastLine) {
  const std::string bytes = "first\nlast line\r";
  for (std::size_t at = 0; at <= bytes.size(); ++at) {
    LineSplitter splitter(64);
    Recorder recorder;
    splitter.feed(std::string_view(bytes).substr(0, at), recorder);
    splitter.feed(std::string_view(bytes).substr(at), recorder);
    splitter.end(recorder);
    EXPECT_EQ(recorder.items, (std::vector<std::string>{"first", "last line"})) << at;
    EXPECT_EQ(splitter.buffered_bytes(), 0u);
  }
  // Nothing unfinished: nothing more. An empty stream: nothing at all.
  for (std::string_view complete : {"a\n", "", "a\r\n"}) {
    LineSplitter splitter(64);
    Recorder recorder;
    splitter.feed(complete, recorder);
    splitter.end(recorder);
    EXPECT_EQ(recorder.items.size(), complete.empty() ? 0u : 1u) << complete;
  }
}

TEST(LineSplitter, EndOfStreamAppliesTheLimitToTheLastLine) {
  // Exactly the limit is a line; one byte more (held in case it was a '\r') is
  // too long; a line already reported too long is not reported again.
  for (const auto& [bytes, expected] :
       std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"12345678", {"12345678"}},
           {"12345678\r", {"12345678"}},
           {"123456789", {kTooLong}},
           {std::string(100, 'x'), {kTooLong}},
           {"ok\n" + std::string(100, 'x'), {"ok", kTooLong}}}) {
    LineSplitter splitter(8);
    Recorder recorder;
    for (char c : bytes) splitter.feed(std::string_view(&c, 1), recorder);
    splitter.end(recorder);
    EXPECT_EQ(recorder.items, expected) << bytes;
    // The splitter is ready for a new stream, even after a discarded line.
    splitter.feed("next\n", recorder);
    EXPECT_EQ(recorder.items.back(), "next");
  }
}

TEST(LineSplitter, HeldBytesCountTheBufferOfAnUnfinishedLineOnly) {
  LineSplitter splitter(64 * 1024);
  Recorder recorder;
  EXPECT_EQ(splitter.held_bytes(), 0u);
  splitter.feed("short", recorder);
  EXPECT_GE(splitter.held_bytes(), 5u);
  splitter.feed("\n", recorder);
  EXPECT_EQ(splitter.held_bytes(), 0u);  // a small buffer kept for reuse is not held
  const std::string half(30'000, 'x');
  splitter.feed(half, recorder);
  splitter.feed(half, recorder);
  EXPECT_GE(splitter.held_bytes(), 60'000u);
  EXPECT_LE(splitter.held_bytes(), 2 * 60'000u);  // at most doubled by growth
}

// After a long line the splitter gives its buffer back: what a connection keeps
// between lines is at most kKeepBytes, however long its longest line was. The
// allocation is observed through the next line's buffer: a fresh one is small.
TEST(LineSplitter, ReleasesTheBufferOfALongLine) {
  LineSplitter splitter(64 * 1024);
  Recorder recorder;
  const std::string part(30'000, 'y');
  splitter.feed(part, recorder);
  splitter.feed(part + "\n", recorder);
  ASSERT_EQ(recorder.items.size(), 1u);
  EXPECT_EQ(recorder.items[0].size(), 60'000u);
  splitter.feed("a", recorder);
  EXPECT_LE(splitter.held_bytes(), LineSplitter::kKeepBytes);
  // The same after a line that was too long, and after the end of a stream.
  splitter.feed(std::string(70'000, 'z') + "\n", recorder);
  splitter.feed("a", recorder);
  EXPECT_LE(splitter.held_bytes(), LineSplitter::kKeepBytes);
  splitter.feed(std::string(50'000, 'w'), recorder);
  splitter.end(recorder);
  splitter.feed("a", recorder);
  EXPECT_LE(splitter.held_bytes(), LineSplitter::kKeepBytes);
  // A short split line keeps its small buffer (no allocation per split line).
  LineSplitter small(1024);
  small.feed("abc", recorder);
  small.feed("def\n", recorder);
  small.feed("ghi", recorder);
  EXPECT_LE(small.held_bytes(), LineSplitter::kKeepBytes);
}

TEST(LineSplitter, ResetDropsTheUnfinishedLineAndItsBuffer) {
  LineSplitter splitter(64 * 1024);
  Recorder recorder;
  splitter.feed(std::string(50'000, 'r'), recorder);
  splitter.reset();
  EXPECT_EQ(splitter.buffered_bytes(), 0u);
  EXPECT_EQ(splitter.held_bytes(), 0u);
  splitter.feed("a", recorder);
  EXPECT_LE(splitter.held_bytes(), LineSplitter::kKeepBytes);
  splitter.feed("b\n", recorder);
  // Also in the middle of a too-long line: the next stream starts clean.
  splitter.feed(std::string(70'000, 'z'), recorder);
  splitter.reset();
  splitter.feed("c\n", recorder);
  EXPECT_EQ(recorder.items, (std::vector<std::string>{"ab", kTooLong, "c"}));
}

}  // namespace
}  // namespace eryantis::net
