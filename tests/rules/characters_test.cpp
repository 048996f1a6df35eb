// Rules tests: characters (see docs/rules.md).
#include "scenario.hpp"  // the rules tests' preamble: gtest, Match, the scenario helpers

namespace eryantis::rules {
namespace {

using namespace scenario;

const CharacterCard& card_of(const Match& m, CharacterId id) {
  return m.state.characters[slot_of(m.state, id)];
}

// The acting seat moves its students to tile 8 and Mother Nature one step (tile 1 resolves).
void resolve_after_moves(Match& m) {
  move_rest_to_island(m, 8);
  m.play(m.state.current_seat(), MoveMotherNature{1});
}

// --- common rules -----------------------------------------------------------------------------

TEST(Characters, NotInSimpleMode) {
  Match m = action_2p(Mode::Simple);
  EXPECT_EQ(code(m, 0, UseKnight{}), "NOT_EXPERT_MODE");
  EXPECT_EQ(code(m, 0, UseThief{Color::Red}), "NOT_EXPERT_MODE");
}

TEST(Characters, CommonRefusals) {
  Match m =
      action_2p(Mode::Expert, 1, {CharacterId::Knight, CharacterId::Centaur, CharacterId::Farmer});
  EXPECT_EQ(code(m, 0, UseHerald{0}), "CHARACTER_NOT_IN_PLAY");
  EXPECT_EQ(code(m, 0, UsePostman{}), "CHARACTER_NOT_IN_PLAY");
  EXPECT_EQ(code(m, 0, UseKnight{}), "NOT_ENOUGH_COINS");  // 1 coin, costs 2
  EXPECT_EQ(code(m, 1, UseKnight{}), "NOT_YOUR_TURN");
  set_coins(m.state, 0, 5);
  m.play(0, UseKnight{});
  EXPECT_EQ(m.state.boards[0].coins, 3);
  EXPECT_EQ(code(m, 0, UseCentaur{}), "CHARACTER_ALREADY_USED_THIS_TURN");
  EXPECT_EQ(code(m, 0, UseKnight{}), "CHARACTER_ALREADY_USED_THIS_TURN");
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Characters, CostRisesOnlyOnce) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Postman});
  set_coins(m.state, 0, 1);
  set_coins(m.state, 1, 4);
  const int supply = m.state.supply;
  m.play(0, UsePostman{});
  EXPECT_TRUE(card_of(m, CharacterId::Postman).used);
  EXPECT_EQ(card_of(m, CharacterId::Postman).cost(), 2);
  EXPECT_EQ(m.state.supply, supply);  // the only coin paid lies on the card
  finish_turn(m);
  m.play(1, UsePostman{});
  EXPECT_EQ(m.state.boards[1].coins, 2);
  EXPECT_EQ(m.state.supply, supply + 2);
  EXPECT_EQ(card_of(m, CharacterId::Postman).cost(), 2);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- Monk --------------------------------------------------------------------------------------

TEST(Monk, MovesACardStudentToAnIslandAndRefills) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Monk});
  set_card_students(m.state, CharacterId::Monk, st({{Color::Red, 2}, {Color::Blue, 2}}));
  m.state.professors[index(Color::Red)] = 0;
  const int bag = m.state.bag.total();
  m.play(0, UseMonk{Color::Red, 4});
  const CharacterCard& card = card_of(m, CharacterId::Monk);
  EXPECT_EQ(m.state.groups[4].students[Color::Red], 1);
  EXPECT_EQ(m.state.groups[4].students.total(), 1);
  EXPECT_EQ(card.students.total(), 4);
  EXPECT_GE(card.students[Color::Red], 1);
  EXPECT_EQ(m.events.back().drawn.size(), 1u);
  EXPECT_EQ(m.state.bag.total(), bag - 1);
  EXPECT_EQ(m.state.boards[0].coins, 0);
  EXPECT_EQ(m.state.turn.students_moved, 0);
  EXPECT_FALSE(m.state.groups[4].tower.has_value());  // no influence check
  EXPECT_FALSE(m.state.last_round);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Monk, Refusals) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Monk});
  set_card_students(m.state, CharacterId::Monk, st({{Color::Red, 2}, {Color::Blue, 2}}));
  EXPECT_EQ(code(m, 0, UseMonk{Color::Green, 3}), "STUDENT_NOT_ON_CARD");
  EXPECT_EQ(code(m, 0, UseMonk{Color::Red, 12}), "NO_SUCH_ISLAND");
  set_card_students(m.state, CharacterId::Monk, Students{});
  for (Color c : kAllColors) EXPECT_EQ(code(m, 0, UseMonk{c, 3}), "STUDENT_NOT_ON_CARD");
  for (const Command& c : legal_commands(m.state, 0))
    EXPECT_FALSE(std::holds_alternative<UseMonk>(c));
}

