// Rules tests: influence (see docs/rules.md).
#include "scenario.hpp"  // the rules tests' preamble: gtest, Match, the scenario helpers

namespace eryantis::rules {
namespace {

using namespace scenario;

// Seat 0 (black) moves its students away to tile 6 and Mother Nature one step: tile 1 resolves.
void resolve_tile_one(Match& m) {
  move_rest_to_island(m, 6);
  m.play(m.state.current_seat(), MoveMotherNature{1});
}

TEST(Influence, StrictMaximumBuildsOneTower) {
  Match m = action_2p();
  m.state.professors[index(Color::Red)] = 0;
  m.state.professors[index(Color::Blue)] = 1;
  put_island(m.state, 1, Color::Red, 2);
  put_island(m.state, 1, Color::Blue, 1);
  resolve_tile_one(m);
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::Black);
  EXPECT_EQ(m.state.groups[1].towers, 1);
  EXPECT_EQ(m.state.boards[0].towers, 7);
  EXPECT_EQ(m.state.boards[1].towers, 8);
  EXPECT_EQ(m.state.group_count, 12);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Influence, TheActingPlayerNeedNotBeTheWinner) {
  Match m = action_2p();
  m.state.professors[index(Color::Blue)] = 1;
  put_island(m.state, 1, Color::Blue, 1);
  resolve_tile_one(m);  // seat 0 moves Mother Nature, seat 1 builds
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::White);
  EXPECT_EQ(m.state.boards[1].towers, 7);
}

TEST(Influence, TieBuildsNothing) {
  Match m = action_2p();
  m.state.professors[index(Color::Red)] = 0;
  m.state.professors[index(Color::Blue)] = 1;
  put_island(m.state, 1, Color::Red, 2);
  put_island(m.state, 1, Color::Blue, 2);
  resolve_tile_one(m);
  EXPECT_FALSE(m.state.groups[1].tower.has_value());
  EXPECT_EQ(m.state.boards[0].towers, 8);
  EXPECT_EQ(m.state.boards[1].towers, 8);
}

TEST(Influence, StudentsWithoutProfessorGiveNoInfluence) {
  Match m = action_2p();
  put_island(m.state, 1, Color::Green, 5);  // nobody owns green
  resolve_tile_one(m);
  EXPECT_FALSE(m.state.groups[1].tower.has_value());
}

TEST(Influence, TowersCountForTheirOwner) {
  Match m = action_2p();
  own(m.state, 1, TowerColor::Black);
  m.state.professors[index(Color::Blue)] = 1;
  put_island(m.state, 1, Color::Blue, 1);  // white 1 vs black's tower 1: tie, black keeps it
  resolve_tile_one(m);
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::Black);
  EXPECT_EQ(m.state.boards[0].towers, 7);
  EXPECT_EQ(m.state.boards[1].towers, 8);
}

TEST(Influence, OwnerAlreadyOnTopChangesNothing) {
  Match m = action_2p();
  own(m.state, 1, TowerColor::Black);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 1, Color::Red, 3);
  resolve_tile_one(m);
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::Black);
  EXPECT_EQ(m.state.groups[1].towers, 1);
  EXPECT_EQ(m.state.boards[0].towers, 7);
}

