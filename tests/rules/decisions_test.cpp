// Rules tests: decisions (see docs/rules.md).
#include "scenario.hpp"  // the rules tests' preamble: gtest, Match, the scenario helpers

namespace eryantis::rules {
namespace {

using namespace scenario;

// Seat `current` moves its students to `away` and Mother Nature `steps` steps.
void move_and_resolve(Match& m, int away, int steps = 1) {
  move_rest_to_island(m, away);
  m.play(m.state.current_seat(), MoveMotherNature{u8(steps)});
}

const CharacterCard& card_of(const Match& m, CharacterId id) {
  return m.state.characters[slot_of(m.state, id)];
}

// 3p expert, seat 0 acting first with the Minstrel and `coins` coins, islands empty.
Match minstrel_3p() {
  Match m = started_match(3, Mode::Expert, 8);
  install(m.state, {CharacterId::Minstrel});
  neutralize(m.state);
  m.plan({1, 2, 3});
  set_entrance(m.state, 0, st({{Color::Green, 9}}));
  return m;
}

// A 2p match whose bag holds `keep` students when round 2 starts (the rest lie on tile 6).
Match bag_left_for_round_two(int keep, Mode mode = Mode::Simple,
                             std::initializer_list<CharacterId> ids = {}) {
  Match m = started_match(2, mode, 13);
  if (mode == Mode::Expert) install(m.state, ids);
  neutralize(m.state);
  shrink_bag(m.state, keep, 6);
  play_round(m, {1, 2});
  return m;
}

// --- 1 --------------------------------------------------------------------------------------

TEST(Decisions, D01_DoubleMergeFromFourToTwoGroupsEndsTheGame) {
  Match m = action_2p();
  make_groups(m.state, {3, 1, 3, 5});
  own(m.state, 0, TowerColor::Black);
  own(m.state, 4, TowerColor::Black);
  own(m.state, 7, TowerColor::White);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 3, Color::Red, 1);
  move_and_resolve(m, 7);
  EXPECT_EQ(m.state.group_count, 2);
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::ThreeGroups);
  EXPECT_EQ(m.state.result.winners, 0b01);  // black built 7, white 5
  EXPECT_EQ(m.state.groups[0].first_tile, 0);
  EXPECT_EQ(m.state.groups[0].tiles, 7);
  EXPECT_EQ(m.state.groups[0].towers, 7);
  EXPECT_EQ(m.state.boards[0].towers, 1);
  EXPECT_EQ(m.state.mother_nature, 0);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- 2 --------------------------------------------------------------------------------------

TEST(Decisions, D02_ShortBagFillsNoCloudAndSkipsTheCloudStep) {
  Match m = bag_left_for_round_two(5);
  ASSERT_EQ(m.state.round, 2);
  EXPECT_EQ(m.state.phase, Phase::Planning);
  EXPECT_EQ(m.state.bag.total(), 5);  // the students stay in the bag
  for (int i = 0; i < 2; ++i) EXPECT_TRUE(m.state.clouds[i].students.empty());
  EXPECT_TRUE(m.state.skip_clouds);
  EXPECT_TRUE(m.state.last_round);
  EXPECT_EQ(m.state.last_round_reason, EndReason::BagEmpty);
  m.plan({3, 4});
  const Seat first = m.state.current_seat();
  move_rest_to_island(m, 2);
  m.play(first, MoveMotherNature{1});
  EXPECT_NE(m.state.current_seat(), first);  // the turn ended with Mother Nature
  EXPECT_EQ(m.state.boards[first].entrance.total(), 4);
  finish_turn(m);
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::BagEmpty);
  EXPECT_EQ(m.state.result.winners, 0b11);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Decisions, D02_RefillThatEmptiesTheBagExactlyFillsCloudsAndIsTheLastRound) {
  Match m = bag_left_for_round_two(6);
  ASSERT_EQ(m.state.round, 2);
  EXPECT_EQ(m.state.bag.total(), 0);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(m.state.clouds[i].students.total(), 3);
  EXPECT_FALSE(m.state.skip_clouds);
  EXPECT_TRUE(m.state.last_round);
  EXPECT_EQ(m.state.last_round_reason, EndReason::BagEmpty);
  m.plan({3, 4});
  move_rest_to_island(m, 2);
  m.play(0, MoveMotherNature{1});
  EXPECT_EQ(code(m, 0, ChooseCloud{0}), "ACCEPTED");
  m.play(0, ChooseCloud{0});
  finish_turn(m);
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::BagEmpty);
}

TEST(Decisions, D02_OneStudentMoreThanNeededIsNotTheLastRound) {
  Match m = bag_left_for_round_two(7);
  EXPECT_EQ(m.state.bag.total(), 1);
  EXPECT_FALSE(m.state.last_round);
  EXPECT_FALSE(m.state.skip_clouds);
}

// --- 3 --------------------------------------------------------------------------------------

