// The 128-bit match seed: a zero high word reads, writes, draws and hashes exactly
// as the 64-bit seeds stored before it (tests/rules/golden_test.cpp and the
// store's fixtures pin those values); a non-zero high word changes the draws and
// the hash, and round-trips through every encoding.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <variant>

#include "eryantis/codec/codec.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/prng.hpp"
#include "round_trip.hpp"

namespace eryantis::codec {
namespace {

using namespace rules;

constexpr std::uint64_t kMax64 = std::numeric_limits<std::uint64_t>::max();

Event created_event(const MatchSeed& seed) {
  auto event = create_match(MatchOptions{3, Mode::Expert}, seed);
  EXPECT_TRUE(event.has_value());
  return *event;
}

std::string with_seed_text(const std::string& state_json, const std::string& seed_text) {
  const std::string zero = R"("seed":"0")";
  std::string out = state_json;
  out.replace(out.find(zero), zero.size(), R"("seed":)" + seed_text);
  return out;
}

// What earlier builds wrote: 64-bit seeds as decimal strings (or numbers).
TEST(MatchSeed, OldJsonDecodesWithAZeroHighWordAndIsWrittenBackTheSame) {
  const std::string old_event =
      R"({"v":1,"type":"create_match","seat":-1,"command":{"type":"create_match","players":2,)"
      R"("mode":"simple","seed":"12345678901234567890"},"drawn":["red"],"picks":[3]})";
  auto event = event_from_json(old_event);
  ASSERT_TRUE(event.has_value()) << event.error().message;
  EXPECT_EQ(std::get<CreateMatch>(event->command).seed, (MatchSeed{12345678901234567890u, 0}));
  EXPECT_EQ(event_to_json(*event), old_event);

  for (const std::string text : {R"("18446744073709551615")", "18446744073709551615"}) {
    auto state = state_from_json(with_seed_text(state_to_json(State{}), text));
    ASSERT_TRUE(state.has_value()) << state.error().message;
    EXPECT_EQ(state->seed, (MatchSeed{kMax64, 0}));
  }
}

// Binary: version 1 and a single seed word when hi == 0 (the bytes of every
// stored snapshot); version 2 with the two words otherwise.
TEST(MatchSeed, BinaryKeepsTheOldLayoutForAZeroHighWord) {
  State narrow;
  narrow.seed = MatchSeed{0x0102030405060708u, 0};
  State wide = narrow;
  wide.seed.hi = 0x1112131415161718u;
  const std::string narrow_bytes = state_to_binary(narrow);
  const std::string wide_bytes = state_to_binary(wide);
  // cereal's endianness byte, then the u32 version, options (2 bytes), the seed.
  EXPECT_EQ(narrow_bytes.substr(1, 4), std::string("\x01\x00\x00\x00", 4));
  EXPECT_EQ(wide_bytes.substr(1, 4), std::string("\x02\x00\x00\x00", 4));
  EXPECT_EQ(narrow_bytes.substr(7, 8), std::string("\x08\x07\x06\x05\x04\x03\x02\x01", 8));
  EXPECT_EQ(wide_bytes.substr(7, 16),
            std::string("\x08\x07\x06\x05\x04\x03\x02\x01\x18\x17\x16\x15\x14\x13\x12\x11", 16));
  EXPECT_EQ(wide_bytes.size(), narrow_bytes.size() + 8);
  // Everything after the seed is the same.
  EXPECT_EQ(wide_bytes.substr(23), narrow_bytes.substr(15));
}

TEST(MatchSeed, RoundTripsThroughEveryEncoding) {
  for (const MatchSeed seed : {MatchSeed{0, 0}, MatchSeed{1, 0}, MatchSeed{kMax64, 0},
                               MatchSeed{0, 1}, MatchSeed{5, 7}, MatchSeed{kMax64, kMax64}}) {
    SCOPED_TRACE(std::to_string(seed.lo) + ", " + std::to_string(seed.hi));
    const Event event = created_event(seed);
    const State state = apply(State{}, event);
    ASSERT_EQ(state.seed, seed);

    testing::expect_state_round_trips(state);

    auto event_back = event_from_json(event_to_json(event));
    ASSERT_TRUE(event_back.has_value()) << event_back.error().message;
    EXPECT_EQ(*event_back, event);

    auto command_back = command_from_json(command_to_json(event.command));
    ASSERT_TRUE(command_back.has_value()) << command_back.error().message;
    EXPECT_EQ(*command_back, event.command);
  }
}

// JSON writes the seed as the decimal digits of hi * 2^64 + lo.
TEST(MatchSeed, JsonIsTheDecimal128BitValue) {
  EXPECT_NE(command_to_json(CreateMatch{MatchOptions{2, Mode::Simple}, MatchSeed{0, 1}})
                .find(R"("seed":"18446744073709551616")"),
            std::string::npos);
  EXPECT_NE(command_to_json(CreateMatch{MatchOptions{2, Mode::Simple}, MatchSeed{kMax64, kMax64}})
                .find(R"("seed":"340282366920938463463374607431768211455")"),
            std::string::npos);
  auto c = command_from_json(
      R"({"type":"create_match","players":2,"mode":"simple","seed":"36893488147419103234"})");
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(std::get<CreateMatch>(*c).seed, (MatchSeed{2, 2}));
}

TEST(MatchSeed, HighWordChangesTheDrawsAndTheHash) {
  const MatchSeed narrow{42, 0};
  for (const std::uint64_t hi : {std::uint64_t{1}, std::uint64_t{2}, kMax64}) {
    const MatchSeed wide{42, hi};
    // Every event's generator, not only the first.
    for (std::uint32_t index : {0u, 1u, 100u}) {
      Prng a = event_prng(narrow, index);
      Prng b = event_prng(wide, index);
      int same = 0;
      for (int i = 0; i < 8; ++i) same += a.next() == b.next() ? 1 : 0;
      EXPECT_EQ(same, 0) << "hi " << hi << ", event " << index;
    }
    // The setup draws differ, and so does the state's hash even where they do not.
    EXPECT_NE(created_event(wide).drawn, created_event(narrow).drawn) << "hi " << hi;
    State a;
    a.seed = narrow;
    State b;
    b.seed = wide;
    EXPECT_NE(hash(a), hash(b)) << "hi " << hi;
  }
  // The two words are not interchangeable.
  Prng swapped = event_prng(MatchSeed{7, 9}, 0);
  Prng straight = event_prng(MatchSeed{9, 7}, 0);
  EXPECT_NE(swapped.next(), straight.next());
}

TEST(MatchSeed, SixtyFourBitOverloadIsAZeroHighWord) {
  EXPECT_EQ(*create_match(MatchOptions{4, Mode::Expert}, std::uint64_t{77}),
            *create_match(MatchOptions{4, Mode::Expert}, MatchSeed{77, 0}));
}

}  // namespace
}  // namespace eryantis::codec