TEST(Monk, EmptyBagShrinksTheCard) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Monk});
  set_card_students(m.state, CharacterId::Monk, st({{Color::Red, 4}}));
  shrink_bag(m.state, 0, 6);
  m.play(0, UseMonk{Color::Red, 4});
  EXPECT_EQ(card_of(m, CharacterId::Monk).students.total(), 3);
  EXPECT_TRUE(m.events.back().drawn.empty());
  EXPECT_EQ(m.state.bag.total(), 0);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- Farmer ------------------------------------------------------------------------------------

TEST(Farmer, TiesTakeProfessorsOnActivationAndLaterPlacements) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Farmer});
  set_coins(m.state, 0, 2);
  set_dining(m.state, 0, Color::Red, 2);
  set_dining(m.state, 1, Color::Red, 2);
  m.state.professors[index(Color::Red)] = 1;
  set_dining(m.state, 0, Color::Blue, 2);
  set_dining(m.state, 1, Color::Blue, 3);
  m.state.professors[index(Color::Blue)] = 1;
  set_dining(m.state, 1, Color::Yellow, 1);
  m.state.professors[index(Color::Yellow)] = 1;
  set_entrance(m.state, 0, st({{Color::Yellow, 3}, {Color::Green, 4}}));
  m.play(0, UseFarmer{});
  EXPECT_EQ(m.state.professors[index(Color::Red)], 0);   // 2-2: a tie is enough
  EXPECT_EQ(m.state.professors[index(Color::Blue)], 1);  // 2-3: not enough
  EXPECT_EQ(m.state.professors[index(Color::Yellow)], 1);
  m.play(0, MoveToDining{Color::Yellow});  // 1-1 during the Farmer's turn
  EXPECT_EQ(m.state.professors[index(Color::Yellow)], 0);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Farmer, ProfessorsStayAndTheEffectEndsWithTheTurn) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Farmer});
  set_coins(m.state, 0, 2);
  set_dining(m.state, 0, Color::Red, 2);
  set_dining(m.state, 1, Color::Red, 2);
  m.state.professors[index(Color::Red)] = 1;
  set_dining(m.state, 0, Color::Pink, 2);
  m.state.professors[index(Color::Pink)] = 0;
  set_dining(m.state, 1, Color::Pink, 1);
  m.play(0, UseFarmer{});
  finish_turn(m);
  ASSERT_EQ(m.state.current_seat(), 1);
  EXPECT_EQ(m.state.professors[index(Color::Red)], 0);  // kept after the turn
  set_entrance(m.state, 1, st({{Color::Pink, 7}}));
  m.play(1, MoveToDining{Color::Pink});  // 2-2 without a Farmer: nothing moves
  EXPECT_EQ(m.state.professors[index(Color::Pink)], 0);
  m.play(1, MoveToDining{Color::Pink});
  EXPECT_EQ(m.state.professors[index(Color::Pink)], 1);
}

// --- Herald ------------------------------------------------------------------------------------