TEST(Decisions, D03_MonkDrawingTheLastStudentEndsTheRoundThiefDoesNotCancel) {
  Match m = started_match(2, Mode::Expert, 13);
  install(m.state, {CharacterId::Monk, CharacterId::Thief});
  neutralize(m.state);
  m.plan({1, 2});
  set_dining(m.state, 1, Color::Red, 2);
  set_coins(m.state, 1, 3);
  shrink_bag(m.state, 1, 6);
  const Color on_card = some_colour(card_of(m, CharacterId::Monk).students);
  m.play(0, UseMonk{on_card, 3});
  EXPECT_EQ(m.state.bag.total(), 0);
  EXPECT_TRUE(m.state.last_round);
  EXPECT_EQ(m.state.last_round_reason, EndReason::BagEmpty);
  finish_turn(m);
  ASSERT_EQ(m.state.current_seat(), 1);
  m.play(1, UseThief{Color::Red});
  EXPECT_EQ(m.state.bag.total(), 2);
  EXPECT_TRUE(m.state.last_round);
  finish_turn(m);
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::BagEmpty);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Decisions, D03_PrincessDrawingTheLastStudentMakesTheRoundTheLast) {
  Match m = started_match(2, Mode::Expert, 13);
  install(m.state, {CharacterId::Princess});
  neutralize(m.state);
  m.plan({1, 2});
  set_coins(m.state, 0, 2);
  shrink_bag(m.state, 1, 6);
  m.play(0, UsePrincess{some_colour(card_of(m, CharacterId::Princess).students)});
  EXPECT_TRUE(m.state.last_round);
  finish_turn(m);
  finish_turn(m);
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::BagEmpty);
}

// --- 4 --------------------------------------------------------------------------------------

TEST(Decisions, D04_RemovalGivesTheProfessorToTheUniqueLeader) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Minstrel});
  set_dining(m.state, 0, Color::Blue, 3);
  set_dining(m.state, 1, Color::Blue, 3);
  m.state.professors[index(Color::Blue)] = 0;
  set_entrance(m.state, 0, st({{Color::Green, 7}}));
  m.play(0, UseMinstrel{st({{Color::Green, 1}}), st({{Color::Blue, 1}})});
  EXPECT_EQ(m.state.professors[index(Color::Blue)], 1);
}

TEST(Decisions, D04_SharedMaximumKeepsTheHolder) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Thief});
  set_coins(m.state, 0, 3);
  set_dining(m.state, 0, Color::Red, 4);
  set_dining(m.state, 1, Color::Red, 4);
  m.state.professors[index(Color::Red)] = 1;
  m.play(0, UseThief{Color::Red});
  EXPECT_EQ(m.state.boards[0].dining[Color::Red], 1);
  EXPECT_EQ(m.state.boards[1].dining[Color::Red], 1);
  EXPECT_EQ(m.state.professors[index(Color::Red)], 1);
}

TEST(Decisions, D04_EveryoneAtZeroKeepsTheHolder) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Thief});
  set_coins(m.state, 0, 3);
  set_dining(m.state, 0, Color::Pink, 3);
  set_dining(m.state, 1, Color::Pink, 1);
  m.state.professors[index(Color::Pink)] = 0;
  m.play(0, UseThief{Color::Pink});
  EXPECT_EQ(m.state.boards[0].dining[Color::Pink], 0);
  EXPECT_EQ(m.state.professors[index(Color::Pink)], 0);
}

// --- 5 --------------------------------------------------------------------------------------

TEST(Decisions, D05_FarmerRechecksEveryColourAndKeepsWhatItTook) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Farmer});
  set_coins(m.state, 0, 2);
  for (Color c : {Color::Red, Color::Blue, Color::Pink}) {
    set_dining(m.state, 0, c, 2);
    set_dining(m.state, 1, c, 2);
    m.state.professors[index(c)] = 1;
  }
  set_dining(m.state, 1, Color::Pink, 3);
  set_dining(m.state, 1, Color::Green, 1);
  m.state.professors[index(Color::Green)] = 1;
  set_entrance(m.state, 0, st({{Color::Green, 1}, {Color::Yellow, 6}}));
  m.play(0, UseFarmer{});
  EXPECT_EQ(m.state.professors[index(Color::Red)], 0);
  EXPECT_EQ(m.state.professors[index(Color::Blue)], 0);
  EXPECT_EQ(m.state.professors[index(Color::Pink)], 1);
  m.play(0, MoveToDining{Color::Green});  // a later placement: 1-1 wins too
  EXPECT_EQ(m.state.professors[index(Color::Green)], 0);
  finish_turn(m);
  ASSERT_EQ(m.state.current_seat(), 1);
  EXPECT_EQ(m.state.professors[index(Color::Red)], 0);
  EXPECT_EQ(m.state.professors[index(Color::Blue)], 0);
  EXPECT_EQ(m.state.professors[index(Color::Green)], 0);
}

// --- 6 --------------------------------------------------------------------------------------

TEST(Decisions, D06_EffectsEndWithTheActivatorsTurn) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::MushroomHunter, CharacterId::Postman});
  set_coins(m.state, 0, 3);
  m.play(0, UseMushroomHunter{Color::Blue});
  EXPECT_EQ(m.state.turn.active, CharacterId::MushroomHunter);
  finish_turn(m);  // Mother Nature to tile 1 (empty)
  ASSERT_EQ(m.state.current_seat(), 1);
  EXPECT_TRUE(m.state.turn == TurnState{});
  m.state.professors[index(Color::Blue)] = 1;
  put_island(m.state, 2, Color::Blue, 1);
  move_and_resolve(m, 8);
  EXPECT_EQ(m.state.groups[2].tower, TowerColor::White);  // blue counts again
}

TEST(Decisions, D06_PostmanDoesNotCarryOver) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Postman});
  m.play(0, UsePostman{});
  finish_turn(m);
  ASSERT_EQ(m.state.current_seat(), 1);
  move_rest_to_island(m, 8);
  EXPECT_EQ(code(m, 1, MoveMotherNature{5}), "ACCEPTED");  // assistant 10: 5 steps
  EXPECT_EQ(code(m, 1, MoveMotherNature{6}), "MOTHER_NATURE_TOO_FAR");
}

