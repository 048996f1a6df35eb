// Rules tests: action (see docs/rules.md).
#include "scenario.hpp"  // the rules tests' preamble: gtest, Match, the scenario helpers

namespace eryantis::rules {
namespace {

using namespace scenario;

TEST(Action, MoveToDiningTakesTheProfessorOnlyWithStrictlyMore) {
  Match m = action_2p();
  set_entrance(m.state, 0, st({{Color::Red, 3}, {Color::Blue, 4}}));
  set_dining(m.state, 1, Color::Red, 1);
  m.state.professors[index(Color::Red)] = 1;
  m.play(0, MoveToDining{Color::Red});
  EXPECT_EQ(m.state.boards[0].dining[Color::Red], 1);
  EXPECT_EQ(m.state.boards[0].entrance[Color::Red], 2);
  EXPECT_EQ(m.state.professors[index(Color::Red)], 1);  // 1-1: it stays with its owner
  m.play(0, MoveToDining{Color::Red});
  EXPECT_EQ(m.state.professors[index(Color::Red)], 0);  // 2-1
  m.play(0, MoveToDining{Color::Blue});
  EXPECT_EQ(m.state.professors[index(Color::Blue)], 0);  // 1-0 from the supply
  EXPECT_EQ(m.state.turn.students_moved, 3);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Action, TieWithUnownedProfessorLeavesItInTheSupply) {
  Match m = action_2p();
  set_entrance(m.state, 0, st({{Color::Green, 7}}));
  set_dining(m.state, 1, Color::Green, 1);  // arranged: seat 1 has one, professor unowned
  m.play(0, MoveToDining{Color::Green});
  EXPECT_EQ(m.state.professors[index(Color::Green)], kNoSeat);
}

TEST(Action, StudentMoveRefusals) {
  Match m = action_2p();
  set_entrance(m.state, 0, st({{Color::Red, 5}, {Color::Blue, 2}}));
  set_dining(m.state, 0, Color::Red, 10);
  EXPECT_EQ(code(m, 0, MoveToDining{Color::Green}), "STUDENT_NOT_IN_ENTRANCE");
  EXPECT_EQ(code(m, 0, MoveToIsland{Color::Green, 2}), "STUDENT_NOT_IN_ENTRANCE");
  EXPECT_EQ(code(m, 0, MoveToDining{Color::Red}), "DINING_TABLE_FULL");
  EXPECT_EQ(code(m, 0, MoveToIsland{Color::Red, 2}), "ACCEPTED");  // a full table: use an island
  EXPECT_EQ(code(m, 0, MoveToIsland{Color::Red, 12}), "NO_SUCH_ISLAND");
  EXPECT_EQ(code(m, 1, MoveToIsland{Color::Red, 2}), "NOT_YOUR_TURN");
  EXPECT_EQ(code(m, 0, PlayAssistant{3}), "WRONG_PHASE");
  EXPECT_EQ(code(m, 2, MoveToIsland{Color::Red, 2}), "INVALID_SEAT");
}

TEST(Action, ExactlyThreeMovesBeforeMotherNature) {
  Match m = action_2p();
  EXPECT_EQ(code(m, 0, MoveMotherNature{1}), "STUDENTS_NOT_MOVED");
  EXPECT_EQ(code(m, 0, ChooseCloud{0}), "MOTHER_NATURE_NOT_MOVED");
  for (int i = 0; i < 2; ++i) m.play(0, MoveToIsland{some_colour(m.state.boards[0].entrance), 5});
  EXPECT_EQ(code(m, 0, MoveMotherNature{1}), "STUDENTS_NOT_MOVED");
  m.play(0, MoveToIsland{some_colour(m.state.boards[0].entrance), 5});
  EXPECT_EQ(m.state.boards[0].entrance.total(), 4);
  EXPECT_EQ(m.state.groups[5].students.total(), 3);
  EXPECT_EQ(code(m, 0, MoveToIsland{some_colour(m.state.boards[0].entrance), 5}),
            "NO_STUDENT_MOVES_LEFT");
  EXPECT_EQ(code(m, 0, MoveToDining{some_colour(m.state.boards[0].entrance)}),
            "NO_STUDENT_MOVES_LEFT");
  EXPECT_EQ(code(m, 0, MoveMotherNature{1}), "ACCEPTED");
}

TEST(Action, ThreePlayersMoveFourAndTakeFour) {
  Match m = started_match(3, Mode::Simple, 4);
  neutralize(m.state);
  m.plan({1, 2, 3});
  ASSERT_EQ(m.state.current_seat(), 0);
  EXPECT_EQ(m.state.boards[0].entrance.total(), 9);
  move_rest_to_island(m, 4);
  EXPECT_EQ(m.state.turn.students_moved, 4);
  EXPECT_EQ(m.state.boards[0].entrance.total(), 5);
  m.play(0, MoveMotherNature{1});
  m.play(0, ChooseCloud{2});
  EXPECT_EQ(m.state.boards[0].entrance.total(), 9);
  EXPECT_EQ(m.state.current_seat(), 1);
  m.play(1, MoveToIsland{some_colour(m.state.boards[1].entrance), 0});
  m.play(1, MoveToIsland{some_colour(m.state.boards[1].entrance), 0});
  m.play(1, MoveToIsland{some_colour(m.state.boards[1].entrance), 0});
  EXPECT_EQ(code(m, 1, MoveMotherNature{1}), "STUDENTS_NOT_MOVED");
}

TEST(Action, FourPlayersCloudsOfThree) {
  Match m = started_match(4, Mode::Simple, 4);
  neutralize(m.state);
  m.plan({1, 2, 3, 4});
  for (int i = 0; i < 4; ++i) EXPECT_EQ(m.state.clouds[i].students.total(), 3);
  finish_turn(m);
  EXPECT_EQ(m.state.boards[0].entrance.total(), 7);
  EXPECT_TRUE(m.state.clouds[0].taken);
  EXPECT_EQ(m.state.current_seat(), 1);
  EXPECT_EQ(code(m, 0, MoveToIsland{some_colour(m.state.boards[0].entrance), 0}), "NOT_YOUR_TURN");
}

TEST(Action, IslandsAreAddressedByAnyTileOfTheirGroup) {
  Match m = action_2p();
  make_groups(m.state, {3, 2, 1, 1, 1, 1, 1, 1, 1});
  const Color c = some_colour(m.state.boards[0].entrance);
  m.play(0, MoveToIsland{c, 2});
  m.play(0, MoveToIsland{some_colour(m.state.boards[0].entrance), 4});
  EXPECT_EQ(m.state.groups[0].students.total(), 1);
  EXPECT_EQ(m.state.groups[0].students[c], 1);
  EXPECT_EQ(m.state.groups[1].students.total(), 1);
  EXPECT_EQ(group_of_tile(m.state, 0), 0);
  EXPECT_EQ(group_of_tile(m.state, 2), 0);
  EXPECT_EQ(group_of_tile(m.state, 3), 1);
  EXPECT_EQ(group_of_tile(m.state, 11), 8);
}

TEST(Action, PlacingAStudentOnAnIslandResolvesNothing) {
  Match m = action_2p();
  set_entrance(m.state, 0, st({{Color::Red, 7}}));
  m.state.professors[index(Color::Red)] = 0;
  m.play(0, MoveToIsland{Color::Red, 0});  // Mother Nature's own island
  m.play(0, MoveToIsland{Color::Red, 1});
  EXPECT_FALSE(m.state.groups[0].tower.has_value());
  EXPECT_FALSE(m.state.groups[1].tower.has_value());
  EXPECT_EQ(m.state.boards[0].towers, 8);
}

TEST(Action, MotherNatureMovement) {
  Match m = action_2p(Mode::Simple, 5);  // assistant 5: up to 3 steps
  make_groups(m.state, {3, 1, 2, 1, 1, 1, 1, 1, 1});
  move_rest_to_island(m, 11);
  EXPECT_EQ(code(m, 0, MoveMotherNature{0}), "MOTHER_NATURE_MUST_MOVE");
  EXPECT_EQ(code(m, 0, MoveMotherNature{4}), "MOTHER_NATURE_TOO_FAR");
  EXPECT_EQ(code(m, 0, MoveMotherNature{3}), "ACCEPTED");
  m.play(0, MoveMotherNature{3});
  EXPECT_EQ(m.state.mother_nature, 3);  // a group counts as a single step
  EXPECT_EQ(m.state.groups[m.state.mother_nature].first_tile, 6);
  EXPECT_EQ(code(m, 0, MoveMotherNature{1}), "MOTHER_NATURE_ALREADY_MOVED");
  EXPECT_EQ(code(m, 0, MoveToIsland{some_colour(m.state.boards[0].entrance), 1}),
            "NO_STUDENT_MOVES_LEFT");
}

TEST(Action, MotherNatureLimitFollowsTheAssistant) {
  for (int value = 1; value <= 9; ++value) {
    Match m = action_2p(Mode::Simple, value);
    move_rest_to_island(m, 11);
    const int limit = (value + 1) / 2;
    EXPECT_EQ(code(m, 0, MoveMotherNature{u8(limit)}), "ACCEPTED") << value;
    EXPECT_EQ(code(m, 0, MoveMotherNature{u8(limit + 1)}), "MOTHER_NATURE_TOO_FAR") << value;
  }
}

TEST(Action, ChooseCloudFillsTheEntranceAndEndsTheTurn) {
  Match m = action_2p();
  move_rest_to_island(m, 6);
  m.play(0, MoveMotherNature{1});
  EXPECT_EQ(code(m, 0, ChooseCloud{2}), "NO_SUCH_CLOUD");
  const Students cloud = m.state.clouds[1].students;
  const Students entrance = m.state.boards[0].entrance;
  m.play(0, ChooseCloud{1});
  Students expected = entrance;
  expected.add(cloud);
  EXPECT_TRUE(m.state.boards[0].entrance == expected);
  EXPECT_EQ(m.state.boards[0].entrance.total(), 7);
  EXPECT_TRUE(m.state.clouds[1].students.empty());
  EXPECT_TRUE(m.state.clouds[1].taken);
  EXPECT_EQ(m.state.current_seat(), 1);
  EXPECT_TRUE(m.state.turn == TurnState{});
  move_rest_to_island(m, 6);
  m.play(1, MoveMotherNature{1});
  EXPECT_EQ(code(m, 1, ChooseCloud{1}), "CLOUD_UNAVAILABLE");
  m.play(1, ChooseCloud{0});
  // Round over: next planning, first player = lowest assistant (seat 0 played 1).
  EXPECT_EQ(m.state.phase, Phase::Planning);
  EXPECT_EQ(m.state.round, 2);
  EXPECT_EQ(m.state.current_seat(), 0);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Action, EmptyCloudIsUnavailable) {
  Match m = action_2p();
  m.state.bag.add(m.state.clouds[0].students);  // arranged: cloud 0 left empty
  m.state.clouds[0].students = Students{};
  move_rest_to_island(m, 6);
  m.play(0, MoveMotherNature{1});
  EXPECT_EQ(code(m, 0, ChooseCloud{0}), "CLOUD_UNAVAILABLE");
  EXPECT_EQ(code(m, 0, ChooseCloud{1}), "ACCEPTED");
}

TEST(Action, CoinsOnTheThirdSixthAndNinthSeat) {
  Match m = action_2p(Mode::Expert);
  set_entrance(m.state, 0, st({{Color::Red, 3}, {Color::Blue, 2}, {Color::Green, 2}}));
  set_dining(m.state, 0, Color::Red, 2);
  set_dining(m.state, 0, Color::Blue, 5);
  set_dining(m.state, 0, Color::Green, 8);
  const int supply = m.state.supply;
  m.play(0, MoveToDining{Color::Red});  // 3rd seat
  EXPECT_EQ(m.state.boards[0].coins, 2);
  m.play(0, MoveToDining{Color::Blue});  // 6th
  EXPECT_EQ(m.state.boards[0].coins, 3);
  m.play(0, MoveToDining{Color::Green});  // 9th
  EXPECT_EQ(m.state.boards[0].coins, 4);
  EXPECT_EQ(m.state.supply, supply - 3);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Action, NoCoinOnOtherSeatsOrInSimpleMode) {
  Match expert = action_2p(Mode::Expert);
  set_entrance(expert.state, 0, st({{Color::Red, 7}}));
  set_dining(expert.state, 0, Color::Red, 3);
  expert.play(0, MoveToDining{Color::Red});  // 4th
  expert.play(0, MoveToDining{Color::Red});  // 5th
  EXPECT_EQ(expert.state.boards[0].coins, 1);

  Match simple = action_2p(Mode::Simple);
  set_entrance(simple.state, 0, st({{Color::Red, 7}}));
  set_dining(simple.state, 0, Color::Red, 2);
  simple.play(0, MoveToDining{Color::Red});
  EXPECT_EQ(simple.state.boards[0].coins, 0);
  EXPECT_EQ(simple.state.supply, 0);
}

TEST(Action, FourPlayersTakeAProfessorFromATeammate) {
  Match m = started_match(4, Mode::Simple, 3);
  neutralize(m.state);
  m.plan({2, 3, 1, 4});
  ASSERT_EQ(m.state.current_seat(), 2);
  set_entrance(m.state, 2, st({{Color::Pink, 7}}));
  set_dining(m.state, 0, Color::Pink, 1);
  m.state.professors[index(Color::Pink)] = 0;
  m.play(2, MoveToDining{Color::Pink});
  EXPECT_EQ(m.state.professors[index(Color::Pink)], 0);
  m.play(2, MoveToDining{Color::Pink});
  EXPECT_EQ(m.state.professors[index(Color::Pink)], 2);  // individual count, not the team's
  EXPECT_EQ(m.state.boards[0].dining[Color::Pink], 1);   // a teammate's room is not touched
}

TEST(Action, ServerCommandsFromAPlayerAreRefused) {
  Match m = action_2p();
  EXPECT_EQ(code(m, 0, SkipTurn{}), "SERVER_ONLY");
  EXPECT_EQ(code(m, 0, AwardForfeit{}), "SERVER_ONLY");
  EXPECT_EQ(code(m, 0, SkipTurn{}, Authority::Server), "ACCEPTED");
  EXPECT_EQ(code(m, 1, SkipTurn{}, Authority::Server), "NOT_YOUR_TURN");
}

TEST(Action, CheckNeverChangesTheState) {
  Match m = action_2p(Mode::Expert, 3, {CharacterId::Monk});
  const State before = m.state;
  for (Seat seat : {Seat{0}, Seat{1}})
    for (const Command& c : legal_commands(m.state, 0)) {
      (void)check(m.state, seat, c);
      (void)check(m.state, seat, c, Authority::Server);
    }
  (void)check(m.state, 0, MoveMotherNature{1});
  EXPECT_TRUE(m.state == before);
}

TEST(Action, OutOfRangeColoursAreInvalid) {
  Match m = action_2p(Mode::Expert, 1,
                      {CharacterId::Thief, CharacterId::MushroomHunter, CharacterId::Monk});
  set_coins(m.state, 0, 3);
  const auto bad = static_cast<Color>(9);
  EXPECT_EQ(code(m, 0, MoveToDining{bad}), "INVALID_COMMAND");
  EXPECT_EQ(code(m, 0, MoveToIsland{bad, 1}), "INVALID_COMMAND");
  EXPECT_EQ(code(m, 0, UseThief{bad}), "INVALID_COMMAND");
  EXPECT_EQ(code(m, 0, UseMushroomHunter{bad}), "INVALID_COMMAND");
  EXPECT_EQ(code(m, 0, UseMonk{bad, 1}), "STUDENT_NOT_ON_CARD");
}

}  // namespace
}  // namespace eryantis::rules
