// Rules tests: end (see docs/rules.md).
#include "scenario.hpp"  // the rules tests' preamble: gtest, Match, the scenario helpers

namespace eryantis::rules {
namespace {

using namespace scenario;

// The value seat s plays in round r (1-based) so that every round's values are distinct and
// every seat plays each card exactly once in ten rounds.
int card_for(int round, int seat) {
  return (round - 1 + 3 * seat) % 10 + 1;
}

std::vector<int> round_cards(int round, int players) {
  std::vector<int> v;
  for (int s = 0; s < players; ++s) v.push_back(card_for(round, s));
  return v;
}

// Seat 0 moves its students to `away` and Mother Nature `steps`.
void move_and_resolve(Match& m, int away, int steps = 1) {
  move_rest_to_island(m, away);
  m.play(m.state.current_seat(), MoveMotherNature{u8(steps)});
}

// A quiet 2p match in the planning phase of round 1 whose players hold only `value` + 1.
Match last_card_round(int players = 2) {
  Match m = started_match(players, Mode::Simple, 21);
  neutralize(m.state);
  for (Seat p = 0; p < players; ++p) m.state.boards[p].hand = assistant_bit(p + 1);
  return m;
}

TEST(End, LastTowerWinsAtOnce) {
  Match m = action_2p();
  make_groups(m.state, {7, 1, 1, 1, 1, 1});
  own(m.state, 0, TowerColor::Black);
  ASSERT_EQ(m.state.boards[0].towers, 1);
  mn_at(m.state, 7);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 8, Color::Red, 1);
  move_and_resolve(m, 10);
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::LastTower);
  EXPECT_EQ(m.state.result.winners, 0b01);
  EXPECT_EQ(m.state.boards[0].towers, 0);
  EXPECT_EQ(m.state.group_count, 6);
  EXPECT_EQ(code(m, 0, ChooseCloud{0}), "MATCH_OVER");  // nothing else is played
  EXPECT_TRUE(seats_to_act(m.state).empty());
  EXPECT_TRUE(legal_commands(m.state, 0).empty());
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(End, ThreeGroupsEndsAndTowersDecide) {
  Match m = action_2p();
  make_groups(m.state, {5, 5, 1, 1});
  own(m.state, 0, TowerColor::Black);
  own(m.state, 5, TowerColor::White);
  mn_at(m.state, 10);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 11, Color::Red, 1);
  m.state.professors[index(Color::Blue)] = 1;  // professors do not matter: towers differ
  m.state.professors[index(Color::Green)] = 1;
  move_and_resolve(m, 5);
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::ThreeGroups);
  EXPECT_EQ(m.state.result.winners, 0b01);
  EXPECT_EQ(m.state.group_count, 3);
  const int g = group_of_tile(m.state, 11);
  EXPECT_EQ(group_of_tile(m.state, 0), g);
  EXPECT_EQ(m.state.groups[g].tiles, 6);
  EXPECT_EQ(m.state.groups[g].first_tile, 11);
  EXPECT_EQ(m.state.mother_nature, g);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(End, FourGroupsWithoutABuildDoNotEnd) {
  Match m = action_2p();
  make_groups(m.state, {5, 5, 1, 1});
  own(m.state, 0, TowerColor::Black);
  own(m.state, 5, TowerColor::White);
  mn_at(m.state, 10);
  move_and_resolve(m, 5);
  EXPECT_EQ(m.state.phase, Phase::Action);
  EXPECT_EQ(m.state.group_count, 4);
}

TEST(End, LastAssistantEndsTheRoundAfterEveryTurn) {
  Match m = last_card_round();
  m.plan({1, 2});
  EXPECT_TRUE(m.state.last_round);
  EXPECT_EQ(m.state.last_round_reason, EndReason::NoAssistants);
  EXPECT_EQ(m.state.phase, Phase::Action);
  finish_turn(m);
  EXPECT_EQ(m.state.phase, Phase::Action);  // the round is played in full
  EXPECT_EQ(m.state.current_seat(), 1);
  finish_turn(m);
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::NoAssistants);
  EXPECT_EQ(m.state.result.winners, 0b11);  // nothing built, no professor: a draw
}