// --- 7 --------------------------------------------------------------------------------------

TEST(Decisions, D07_HeraldOnANoEntryIslandOnlyReturnsTheTile) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Herald, CharacterId::GrandmaHerbs});
  set_coins(m.state, 0, 3);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 5, Color::Red, 2);
  m.state.characters[slot_of(m.state, CharacterId::GrandmaHerbs)].no_entry = 3;
  m.state.groups[5].no_entry = 1;
  m.play(0, UseHerald{5});
  EXPECT_FALSE(m.state.groups[5].tower.has_value());
  EXPECT_EQ(m.state.groups[5].no_entry, 0);
  EXPECT_EQ(card_of(m, CharacterId::GrandmaHerbs).no_entry, 4);
  EXPECT_EQ(m.state.boards[0].towers, 8);
  EXPECT_EQ(m.state.boards[0].coins, 0);  // paid all the same
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- 8 --------------------------------------------------------------------------------------

TEST(Decisions, D08_NoEntryTilesStackOneConsumedPerStop) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::GrandmaHerbs});
  set_coins(m.state, 0, 2);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 1, Color::Red, 2);
  m.state.characters[slot_of(m.state, CharacterId::GrandmaHerbs)].no_entry = 3;
  m.state.groups[1].no_entry = 1;
  m.play(0, UseGrandmaHerbs{1});  // a second tile on the same island
  EXPECT_EQ(m.state.groups[1].no_entry, 2);
  move_and_resolve(m, 8);
  EXPECT_EQ(m.state.groups[1].no_entry, 1);
  EXPECT_EQ(card_of(m, CharacterId::GrandmaHerbs).no_entry, 3);
  EXPECT_FALSE(m.state.groups[1].tower.has_value());
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Decisions, D08_MergedGroupsKeepAllTiles) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::GrandmaHerbs});
  own(m.state, 2, TowerColor::Black);
  m.state.characters[slot_of(m.state, CharacterId::GrandmaHerbs)].no_entry = 2;
  m.state.groups[2].no_entry = 2;
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 1, Color::Red, 1);
  move_and_resolve(m, 8);
  const int g = group_of_tile(m.state, 1);
  EXPECT_EQ(group_of_tile(m.state, 2), g);
  EXPECT_EQ(m.state.groups[g].tiles, 2);
  EXPECT_EQ(m.state.groups[g].no_entry, 2);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- 9 --------------------------------------------------------------------------------------

TEST(Decisions, D09_CoinReearnedAfterMinstrel) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Minstrel});
  set_dining(m.state, 0, Color::Red, 3);  // its 3rd-seat coin was earned long ago
  set_entrance(m.state, 0, st({{Color::Green, 4}, {Color::Red, 3}}));
  m.play(0, UseMinstrel{st({{Color::Green, 1}}), st({{Color::Red, 1}})});
  EXPECT_EQ(m.state.boards[0].coins, 0);
  m.play(0, MoveToDining{Color::Red});  // back to 3
  EXPECT_EQ(m.state.boards[0].coins, 1);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Decisions, D09_CoinReearnedAfterThief) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Thief});
  set_coins(m.state, 0, 3);
  set_dining(m.state, 0, Color::Red, 6);
  set_entrance(m.state, 0, st({{Color::Red, 7}}));
  m.play(0, UseThief{Color::Red});
  EXPECT_EQ(m.state.boards[0].dining[Color::Red], 3);
  EXPECT_EQ(m.state.boards[0].coins, 0);
  for (int i = 0; i < 3; ++i) m.play(0, MoveToDining{Color::Red});
  EXPECT_EQ(m.state.boards[0].coins, 1);  // 6th seat again
}

TEST(Decisions, D09_NoCoinWhileTheSupplyIsEmpty) {
  Match m = action_2p(Mode::Expert);
  give_coins(m.state, 1, m.state.supply);
  ASSERT_EQ(m.state.supply, 0);
  set_dining(m.state, 0, Color::Red, 2);
  set_entrance(m.state, 0, st({{Color::Red, 7}}));
  m.play(0, MoveToDining{Color::Red});
  EXPECT_EQ(m.state.boards[0].dining[Color::Red], 3);
  EXPECT_EQ(m.state.boards[0].coins, 1);
  EXPECT_EQ(m.state.supply, 0);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- 10 -------------------------------------------------------------------------------------

TEST(Decisions, D10_FirstUseLeavesOneCoinOnTheCard) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Knight});
  set_coins(m.state, 0, 2);
  set_coins(m.state, 1, 3);
  const int supply = m.state.supply;
  m.play(0, UseKnight{});
  EXPECT_EQ(m.state.boards[0].coins, 0);
  EXPECT_EQ(m.state.supply, supply + 1);
  EXPECT_TRUE(card_of(m, CharacterId::Knight).used);
  EXPECT_EQ(card_of(m, CharacterId::Knight).cost(), 3);
  EXPECT_EQ(invariant_violation(m.state), "");
  finish_turn(m);
  m.play(1, UseKnight{});
  EXPECT_EQ(m.state.boards[1].coins, 0);
  EXPECT_EQ(m.state.supply, supply + 4);
  EXPECT_EQ(card_of(m, CharacterId::Knight).cost(), 3);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- 11 -------------------------------------------------------------------------------------