TEST(Influence, ConquestReplacesEveryTowerOfTheGroup) {
  Match m = action_2p();
  make_groups(m.state, {1, 3, 1, 1, 1, 1, 1, 1, 1, 1});  // group 1 = tiles 1..3
  own(m.state, 2, TowerColor::Black);
  EXPECT_EQ(m.state.boards[0].towers, 5);
  m.state.professors[index(Color::Blue)] = 1;
  put_island(m.state, 3, Color::Blue, 3);  // white 3 vs black 3 towers: tie
  Match tie = m;
  resolve_tile_one(tie);
  EXPECT_EQ(tie.state.groups[1].tower, TowerColor::Black);
  put_island(m.state, 1, Color::Blue, 1);  // white 4 > 3
  resolve_tile_one(m);
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::White);
  EXPECT_EQ(m.state.groups[1].towers, 3);
  EXPECT_EQ(m.state.boards[0].towers, 8);
  EXPECT_EQ(m.state.boards[1].towers, 5);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Influence, BuildMergesWithTheNextGroup) {
  Match m = action_2p();
  own(m.state, 2, TowerColor::Black);
  put_island(m.state, 2, Color::Pink, 2);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 1, Color::Red, 1);
  resolve_tile_one(m);
  EXPECT_EQ(m.state.group_count, 11);
  const int g = group_of_tile(m.state, 1);
  EXPECT_EQ(g, 1);
  EXPECT_EQ(group_of_tile(m.state, 2), g);
  EXPECT_EQ(m.state.groups[g].first_tile, 1);
  EXPECT_EQ(m.state.groups[g].tiles, 2);
  EXPECT_EQ(m.state.groups[g].towers, 2);
  EXPECT_TRUE(m.state.groups[g].students == st({{Color::Red, 1}, {Color::Pink, 2}}));
  EXPECT_EQ(m.state.mother_nature, g);
  EXPECT_EQ(m.state.boards[0].towers, 6);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Influence, BuildMergesWithThePreviousGroup) {
  Match m = action_2p();
  own(m.state, 0, TowerColor::Black);  // Mother Nature's starting island
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 1, Color::Red, 1);
  resolve_tile_one(m);
  EXPECT_EQ(m.state.group_count, 11);
  EXPECT_EQ(m.state.groups[0].first_tile, 0);
  EXPECT_EQ(m.state.groups[0].tiles, 2);
  EXPECT_EQ(m.state.mother_nature, 0);
  EXPECT_EQ(group_of_tile(m.state, 2), 1);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Influence, BuildMergesBothSidesAtOnce) {
  Match m = action_2p();
  own(m.state, 0, TowerColor::White);
  own(m.state, 2, TowerColor::White);
  put_island(m.state, 0, Color::Yellow, 1);
  put_island(m.state, 2, Color::Green, 1);
  m.state.professors[index(Color::Blue)] = 1;
  put_island(m.state, 1, Color::Blue, 1);
  resolve_tile_one(m);
  EXPECT_EQ(m.state.group_count, 10);
  EXPECT_EQ(m.state.groups[0].first_tile, 0);
  EXPECT_EQ(m.state.groups[0].tiles, 3);
  EXPECT_EQ(m.state.groups[0].towers, 3);
  EXPECT_EQ(m.state.groups[0].tower, TowerColor::White);
  EXPECT_TRUE(m.state.groups[0].students ==
              st({{Color::Yellow, 1}, {Color::Blue, 1}, {Color::Green, 1}}));
  EXPECT_EQ(m.state.mother_nature, 0);
  EXPECT_EQ(m.state.boards[1].towers, 5);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Influence, MergeAcrossTheEndOfTheCircle) {
  Match m = action_2p();
  own(m.state, 0, TowerColor::Black);
  mn_at(m.state, 10);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 11, Color::Red, 1);
  move_rest_to_island(m, 5);
  m.play(0, MoveMotherNature{1});
  EXPECT_EQ(m.state.group_count, 11);
  const int g = group_of_tile(m.state, 11);
  EXPECT_EQ(group_of_tile(m.state, 0), g);
  EXPECT_EQ(m.state.groups[g].first_tile, 11);
  EXPECT_EQ(m.state.groups[g].tiles, 2);
  EXPECT_EQ(m.state.mother_nature, g);
  EXPECT_EQ(group_of_tile(m.state, 1), 0);  // the groups stay in circle order
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Influence, OtherColourNeighboursDoNotMerge) {
  Match m = action_2p();
  own(m.state, 0, TowerColor::White);
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 1, Color::Red, 2);
  resolve_tile_one(m);
  EXPECT_EQ(m.state.group_count, 12);
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::Black);
}

