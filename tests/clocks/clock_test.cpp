#include "eryantis/clocks/clock.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace eryantis::clocks {
namespace {

constexpr Millis kT0 = 1'700'000'000'000;  // a unix time in ms: the match's first event

TimeControl real_time(Millis bank, Millis increment, OnTimeout action = OnTimeout::Skip) {
  return TimeControl{ClockKind::RealTime, bank, increment, 0, action};
}
TimeControl delayed(Millis bank, Millis increment, Millis delay, OnTimeout action = OnTimeout::Skip) {
  return TimeControl{ClockKind::RealTime, bank, increment, 0, action, delay};
}
TimeControl turn_based(Millis per_turn, OnTimeout action = OnTimeout::Skip) {
  return TimeControl{ClockKind::TurnBased, 0, 0, per_turn, action};
}
ClockStep event(Millis at, SeatMask to_act) {
  return ClockStep{ClockStep::Kind::Event, at, to_act, std::nullopt, 0};
}
ClockStep event_ending(Millis at, SeatMask to_act, SeatMask ended) {
  return ClockStep{ClockStep::Kind::Event, at, to_act, ended, 0};
}
ClockStep pause(Millis at) {
  return ClockStep{ClockStep::Kind::Pause, at, 0, std::nullopt, 0};
}
ClockStep resume(Millis at) {
  return ClockStep{ClockStep::Kind::Resume, at, 0, std::nullopt, 0};
}
constexpr SeatMask S0 = seat_bit(0);
constexpr SeatMask S1 = seat_bit(1);
constexpr SeatMask S2 = seat_bit(2);

TEST(Clocks, NoTimeControlNeverRunsNorTimesOut) {
  ClockState s = fold_clocks(TimeControl{}, 2, {event(kT0, S0), event(kT0 + 10'000'000, S1)});
  EXPECT_FALSE(next_timeout(s));
  EXPECT_TRUE(timeouts_due(s, kT0 + 1'000'000'000).empty());
  for (const SeatTime& t : clocks_at(s, kT0 + 1'000'000'000)) {
    EXPECT_FALSE(t.running);
    EXPECT_EQ(t.left_ms, 0);
  }
}

TEST(Clocks, RealTimeChargesTheSeatToActAndAddsTheIncrementAtTheEndOfItsTurn) {
  ClockState s = start_clocks(real_time(60'000, 2'000), 2);
  s = advance(s, event(kT0, S0));  // setup done: seat 0 to act
  EXPECT_TRUE(s.seat[0].running);
  EXPECT_FALSE(s.seat[1].running);
  EXPECT_EQ(next_timeout(s), (Timeout{0, kT0 + 60'000, OnTimeout::Skip}));
  s = advance(s, event(kT0 + 7'000, S1));  // seat 0 thought 7 s
  EXPECT_EQ(s.seat[0].left_ms, 60'000 - 7'000 + 2'000);
  EXPECT_EQ(s.seat[1].left_ms, 60'000);
  EXPECT_EQ(next_timeout(s), (Timeout{1, kT0 + 7'000 + 60'000, OnTimeout::Skip}));
  s = advance(s, event(kT0 + 7'000 + 30'000, S0));  // seat 1 thought 30 s
  EXPECT_EQ(s.seat[1].left_ms, 60'000 - 30'000 + 2'000);
  // The board at some moment: seat 0 running since the last event, seat 1 stopped.
  const auto shown = clocks_at(s, kT0 + 37'000 + 4'500);
  EXPECT_EQ(shown[0], (SeatTime{55'000 - 4'500, true, false, 0}));
  EXPECT_EQ(shown[1], (SeatTime{32'000, false, false, 0}));
  // Never below zero on a board.
  EXPECT_EQ(clocks_at(s, kT0 + 10'000'000)[0].left_ms, 0);
}

TEST(Clocks, SeveralCommandsOfOneTurnEarnOneIncrement) {
  // Eriantys's action phase: a seat sends several commands in one turn.
  ClockState s = start_clocks(real_time(60'000, 5'000), 2);
  s = advance(s, event(kT0, S0));
  s = advance(s, event(kT0 + 1'000, S0));
  s = advance(s, event(kT0 + 2'000, S0));
  s = advance(s, event(kT0 + 3'000, S1));
  EXPECT_EQ(s.seat[0].left_ms, 60'000 - 3'000 + 5'000);
}

TEST(Clocks, ANamedTurnEndGivesTheIncrementToASeatThatPlaysAgainAtOnce) {
  // The last to plan is the first to act: its turn ends though it stays to act.
  ClockState s = start_clocks(real_time(60'000, 5'000), 2);
  s = advance(s, event(kT0, S1));
  s = advance(s, event_ending(kT0 + 4'000, S1, S1));
  EXPECT_EQ(s.seat[1].left_ms, 60'000 - 4'000 + 5'000);
  // A named end for a seat that was not to act changes nothing.
  s = advance(s, event_ending(kT0 + 5'000, S1, S0));
  EXPECT_EQ(s.seat[0].left_ms, 60'000);
  EXPECT_EQ(s.seat[1].left_ms, 61'000 - 1'000);
}

TEST(Clocks, SimultaneousSeatsEachRunTheirOwnClock) {
  ClockState s = start_clocks(real_time(60'000, 1'000), 3);
  s = advance(s, event(kT0, S0 | S1 | S2));  // everybody chooses at once
  EXPECT_TRUE(s.seat[0].running && s.seat[1].running && s.seat[2].running);
  s = advance(s, event(kT0 + 10'000, S0 | S2));  // seat 1 chose after 10 s
  EXPECT_EQ(s.seat[1].left_ms, 60'000 - 10'000 + 1'000);
  EXPECT_FALSE(s.seat[1].running);
  s = advance(s, event(kT0 + 25'000, S2));  // seat 0 after 25 s
  EXPECT_EQ(s.seat[0].left_ms, 60'000 - 25'000 + 1'000);
  // seat 2 still thinking: it runs out first, 60 s after it started.
  EXPECT_EQ(next_timeout(s), (Timeout{2, kT0 + 60'000, OnTimeout::Skip}));
  EXPECT_EQ(clocks_at(s, kT0 + 40'000)[2].left_ms, 20'000);
}

TEST(Clocks, TiesGoToTheLowestSeatAndDueListsAreEarliestFirst) {
  ClockState s = start_clocks(real_time(60'000, 0), 3);
  s = advance(s, event(kT0, S0 | S1 | S2));
  EXPECT_EQ(next_timeout(s)->seat, 0);
  s = advance(s, event(kT0 + 5'000, S0 | S2));  // seat 1 done
  s = advance(s, event(kT0 + 6'000, S0 | S1 | S2));  // seat 1 again (bank 55 s)
  const auto due = timeouts_due(s, kT0 + 60'000);
  ASSERT_EQ(due.size(), 2u);
  EXPECT_EQ(due[0], (Timeout{0, kT0 + 60'000, OnTimeout::Skip}));
  EXPECT_EQ(due[1], (Timeout{2, kT0 + 60'000, OnTimeout::Skip}));
  const auto later = timeouts_due(s, kT0 + 61'000);
  ASSERT_EQ(later.size(), 3u);
  EXPECT_EQ(later[2], (Timeout{1, kT0 + 6'000 + 55'000, OnTimeout::Skip}));
  EXPECT_TRUE(timeouts_due(s, kT0 + 59'999).empty());
}

TEST(Clocks, ADelayIsFreeTimeAtTheStartOfEachTurnAndUnusedDelayIsLost) {
  ClockState s = start_clocks(delayed(60'000, 0, 3'000), 2);
  s = advance(s, event(kT0, S0));
  EXPECT_EQ(next_timeout(s), (Timeout{0, kT0 + 3'000 + 60'000, OnTimeout::Skip}));
  // Within the delay the bank does not move; the board shows the delay counting down.
  EXPECT_EQ(clocks_at(s, kT0 + 2'000)[0], (SeatTime{60'000, true, false, 0, 1'000}));
  EXPECT_EQ(clocks_at(s, kT0 + 5'000)[0], (SeatTime{58'000, true, false, 0, 0}));
  s = advance(s, event(kT0 + 2'000, S1));  // seat 0 moved within its delay
  EXPECT_EQ(s.seat[0].left_ms, 60'000);  // nothing added for the unused second
  s = advance(s, event(kT0 + 12'000, S0));  // seat 1 thought 10 s: 7 s off its bank
  EXPECT_EQ(s.seat[1].left_ms, 53'000);
  // Seat 0's new turn has its whole delay again.
  EXPECT_EQ(next_timeout(s), (Timeout{0, kT0 + 12'000 + 3'000 + 60'000, OnTimeout::Skip}));
  // Several commands of one turn share one delay.
  s = advance(s, event(kT0 + 14'000, S0));
  s = advance(s, event(kT0 + 17'000, S1));
  EXPECT_EQ(s.seat[0].left_ms, 58'000);
  // With an increment too: the delay first, then the bank, then the increment at the end.
  ClockState both = start_clocks(delayed(60'000, 2'000, 3'000), 2);
  both = advance(both, event(kT0, S0));
  both = advance(both, event(kT0 + 10'000, S1));
  EXPECT_EQ(both.seat[0].left_ms, 60'000 - 7'000 + 2'000);
}

TEST(Clocks, ASeatWithAnEmptyBankStillHasItsDelayEachTurn) {
  ClockState s = start_clocks(delayed(10'000, 0, 2'000), 2);
  s = advance(s, event(kT0, S0));
  EXPECT_EQ(next_timeout(s)->at_ms, kT0 + 12'000);
  s = advance(s, event(kT0 + 12'000, S1));  // skipped at its deadline
  EXPECT_EQ(s.seat[0].timeouts, 1);
  EXPECT_EQ(s.seat[0].left_ms, 0);
  s = advance(s, event(kT0 + 13'000, S0));
  // It has 2 s each turn, no more: a move within them is in time.
  EXPECT_EQ(next_timeout(s), (Timeout{0, kT0 + 15'000, OnTimeout::Skip}));
  s = advance(s, event(kT0 + 14'500, S1));
  EXPECT_EQ(s.seat[0].timeouts, 1);
}

TEST(Clocks, TurnBasedGivesAFullTurnEachTimeUnusedTimeDoesNotCarry) {
  const Millis day = 86'400'000;
  ClockState s = start_clocks(turn_based(day), 2);
  s = advance(s, event(kT0, S0));
  EXPECT_EQ(next_timeout(s), (Timeout{0, kT0 + day, OnTimeout::Skip}));
  s = advance(s, event(kT0 + 3'600'000, S0));  // one command an hour in: same turn
  EXPECT_EQ(next_timeout(s)->at_ms, kT0 + day);
  s = advance(s, event(kT0 + 7'200'000, S1));  // turn over after 2 h
  EXPECT_EQ(s.seat[0].left_ms, day);
  EXPECT_EQ(next_timeout(s), (Timeout{1, kT0 + 7'200'000 + day, OnTimeout::Skip}));
}

TEST(Clocks, RunningOutUnderSkipCountsOnceAndTheSeatPlaysOnWithItsIncrements) {
  ClockState s = start_clocks(real_time(10'000, 3'000), 2);
  s = advance(s, event(kT0, S0));
  // The server's timer fires at the reported time and records a skip: seat 1 to act.
  const Timeout t = *next_timeout(s);
  EXPECT_EQ(t.at_ms, kT0 + 10'000);
  s = advance(s, event(t.at_ms, S1));
  EXPECT_EQ(s.seat[0].timeouts, 1);
  EXPECT_EQ(s.seat[0].left_ms, 3'000);  // 0 + the increment of the (skipped) turn
  EXPECT_FALSE(s.seat[0].untimed);
  s = advance(s, event(kT0 + 12'000, S0));
  EXPECT_EQ(next_timeout(s), (Timeout{0, kT0 + 15'000, OnTimeout::Skip}));
  s = advance(s, event(kT0 + 14'000, S1));  // in time this turn
  EXPECT_EQ(s.seat[0].timeouts, 1);
  EXPECT_EQ(s.seat[0].left_ms, 1'000 + 3'000);
}

TEST(Clocks, WithoutIncrementASkippedSeatRunsOutAtTheStartOfEachLaterTurn) {
  ClockState s = start_clocks(real_time(10'000, 0), 2);
  s = advance(s, event(kT0, S0));
  s = advance(s, event(kT0 + 10'000, S1));  // skipped at its deadline
  s = advance(s, event(kT0 + 11'000, S0));
  EXPECT_EQ(next_timeout(s), (Timeout{0, kT0 + 11'000, OnTimeout::Skip}));
  // Reported once: after the fold saw it (the server's skip at the same time), not again.
  s = advance(s, event(kT0 + 11'000, S0));
  EXPECT_EQ(s.seat[0].timeouts, 2);
  EXPECT_FALSE(next_timeout(s));
  s = advance(s, event(kT0 + 11'000, S1));
  EXPECT_EQ(s.seat[0].timeouts, 2);
}

TEST(Clocks, UnderComputerOrForfeitASeatThatRanOutIsNoLongerTimed) {
  for (const OnTimeout action : {OnTimeout::Computer, OnTimeout::Forfeit}) {
    ClockState s = start_clocks(real_time(10'000, 1'000, action), 2);
    s = advance(s, event(kT0, S0));
    EXPECT_EQ(next_timeout(s)->action, action);
    // A command that arrives late: the fold says the seat ran out before it.
    s = advance(s, event(kT0 + 12'000, S1));
    EXPECT_EQ(s.seat[0].timeouts, 1);
    EXPECT_TRUE(s.seat[0].untimed);
    EXPECT_EQ(s.seat[0].left_ms, 0);
    s = advance(s, event(kT0 + 13'000, S0));
    EXPECT_FALSE(s.seat[0].running);
    EXPECT_FALSE(next_timeout(s));
    s = advance(s, event(kT0 + 100'000, S1));
    EXPECT_EQ(s.seat[0].timeouts, 1);
    EXPECT_EQ(s.seat[1].left_ms, 10'000);  // 9 s left + 1 s; not running while seat 0 acted
  }
}

TEST(Clocks, NoClockRunsWhileNobodyIsToAct) {
  // Between two turns the game may wait on nobody (an automatic step, the match waiting
  // for its seats to fill): no seat is charged, however long that lasts.
  ClockState s = start_clocks(real_time(60'000, 5'000), 2);
  EXPECT_FALSE(next_timeout(s));  // before the first event
  s = advance(s, event(kT0, 0));
  EXPECT_FALSE(next_timeout(s));
  EXPECT_EQ(clocks_at(s, kT0 + 3'600'000)[0], (SeatTime{60'000, false, false, 0, 0}));
  s = advance(s, event(kT0 + 3'600'000, S0));
  EXPECT_EQ(s.seat[0].left_ms, 60'000);
  s = advance(s, event(kT0 + 3'610'000, 0));  // seat 0 done after 10 s; nobody next
  EXPECT_EQ(s.seat[0].left_ms, 55'000);
  s = advance(s, event(kT0 + 7'200'000, S1));
  EXPECT_EQ(s.seat[0].left_ms, 55'000);
  EXPECT_EQ(s.seat[1].left_ms, 60'000);
  EXPECT_EQ(next_timeout(s)->at_ms, kT0 + 7'200'000 + 60'000);
}

TEST(Clocks, PausesAreNotCharged) {
  ClockState s = start_clocks(real_time(60'000, 0), 2);
  s = advance(s, event(kT0, S0));
  s = advance(s, pause(kT0 + 5'000));  // the server stops
  EXPECT_FALSE(next_timeout(s));
  EXPECT_EQ(clocks_at(s, kT0 + 3'600'000)[0].left_ms, 55'000);
  s = advance(s, resume(kT0 + 3'600'000));  // back an hour later
  EXPECT_EQ(next_timeout(s), (Timeout{0, kT0 + 3'600'000 + 55'000, OnTimeout::Skip}));
  s = advance(s, event(kT0 + 3'600'000 + 10'000, S1));
  EXPECT_EQ(s.seat[0].left_ms, 45'000);
}

TEST(Clocks, StoredTimesThatStepBackCountAsNoTime) {
  ClockState s = start_clocks(real_time(60'000, 0), 2);
  s = advance(s, event(kT0, S0));
  s = advance(s, event(kT0 - 5'000, S0));
  EXPECT_EQ(s.seat[0].left_ms, 60'000);
  EXPECT_EQ(*s.at_ms, kT0);
  s = advance(s, event(kT0 + 1'000, S1));
  EXPECT_EQ(s.seat[0].left_ms, 59'000);
}

TEST(Clocks, ComputerSeatsAndSeatsTakenOverAreNotTimed) {
  ClockState s = start_clocks(real_time(10'000, 0), 3, S1);
  s = advance(s, event(kT0, S0 | S1 | S2));
  EXPECT_FALSE(s.seat[1].running);
  s = advance(s, ClockStep{ClockStep::Kind::Untimed, kT0 + 1'000, 0, std::nullopt, S2});
  EXPECT_TRUE(s.seat[2].untimed);
  EXPECT_EQ(s.seat[2].left_ms, 9'000);
  EXPECT_EQ(next_timeout(s)->seat, 0);
  s = advance(s, event(kT0 + 1'000'000, S0 | S1 | S2));
  EXPECT_EQ(s.seat[1].timeouts + s.seat[2].timeouts, 0);
}

TEST(Clocks, MasksPastTheSeatCountAreIgnored) {
  ClockState s = start_clocks(real_time(10'000, 0), 2);
  s = advance(s, event(kT0, 0xff));
  EXPECT_EQ(s.to_act, S0 | S1);
  EXPECT_EQ(start_clocks(real_time(10'000, 0), 99).seats, kMaxSeats);
  EXPECT_EQ(start_clocks(real_time(10'000, 0), -1).seats, 0);
}

// The equivalence: a reference that counts every millisecond one by one agrees with the fold
// on every seat's time left, its timeouts and the predicted next timeout, over random steps.
struct Reference {
  TimeControl control;
  int seats;
  std::vector<Millis> left;
  std::vector<bool> out_this_turn, untimed;
  std::vector<int> timeouts;
  std::vector<Millis> delay_left;  // of this turn's delay
  SeatMask to_act = 0;
  bool paused = false;
  Millis now = 0;

  bool running(int i) const {
    return control.kind != ClockKind::None && !paused && !untimed[i] && (to_act >> i & 1);
  }
  void check_out(int i) {
    if (running(i) && left[i] == 0 && delay_left[i] == 0 && !out_this_turn[i]) {
      out_this_turn[i] = true;
      ++timeouts[i];
      if (control.on_timeout != OnTimeout::Skip) untimed[i] = true;
    }
  }
  void tick_to(Millis t) {
    for (int i = 0; i < seats; ++i) check_out(i);
    while (now < t) {
      ++now;
      for (int i = 0; i < seats; ++i) {
        if (!running(i)) continue;
        if (delay_left[i] > 0) {
          --delay_left[i];
        } else if (left[i] > 0) {
          --left[i];
        }
      }
      for (int i = 0; i < seats; ++i) check_out(i);
    }
  }
  void step(const ClockStep& st) {
    tick_to(st.at_ms);
    if (st.kind == ClockStep::Kind::Pause) paused = true;
    if (st.kind == ClockStep::Kind::Resume) paused = false;
    if (st.kind == ClockStep::Kind::Untimed)
      for (int i = 0; i < seats; ++i)
        if (st.seats >> i & 1) untimed[i] = true;
    if (st.kind != ClockStep::Kind::Event) return;
    const SeatMask before = to_act;
    to_act = st.to_act & ((1 << seats) - 1);
    for (int i = 0; i < seats; ++i) {
      const bool was = before >> i & 1;
      const bool named = st.turn_ended ? (*st.turn_ended >> i & 1) : !(to_act >> i & 1);
      if (!was || !named) continue;
      out_this_turn[i] = false;
      delay_left[i] = control.delay_ms;
      if (untimed[i]) continue;
      if (control.kind == ClockKind::RealTime) left[i] += control.increment_ms;
      if (control.kind == ClockKind::TurnBased) left[i] = control.per_turn_ms;
    }
  }
  // The tick at which some seat runs out if nothing else happens (or -1), and which.
  std::pair<Millis, int> first_out(Millis horizon) const {
    Reference copy = *this;
    for (int i = 0; i < seats; ++i)
      if (copy.running(i) && copy.left[i] == 0 && copy.delay_left[i] == 0 && !copy.out_this_turn[i])
        return {copy.now, i};
    while (copy.now < horizon) {
      copy.tick_to(copy.now + 1);
      for (int i = 0; i < seats; ++i)
        if (copy.timeouts[i] != timeouts[i]) return {copy.now, i};
    }
    return {-1, -1};
  }
};

TEST(Clocks, TheFoldAgreesWithAMillisecondByMillisecondReference) {
  const std::uint64_t seed = 2026;
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 300; ++round) {
    const int seats = 2 + static_cast<int>(rng() % 3);
    TimeControl control;
    const auto kind = rng() % 3;
    const auto action = static_cast<OnTimeout>(rng() % 3);
    if (kind == 0) control = TimeControl{ClockKind::None, 0, 0, 0, action};
    if (kind == 1)
      control = delayed(20 + static_cast<Millis>(rng() % 60), static_cast<Millis>(rng() % 15),
                        rng() % 2 == 0 ? 0 : static_cast<Millis>(rng() % 10), action);
    if (kind == 2) control = turn_based(10 + static_cast<Millis>(rng() % 40), action);
    const SeatMask untimed = rng() % 4 == 0 ? seat_bit(static_cast<int>(rng() % seats)) : 0;
    ClockState s = start_clocks(control, seats, untimed);
    Reference ref{control, seats, std::vector<Millis>(seats, s.seat[0].left_ms), std::vector<bool>(seats),
                  std::vector<bool>(seats), std::vector<int>(seats), std::vector<Millis>(seats, control.delay_ms)};
    for (int i = 0; i < seats; ++i) ref.untimed[i] = untimed >> i & 1;
    Millis t = 0;
    for (int n = 0; n < 40; ++n) {
      t += static_cast<Millis>(rng() % 30);
      ClockStep step = event(t, static_cast<SeatMask>(rng() % (1u << seats)));
      const auto pick = rng() % 20;
      if (pick == 0) step = pause(t);
      if (pick == 1) step = resume(t);
      if (pick == 2) step = ClockStep{ClockStep::Kind::Untimed, t, 0, std::nullopt, seat_bit(static_cast<int>(rng() % seats))};
      if (pick == 3) step.turn_ended = static_cast<SeatMask>(rng() % (1u << seats));
      // Who the fold says runs out first, checked against counting milliseconds.
      const auto predicted = next_timeout(s);
      const auto [tick, who] = ref.first_out(ref.now + 1000);
      if (predicted) {
        EXPECT_EQ(predicted->at_ms, tick) << "seed " << seed << " round " << round << " step " << n;
        EXPECT_EQ(predicted->seat, who) << "seed " << seed << " round " << round << " step " << n;
      } else {
        EXPECT_EQ(tick, -1) << "seed " << seed << " round " << round << " step " << n;
      }
      s = advance(s, step);
      ref.step(step);
      for (int i = 0; i < seats; ++i) {
        ASSERT_EQ(s.seat[i].left_ms, ref.left[i]) << "seed " << seed << " round " << round << " step " << n << " seat " << i;
        ASSERT_EQ(s.seat[i].timeouts, ref.timeouts[i]) << "seed " << seed << " round " << round << " step " << n;
        ASSERT_EQ(s.seat[i].running, ref.running(i)) << "seed " << seed << " round " << round << " step " << n;
      }
    }
  }
}

TEST(Clocks, TheFoldOfAListIsTheStepsOneByOne) {
  const std::vector<ClockStep> steps = {event(kT0, S0), event(kT0 + 5'000, S1), pause(kT0 + 6'000),
                                        resume(kT0 + 9'000), event(kT0 + 20'000, S0 | S1)};
  ClockState s = start_clocks(real_time(60'000, 2'000), 2);
  for (const ClockStep& step : steps) s = advance(s, step);
  EXPECT_EQ(fold_clocks(real_time(60'000, 2'000), 2, steps), s);
}

}  // namespace
}  // namespace eryantis::clocks
