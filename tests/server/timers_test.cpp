// The timers' decisions (server/timers.hpp), each rule on its own: pure
// functions of a situation, so no server, clock or game is needed — only the
// engine's words for a game (stage, who must act with what wait).
#include "eryantis/server/timers.hpp"

#include <gtest/gtest.h>

namespace eryantis::server::timers {
namespace {

using game::Stage;
using game::Wait;

constexpr Settings kSettings{/*turn_grace_ms=*/30'000, /*forfeit_after_ms=*/120'000,
                             /*abandon_after_ms=*/600'000, /*setup_choice_ms=*/120'000,
                             /*lobby_idle_ms=*/1'800'000};
constexpr std::int64_t kNow = 1'000'000'000;

constexpr SeatPresence kHere{true, true, false};
constexpr SeatPresence kAway{true, false, false};
constexpr SeatPresence kComputer{true, false, true};
constexpr SeatPresence kEmpty{};

Situation playing(std::vector<SeatPresence> seats, std::vector<game::ToAct> to_act) {
  Situation s;
  s.lobby = false;
  s.stage = Stage::Play;
  s.players = static_cast<int>(seats.size());
  for (std::size_t i = 0; i < seats.size(); ++i) s.seats[i] = seats[i];
  s.to_act = std::move(to_act);
  return s;
}

Situation in_lobby(std::vector<SeatPresence> seats, Stage stage, std::vector<game::ToAct> to_act) {
  Situation s = playing(std::move(seats), std::move(to_act));
  s.lobby = true;
  s.stage = stage;
  s.lobby_since_ms = kNow;
  return s;
}

TEST(TimersTest, CountsWhoIsThere) {
  const Situation s = playing({kHere, kAway, kComputer, kEmpty}, {});
  EXPECT_EQ(s.seated(), 3);
  EXPECT_EQ(s.connected(), 1);
  EXPECT_EQ(s.computers(), 1);
  EXPECT_EQ(s.present(), 2);
  EXPECT_FALSE(s.full());
  EXPECT_FALSE(s.away(0));
  EXPECT_TRUE(s.away(1));
  EXPECT_FALSE(s.away(2));  // a computer is never away
  EXPECT_FALSE(s.away(3));  // nobody to wait for
  EXPECT_FALSE(s.away(game::kNoSeat));
}

TEST(TimersTest, AnAbsentSeatsTurnIsSkippedAfterTheGraceWhileTwoArePresent) {
  const Situation s = playing({kHere, kAway, kHere}, {{1, Wait::Turn}});
  const Update u = update(s, {}, kSettings, kNow);
  EXPECT_TRUE(u.store);
  EXPECT_EQ(u.clocks.deadline, (Deadline{DeadlineKind::TurnGrace, 1, kNow + 30'000}));
  EXPECT_EQ(next(s, u.clocks, kSettings), u.clocks.deadline);
  EXPECT_EQ(due(s, u.clocks, kSettings, kNow + 29'999), Action{});
  EXPECT_EQ(due(s, u.clocks, kSettings, kNow + 30'000), (Action{Due::SkipTurn, 1}));
  // Later updates keep the clock's time: it runs from when the turn came.
  const Update later = update(s, u.clocks, kSettings, kNow + 10'000);
  EXPECT_FALSE(later.store);
  EXPECT_EQ(later.clocks, u.clocks);
}

TEST(TimersTest, ThePlayerComingBackStopsTheGrace) {
  const Situation away = playing({kHere, kAway, kHere}, {{1, Wait::Turn}});
  const Update u = update(away, {}, kSettings, kNow);
  const Situation back = playing({kHere, kHere, kHere}, {{1, Wait::Turn}});
  const Update v = update(back, u.clocks, kSettings, kNow + 1000);
  EXPECT_TRUE(v.store);
  EXPECT_EQ(v.clocks.deadline.kind, DeadlineKind::None);
  EXPECT_EQ(due(back, v.clocks, kSettings, kNow + 60'000), Action{});
}

TEST(TimersTest, NoTurnIsSkippedWithOnePlayerPresent) {
  // Two players, one connected: the forfeit clock's business, not the grace's.
  const Situation s = playing({kHere, kAway}, {{1, Wait::Turn}});
  const Update u = update(s, {}, kSettings, kNow);
  EXPECT_EQ(u.clocks.deadline.kind, DeadlineKind::TurnGrace);  // stored, for a restart
  EXPECT_EQ(u.clocks.forfeit, (Deadline{DeadlineKind::Forfeit, 0, kNow + 120'000}));
  // The grace is not announced and does not act while only one is present.
  EXPECT_EQ(next(s, u.clocks, kSettings), u.clocks.forfeit);
  EXPECT_EQ(due(s, u.clocks, kSettings, kNow + 60'000), Action{});
  EXPECT_EQ(due(s, u.clocks, kSettings, kNow + 120'000), (Action{Due::Forfeit, 0}));
  // The same grace is kept as it is (not re-armed) while the player is alone.
  const Update later = update(s, u.clocks, kSettings, kNow + 5000);
  EXPECT_FALSE(later.store);
  EXPECT_EQ(later.clocks, u.clocks);
}

TEST(TimersTest, APersonPlayingComputersIsNeverAlone) {
  const Situation s = playing({kHere, kComputer}, {{1, Wait::Turn}});
  const Update u = update(s, {}, kSettings, kNow);
  EXPECT_EQ(u.clocks.forfeit.kind, DeadlineKind::None);
  EXPECT_EQ(u.clocks.deadline.kind, DeadlineKind::None);  // computers are never away
  EXPECT_EQ(next(s, u.clocks, kSettings).kind, DeadlineKind::None);
}

TEST(TimersTest, TheForfeitClockFollowsWhoIsAlone) {
  const Situation zero_alone = playing({kHere, kAway}, {{0, Wait::Turn}});
  const Update u = update(zero_alone, {}, kSettings, kNow);
  EXPECT_EQ(u.clocks.forfeit.seat, 0);
  // Another seat alone later: a new clock with the full time.
  const Situation one_alone = playing({kAway, kHere}, {{0, Wait::Turn}});
  const Update v = update(one_alone, u.clocks, kSettings, kNow + 50'000);
  EXPECT_EQ(v.clocks.forfeit, (Deadline{DeadlineKind::Forfeit, 1, kNow + 50'000 + 120'000}));
  // Both back: no forfeit.
  const Situation both = playing({kHere, kHere}, {{0, Wait::Turn}});
  EXPECT_EQ(update(both, v.clocks, kSettings, kNow + 60'000).clocks.forfeit.kind,
            DeadlineKind::None);
}

TEST(TimersTest, ADesertedMatchIsAbandonedAndTheDesertionIsStored) {
  const Situation present = playing({kHere, kAway, kHere}, {{1, Wait::Turn}});
  const Update graced = update(present, {}, kSettings, kNow);
  const Situation nobody = playing({kAway, kAway, kAway}, {{1, Wait::Turn}});
  const Update u = update(nobody, graced.clocks, kSettings, kNow + 1000);
  EXPECT_TRUE(u.store);
  EXPECT_EQ(u.clocks.deserted, (Deadline{DeadlineKind::Abandon, game::kNoSeat, kNow + 601'000}));
  // Nobody to play with: the turn grace is kept as it was, and no turn is skipped.
  EXPECT_EQ(u.clocks.deadline, graced.clocks.deadline);
  EXPECT_EQ(due(nobody, u.clocks, kSettings, kNow + 500'000), Action{});
  // Stored in the turn grace's place, carrying its seat.
  EXPECT_EQ(stored(u.clocks), (Deadline{DeadlineKind::Abandon, 1, kNow + 601'000}));
  EXPECT_EQ(due(nobody, u.clocks, kSettings, kNow + 601'000), (Action{Due::AbandonDeserted}));
  // The desertion keeps its time on later updates.
  const Update later = update(nobody, u.clocks, kSettings, kNow + 2000);
  EXPECT_FALSE(later.store);
  EXPECT_EQ(later.clocks, u.clocks);
  // Someone back: the desertion ends, and the stored timer changes back.
  const Update back = update(present, u.clocks, kSettings, kNow + 3000);
  EXPECT_TRUE(back.store);
  EXPECT_EQ(back.clocks.deserted.kind, DeadlineKind::None);
  EXPECT_EQ(stored(back.clocks), graced.clocks.deadline);
}

TEST(TimersTest, AStoredDesertionIsRestoredWithItsTurnGrace) {
  const Deadline s{DeadlineKind::Abandon, 1, kNow + 600'000};
  const Clocks c = restored(s, /*running=*/true, /*players=*/3, kSettings);
  EXPECT_EQ(c.deserted, (Deadline{DeadlineKind::Abandon, game::kNoSeat, kNow + 600'000}));
  // Its grace ran from no later than the desertion's start.
  EXPECT_EQ(c.deadline, (Deadline{DeadlineKind::TurnGrace, 1, kNow + 30'000}));
  EXPECT_EQ(stored(c), s);  // and stores back as it was
  // Without a seat: no grace.
  const Clocks no_seat =
      restored({DeadlineKind::Abandon, game::kNoSeat, kNow}, true, 3, kSettings);
  EXPECT_EQ(no_seat.deadline.kind, DeadlineKind::None);
  // A lobby's abandon is the lobby's own timer, not a desertion.
  const Deadline lobby{DeadlineKind::Abandon, game::kNoSeat, kNow};
  EXPECT_EQ(restored(lobby, /*running=*/false, 3, kSettings), (Clocks{lobby, {}, {}, {}}));
  // A stored turn grace comes back as it was.
  const Deadline grace{DeadlineKind::TurnGrace, 2, kNow};
  EXPECT_EQ(restored(grace, true, 3, kSettings).deadline, grace);
}

TEST(TimersTest, ASkipTheRulesCallForIsDoneAtOnce) {
  // Eriantys: absent in planning, the seat may only skip its action turn (decision 23).
  const Situation s = playing({kHere, kHere}, {{1, Wait::SkipNow}});
  const Update u = update(s, {}, kSettings, kNow);
  EXPECT_EQ(u.clocks.deadline.kind, DeadlineKind::None);
  EXPECT_EQ(due(s, u.clocks, kSettings, kNow), (Action{Due::SkipTurn, 1}));
  // Not while nobody is connected (no one to play with).
  const Situation nobody = playing({kAway, kAway}, {{1, Wait::SkipNow}});
  const Update v = update(nobody, {}, kSettings, kNow);
  EXPECT_EQ(due(nobody, v.clocks, kSettings, kNow), Action{});
}

TEST(TimersTest, SeatsActingTogetherWaitForTheFirstAbsentOne) {
  // A game where every seat chooses at once (e.g. a card game): seat 2 is away.
  const Situation s =
      playing({kHere, kHere, kAway}, {{0, Wait::Turn}, {1, Wait::Turn}, {2, Wait::Turn}});
  const Update u = update(s, {}, kSettings, kNow);
  EXPECT_EQ(u.clocks.deadline, (Deadline{DeadlineKind::TurnGrace, 2, kNow + 30'000}));
  EXPECT_EQ(due(s, u.clocks, kSettings, kNow + 30'000), (Action{Due::SkipTurn, 2}));
  // Seat 2 chose; the others still must act but are here: no grace.
  const Situation chosen = playing({kHere, kHere, kAway}, {{0, Wait::Turn}, {1, Wait::Turn}});
  const Update v = update(chosen, u.clocks, kSettings, kNow + 1000);
  EXPECT_TRUE(v.store);
  EXPECT_EQ(v.clocks.deadline.kind, DeadlineKind::None);
  EXPECT_EQ(due(chosen, v.clocks, kSettings, kNow + 60'000), Action{});
}

TEST(TimersTest, SeatsStillChoosingInAFullMatchAreFreed) {
  const Situation s =
      in_lobby({kHere, kHere, kHere}, Stage::Setup, {{1, Wait::Choice}, {2, Wait::Choice}});
  const Update u = update(s, {}, kSettings, kNow);
  EXPECT_EQ(u.clocks.setup, (Deadline{DeadlineKind::Remove, 1, kNow + 120'000}));
  EXPECT_FALSE(u.store);  // in memory only
  EXPECT_EQ(next(s, u.clocks, kSettings), u.clocks.setup);
  EXPECT_EQ(due(s, u.clocks, kSettings, kNow + 119'999), Action{});
  EXPECT_EQ(due(s, u.clocks, kSettings, kNow + 120'000), (Action{Due::RemoveLateSeats, 1}));
  // Seat 1 chose: the same clock now names seat 2, with its time unchanged.
  const Situation one_left = in_lobby({kHere, kHere, kHere}, Stage::Setup, {{2, Wait::Choice}});
  const Update v = update(one_left, u.clocks, kSettings, kNow + 5000);
  EXPECT_EQ(v.clocks.setup, (Deadline{DeadlineKind::Remove, 2, kNow + 120'000}));
  // Not while the match is not full.
  const Situation not_full = in_lobby({kHere, kHere, kEmpty}, Stage::Setup, {{1, Wait::Choice}});
  EXPECT_EQ(update(not_full, v.clocks, kSettings, kNow).clocks.setup.kind, DeadlineKind::None);
}

TEST(TimersTest, ALobbyNobodyIsInIsGivenUp) {
  const Situation s = in_lobby({kAway, kEmpty}, Stage::Setup, {});
  const Update u = update(s, {}, kSettings, kNow);
  EXPECT_TRUE(u.store);
  EXPECT_EQ(u.clocks.deadline, (Deadline{DeadlineKind::Abandon, game::kNoSeat, kNow + 600'000}));
  EXPECT_EQ(due(s, u.clocks, kSettings, kNow + 600'000), (Action{Due::AbandonLobby}));
  // Someone came in: the timer is cleared (and stored so).
  const Situation joined = in_lobby({kHere, kEmpty}, Stage::Setup, {});
  const Update v = update(joined, u.clocks, kSettings, kNow + 1000);
  EXPECT_TRUE(v.store);
  EXPECT_EQ(v.clocks.deadline.kind, DeadlineKind::None);
}

TEST(TimersTest, AFullMatchStuckBecauseSomeoneLeftIsGivenUp) {
  const Situation s =
      in_lobby({kHere, kAway}, Stage::Setup, {{0, Wait::Choice}, {1, Wait::Choice}});
  const Update u = update(s, {}, kSettings, kNow);
  EXPECT_EQ(u.clocks.deadline.kind, DeadlineKind::Abandon);
  EXPECT_EQ(u.clocks.setup.kind, DeadlineKind::Remove);  // and the choices' clock runs
  // The earlier of the two is what clients are told.
  EXPECT_EQ(next(s, u.clocks, kSettings), u.clocks.setup);
}

TEST(TimersTest, ALobbyNobodyJoinsIsGivenUpAfterTheIdleTime) {
  Situation s = in_lobby({kHere, kEmpty}, Stage::Setup, {});
  const Update u = update(s, {}, kSettings, kNow);
  EXPECT_EQ(next(s, u.clocks, kSettings),
            (Deadline{DeadlineKind::Abandon, game::kNoSeat, kNow + 1'800'000}));
  EXPECT_EQ(due(s, u.clocks, kSettings, kNow + 1'799'999), Action{});
  EXPECT_EQ(due(s, u.clocks, kSettings, kNow + 1'800'000), (Action{Due::AbandonIdleLobby}));
  // Somebody joining or leaving starts the idle time again.
  s.lobby_since_ms = kNow + 1'000'000;
  EXPECT_EQ(due(s, u.clocks, kSettings, kNow + 1'800'000), Action{});
}

TEST(TimersTest, PlayClocksStopWhenTheMatchIsNotBeingPlayed) {
  const Situation running = playing({kHere, kAway}, {{1, Wait::Turn}});
  const Update u = update(running, {}, kSettings, kNow);
  ASSERT_EQ(u.clocks.forfeit.kind, DeadlineKind::Forfeit);
  // The game is over (its last event is applied; the status follows).
  Situation over_stage = running;
  over_stage.stage = Stage::Over;
  over_stage.to_act.clear();
  const Update v = update(over_stage, u.clocks, kSettings, kNow + 1);
  EXPECT_EQ(v.clocks.forfeit.kind, DeadlineKind::None);
  EXPECT_EQ(v.clocks.deserted.kind, DeadlineKind::None);
  EXPECT_EQ(v.clocks.deadline.kind, DeadlineKind::None);
  EXPECT_EQ(due(over_stage, u.clocks, kSettings, kNow + 500'000), Action{});
  // Finished or abandoned: nothing changes, nothing is due, nothing is announced.
  Situation over = running;
  over.over = true;
  const Update w = update(over, u.clocks, kSettings, kNow + 1);
  EXPECT_FALSE(w.store);
  EXPECT_EQ(w.clocks, u.clocks);
  EXPECT_EQ(due(over, u.clocks, kSettings, kNow + 500'000), Action{});
  EXPECT_EQ(next(over, u.clocks, kSettings).kind, DeadlineKind::None);
}

}  // namespace
}  // namespace eryantis::server::timers