TEST(Herald, ResolvesAnyIslandWithoutMovingMotherNature) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Herald});
  set_coins(m.state, 0, 3);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 5, Color::Red, 2);
  m.play(0, UseHerald{5});
  EXPECT_EQ(m.state.groups[5].tower, TowerColor::Black);
  EXPECT_EQ(m.state.boards[0].towers, 7);
  EXPECT_EQ(m.state.mother_nature, 0);
  EXPECT_FALSE(m.state.turn.mother_nature_moved);
  EXPECT_EQ(m.state.boards[0].coins, 0);
  // Mother Nature still makes her normal move afterwards.
  move_rest_to_island(m, 8);
  EXPECT_EQ(code(m, 0, MoveMotherNature{1}), "ACCEPTED");
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Herald, MayTargetMotherNaturesIslandAndAnyTileOfAGroup) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Herald});
  make_groups(m.state, {3, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  set_coins(m.state, 0, 3);
  m.state.professors[index(Color::Blue)] = 1;
  put_island(m.state, 1, Color::Blue, 1);
  m.play(0, UseHerald{2});  // tile 2 belongs to Mother Nature's group 0..2
  EXPECT_EQ(m.state.groups[0].tower, TowerColor::White);
  EXPECT_EQ(m.state.groups[0].towers, 3);
  EXPECT_EQ(m.state.boards[1].towers, 5);
  EXPECT_EQ(m.state.mother_nature, 0);
  EXPECT_EQ(code(m, 0, UseHerald{12}), "CHARACTER_ALREADY_USED_THIS_TURN");
}

TEST(Herald, UsableAfterMotherNatureBeforeTheCloud) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Herald});
  set_coins(m.state, 0, 3);
  EXPECT_EQ(code(m, 0, UseHerald{12}), "NO_SUCH_ISLAND");
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 7, Color::Red, 1);
  move_rest_to_island(m, 4);
  m.play(0, MoveMotherNature{1});
  m.play(0, UseHerald{7});
  EXPECT_EQ(m.state.groups[7].tower, TowerColor::Black);
  EXPECT_EQ(m.state.current_seat(), 0);
  EXPECT_EQ(code(m, 0, ChooseCloud{0}), "ACCEPTED");
}

TEST(Herald, ConquestCanEndTheGame) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Herald});
  make_groups(m.state, {5, 5, 1, 1});
  own(m.state, 0, TowerColor::Black);
  own(m.state, 5, TowerColor::White);
  set_coins(m.state, 0, 3);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 11, Color::Red, 1);
  m.play(0, UseHerald{11});
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::ThreeGroups);
  EXPECT_EQ(m.state.result.winners, 0b01);
  EXPECT_EQ(m.state.group_count, 3);
  EXPECT_EQ(code(m, 0, MoveToIsland{Color::Red, 1}), "MATCH_OVER");
}

// --- Magic Postman -----------------------------------------------------------------------------

TEST(Postman, TwoMoreSteps) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Postman});
  move_rest_to_island(m, 8);
  EXPECT_EQ(code(m, 0, MoveMotherNature{2}), "MOTHER_NATURE_TOO_FAR");
  m.play(0, UsePostman{});
  EXPECT_EQ(code(m, 0, MoveMotherNature{0}), "MOTHER_NATURE_MUST_MOVE");
  EXPECT_EQ(code(m, 0, MoveMotherNature{1}), "ACCEPTED");
  EXPECT_EQ(code(m, 0, MoveMotherNature{4}), "MOTHER_NATURE_TOO_FAR");
  m.play(0, MoveMotherNature{3});
  EXPECT_EQ(m.state.mother_nature, 3);
}

TEST(Postman, UsableBeforeStudentMoves) {
  Match m = action_2p(Mode::Expert, 3, {CharacterId::Postman});  // assistant 3: 2 steps
  m.play(0, UsePostman{});
  EXPECT_EQ(code(m, 0, MoveMotherNature{4}), "STUDENTS_NOT_MOVED");
  move_rest_to_island(m, 8);
  m.play(0, MoveMotherNature{4});
  EXPECT_EQ(m.state.mother_nature, 4);
}

