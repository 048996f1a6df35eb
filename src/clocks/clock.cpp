#include "eryantis/clocks/clock.hpp"

#include <algorithm>
#include <limits>

namespace eryantis::clocks {

namespace {
SeatMask all_seats(int seats) {
  return static_cast<SeatMask>((1u << seats) - 1u);
}

bool has(SeatMask mask, int seat) {
  return (mask & seat_bit(seat)) != 0;
}

// A bank never overflows, however many increments (10 min each) a long match adds.
constexpr Millis kMaxLeftMs = std::numeric_limits<Millis>::max() / 4;

void recompute_running(ClockState& s) {
  for (int i = 0; i < s.seats; ++i) {
    SeatClock& c = s.seat[static_cast<std::size_t>(i)];
    c.running = s.control.kind != ClockKind::None && !s.paused && !c.untimed && has(s.to_act, i);
  }
}

// Charges `elapsed` to every running seat; a seat whose time reaches 0 runs out (once per turn).
void charge(ClockState& s, Millis elapsed) {
  for (int i = 0; i < s.seats; ++i) {
    SeatClock& c = s.seat[static_cast<std::size_t>(i)];
    if (!c.running) continue;
    const Millis free = std::min(c.delay_left_ms, elapsed);
    c.delay_left_ms -= free;
    c.left_ms = std::max<Millis>(0, c.left_ms - (elapsed - free));
    if (c.left_ms > 0 || c.delay_left_ms > 0 || c.timed_out_this_turn) continue;
    c.timed_out_this_turn = true;
    ++c.timeouts;
    if (s.control.on_timeout != OnTimeout::Skip) {
      c.untimed = true;
      c.running = false;
    }
  }
}

Millis full_turn(const TimeControl& control) {
  switch (control.kind) {
    case ClockKind::RealTime:
      return control.bank_ms;
    case ClockKind::TurnBased:
      return control.per_turn_ms;
    case ClockKind::None:
      return 0;
  }
  return 0;
}
}  // namespace

ClockState start_clocks(const TimeControl& control, int seats, SeatMask untimed) {
  ClockState s;
  s.control = control;
  s.seats = std::clamp(seats, 0, kMaxSeats);
  for (int i = 0; i < s.seats; ++i) {
    SeatClock& c = s.seat[static_cast<std::size_t>(i)];
    c.left_ms = full_turn(control);
    c.delay_left_ms = control.delay_ms;
    c.untimed = has(untimed, i);
  }
  return s;
}

ClockState advance(ClockState s, const ClockStep& step) {
  const SeatMask all = all_seats(s.seats);
  // Time: never backwards; a paused clock is not charged.
  Millis elapsed = 0;
  if (!s.at_ms) {
    s.at_ms = step.at_ms;
  } else if (step.at_ms > *s.at_ms) {
    elapsed = step.at_ms - *s.at_ms;
    s.at_ms = step.at_ms;
  }
  // Charged even when no time passed, so a seat whose turn began with 0 left (Skip, no
  // increment) runs out at the very next step.
  charge(s, elapsed);

  switch (step.kind) {
    case ClockStep::Kind::Pause:
      s.paused = true;
      break;
    case ClockStep::Kind::Resume:
      s.paused = false;
      break;
    case ClockStep::Kind::Untimed:
      for (int i = 0; i < s.seats; ++i)
        if (has(step.seats, i)) s.seat[static_cast<std::size_t>(i)].untimed = true;
      break;
    case ClockStep::Kind::Event: {
      const SeatMask before = s.to_act;
      s.to_act = static_cast<SeatMask>(step.to_act & all);
      // Only a turn that was running can end.
      const SeatMask ended = static_cast<SeatMask>(
          (step.turn_ended ? *step.turn_ended : static_cast<SeatMask>(before & ~s.to_act)) & before & all);
      for (int i = 0; i < s.seats; ++i) {
        if (!has(ended, i)) continue;
        SeatClock& c = s.seat[static_cast<std::size_t>(i)];
        c.timed_out_this_turn = false;
        c.delay_left_ms = s.control.delay_ms;
        if (c.untimed) continue;
        if (s.control.kind == ClockKind::RealTime) {
          c.left_ms = std::min(kMaxLeftMs, c.left_ms + s.control.increment_ms);
        } else if (s.control.kind == ClockKind::TurnBased) {
          c.left_ms = s.control.per_turn_ms;
        }
      }
      break;
    }
  }
  recompute_running(s);
  return s;
}

ClockState fold_clocks(const TimeControl& control, int seats, const std::vector<ClockStep>& steps,
                       SeatMask untimed) {
  ClockState s = start_clocks(control, seats, untimed);
  for (const ClockStep& step : steps) s = advance(std::move(s), step);
  return s;
}

std::vector<Timeout> timeouts_due(const ClockState& s, Millis now_ms) {
  std::vector<Timeout> out;
  if (!s.at_ms) return out;
  for (int i = 0; i < s.seats; ++i) {
    const SeatClock& c = s.seat[static_cast<std::size_t>(i)];
    if (!c.running || c.timed_out_this_turn) continue;
    const Millis at = *s.at_ms + c.delay_left_ms + c.left_ms;
    if (at <= now_ms) out.push_back(Timeout{i, at, s.control.on_timeout});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Timeout& a, const Timeout& b) { return a.at_ms < b.at_ms; });
  return out;
}

std::optional<Timeout> next_timeout(const ClockState& s) {
  const auto due = timeouts_due(s, std::numeric_limits<Millis>::max());
  if (due.empty()) return std::nullopt;
  return due.front();
}

std::vector<SeatTime> clocks_at(const ClockState& s, Millis now_ms) {
  std::vector<SeatTime> out;
  for (int i = 0; i < s.seats; ++i) {
    const SeatClock& c = s.seat[static_cast<std::size_t>(i)];
    SeatTime t{c.left_ms, c.running, c.untimed, c.timeouts, c.delay_left_ms};
    if (c.running && s.at_ms && now_ms > *s.at_ms) {
      const Millis elapsed = now_ms - *s.at_ms;
      const Millis free = std::min(c.delay_left_ms, elapsed);
      t.delay_left_ms = c.delay_left_ms - free;
      t.left_ms = std::max<Millis>(0, c.left_ms - (elapsed - free));
    }
    out.push_back(t);
  }
  return out;
}

}  // namespace eryantis::clocks
