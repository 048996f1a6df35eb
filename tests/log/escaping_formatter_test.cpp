// Client text never writes a control byte into the log (issue 14): every level,
// every sink, through the formatter the server installs.
#include "eryantis/log/escaping_formatter.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>

namespace eryantis::logging {
namespace {

TEST(EscapingFormatter, EscapeControlWritesEveryControlByteAsHex) {
  EXPECT_EQ(escape_control("plain text, é"), "plain text, é");
  EXPECT_EQ(escape_control(std::string("a\x1b[31mb\rc\nd\x7f\0e", 14)),
            "a\\x1b[31mb\\x0dc\\x0ad\\x7f\\x00e");
  for (int c = 0; c < 256; ++c) {
    const std::string escaped = escape_control(std::string(1, static_cast<char>(c)));
    const bool control = c < 0x20 || c == 0x7f;
    EXPECT_EQ(escaped.size(), control ? 4u : 1u) << c;
  }
}

TEST(EscapingFormatter, EveryLevelWritesOneLineWithoutControlBytes) {
  std::ostringstream out;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out);
  spdlog::logger logger("test", sink);
  logger.set_formatter(std::make_unique<EscapingFormatter>());
  logger.set_level(spdlog::level::trace);
  const std::string hostile =
      "conn 7 <- {\"nickname\":\"\x1b]0;pwned\x07\rfake line\n2026 [info]\"}";
  for (int level = spdlog::level::trace; level < spdlog::level::off; ++level)
    logger.log(static_cast<spdlog::level::level_enum>(level), "conn {} <- {}", 7, hostile);
  const std::string text = out.str();
  int lines = 0;
  for (char c : text) {
    if (c == '\n') {
      ++lines;
      continue;
    }
    EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        << "a raw control byte " << int(c) << " in: " << text;
  }
  EXPECT_EQ(lines, spdlog::level::off);  // one line per level, none forged
  EXPECT_NE(text.find("\\x1b]0;pwned\\x07\\x0dfake line\\x0a2026"), std::string::npos) << text;
}

}  // namespace
}  // namespace eryantis::logging