// --- Grandma Herbs -----------------------------------------------------------------------------

TEST(GrandmaHerbs, NoEntryTileBlocksTheNextResolution) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::GrandmaHerbs});
  set_coins(m.state, 0, 2);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 1, Color::Red, 2);
  m.play(0, UseGrandmaHerbs{1});
  EXPECT_EQ(m.state.groups[1].no_entry, 1);
  EXPECT_EQ(card_of(m, CharacterId::GrandmaHerbs).no_entry, 3);
  EXPECT_EQ(invariant_violation(m.state), "");
  move_rest_to_island(m, 8);
  m.play(0, MoveMotherNature{1});
  EXPECT_FALSE(m.state.groups[1].tower.has_value());
  EXPECT_EQ(m.state.groups[1].no_entry, 0);
  EXPECT_EQ(card_of(m, CharacterId::GrandmaHerbs).no_entry, 4);
  EXPECT_EQ(m.state.boards[0].towers, 8);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(GrandmaHerbs, NoTilesLeftIsRefused) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::GrandmaHerbs});
  set_coins(m.state, 0, 2);
  EXPECT_EQ(code(m, 0, UseGrandmaHerbs{12}), "NO_SUCH_ISLAND");
  m.state.characters[slot_of(m.state, CharacterId::GrandmaHerbs)].no_entry = 0;
  for (int t = 2; t < 6; ++t) m.state.groups[t].no_entry = 1;
  EXPECT_EQ(code(m, 0, UseGrandmaHerbs{7}), "NO_ENTRY_TILES_EXHAUSTED");
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- Centaur -----------------------------------------------------------------------------------

TEST(Centaur, DefendingTowersCountForNothing) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Centaur});
  set_coins(m.state, 0, 3);
  own(m.state, 1, TowerColor::White);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 1, Color::Red, 1);
  Match without = m;
  move_rest_to_island(without, 8);
  without.play(0, MoveMotherNature{1});
  EXPECT_EQ(without.state.groups[1].tower, TowerColor::White);  // 1 vs tower 1
  m.play(0, UseCentaur{});
  move_rest_to_island(m, 8);
  m.play(0, MoveMotherNature{1});
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::Black);
  EXPECT_EQ(m.state.boards[0].towers, 7);
  EXPECT_EQ(m.state.boards[1].towers, 8);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- Jester ------------------------------------------------------------------------------------