TEST(Decisions, D11_OneActivationAtAnyTimeOfTheOwnActionTurn) {
  // Between two student moves.
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Knight, CharacterId::Postman});
  set_coins(m.state, 0, 3);
  m.play(0, MoveToIsland{some_colour(m.state.boards[0].entrance), 5});
  m.play(0, UseKnight{});
  EXPECT_EQ(code(m, 0, UsePostman{}), "CHARACTER_ALREADY_USED_THIS_TURN");
  move_rest_to_island(m, 5);
  m.play(0, MoveMotherNature{1});
  m.play(0, ChooseCloud{0});
  EXPECT_EQ(code(m, 0, UsePostman{}), "NOT_YOUR_TURN");  // the turn is over
  // The next turn may use one again, also after Mother Nature, before the cloud.
  set_coins(m.state, 1, 1);
  move_rest_to_island(m, 5);
  m.play(1, MoveMotherNature{1});
  EXPECT_EQ(code(m, 1, UsePostman{}), "ACCEPTED");
  m.play(1, ChooseCloud{1});
  // Never in planning.
  ASSERT_EQ(m.state.phase, Phase::Planning);
  EXPECT_EQ(code(m, m.state.current_seat(), UsePostman{}), "WRONG_PHASE");
}

TEST(Decisions, D11_ImpossibleActivationsAreRefused) {
  Match m = action_2p(Mode::Expert, 1,
                      {CharacterId::Monk, CharacterId::GrandmaHerbs, CharacterId::Princess});
  set_coins(m.state, 0, 5);
  set_card_students(m.state, CharacterId::Monk, Students{});
  set_card_students(m.state, CharacterId::Princess, st({{Color::Blue, 4}}));
  set_dining(m.state, 0, Color::Blue, 10);
  m.state.characters[slot_of(m.state, CharacterId::GrandmaHerbs)].no_entry = 0;
  m.state.groups[7].no_entry = 4;
  EXPECT_EQ(code(m, 0, UseMonk{Color::Red, 3}), "STUDENT_NOT_ON_CARD");
  EXPECT_EQ(code(m, 0, UseGrandmaHerbs{3}), "NO_ENTRY_TILES_EXHAUSTED");
  EXPECT_EQ(code(m, 0, UsePrincess{Color::Blue}), "DINING_TABLE_FULL");
  for (const Command& c : legal_commands(m.state, 0))
    EXPECT_FALSE(command_character(c).has_value());
  EXPECT_EQ(m.state.boards[0].coins, 5);
  EXPECT_FALSE(m.state.turn.character_used);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Decisions, D11_CharacterMovesAreNotMandatoryMoves) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Princess});
  set_coins(m.state, 0, 2);
  m.play(0, UsePrincess{some_colour(card_of(m, CharacterId::Princess).students)});
  EXPECT_EQ(m.state.turn.students_moved, 0);
  EXPECT_EQ(code(m, 0, MoveMotherNature{1}), "STUDENTS_NOT_MOVED");
  move_rest_to_island(m, 5);
  EXPECT_EQ(m.state.turn.students_moved, 3);
  EXPECT_EQ(m.state.boards[0].entrance.total(), 4);
}

// --- 12 -------------------------------------------------------------------------------------

TEST(Decisions, D12_LaterPlanningStartsWithTheLowestAssistantThenClockwise) {
  Match m = started_match(4, Mode::Simple, 31);
  neutralize(m.state);
  play_round(m, {8, 5, 2, 9});
  ASSERT_EQ(m.state.round, 2);
  EXPECT_EQ(m.state.first_player, 2);
  EXPECT_EQ(m.state.order[0], 2);
  EXPECT_EQ(m.state.order[1], 3);
  EXPECT_EQ(m.state.order[2], 0);
  EXPECT_EQ(m.state.order[3], 1);
  play_round(m, {1, 6, 3, 4});
  ASSERT_EQ(m.state.round, 3);
  EXPECT_EQ(m.state.first_player, 0);
  EXPECT_EQ(m.state.current_seat(), 0);
}

// --- 13 -------------------------------------------------------------------------------------

TEST(Decisions, D13_ZeroZeroBuildsNothingKnightWinsAnEmptyIsland) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Knight});
  Match plain = m;
  move_and_resolve(plain, 8);
  EXPECT_FALSE(plain.state.groups[1].tower.has_value());
  set_coins(m.state, 0, 2);
  m.play(0, UseKnight{});
  move_and_resolve(m, 8);
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::Black);
  EXPECT_EQ(m.state.boards[0].towers, 7);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- 14 -------------------------------------------------------------------------------------

TEST(Decisions, D14_CentaurIgnoresAllTowersEvenTheActivators) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Centaur});
  set_coins(m.state, 0, 3);
  own(m.state, 1, TowerColor::Black);
  m.state.professors[index(Color::Blue)] = 1;
  put_island(m.state, 1, Color::Blue, 1);
  Match plain = m;
  move_and_resolve(plain, 8);
  EXPECT_EQ(plain.state.groups[1].tower, TowerColor::Black);  // tower 1 vs 1 blue
  m.play(0, UseCentaur{});
  move_and_resolve(m, 8);
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::White);
  EXPECT_EQ(m.state.boards[0].towers, 8);
  EXPECT_EQ(m.state.boards[1].towers, 7);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- 15 -------------------------------------------------------------------------------------

