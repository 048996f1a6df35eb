// docs/renaissance/protocol.md's examples are what the codec reads and writes: every example of
// its command table (section 2) decodes to a command of its row's type and survives a round
// trip, every command type the rules know has a row, and the whole event example of section 3
// reads back to the same bytes. A client is written from that page alone.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "eryantis/renaissance/codec/codec.hpp"

namespace eryantis::renaissance::codec {
namespace {

std::string read_doc() {
  std::ifstream in(RENAISSANCE_PROTOCOL_DOC);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The lines between the heading that starts with `from` and the next "## " heading.
std::vector<std::string> section(const std::string& doc, const std::string& from) {
  std::vector<std::string> out;
  std::istringstream in(doc);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) inside = line.rfind(from, 0) == 0;
    else if (inside) out.push_back(line);
  }
  return out;
}

// Every `...` span of a line.
std::vector<std::string> code_spans(const std::string& line) {
  std::vector<std::string> out;
  for (std::size_t open = line.find('`'); open != std::string::npos;) {
    const std::size_t close = line.find('`', open + 1);
    if (close == std::string::npos) break;
    out.push_back(line.substr(open + 1, close - open - 1));
    open = line.find('`', close + 1);
  }
  return out;
}

TEST(ProtocolDoc, EveryCommandExampleDecodesToItsRowAndRoundTrips) {
  const std::string doc = read_doc();
  ASSERT_FALSE(doc.empty()) << "cannot read " << RENAISSANCE_PROTOCOL_DOC;
  std::set<std::string> rows, shown;  // shown: the rows with an example (whole or elided)
  for (const std::string& line : section(doc, "## 2 Commands")) {
    if (line.rfind("| `", 0) != 0) continue;  // a row of the command table
    const auto spans = code_spans(line);
    const std::string type = spans.front();
    rows.insert(type);
    for (const std::string& span : spans) {
      if (span.rfind("{\"type\"", 0) != 0) continue;
      shown.insert(type);
      if (span.find("...") != std::string::npos || span.find("…") != std::string::npos)
        continue;  // an elided example ({...}) shows a shape, not a command
      SCOPED_TRACE(span);
      const auto command = command_from_json(span);
      ASSERT_TRUE(command) << command.error().message;
      EXPECT_EQ(command_type(*command), type);
      const std::string written = command_to_json(*command);
      const auto again = command_from_json(written);
      ASSERT_TRUE(again) << written;
      EXPECT_EQ(*again, *command) << written;
    }
  }
  EXPECT_EQ(shown, rows) << "a row of the command table has no example";
  // Every command the rules know has its row (the variant's alternatives, default-built).
  std::vector<std::string> known;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (known.emplace_back(command_type(Command{std::in_place_index<I>})), ...);
  }(std::make_index_sequence<std::variant_size_v<Command>>{});
  for (const std::string& type : known) EXPECT_TRUE(rows.contains(type)) << type << " has no row";
}

TEST(ProtocolDoc, TheEventExampleReadsBackToItsBytes) {
  int whole = 0;
  for (const std::string& line : section(read_doc(), "## 3 Events")) {
    if (line.rfind("{\"v\":", 0) != 0 || line.find("…") != std::string::npos) continue;
    SCOPED_TRACE(line);
    const auto event = event_from_json(line);
    ASSERT_TRUE(event) << event.error().message;
    EXPECT_EQ(event_to_json(*event), line);
    ++whole;
  }
  EXPECT_GE(whole, 1) << "no whole event example in section 3";
}

}  // namespace
}  // namespace eryantis::renaissance::codec