TEST(Influence, FourPlayersSumTeammatesProfessors) {
  Match m = started_match(4, Mode::Simple, 3);
  neutralize(m.state);
  m.plan({2, 1, 3, 4});  // seat 1 (white) acts first
  make_groups(m.state, std::vector<int>(12, 1));
  m.state.professors[index(Color::Red)] = 0;
  m.state.professors[index(Color::Blue)] = 2;
  m.state.professors[index(Color::Green)] = 3;
  put_island(m.state, 1, Color::Red, 1);
  put_island(m.state, 1, Color::Blue, 1);
  put_island(m.state, 1, Color::Green, 2);
  Match tie = m;
  resolve_tile_one(tie);  // black 1+1 vs white 2
  EXPECT_FALSE(tie.state.groups[1].tower.has_value());
  put_island(m.state, 1, Color::Blue, 1);  // black 3 vs white 2
  resolve_tile_one(m);
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::Black);
  EXPECT_EQ(m.state.boards[0].towers, 7);  // the team's towers come from the holder
  EXPECT_EQ(m.state.boards[2].towers, 0);
  EXPECT_EQ(m.state.boards[1].towers, 8);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Influence, ThreePlayersGreyCanBuild) {
  Match m = started_match(3, Mode::Simple, 3);
  neutralize(m.state);
  m.plan({1, 2, 3});
  make_groups(m.state, std::vector<int>(12, 1));
  m.state.professors[index(Color::Red)] = 0;
  m.state.professors[index(Color::Blue)] = 1;
  m.state.professors[index(Color::Pink)] = 2;
  put_island(m.state, 1, Color::Red, 1);
  put_island(m.state, 1, Color::Blue, 1);
  put_island(m.state, 1, Color::Pink, 2);
  resolve_tile_one(m);
  EXPECT_EQ(m.state.groups[1].tower, TowerColor::Grey);
  EXPECT_EQ(m.state.boards[2].towers, 5);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Influence, ThreePlayersTieForTheTopBuildsNothing) {
  Match m = started_match(3, Mode::Simple, 3);
  neutralize(m.state);
  m.plan({1, 2, 3});
  make_groups(m.state, std::vector<int>(12, 1));
  m.state.professors[index(Color::Blue)] = 1;
  m.state.professors[index(Color::Pink)] = 2;
  m.state.professors[index(Color::Red)] = 0;
  put_island(m.state, 1, Color::Blue, 2);
  put_island(m.state, 1, Color::Pink, 2);
  put_island(m.state, 1, Color::Red, 1);
  resolve_tile_one(m);
  EXPECT_FALSE(m.state.groups[1].tower.has_value());
}

TEST(Influence, DoubleMergeAcrossTheEndOfTheCircle) {
  Match m = action_2p();
  own(m.state, 11, TowerColor::White);
  own(m.state, 1, TowerColor::White);
  m.state.professors[index(Color::Blue)] = 1;
  put_island(m.state, 0, Color::Blue, 1);
  mn_at(m.state, 11);
  move_rest_to_island(m, 5);
  m.play(0, MoveMotherNature{1});  // tile 0, between white tiles 11 and 1
  EXPECT_EQ(m.state.group_count, 10);
  const int g = group_of_tile(m.state, 0);
  EXPECT_EQ(group_of_tile(m.state, 11), g);
  EXPECT_EQ(group_of_tile(m.state, 1), g);
  EXPECT_EQ(m.state.groups[g].first_tile, 11);
  EXPECT_EQ(m.state.groups[g].tiles, 3);
  EXPECT_EQ(m.state.groups[g].towers, 3);
  EXPECT_EQ(m.state.mother_nature, g);
  EXPECT_EQ(group_of_tile(m.state, 2), 0);
  EXPECT_EQ(m.state.boards[1].towers, 5);
  EXPECT_EQ(invariant_violation(m.state), "");
}

}  // namespace
}  // namespace eryantis::rules