TEST(Decisions, D15_TowerShortagePlacesWhatIsLeftAndWins) {
  Match m = action_2p();
  make_groups(m.state, {6, 1, 3, 1, 1});
  own(m.state, 0, TowerColor::Black);  // black has 2 left
  own(m.state, 7, TowerColor::White);  // tiles 7..9
  mn_at(m.state, 6);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 8, Color::Red, 4);
  move_and_resolve(m, 11);
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::LastTower);
  EXPECT_EQ(m.state.result.winners, 0b01);
  const int g = group_of_tile(m.state, 8);
  EXPECT_EQ(m.state.groups[g].tower, TowerColor::Black);
  EXPECT_EQ(m.state.groups[g].towers, 2);
  EXPECT_EQ(m.state.groups[g].tiles, 3);
  EXPECT_EQ(m.state.boards[0].towers, 0);
  EXPECT_EQ(m.state.boards[1].towers, 8);
  EXPECT_EQ(m.state.group_count, 5);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- 16 -------------------------------------------------------------------------------------

TEST(Decisions, D16_KnightBonusGoesToTheTeamAndTowersComeFromTheHolder) {
  Match m = started_match(4, Mode::Expert, 3);
  install(m.state, {CharacterId::Knight});
  neutralize(m.state);
  m.plan({2, 3, 1, 4});  // seat 2 (black, holds no towers) acts first
  make_groups(m.state, std::vector<int>(12, 1));
  set_coins(m.state, 2, 2);
  m.state.professors[index(Color::Red)] = 0;
  m.state.professors[index(Color::Green)] = 1;
  m.state.professors[index(Color::Blue)] = 3;
  put_island(m.state, 1, Color::Red, 1);
  put_island(m.state, 1, Color::Green, 1);
  put_island(m.state, 1, Color::Blue, 1);  // black 1 vs white 2
  m.play(2, UseKnight{});
  move_and_resolve(m, 8);  // black 3 vs white 2
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::Black);
  EXPECT_EQ(m.state.boards[0].towers, 7);
  EXPECT_EQ(m.state.boards[2].towers, 0);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Decisions, D16_ProfessorsBelongToPlayersNotTeams) {
  Match m = started_match(4, Mode::Simple, 3);
  neutralize(m.state);
  m.plan({3, 2, 1, 4});  // seat 2 first
  set_dining(m.state, 0, Color::Yellow, 2);
  m.state.professors[index(Color::Yellow)] = 0;
  set_entrance(m.state, 2, st({{Color::Yellow, 7}}));
  for (int i = 0; i < 3; ++i) m.play(2, MoveToDining{Color::Yellow});
  EXPECT_EQ(m.state.professors[index(Color::Yellow)], 2);  // 3 > 2, from the teammate
}