TEST(End, TwoPlayerGameLastsTenRounds) {
  Match m = started_match(2, Mode::Simple, 17);
  // The island students stay: with no professor owned, nothing is ever built.
  for (int round = 1; round <= 10; ++round) {
    ASSERT_EQ(m.state.round, round);
    ASSERT_EQ(m.state.phase, Phase::Planning);
    EXPECT_EQ(m.state.last_round, false);
    play_round(m, round_cards(round, 2));
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.round, 10);
  EXPECT_EQ(m.state.result.reason, EndReason::NoAssistants);
  EXPECT_EQ(m.state.bag.total(), 106 - 60);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(End, ThreePlayerBagRunsShortInRoundEight) {
  Match m = started_match(3, Mode::Simple, 17);
  // The island students stay: with no professor owned, nothing is ever built.
  for (int round = 1; round <= 7; ++round) {
    ASSERT_EQ(m.state.round, round);
    play_round(m, round_cards(round, 3));
    if (::testing::Test::HasFatalFailure()) return;
  }
  ASSERT_EQ(m.state.round, 8);
  EXPECT_EQ(m.state.bag.total(), 9);  // 93 - 7 * 12
  EXPECT_TRUE(m.state.skip_clouds);
  EXPECT_TRUE(m.state.last_round);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(m.state.clouds[i].students.empty());
  play_round(m, round_cards(8, 3));
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::BagEmpty);
  EXPECT_EQ(m.state.bag.total(), 9);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(End, FourPlayerBagRunsShortInRoundEight) {
  Match m = started_match(4, Mode::Simple, 17);
  // The island students stay: with no professor owned, nothing is ever built.
  for (int round = 1; round <= 7; ++round) {
    play_round(m, round_cards(round, 4));
    if (::testing::Test::HasFatalFailure()) return;
  }
  ASSERT_EQ(m.state.round, 8);
  EXPECT_EQ(m.state.bag.total(), 8);  // 92 - 7 * 12
  EXPECT_TRUE(m.state.skip_clouds);
  play_round(m, round_cards(8, 4));
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::BagEmpty);
  EXPECT_EQ(m.state.result.winners, 0b1111);
}

TEST(End, TieOnTowersBrokenByProfessors) {
  Match m = last_card_round();
  own(m.state, 3, TowerColor::Black);
  own(m.state, 7, TowerColor::White);
  m.state.professors[index(Color::Red)] = 0;
  m.state.professors[index(Color::Blue)] = 1;
  m.state.professors[index(Color::Green)] = 1;
  play_round(m, {1, 2});
  ASSERT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::NoAssistants);
  EXPECT_EQ(m.state.result.winners, 0b10);
}

TEST(End, MoreTowersWinDespiteFewerProfessors) {
  Match m = last_card_round();
  own(m.state, 3, TowerColor::Black);
  own(m.state, 5, TowerColor::Black);
  own(m.state, 7, TowerColor::White);
  m.state.professors[index(Color::Blue)] = 1;
  m.state.professors[index(Color::Green)] = 1;
  m.state.professors[index(Color::Red)] = 1;
  play_round(m, {1, 2});
  ASSERT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.winners, 0b01);
}

TEST(End, FullTieIsADraw) {
  Match m = last_card_round();
  own(m.state, 3, TowerColor::Black);
  own(m.state, 7, TowerColor::White);
  m.state.professors[index(Color::Red)] = 0;
  m.state.professors[index(Color::Blue)] = 1;
  play_round(m, {1, 2});
  ASSERT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.winners, 0b11);
}

TEST(End, ThreePlayerDrawListsOnlyTheTied) {
  Match m = last_card_round(3);
  own(m.state, 3, TowerColor::Black);
  own(m.state, 5, TowerColor::White);
  m.state.professors[index(Color::Red)] = 0;
  m.state.professors[index(Color::Blue)] = 1;
  m.state.professors[index(Color::Green)] = 2;
  play_round(m, {1, 2, 3});
  ASSERT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.winners, 0b011);  // grey built nothing
}