TEST(Jester, SwapsCardAndEntranceStudents) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Jester});
  set_card_students(m.state, CharacterId::Jester, st({{Color::Red, 3}, {Color::Blue, 3}}));
  set_entrance(m.state, 0, st({{Color::Green, 4}, {Color::Yellow, 3}}));
  const auto professors = m.state.professors;
  const Students dining = m.state.boards[0].dining;
  m.play(0, UseJester{st({{Color::Red, 2}, {Color::Blue, 1}}),
                      st({{Color::Green, 2}, {Color::Yellow, 1}})});
  EXPECT_TRUE(card_of(m, CharacterId::Jester).students ==
              st({{Color::Red, 1}, {Color::Blue, 2}, {Color::Green, 2}, {Color::Yellow, 1}}));
  EXPECT_TRUE(m.state.boards[0].entrance ==
              st({{Color::Red, 2}, {Color::Blue, 1}, {Color::Green, 2}, {Color::Yellow, 2}}));
  EXPECT_EQ(m.state.turn.students_moved, 0);
  EXPECT_TRUE(m.state.boards[0].dining == dining);
  EXPECT_TRUE(m.state.professors == professors);
  EXPECT_EQ(m.state.boards[0].coins, 0);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Jester, Refusals) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Jester});
  set_card_students(m.state, CharacterId::Jester, st({{Color::Red, 3}, {Color::Blue, 3}}));
  set_entrance(m.state, 0, st({{Color::Green, 4}, {Color::Red, 3}}));
  EXPECT_EQ(code(m, 0, UseJester{Students{}, Students{}}), "INVALID_SWAP");
  EXPECT_EQ(code(m, 0, UseJester{st({{Color::Blue, 3}, {Color::Red, 1}}), st({{Color::Green, 4}})}),
            "INVALID_SWAP");  // 4 pairs
  EXPECT_EQ(code(m, 0, UseJester{st({{Color::Blue, 2}}), st({{Color::Green, 1}})}),
            "INVALID_SWAP");  // unequal
  EXPECT_EQ(code(m, 0, UseJester{st({{Color::Red, 1}}), st({{Color::Red, 1}})}), "INVALID_SWAP");
  EXPECT_EQ(code(m, 0, UseJester{st({{Color::Pink, 1}}), st({{Color::Green, 1}})}),
            "STUDENT_NOT_ON_CARD");
  EXPECT_EQ(code(m, 0, UseJester{st({{Color::Blue, 1}}), st({{Color::Yellow, 1}})}),
            "STUDENT_NOT_IN_ENTRANCE");
  EXPECT_EQ(code(m, 0, UseJester{st({{Color::Blue, 3}}), st({{Color::Green, 3}})}), "ACCEPTED");
}

// --- Knight ------------------------------------------------------------------------------------

TEST(Knight, PlusTwoForTheActivator) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Knight});
  set_coins(m.state, 0, 2);
  m.state.professors[index(Color::Blue)] = 1;
  put_island(m.state, 1, Color::Blue, 2);
  Match tie = m;
  tie.play(0, UseKnight{});
  resolve_after_moves(tie);  // 2 vs 2
  EXPECT_FALSE(tie.state.groups[1].tower.has_value());
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 1, Color::Red, 1);
  m.play(0, UseKnight{});
  resolve_after_moves(m);  // 3 vs 2
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::Black);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- Mushroom Hunter ---------------------------------------------------------------------------

TEST(MushroomHunter, ChosenColourCountsForNobody) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::MushroomHunter});
  set_coins(m.state, 0, 3);
  m.state.professors[index(Color::Blue)] = 1;
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 1, Color::Blue, 2);
  put_island(m.state, 1, Color::Red, 1);
  Match without = m;
  resolve_after_moves(without);
  EXPECT_EQ(without.state.groups[1].tower, TowerColor::White);
  m.play(0, UseMushroomHunter{Color::Blue});
  EXPECT_EQ(m.state.turn.excluded_color, Color::Blue);
  resolve_after_moves(m);
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::Black);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(MushroomHunter, ExcludingTheOnlyColourLeavesATie) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::MushroomHunter});
  set_coins(m.state, 0, 3);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 1, Color::Red, 4);
  m.play(0, UseMushroomHunter{Color::Red});
  resolve_after_moves(m);
  EXPECT_FALSE(m.state.groups[1].tower.has_value());
}

// --- Minstrel ----------------------------------------------------------------------------------