TEST(Decisions, D16_TeamsBySeatParityFirstChooserHoldsTowers) {
  Match m = started_match(4, Mode::Simple, 3);  // seats 0 and 1 choose first
  EXPECT_EQ(team_color(m.state, 0), TowerColor::Black);
  EXPECT_EQ(team_color(m.state, 2), TowerColor::Black);
  EXPECT_EQ(team_color(m.state, 1), TowerColor::White);
  EXPECT_EQ(team_color(m.state, 3), TowerColor::White);
  EXPECT_EQ(tower_holder(m.state, TowerColor::Black), 0);
  EXPECT_EQ(tower_holder(m.state, TowerColor::White), 1);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- 17 -------------------------------------------------------------------------------------

TEST(Decisions, D17_TowersThenProfessorsThenADraw) {
  struct Case {
    int black_towers, white_towers, black_profs, white_profs;
    std::uint8_t winners;
  };
  const Case cases[] = {{2, 1, 0, 3, 0b01},  // towers first
                        {1, 1, 2, 1, 0b01},  // then professors
                        {1, 1, 1, 2, 0b10},
                        {1, 1, 2, 2, 0b11},  // still tied: a shared draw
                        {0, 0, 0, 0, 0b11}};
  for (const Case& c : cases) {
    Match m = started_match(2, Mode::Simple, 21);
    neutralize(m.state);
    m.state.boards[0].hand = assistant_bit(1);
    m.state.boards[1].hand = assistant_bit(2);
    if (c.black_towers >= 1) own(m.state, 3, TowerColor::Black);
    if (c.black_towers >= 2) own(m.state, 5, TowerColor::Black);
    if (c.white_towers >= 1) own(m.state, 8, TowerColor::White);
    int colour = 0;
    for (int i = 0; i < c.black_profs; ++i) m.state.professors[colour++] = 0;
    for (int i = 0; i < c.white_profs; ++i) m.state.professors[colour++] = 1;
    play_round(m, {1, 2});
    ASSERT_EQ(m.state.phase, Phase::GameOver);
    EXPECT_EQ(m.state.result.reason, EndReason::NoAssistants);
    EXPECT_EQ(m.state.result.winners, c.winners)
        << c.black_towers << c.white_towers << c.black_profs << c.white_profs;
  }
}

// --- 18 -------------------------------------------------------------------------------------

TEST(Decisions, D18_TurnEndsWithTheCloudOrWithMotherNatureWithoutClouds) {
  Match m = bag_left_for_round_two(5, Mode::Expert, {CharacterId::Knight});
  ASSERT_TRUE(m.state.skip_clouds);
  m.plan({3, 4});
  set_coins(m.state, 0, 2);
  move_rest_to_island(m, 2);
  m.play(0, MoveMotherNature{1});
  EXPECT_EQ(m.state.current_seat(), 1);
  EXPECT_EQ(code(m, 0, UseKnight{}), "NOT_YOUR_TURN");
  EXPECT_EQ(code(m, 1, ChooseCloud{0}), "MOTHER_NATURE_NOT_MOVED");
  Match arranged = m;  // seat 1 after its Mother Nature move, were the turn still open
  arranged.state.turn.students_moved = 3;
  arranged.state.turn.mother_nature_moved = true;
  EXPECT_EQ(code(arranged, 1, ChooseCloud{0}), "CLOUDS_SKIPPED");
}

// --- 19 -------------------------------------------------------------------------------------

TEST(Decisions, D19_FullCircleResolvesTheStartingGroup) {
  Match m = action_2p(Mode::Simple, 7);  // 4 steps
  make_groups(m.state, {3, 3, 3, 3});
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 1, Color::Red, 2);
  move_rest_to_island(m, 6);
  EXPECT_EQ(code(m, 0, MoveMotherNature{4}), "ACCEPTED");
  m.play(0, MoveMotherNature{4});
  EXPECT_EQ(m.state.mother_nature, 0);
  EXPECT_EQ(m.state.groups[0].tower, TowerColor::Black);
  EXPECT_EQ(m.state.groups[0].towers, 3);
  EXPECT_EQ(m.state.boards[0].towers, 5);
  EXPECT_EQ(m.state.phase, Phase::Action);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- 20 -------------------------------------------------------------------------------------

TEST(Decisions, D20_SameColourOnBothSidesOfASwapIsRefused) {
  Match j = action_2p(Mode::Expert, 1, {CharacterId::Jester});
  set_card_students(j.state, CharacterId::Jester, st({{Color::Red, 3}, {Color::Blue, 3}}));
  set_entrance(j.state, 0, st({{Color::Red, 3}, {Color::Green, 4}}));
  EXPECT_EQ(code(j, 0,
                 UseJester{st({{Color::Red, 1}, {Color::Blue, 1}}),
                           st({{Color::Red, 1}, {Color::Green, 1}})}),
            "INVALID_SWAP");
  EXPECT_EQ(code(j, 0, UseJester{st({{Color::Blue, 2}}), st({{Color::Red, 1}, {Color::Green, 1}})}),
            "ACCEPTED");

  Match m = action_2p(Mode::Expert, 1, {CharacterId::Minstrel});
  set_dining(m.state, 0, Color::Red, 2);
  set_dining(m.state, 0, Color::Blue, 2);
  set_entrance(m.state, 0, st({{Color::Red, 3}, {Color::Green, 4}}));
  EXPECT_EQ(code(m, 0,
                 UseMinstrel{st({{Color::Red, 1}, {Color::Green, 1}}),
                             st({{Color::Red, 1}, {Color::Blue, 1}})}),
            "INVALID_SWAP");
  EXPECT_EQ(code(m, 0, UseMinstrel{st({{Color::Red, 1}}), st({{Color::Red, 1}})}), "INVALID_SWAP");
  EXPECT_EQ(code(m, 0, UseMinstrel{st({{Color::Green, 1}}), st({{Color::Red, 1}})}), "ACCEPTED");
}

// --- 21 -------------------------------------------------------------------------------------

TEST(Decisions, D21_FarmerNeverMovesAProfessorOnZeroZero) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Farmer});
  set_coins(m.state, 0, 2);
  m.state.professors[index(Color::Green)] = 1;  // everyone at 0 after a Thief: it stayed
  m.play(0, UseFarmer{});
  EXPECT_EQ(m.state.professors[index(Color::Green)], 1);
  EXPECT_EQ(m.state.professors[index(Color::Yellow)], kNoSeat);
}

// --- 22 -------------------------------------------------------------------------------------

TEST(Decisions, D22_HolderAmongTheLeadersKeepsIt) {
  Match m = minstrel_3p();
  set_dining(m.state, 0, Color::Red, 3);
  set_dining(m.state, 1, Color::Red, 2);
  set_dining(m.state, 2, Color::Red, 2);
  m.state.professors[index(Color::Red)] = 0;
  m.play(0, UseMinstrel{st({{Color::Green, 1}}), st({{Color::Red, 1}})});
  EXPECT_EQ(m.state.professors[index(Color::Red)], 0);
}

TEST(Decisions, D22_AUniqueOtherLeaderTakesIt) {
  Match m = minstrel_3p();
  set_dining(m.state, 0, Color::Red, 3);
  set_dining(m.state, 1, Color::Red, 3);
  set_dining(m.state, 2, Color::Red, 2);
  m.state.professors[index(Color::Red)] = 0;
  m.play(0, UseMinstrel{st({{Color::Green, 1}}), st({{Color::Red, 1}})});
  EXPECT_EQ(m.state.professors[index(Color::Red)], 1);
}

