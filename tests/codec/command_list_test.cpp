// commands_to_json writes a `legal` list in one pass: the same bytes as joining
// each command's own JSON, for every seat at every step of random games.
#include "eryantis/codec/command_list.hpp"

#include <gtest/gtest.h>

#include <string>

#include "eryantis/codec/codec.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/random_game.hpp"

namespace eryantis::codec {
namespace {

using rules::Event;
using rules::MatchOptions;
using rules::Mode;
using rules::State;

std::string joined(const std::vector<rules::Command>& commands) {
  std::string out = "[";
  for (const rules::Command& c : commands) {
    if (out.size() > 1) out += ',';
    out += command_to_json(c);
  }
  return out + "]";
}

TEST(CommandsToJson, IsTheJoinOfEachCommandsJson) {
  EXPECT_EQ(commands_to_json({}), "[]");
  std::size_t lists = 0;
  std::size_t longest = 0;
  for (int players : {2, 3, 4}) {
    rules::play_random_game(MatchOptions{static_cast<std::uint8_t>(players), Mode::Expert},
                            static_cast<std::uint64_t>(players) * 17,
                            [&](const Event&, const State& s) {
                              for (rules::Seat seat = 0; seat < s.players(); ++seat) {
                                const auto legal = rules::legal_commands(s, seat);
                                ASSERT_EQ(commands_to_json(legal), joined(legal));
                                ++lists;
                                longest = std::max(longest, legal.size());
                              }
                            });
  }
  EXPECT_GT(lists, 300u);
  EXPECT_GT(longest, 20u);
}

}  // namespace
}  // namespace eryantis::codec
