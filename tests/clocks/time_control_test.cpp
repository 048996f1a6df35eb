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

TEST(TimeControl, ChessNotationIsMinutesPlusSeconds) {
  // "10+5": a 10-minute bank and a 5-second Fischer increment, as chess sites write it.
  const auto rapid = parse_time_control("10+5");
  ASSERT_TRUE(rapid) << rapid.error().message;
  EXPECT_EQ(*rapid, (TimeControl{ClockKind::RealTime, 600'000, 5'000, 0, OnTimeout::Skip}));
  EXPECT_EQ(time_control_text(*rapid), "10m+5s");
  EXPECT_EQ(parse_time_control("3+2")->bank_ms, 180'000);
  EXPECT_EQ(parse_time_control("90+30")->increment_ms, 30'000);
  EXPECT_EQ(parse_time_control("5+0")->increment_ms, 0);
  // Units may be mixed with bare numbers: a bare bank is minutes, a bare increment seconds.
  EXPECT_EQ(parse_time_control("1h+10")->increment_ms, 10'000);
  // A bank alone is a real-time clock without increment.
  EXPECT_EQ(*parse_time_control("15m"), (TimeControl{ClockKind::RealTime, 900'000, 0, 0, OnTimeout::Skip}));
}

TEST(TimeControl, ADelayIsWrittenAsInUSChessAndComesBack) {
  // "G/5;d3" in US Chess's notation: 5 minutes, and each turn's first 3 seconds are free.
  const auto delayed = parse_time_control("5m;d3s");
  ASSERT_TRUE(delayed) << delayed.error().message;
  EXPECT_EQ(delayed->kind, ClockKind::RealTime);
  EXPECT_EQ(delayed->bank_ms, 300'000);
  EXPECT_EQ(delayed->increment_ms, 0);
  EXPECT_EQ(delayed->delay_ms, 3'000);
  EXPECT_EQ(time_control_text(*delayed), "5m+0s;d3s");
  EXPECT_EQ(parse_time_control("5;d3")->delay_ms, 3'000);  // a bare delay is seconds
  const auto both = parse_time_control("10m+2s;d5s");
  ASSERT_TRUE(both);
  EXPECT_EQ(both->increment_ms, 2'000);
  EXPECT_EQ(both->delay_ms, 5'000);
  EXPECT_EQ(*parse_time_control(time_control_text(*both)), *both);
  // A delay belongs to a bank: not on a turn-based clock, at most 10 minutes.
  EXPECT_FALSE(check_time_control(TimeControl{ClockKind::TurnBased, 0, 0, 60'000, OnTimeout::Skip, 1'000}));
  EXPECT_EQ(parse_time_control("10m;d11m").error().code, ClockErrorCode::BadTimeControl);
  EXPECT_EQ(parse_time_control("10m;d-1s").error().code, ClockErrorCode::BadName);
}

TEST(TimeControl, CorrespondenceIsATimePerMove) {
  // Days per move, as correspondence chess: "/move" and "/turn" say the same.
  const auto daily = parse_time_control("3d/move");
  ASSERT_TRUE(daily) << daily.error().message;
  EXPECT_EQ(*daily, (TimeControl{ClockKind::TurnBased, 0, 0, 3 * 86'400'000LL, OnTimeout::Skip}));
  EXPECT_EQ(*parse_time_control("3d/turn"), *daily);
  EXPECT_EQ(time_control_text(*daily), "3d/turn");
}

TEST(TimeControl, BadTextIsRefusedWithBadNameAndASentence) {
  for (const char* text : {"", "10", "10x+5s", "m+5s", "10m+", "+5s", "10m5s", "/turn", "24h/day",
                           "99999m+0s", "-1m+0s", "1.5m+0s", "NONE", "3/turn", "10m;d", "10m;5s",
                           "10m;dd5s", "10m+5s;d5s;d5s", ";d5s", "10+5+5", "10m++5s"}) {
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
