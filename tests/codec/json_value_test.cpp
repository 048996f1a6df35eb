// command_from_json_value reads a command from an already-parsed value (the
// protocol's "play"): it must accept and refuse exactly what command_from_json
// does, with the same messages.
#include "eryantis/codec/json_value.hpp"

#include <gtest/gtest.h>

#include <string>

#include "eryantis/rules/random_game.hpp"

namespace eryantis::codec {
namespace {

using namespace rules;

std::expected<Command, DecodeError> from_value(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  EXPECT_FALSE(doc.HasParseError()) << text;
  return command_from_json_value(doc);
}

TEST(CommandFromJsonValue, AgreesWithTheTextDecoderOnEveryCommandOfRandomGames) {
  int checked = 0;
  for (std::uint64_t seed : {3u, 4u}) {
    const RandomGame game = play_random_game(MatchOptions{4, Mode::Expert}, seed);
    for (const Event& e : game.events) {
      const std::string text = command_to_json(e.command);
      auto value = from_value(text);
      ASSERT_TRUE(value.has_value()) << text << ": " << value.error().message;
      EXPECT_EQ(*value, e.command) << text;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(CommandFromJsonValue, RefusesWithTheTextDecodersMessages) {
  for (const std::string text : {
           R"({"type":"fly"})",
           R"({"type":"play_assistant"})",
           R"({"type":"play_assistant","value":-1})",
           R"({"type":"move_to_island","color":"gold","island":1})",
           R"({"type":"use_jester","from_card":[],"from_entrance":{}})",
           R"({"value":3})",
           R"([1,2])",
           R"("play_assistant")",
       }) {
    auto value = from_value(text);
    auto from_text = command_from_json(text);
    ASSERT_FALSE(value.has_value()) << text;
    ASSERT_FALSE(from_text.has_value()) << text;
    EXPECT_EQ(value.error().message, from_text.error().message) << text;
  }
}

}  // namespace
}  // namespace eryantis::codec