TEST(Decisions, D22_MostSharedOnlyByOthersReturnsItToTheSupply) {
  Match m = minstrel_3p();
  set_dining(m.state, 0, Color::Red, 3);
  set_dining(m.state, 1, Color::Red, 3);
  set_dining(m.state, 2, Color::Red, 3);
  m.state.professors[index(Color::Red)] = 0;
  m.play(0, UseMinstrel{st({{Color::Green, 1}}), st({{Color::Red, 1}})});
  EXPECT_EQ(m.state.professors[index(Color::Red)], kNoSeat);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- 23 -------------------------------------------------------------------------------------

TEST(Decisions, D23_SkipTurnIsServerOnlyAndForTheSeatToAct) {
  Match m = started_match(3, Mode::Simple, 2);
  const Seat seat = m.state.current_seat();
  EXPECT_EQ(code(m, seat, SkipTurn{}), "SERVER_ONLY");
  EXPECT_EQ(code(m, (seat + 1) % 3, SkipTurn{}, Authority::Server), "NOT_YOUR_TURN");
  EXPECT_EQ(code(m, seat, SkipTurn{}, Authority::Server), "ACCEPTED");
  Match setup;
  setup.state = apply(State{}, *create_match(MatchOptions{2, Mode::Simple}, 1));
  EXPECT_EQ(code(setup, 0, SkipTurn{}, Authority::Server), "WRONG_PHASE");
}

TEST(Decisions, D23_SeatSkippedInPlanningPlaysNoAssistant) {
  Match m = started_match(3, Mode::Simple, 2);
  const Seat o0 = m.state.order[0];
  const Seat o1 = m.state.order[1];
  m.play(o0, SkipTurn{}, Authority::Server);
  EXPECT_EQ(m.state.boards[o0].played, 0);
  EXPECT_EQ(m.state.boards[o0].hand, kFullHand);
  EXPECT_TRUE(m.state.boards[o0].skipped_planning);
  EXPECT_EQ(m.state.current_seat(), o1);
  EXPECT_EQ(m.state.phase, Phase::Planning);
}

// Rules doc, decision 23: a seat skipped in planning "acts after every seat that played one
// (absent seats in planning order), and can only be skipped in the action phase (it has no Mother
// Nature allowance)".
// DOC-vs-IMPLEMENTATION: execute.cpp begin_action() leaves seats with played == 0 out of the
// action order altogether, so this test fails until the implementation (or the doc) changes.
TEST(Decisions, D23_SeatSkippedInPlanningActsLastAndCanOnlyBeSkipped) {
  Match m = started_match(3, Mode::Simple, 2);
  neutralize(m.state);
  const Seat o0 = m.state.order[0];
  const Seat o1 = m.state.order[1];
  const Seat o2 = m.state.order[2];
  m.play(o0, SkipTurn{}, Authority::Server);
  m.play(o1, PlayAssistant{5});
  m.play(o2, PlayAssistant{3});
  ASSERT_EQ(m.state.phase, Phase::Action);
  EXPECT_EQ(m.state.order_size, 3);
  EXPECT_EQ(m.state.order[0], o2);
  EXPECT_EQ(m.state.order[1], o1);
  EXPECT_EQ(m.state.order[2], o0);
  finish_turn(m);
  finish_turn(m);
  ASSERT_EQ(m.state.phase, Phase::Action);
  ASSERT_EQ(m.state.current_seat(), o0);
  EXPECT_NE(code(m, o0, MoveMotherNature{1}), "ACCEPTED");  // no allowance
  m.play(o0, SkipTurn{}, Authority::Server);
  EXPECT_EQ(m.state.phase, Phase::Planning);
  EXPECT_EQ(m.state.round, 2);
  EXPECT_EQ(m.state.first_player, o2);
}

TEST(Decisions, D23_SeatSkippedInActionMovesNothingAndItsCloudIsToppedUpLater) {
  Match m = action_2p();
  const Students entrance = m.state.boards[0].entrance;
  m.play(0, SkipTurn{}, Authority::Server);
  EXPECT_TRUE(m.state.boards[0].entrance == entrance);
  EXPECT_EQ(m.state.current_seat(), 1);
  EXPECT_TRUE(m.state.turn == TurnState{});
  finish_turn(m);  // seat 1 takes cloud 0
  ASSERT_EQ(m.state.phase, Phase::Planning);
  EXPECT_EQ(m.state.round, 2);
  // Cloud 1 was not taken: it kept its students; only cloud 0 was refilled.
  EXPECT_EQ(m.state.clouds[0].students.total(), 3);
  EXPECT_EQ(m.state.clouds[1].students.total(), 3);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Decisions, D23_UntakenCloudKeepsItsStudentsAndOnlyTheTakenOneIsRefilled) {
  Match m = action_2p();
  const Students cloud1 = m.state.clouds[1].students;
  m.play(0, SkipTurn{}, Authority::Server);
  const int bag = m.state.bag.total();  // the action phase draws nothing
  finish_turn(m);                       // seat 1 takes cloud 0
  ASSERT_EQ(m.state.round, 2);
  EXPECT_TRUE(m.state.clouds[1].students == cloud1);
  EXPECT_FALSE(m.state.clouds[1].taken);
  EXPECT_EQ(m.state.clouds[0].students.total(), 3);
  EXPECT_EQ(m.state.bag.total(), bag - 3);
}

TEST(Decisions, D23_EverySeatSkippedInPlanningKeepsTheFirstPlayer) {
  Match m = started_match(2, Mode::Simple, 2);
  const Seat first = m.state.first_player;
  const int bag = m.state.bag.total();
  m.play(m.state.current_seat(), SkipTurn{}, Authority::Server);
  m.play(m.state.current_seat(), SkipTurn{}, Authority::Server);
  // Both absent seats still get their (empty) action turns, which can only be skipped.
  ASSERT_EQ(m.state.phase, Phase::Action);
  EXPECT_EQ(m.state.order_size, 2);
  EXPECT_TRUE(legal_commands(m.state, m.state.current_seat()).empty());
  EXPECT_EQ(m.refuse(m.state.current_seat(), MoveToDining{Color::Red}), RuleCode::AbsentThisRound);
  m.play(m.state.current_seat(), SkipTurn{}, Authority::Server);
  m.play(m.state.current_seat(), SkipTurn{}, Authority::Server);
  EXPECT_EQ(m.state.phase, Phase::Planning);
  EXPECT_EQ(m.state.round, 2);
  EXPECT_EQ(m.state.first_player, first);
  EXPECT_EQ(m.state.current_seat(), first);
  EXPECT_EQ(m.state.bag.total(), bag);  // the clouds were still full
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- 24 -------------------------------------------------------------------------------------

TEST(Decisions, D24_ShortageStillMergesBeforeTheEnd) {
  Match m = action_2p();
  make_groups(m.state, {6, 3, 1, 1, 1});
  own(m.state, 0, TowerColor::Black);  // 2 left
  own(m.state, 6, TowerColor::White);  // tiles 6..8
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 7, Color::Red, 4);
  move_and_resolve(m, 10);
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::LastTower);
  EXPECT_EQ(m.state.result.winners, 0b01);
  EXPECT_EQ(m.state.group_count, 4);
  EXPECT_EQ(group_of_tile(m.state, 8), 0);
  EXPECT_EQ(m.state.groups[0].first_tile, 0);
  EXPECT_EQ(m.state.groups[0].tiles, 9);
  EXPECT_EQ(m.state.groups[0].towers, 8);
  EXPECT_EQ(m.state.groups[0].tower, TowerColor::Black);
  EXPECT_EQ(m.state.boards[1].towers, 8);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- 25 -------------------------------------------------------------------------------------

TEST(Decisions, D25_UselessActivationsAreAcceptedAndPaid) {
  Match thief = action_2p(Mode::Expert, 1, {CharacterId::Thief});
  set_coins(thief.state, 0, 3);
  const Students bag = thief.state.bag;
  thief.play(0, UseThief{Color::Pink});
  EXPECT_EQ(thief.state.boards[0].coins, 0);
  EXPECT_TRUE(thief.state.bag == bag);
  EXPECT_TRUE(card_of(thief, CharacterId::Thief).used);

  const std::vector<std::pair<CharacterId, Command>> after_mn = {
      {CharacterId::Postman, UsePostman{}},
      {CharacterId::Knight, UseKnight{}},
      {CharacterId::Centaur, UseCentaur{}},
      {CharacterId::MushroomHunter, UseMushroomHunter{Color::Red}}};
  for (const auto& [id, command] : after_mn) {
    Match m = action_2p(Mode::Expert, 1, {id});
    set_coins(m.state, 0, 3);
    move_and_resolve(m, 8);
    m.play(0, command);
    EXPECT_EQ(m.state.boards[0].coins, 3 - base_cost(id)) << character_name(id);
    EXPECT_TRUE(card_of(m, id).used);
    EXPECT_EQ(code(m, 0, ChooseCloud{0}), "ACCEPTED");
    EXPECT_EQ(invariant_violation(m.state), "");
  }
}

// --- 26 -------------------------------------------------------------------------------------

TEST(Decisions, D26_ResignWithTwoPlayersTheOtherWinsEvenOffTurn) {
  Match m = started_match(2, Mode::Simple, 3);
  const Seat idle = static_cast<Seat>(1 - m.state.current_seat());
  EXPECT_EQ(code(m, idle, Resign{}), "ACCEPTED");  // not the seat's turn: still allowed
  m.play(idle, Resign{});
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::Resign);
  EXPECT_EQ(m.state.result.winners, 1u << (1 - idle));
  EXPECT_EQ(code(m, 1 - idle, Resign{}), "MATCH_OVER");
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Decisions, D26_ResignWithFourPlayersTheWholeTeamLoses) {
  Match m = action_2p();  // the action phase too
  m.play(1, Resign{});
  EXPECT_EQ(m.state.result.winners, 0b01);
  Match four = started_match(4, Mode::Simple, 4);
  four.play(2, Resign{});
  EXPECT_EQ(four.state.result.reason, EndReason::Resign);
  EXPECT_EQ(four.state.result.winners, 0b1010);  // seats 0+2 lose, 1+3 win
}