TEST(End, FourPlayersWinAsATeamWithSummedProfessors) {
  Match m = last_card_round(4);
  own(m.state, 3, TowerColor::Black);
  own(m.state, 7, TowerColor::White);
  // Individually seat 1 and seat 2 both have 2, but team black has 3 in all.
  m.state.professors[index(Color::Red)] = 0;
  m.state.professors[index(Color::Blue)] = 2;
  m.state.professors[index(Color::Green)] = 2;
  m.state.professors[index(Color::Yellow)] = 1;
  m.state.professors[index(Color::Pink)] = 1;
  play_round(m, {1, 2, 3, 4});
  ASSERT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::NoAssistants);
  EXPECT_EQ(m.state.result.winners, 0b0101);
}

TEST(End, ForfeitAwardsTheSeatsTeam) {
  Match m = started_match(4, Mode::Simple, 2);
  EXPECT_EQ(code(m, 1, AwardForfeit{}), "SERVER_ONLY");
  m.play(1, AwardForfeit{}, Authority::Server);
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::Forfeit);
  EXPECT_EQ(m.state.result.winners, 0b1010);
  EXPECT_EQ(code(m, 0, AwardForfeit{}, Authority::Server), "MATCH_OVER");
  EXPECT_EQ(code(m, m.state.first_player, PlayAssistant{3}), "MATCH_OVER");
}

TEST(End, ForfeitDuringActionAndNotInSetup) {
  Match m = action_2p();
  m.play(0, MoveToIsland{some_colour(m.state.boards[0].entrance), 3});
  m.play(0, AwardForfeit{}, Authority::Server);
  EXPECT_EQ(m.state.result.reason, EndReason::Forfeit);
  EXPECT_EQ(m.state.result.winners, 0b01);

  Match setup;
  setup.state = apply(State{}, *create_match(MatchOptions{2, Mode::Simple}, 1));
  EXPECT_EQ(code(setup, 0, AwardForfeit{}, Authority::Server), "WRONG_PHASE");
}

TEST(End, AnOperatorEndsAMatchInAnyPhaseWithNoWinner) {
  Match setup;
  setup.state = apply(State{}, *create_match(MatchOptions{3, Mode::Expert}, 5));
  Match planning = started_match(2, Mode::Simple, 4);
  Match action = action_2p();
  for (Match* m : {&setup, &planning, &action}) {
    EXPECT_EQ(code(*m, 0, EndMatch{}), "SERVER_ONLY");
    m->play(0, EndMatch{}, Authority::Server);
    EXPECT_EQ(m->state.phase, Phase::GameOver);
    EXPECT_EQ(m->state.result.reason, EndReason::Ended);
    EXPECT_EQ(m->state.result.winners, 0);
    EXPECT_EQ(code(*m, 0, EndMatch{}, Authority::Server), "MATCH_OVER");
  }
  EXPECT_EQ(code(Match{}, 0, EndMatch{}, Authority::Server), "WRONG_PHASE");  // not created
}

TEST(End, TheServerAbandonsAMatchBeingPlayedWithNoWinner) {
  Match setup;
  setup.state = apply(State{}, *create_match(MatchOptions{3, Mode::Expert}, 5));
  // A match that never started is given up without an event (docs/protocol.md 7.8).
  EXPECT_EQ(code(setup, 0, AbandonMatch{}, Authority::Server), "WRONG_PHASE");
  Match planning = started_match(2, Mode::Simple, 4);
  Match action = action_2p();
  for (Match* m : {&planning, &action}) {
    EXPECT_EQ(code(*m, 0, AbandonMatch{}), "SERVER_ONLY");
    m->play(0, AbandonMatch{}, Authority::Server);
    EXPECT_EQ(m->state.phase, Phase::GameOver);
    EXPECT_EQ(m->state.result.reason, EndReason::Abandoned);
    EXPECT_EQ(m->state.result.winners, 0);
    EXPECT_EQ(end_reason_name(m->state.result.reason), "abandoned");
    EXPECT_EQ(code(*m, 0, AbandonMatch{}, Authority::Server), "MATCH_OVER");
  }
}

}  // namespace
}  // namespace eryantis::rules
