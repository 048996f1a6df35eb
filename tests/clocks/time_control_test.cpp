#include "eryantis/clocks/time_control.hpp"

#include <gtest/gtest.h>

namespace eryantis::clocks {
namespace {

TEST(TimeControl, TheCompactTextParsesChecksAndComesBack) {
  const auto blitz = parse_time_control("10m+5s");
  ASSERT_TRUE(blitz) << blitz.error().message;
  EXPECT_EQ(blitz->kind, ClockKind::RealTime);
  EXPECT_EQ(blitz->bank_ms, 600'000);
  EXPECT_EQ(blitz->increment_ms, 5'000);
  EXPECT_EQ(time_control_text(*blitz), "10m+5s");

  const auto daily = parse_time_control("24h/turn", OnTimeout::Computer);
  ASSERT_TRUE(daily);
  EXPECT_EQ(daily->kind, ClockKind::TurnBased);
  EXPECT_EQ(daily->per_turn_ms, 86'400'000);
  EXPECT_EQ(daily->on_timeout, OnTimeout::Computer);
  EXPECT_EQ(time_control_text(*daily), "1d/turn");

  EXPECT_EQ(parse_time_control("none")->kind, ClockKind::None);
  EXPECT_EQ(time_control_text(TimeControl{}), "none");
  EXPECT_EQ(time_control_text(*parse_time_control("90s+0s")), "90s+0s");
  EXPECT_EQ(parse_time_control("3h+0s")->bank_ms, 3 * 3'600'000);
}

TEST(TimeControl, BadTextIsRefusedWithBadNameAndASentence) {
  for (const char* text : {"", "10", "10x+5s", "m+5s", "10m+", "+5s", "10m5s", "/turn", "24h/move",
                           "99999m+0s", "-1m+0s", "1.5m+0s", "NONE"}) {
    const auto r = parse_time_control(text);
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.error().code, ClockErrorCode::BadName) << text;
    EXPECT_EQ(code_name(r.error().code), "BAD_NAME");
    EXPECT_FALSE(r.error().message.empty());
  }
}

TEST(TimeControl, NumbersOutOfRangeAreRefusedWithBadTimeControl) {
  for (const char* text : {"9s+0s", "13h+0s", "10m+11m", "59s/turn", "31d/turn"}) {
    const auto r = parse_time_control(text);
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.error().code, ClockErrorCode::BadTimeControl) << text;
    EXPECT_EQ(code_name(r.error().code), "BAD_TIME_CONTROL");
  }
  // The edges themselves are accepted.
  for (const char* text : {"10s+0s", "12h+10m", "1m/turn", "30d/turn"}) EXPECT_TRUE(parse_time_control(text)) << text;
  // Fields of another kind.
  EXPECT_FALSE(check_time_control(TimeControl{ClockKind::None, 1, 0, 0, OnTimeout::Skip}));
  EXPECT_FALSE(check_time_control(TimeControl{ClockKind::RealTime, 60'000, 0, 60'000, OnTimeout::Skip}));
  EXPECT_FALSE(check_time_control(TimeControl{ClockKind::TurnBased, 60'000, 0, 60'000, OnTimeout::Skip}));
  EXPECT_FALSE(check_time_control(TimeControl{ClockKind::RealTime, 60'000, -1, 0, OnTimeout::Skip}));
  EXPECT_TRUE(check_time_control(TimeControl{}));
}

TEST(TimeControl, NamesAreStableBothWays) {
  for (ClockKind k : {ClockKind::None, ClockKind::RealTime, ClockKind::TurnBased})
    EXPECT_EQ(*kind_from_name(kind_name(k)), k);
  for (OnTimeout a : {OnTimeout::Skip, OnTimeout::Computer, OnTimeout::Forfeit})
    EXPECT_EQ(*on_timeout_from_name(on_timeout_name(a)), a);
  EXPECT_EQ(kind_name(ClockKind::RealTime), "real_time");
  EXPECT_EQ(kind_name(ClockKind::TurnBased), "turn_based");
  EXPECT_EQ(on_timeout_name(OnTimeout::Forfeit), "forfeit");
  EXPECT_EQ(kind_from_name("realtime").error().code, ClockErrorCode::BadName);
  EXPECT_EQ(on_timeout_from_name("lose").error().code, ClockErrorCode::BadName);
}

}  // namespace
}  // namespace eryantis::clocks