TEST(Minstrel, SwapEarnsCoinsAndMovesProfessors) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Minstrel});
  set_dining(m.state, 0, Color::Red, 2);
  set_dining(m.state, 0, Color::Blue, 2);
  set_dining(m.state, 1, Color::Blue, 2);
  m.state.professors[index(Color::Blue)] = 1;
  m.state.professors[index(Color::Red)] = 0;
  set_entrance(m.state, 0, st({{Color::Blue, 1}, {Color::Green, 3}, {Color::Yellow, 3}}));
  const int supply = m.state.supply;
  m.play(0, UseMinstrel{st({{Color::Blue, 1}}), st({{Color::Red, 1}})});
  EXPECT_EQ(m.state.boards[0].dining[Color::Blue], 3);
  EXPECT_EQ(m.state.boards[0].dining[Color::Red], 1);
  EXPECT_TRUE(m.state.boards[0].entrance ==
              st({{Color::Red, 1}, {Color::Green, 3}, {Color::Yellow, 3}}));
  EXPECT_EQ(m.state.boards[0].coins, 1);  // paid 1, earned 1 on the 3rd blue seat
  EXPECT_EQ(m.state.supply, supply - 1);
  EXPECT_EQ(m.state.professors[index(Color::Blue)], 0);  // 3 > 2
  EXPECT_EQ(m.state.professors[index(Color::Red)], 0);   // 1 > 0: still the unique leader
  EXPECT_EQ(m.state.turn.students_moved, 0);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Minstrel, ProfessorGoesToTheNewUniqueLeader) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Minstrel});
  set_dining(m.state, 0, Color::Red, 2);
  set_dining(m.state, 1, Color::Red, 2);
  m.state.professors[index(Color::Red)] = 0;
  set_entrance(m.state, 0, st({{Color::Green, 7}}));
  m.play(0, UseMinstrel{st({{Color::Green, 1}}), st({{Color::Red, 1}})});
  EXPECT_EQ(m.state.professors[index(Color::Red)], 1);
  EXPECT_EQ(m.state.professors[index(Color::Green)], 0);
}

TEST(Minstrel, Refusals) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Minstrel});
  set_dining(m.state, 0, Color::Red, 3);
  set_dining(m.state, 0, Color::Blue, 10);
  set_entrance(m.state, 0, st({{Color::Blue, 2}, {Color::Green, 3}, {Color::Red, 2}}));
  EXPECT_EQ(code(m, 0, UseMinstrel{Students{}, Students{}}), "INVALID_SWAP");
  EXPECT_EQ(code(m, 0, UseMinstrel{st({{Color::Green, 3}}), st({{Color::Red, 3}})}),
            "INVALID_SWAP");  // 3 pairs
  EXPECT_EQ(code(m, 0, UseMinstrel{st({{Color::Green, 2}}), st({{Color::Red, 1}})}),
            "INVALID_SWAP");
  EXPECT_EQ(code(m, 0, UseMinstrel{st({{Color::Red, 1}}), st({{Color::Red, 1}})}), "INVALID_SWAP");
  EXPECT_EQ(code(m, 0, UseMinstrel{st({{Color::Yellow, 1}}), st({{Color::Red, 1}})}),
            "STUDENT_NOT_IN_ENTRANCE");
  EXPECT_EQ(code(m, 0, UseMinstrel{st({{Color::Green, 1}}), st({{Color::Pink, 1}})}),
            "STUDENT_NOT_IN_DINING");
  EXPECT_EQ(code(m, 0, UseMinstrel{st({{Color::Blue, 1}}), st({{Color::Red, 1}})}),
            "DINING_TABLE_FULL");
  EXPECT_EQ(
      code(m, 0, UseMinstrel{st({{Color::Green, 2}}), st({{Color::Red, 1}, {Color::Blue, 1}})}),
      "ACCEPTED");
}

// --- Spoiled Princess --------------------------------------------------------------------------

