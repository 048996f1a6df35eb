// Word wrapping of the terminal client's prose: within the width, words whole
// and in order, continued lines under their line's text column.
#include "wrap.hpp"

#include <gtest/gtest.h>

#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.hpp"

namespace eryantis::cli {
namespace {

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::size_t columns(const std::string& line) {
  std::size_t n = 0;
  for (unsigned char ch : line)
    if ((ch & 0xc0) != 0x80) ++n;
  return n;
}

TEST(WrapWords, ShortLinesAndWidthZeroAreUnchanged) {
  const std::string text = "Lobby\n  list    open matches\n\nend\n";
  EXPECT_EQ(wrap_words(text, 80), text);
  EXPECT_EQ(wrap_words(help_text(), 0), help_text());
}

TEST(WrapWords, ContinuedLinesGoUnderTheTextColumn) {
  EXPECT_EQ(wrap_words("  mn <steps>   move Mother Nature up to the steps of your card", 40),
            "  mn <steps>   move Mother Nature up to\n"
            "               the steps of your card");
  // No two-space gap: the line's own indentation.
  EXPECT_EQ(wrap_words("    one two three four five six seven eight nine", 30),
            "    one two three four five\n    six seven eight nine");
  // Not even 20 columns left under the line's start: from the left edge.
  EXPECT_EQ(wrap_words("    one two three four five six", 16),
            "    one two\nthree four five\nsix");
  // A word that ends exactly at the edge fits; the space after it is dropped.
  EXPECT_EQ(wrap_words("abcd efgh ijkl", 9), "abcd efgh\nijkl");
  // A list item: under the text after its marker.
  EXPECT_EQ(wrap_words("   1. moves three students from the entrance", 30),
            "   1. moves three students\n      from the entrance");
  // Characters, not bytes: "→" is one column.
  EXPECT_EQ(wrap_words("a → b → c", 5), "a → b\n→ c");
}

TEST(WrapWords, AWordLongerThanTheRoomIsTheOnlyOneBroken) {
  EXPECT_EQ(wrap_words("go abcdefghij", 5), "go\nabcde\nfghij");
}

// The whole help and every topic at the widths people use: every line fits, the
// words are the same words in the same order, none cut in two.
TEST(WrapWords, TheHelpFitsEveryWidthWithItsWordsWhole) {
  std::vector<std::string> texts = {help_text()};
  for (const char* topic : {"turn", "monk", "jester", "minstrel", "thief", "nope"}) {
    auto t = help_topic(topic);
    texts.push_back(t ? *t : t.error());
  }
  for (const std::string& text : texts)
    for (std::size_t width : {40u, 60u, 72u, 80u, 100u}) {
      const std::string wrapped = wrap_words(text, width);
      for (const std::string& line : lines(wrapped)) EXPECT_LE(columns(line), width) << line;
      EXPECT_EQ(words(wrapped), words(text)) << "width " << width << "\n" << wrapped;
    }
}

}  // namespace
}  // namespace eryantis::cli
