// Inputs found by the fuzz targets of tests/fuzz, kept as regression tests: each
// crashed (or broke a property) before its fix.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/invariants.hpp"
#include "eryantis/rules/random_game.hpp"
#include "eryantis/codec/codec.hpp"

namespace eryantis::rules {
namespace {

std::string from_hex(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

// Every call a server or a tool makes on a state it loaded.
void exercise(const State& s) {
  (void)hash(s);
  (void)seats_to_act(s);
  for (Seat p = 0; p < s.players(); ++p) {
    (void)view(s, p);
    (void)legal_commands(s, p);
  }
}

// fuzz_state_binary: a snapshot whose seat holds towers but has no tower colour,
// outside setup. invariant_violation() dereferenced the empty colour (undefined
// behaviour, reported by UBSan); it now names the broken invariant.
TEST(FuzzRegression, SeatHoldingTowersWithoutAColourIsAViolation) {
  State s = play_random_game({2, Mode::Expert}, 7, {}, 30).state;
  ASSERT_NE(s.phase, Phase::Setup);
  ASSERT_TRUE(invariant_violation(s).empty());
  s.boards[1].holds_towers = true;
  s.boards[1].tower_color.reset();
  EXPECT_EQ(invariant_violation(s), "a seat holds towers without a colour");
  exercise(s);
}

TEST(FuzzRegression, FoundBinaryStateWithoutTowerColourDecodesAndIsRefusedByTheInvariants) {
  const std::string bytes = from_hex(
      "010100000004000d00000000000000450000000203000400000300000000000000fc02090901000100000001"
      "00000204000001000008002f030808010201010100010002000100000000000800bb02070701030100010001"
      "0001030200000000000000ce0301010101000101000102010200000100000001000102000101000000010101"
      "0000020100000000000200000301000000010000020004010000000200010002050100000001000000010601"
      "00000001000100000701000000000101010008010000000200000000090100000001010002020a0100000000"
      "000000010b010000000c0a010100010000020100000000000001010100000000000001090f0d0a09ffff01ff"
      "ff000000000000000000000000000000000000000000000000000303020100040100000003000000000000");
  auto s = codec::state_from_binary(bytes);
  ASSERT_TRUE(s.has_value()) << s.error().message;
  EXPECT_FALSE(invariant_violation(*s).empty());
  exercise(*s);
}

}  // namespace
}  // namespace eryantis::rules
