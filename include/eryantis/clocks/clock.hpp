#pragma once
// A match's clocks as a fold over its events' stored times: start_clocks() then advance()
// once per step, in seq order. What a step needs is what the store keeps (the event's time)
// and what the game says of the state after it (which seats must act), so the clocks come
// back the same after a restart and the replay viewer shows them at every event.
//
// The rules the fold keeps (docs/home.md, "Clocks"):
// - A seat's clock runs while it is to act (and the clocks are not paused); all seats to
//   act at once (simultaneous choices) run at the same time, each its own clock: each
//   pays only for the time it takes itself.
// - A seat's turn ends at the step where it stops being to act, or where the step names it
//   in `turn_ended` (a new turn of the same seat right after its last one). Then real-time
//   adds the increment to its bank (Fischer); turn-based gives it a full turn again.
// - When a running seat's time reaches 0 it has run out: once per turn it is reported
//   (next_timeout) and counted; under Computer or Forfeit the seat is no longer timed
//   afterwards. Under Skip it keeps its clock: a real-time bank at 0 gets only the
//   increments of its later turns (with no increment, each later turn runs out at once).
// - A delay (real-time) is spent before the bank: the first delay_ms of each turn of a
//   seat cost nothing; a seat's delay is whole again when its turn ends. A seat runs out
//   when both its delay and its bank are at 0.
// - A step earlier than the one before counts as no time (stored times that step back,
//   e.g. a node with a clock behind, never add time); the fold is total.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "eryantis/clocks/time_control.hpp"

namespace eryantis::clocks {

inline constexpr int kMaxSeats = 8;
// Bit s is seat s.
using SeatMask = std::uint8_t;
constexpr SeatMask seat_bit(int seat) {
  return static_cast<SeatMask>(1u << seat);
}

struct ClockStep {
  enum class Kind : std::uint8_t {
    Event,    // a stored event: `to_act` after it, `turn_ended` (optional)
    Pause,    // no clock runs from `at_ms` (the server is down or draining)
    Resume,   // clocks run again from `at_ms`
    Untimed,  // from `at_ms` the seats of `seats` are not timed (a computer plays them)
  };
  Kind kind = Kind::Event;
  Millis at_ms = 0;
  SeatMask to_act = 0;                    // Event: the seats that must act after the event
  std::optional<SeatMask> turn_ended{};   // Event: default = the seats that left `to_act`
  SeatMask seats = 0;                     // Untimed
};

struct SeatClock {
  Millis left_ms = 0;        // as of the state's `at_ms`: real-time bank, or this turn's time
  bool running = false;      // to act, timed, not paused, not out for good
  Millis delay_left_ms = 0;  // as of `at_ms`: what is left of this turn's delay
  bool timed_out_this_turn = false;
  bool untimed = false;      // a computer plays it, or it ran out under Computer/Forfeit
  int timeouts = 0;          // how many times it ran out
  friend bool operator==(const SeatClock&, const SeatClock&) = default;
};

struct ClockState {
  TimeControl control;
  int seats = 0;
  std::optional<Millis> at_ms;  // the last step's time (never decreases)
  bool paused = false;
  SeatMask to_act = 0;
  std::array<SeatClock, kMaxSeats> seat{};
  friend bool operator==(const ClockState&, const ClockState&) = default;
};

// Every seat with a full bank (or a full turn), nobody to act yet. Seats of `untimed`
// (computer seats) are never timed. `seats` is clamped to 0..kMaxSeats.
ClockState start_clocks(const TimeControl& control, int seats, SeatMask untimed = 0);

// The fold's step. Seats at or past `state.seats` in a mask are ignored.
ClockState advance(ClockState state, const ClockStep& step);

// The fold over a whole list.
ClockState fold_clocks(const TimeControl& control, int seats, const std::vector<ClockStep>& steps,
                       SeatMask untimed = 0);

// A seat that runs out: when, and what the control says to do.
struct Timeout {
  int seat = 0;
  Millis at_ms = 0;
  OnTimeout action = OnTimeout::Skip;
  friend bool operator==(const Timeout&, const Timeout&) = default;
};

// Who runs out first if nobody acts, and when: the earliest among running seats not yet
// out this turn (ties: the lowest seat). nullopt: no clock runs (none, paused, nobody to act).
std::optional<Timeout> next_timeout(const ClockState& state);
// Every seat whose time is up at `now_ms` (at_ms <= now_ms), earliest first: what the
// server handles before it accepts a command that arrives at `now_ms`.
std::vector<Timeout> timeouts_due(const ClockState& state, Millis now_ms);

// What a board shows at `now_ms`: each seat's time left then (never below 0) and whether
// it is running (a client counts a running clock down from there).
struct SeatTime {
  Millis left_ms = 0;
  bool running = false;
  bool untimed = false;
  int timeouts = 0;
  Millis delay_left_ms = 0;  // what is left of this turn's delay (spent before left_ms)
  friend bool operator==(const SeatTime&, const SeatTime&) = default;
};
std::vector<SeatTime> clocks_at(const ClockState& state, Millis now_ms);

}  // namespace eryantis::clocks