TEST(Princess, CardStudentToDiningWithCoinAndProfessor) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Princess});
  set_card_students(m.state, CharacterId::Princess, st({{Color::Red, 2}, {Color::Blue, 2}}));
  set_coins(m.state, 0, 2);
  set_dining(m.state, 0, Color::Red, 2);
  set_dining(m.state, 1, Color::Red, 2);
  m.state.professors[index(Color::Red)] = 1;
  const int bag = m.state.bag.total();
  const int supply = m.state.supply;
  m.play(0, UsePrincess{Color::Red});
  EXPECT_EQ(m.state.boards[0].dining[Color::Red], 3);
  EXPECT_EQ(m.state.professors[index(Color::Red)], 0);
  EXPECT_EQ(m.state.boards[0].coins, 1);      // paid 2, earned 1
  EXPECT_EQ(m.state.supply, supply + 1 - 1);  // 1 of 2 to the supply, 1 coin earned
  EXPECT_EQ(card_of(m, CharacterId::Princess).students.total(), 4);
  EXPECT_EQ(m.state.bag.total(), bag - 1);
  EXPECT_EQ(m.state.turn.students_moved, 0);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Princess, Refusals) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Princess});
  set_card_students(m.state, CharacterId::Princess, st({{Color::Red, 4}}));
  set_coins(m.state, 0, 2);
  EXPECT_EQ(code(m, 0, UsePrincess{Color::Green}), "STUDENT_NOT_ON_CARD");
  set_dining(m.state, 0, Color::Red, 10);
  EXPECT_EQ(code(m, 0, UsePrincess{Color::Red}), "DINING_TABLE_FULL");
}

TEST(Princess, EmptyBagShrinksTheCard) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Princess});
  set_card_students(m.state, CharacterId::Princess, st({{Color::Red, 4}}));
  set_coins(m.state, 0, 2);
  shrink_bag(m.state, 0, 6);
  m.play(0, UsePrincess{Color::Red});
  EXPECT_EQ(card_of(m, CharacterId::Princess).students.total(), 3);
  EXPECT_EQ(m.state.boards[0].dining[Color::Red], 1);
  EXPECT_EQ(invariant_violation(m.state), "");
}

// --- Thief -------------------------------------------------------------------------------------

TEST(Thief, EveryoneReturnsUpToThree) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Thief});
  set_coins(m.state, 0, 3);
  set_dining(m.state, 0, Color::Red, 5);
  set_dining(m.state, 1, Color::Red, 2);
  m.state.professors[index(Color::Red)] = 0;
  const int bag_red = m.state.bag[Color::Red];
  m.play(0, UseThief{Color::Red});
  EXPECT_EQ(m.state.boards[0].dining[Color::Red], 2);
  EXPECT_EQ(m.state.boards[1].dining[Color::Red], 0);
  EXPECT_EQ(m.state.bag[Color::Red], bag_red + 5);
  EXPECT_EQ(m.state.professors[index(Color::Red)], 0);
  EXPECT_EQ(m.state.boards[0].coins, 0);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Thief, EveryoneAtZeroKeepsTheProfessor) {
  Match m = action_2p(Mode::Expert, 1, {CharacterId::Thief});
  set_coins(m.state, 0, 3);
  set_dining(m.state, 0, Color::Green, 2);
  set_dining(m.state, 1, Color::Green, 3);
  m.state.professors[index(Color::Green)] = 1;
  m.play(0, UseThief{Color::Green});
  EXPECT_EQ(m.state.boards[0].dining[Color::Green], 0);
  EXPECT_EQ(m.state.boards[1].dining[Color::Green], 0);
  EXPECT_EQ(m.state.professors[index(Color::Green)], 1);
}

TEST(Thief, UniqueLeaderAfterwardsTakesTheProfessor) {
  Match m = started_match(3, Mode::Expert, 4);
  install(m.state, {CharacterId::Thief});
  neutralize(m.state);
  m.plan({1, 2, 3});
  set_coins(m.state, 0, 3);
  // Arranged (e.g. after earlier removals): seat 1 holds yellow with 3, seat 2 has 4.
  set_dining(m.state, 1, Color::Yellow, 3);
  set_dining(m.state, 2, Color::Yellow, 4);
  m.state.professors[index(Color::Yellow)] = 1;
  m.play(0, UseThief{Color::Yellow});
  EXPECT_EQ(m.state.boards[1].dining[Color::Yellow], 0);
  EXPECT_EQ(m.state.boards[2].dining[Color::Yellow], 1);
  EXPECT_EQ(m.state.professors[index(Color::Yellow)], 2);
  EXPECT_EQ(invariant_violation(m.state), "");
}

}  // namespace
}  // namespace eryantis::rules
