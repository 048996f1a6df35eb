// `legal` and `allowed` (docs/protocol.md): the full commands a seat may send and
// their types, and how long the list can get (the message must stay far below
// max_line_bytes).
#include "eryantis/server/move_lists.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "eryantis/codec/codec.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/random_game.hpp"
#include "eryantis/server/config.hpp"
#include "games/handles.hpp"

namespace eryantis::server {
namespace {

TEST(MoveLists, LegalIsEveryLegalCommandAsJsonAndAllowedTheirTypes) {
  const auto game = rules::play_random_game({3, rules::Mode::Expert}, 11, {}, 40);
  const rules::State& s = game.state;
  for (rules::Seat seat = 0; seat < s.players(); ++seat) {
    const MoveLists lists = move_lists(test::eriantys(), test::handle(s), seat);
    rapidjson::Document legal;
    legal.Parse(lists.legal.c_str());
    ASSERT_TRUE(legal.IsArray()) << lists.legal;
    const auto commands = rules::legal_commands(s, seat);
    ASSERT_EQ(legal.Size(), commands.size());
    for (rapidjson::SizeType i = 0; i < legal.Size(); ++i) {
      rapidjson::StringBuffer text;
      rapidjson::Writer<rapidjson::StringBuffer> writer(text);
      legal[i].Accept(writer);
      auto back = codec::command_from_json(text.GetString());
      ASSERT_TRUE(back.has_value());
      EXPECT_EQ(*back, commands[i]);  // each entry is a `play` command as it is
    }
    rapidjson::Document allowed;
    allowed.Parse(lists.allowed.c_str());
    ASSERT_TRUE(allowed.IsArray());
    EXPECT_EQ(allowed.Size() == 0, commands.empty());
  }
  EXPECT_EQ(move_lists(test::eriantys(), test::handle(s), rules::kNoSeat).legal, "[]");
  EXPECT_EQ(move_lists(test::eriantys(), test::handle(s), rules::kNoSeat).allowed, "[]");
}

// Measures the longest `legal` over random expert games of every size and holds
// it to the documented bound.
TEST(MoveLists, TheLongestLegalListStaysUnderItsBound) {
  const bool sanitizer = std::getenv("ERYANTIS_SANITIZER_RUN") != nullptr;
  const int games = sanitizer ? 4 : 25;
  const std::uint64_t base = 20261126;
  std::cout << "[ seeds    ] " << base << ".." << base + games - 1 << std::endl;
  std::size_t longest = 0;
  for (int players = 2; players <= 4; ++players)
    for (int g = 0; g < games; ++g)
      rules::play_random_game({static_cast<std::uint8_t>(players), rules::Mode::Expert}, base + g,
                              [&](const rules::Event&, const rules::State& s) {
                                for (rules::Seat seat : rules::seats_to_act(s))
                                  longest = std::max(longest, move_lists(test::eriantys(), test::handle(s), seat).legal.size());
                              });
  std::cout << "[ measured ] longest legal list: " << longest << " bytes" << std::endl;
  EXPECT_LE(longest, kLegalBytesBound);
  EXPECT_LE(kLegalBytesBound, Limits{}.max_line_bytes / 2);  // room for the view and the rest
}

}  // namespace
}  // namespace eryantis::server
