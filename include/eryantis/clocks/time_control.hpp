#pragma once
// A match's time control, chosen at creation: none, real-time (a bank per seat, plus a
// Fischer increment at the end of each of its turns and/or a delay at the start of each,
// like chess clocks) or turn-based (a fixed time for each turn, for games played over days:
// correspondence), and what happens to a seat that runs out. Pure values; the fold that
// runs them is clock.hpp.
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace eryantis::clocks {

// Durations and times in milliseconds; times are unix milliseconds (the events' stored time).
using Millis = std::int64_t;

enum class ClockKind : std::uint8_t { None, RealTime, TurnBased };

// What the platform does to a seat whose time runs out (connected or not):
enum class OnTimeout : std::uint8_t {
  Skip,      // its turn is skipped; it keeps playing later turns (with what time it gets)
  Computer,  // a computer player takes the seat over for the rest of the match
  Forfeit,   // the seat forfeits (in a match of 3-4 the match may go on without it)
};

struct TimeControl {
  ClockKind kind = ClockKind::None;
  Millis bank_ms = 0;       // RealTime: each seat's time for the whole match at the start
  Millis increment_ms = 0;  // RealTime: added to a seat's bank at the end of each of its turns
  Millis per_turn_ms = 0;   // TurnBased: each turn's time (left unused does not carry over)
  OnTimeout on_timeout = OnTimeout::Skip;
  // RealTime: the first delay_ms of each of a seat's turns are free (simple or "US" delay:
  // the bank runs only after them; unused delay is lost, never added to the bank).
  Millis delay_ms = 0;
  friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

// The limits check_time_control enforces (docs/home.md, "Clocks").
inline constexpr Millis kMinBankMs = 10'000;                     // 10 s
inline constexpr Millis kMaxBankMs = 12LL * 3'600'000;           // 12 h
inline constexpr Millis kMaxIncrementMs = 10LL * 60'000;         // 10 min
inline constexpr Millis kMaxDelayMs = 10LL * 60'000;             // 10 min
inline constexpr Millis kMinPerTurnMs = 60'000;                  // 1 min
inline constexpr Millis kMaxPerTurnMs = 30LL * 24 * 3'600'000;   // 30 days

enum class ClockErrorCode : std::uint8_t {
  BadTimeControl,  // a number out of its range, or fields that do not fit the kind
  BadName,         // an unknown kind, action or duration text
};
// "BAD_TIME_CONTROL", "BAD_NAME": stable, never renamed.
std::string_view code_name(ClockErrorCode code);

struct ClockError {
  ClockErrorCode code;
  std::string message;
};

// Refuses numbers out of range and fields of another kind (a bank on a turn-based clock).
std::expected<void, ClockError> check_time_control(const TimeControl& control);

// Stable names: "none", "real_time", "turn_based"; "skip", "computer", "forfeit".
std::string_view kind_name(ClockKind kind);
std::expected<ClockKind, ClockError> kind_from_name(std::string_view name);
std::string_view on_timeout_name(OnTimeout action);
std::expected<OnTimeout, ClockError> on_timeout_from_name(std::string_view name);

// A compact text for people and command lines (`on_timeout` is not part of it):
// - "none";
// - real-time: "10m+5s" (bank + increment), "15m" (no increment), "5m;d3s" (a delay, as
//   US Chess writes "G/5;d3"), "10m+2s;d5s" (both); chess notation "10+5" is understood:
//   a bare bank is minutes, a bare increment or delay seconds;
// - turn-based: "24h/turn" or "3d/move" (correspondence: the same thing).
// Durations are a whole number of at most 4 digits and a unit s, m, h or d ("90s", "1h");
// a bare number alone ("10") is refused as ambiguous. The result is checked.
std::expected<TimeControl, ClockError> parse_time_control(std::string_view text,
                                                          OnTimeout on_timeout = OnTimeout::Skip);
// The same text back, in the largest unit that divides each duration ("10m+5s", "5m+0s;d3s",
// "3d/turn"): parse_time_control reads it back to the same control.
std::string time_control_text(const TimeControl& control);

}  // namespace eryantis::clocks