TEST(Decisions, D26_ResignWithThreePlayersTheOthersAreRankedAsAtTheEnd) {
  Match m = started_match(3, Mode::Simple, 6);
  own(m.state, 3, TowerColor::Grey);  // seat 2 built one tower, seat 1 none
  m.play(0, Resign{});
  EXPECT_EQ(m.state.result.winners, 0b100);

  Match tied = started_match(3, Mode::Simple, 6);
  own(tied.state, 3, TowerColor::Black);  // the resigning seat's lead counts for nothing
  tied.play(0, Resign{});
  EXPECT_EQ(tied.state.result.winners, 0b110);  // seats 1 and 2 tied: they share the win

  Match profs = started_match(3, Mode::Simple, 6);
  profs.state.professors[index(Color::Red)] = 1;
  profs.play(2, Resign{});
  EXPECT_EQ(profs.state.result.winners, 0b010);  // no towers: the professor decides
}

TEST(Decisions, D26_ResignIsRefusedBeforePlayStarts) {
  Match setup;
  setup.state = apply(State{}, *create_match(MatchOptions{2, Mode::Simple}, 1));
  EXPECT_EQ(code(setup, 0, Resign{}), "WRONG_PHASE");
  EXPECT_FALSE(is_server_command(Resign{}));
  EXPECT_EQ(command_type(Resign{}), "resign");
}

}  // namespace
}  // namespace eryantis::rules
