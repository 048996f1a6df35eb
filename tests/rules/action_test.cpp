// Rules tests: action (see /work/shared/rules/eriantys.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace eryantis::rules {
namespace {

using testing::invariant_violation;
using testing::Match;
using testing::started_match;

// --- scenario helpers (local to this file) -------------------------------------------------

[[maybe_unused]] std::uint8_t u8(int v) {
  return static_cast<std::uint8_t>(v);
}

// A multiset from (colour, count) pairs.
[[maybe_unused]] Students st(std::initializer_list<std::pair<Color, int>> list) {
  Students s;
  for (const auto& [c, n] : list) s[c] = u8(s[c] + n);
  return s;
}

// Takes `what` out of the bag, so that an arranged position still holds 130 students.
[[maybe_unused]] void from_bag(State& s, const Students& what) {
  ASSERT_TRUE(s.bag.contains(what)) << "the bag cannot supply the arranged students";
  s.bag.remove(what);
}

// Every island student back into the bag.
[[maybe_unused]] void clear_islands(State& s) {
  for (auto& g : s.groups) {
    s.bag.add(g.students);
    g.students = Students{};
  }
}

// No student on any island and no professor owned: Mother Nature then builds nothing.
[[maybe_unused]] void neutralize(State& s) {
  clear_islands(s);
  s.professors.fill(kNoSeat);
}

[[maybe_unused]] void set_entrance(State& s, Seat p, const Students& e) {
  s.bag.add(s.boards[p].entrance);
  s.boards[p].entrance = Students{};
  from_bag(s, e);
  s.boards[p].entrance = e;
}

[[maybe_unused]] void set_dining(State& s, Seat p, Color c, int n) {
  s.bag[c] = u8(s.bag[c] + s.boards[p].dining[c]);
  s.boards[p].dining[c] = 0;
  Students want;
  want[c] = u8(n);
  from_bag(s, want);
  s.boards[p].dining[c] = u8(n);
}

[[maybe_unused]] void put_island(State& s, int tile, Color c, int n) {
  Students want;
  want[c] = u8(n);
  from_bag(s, want);
  s.groups[group_of_tile(s, tile)].students[c] =
      u8(s.groups[group_of_tile(s, tile)].students[c] + n);
}

// Moves all but `keep` bag students onto the island `tile`.
[[maybe_unused]] void shrink_bag(State& s, int keep, int tile) {
  Students moved = s.bag;
  int k = keep;
  for (Color c : kAllColors) {
    const int n = std::min<int>(k, moved[c]);
    moved[c] = u8(moved[c] - n);
    k -= n;
  }
  s.bag.remove(moved);
  s.groups[group_of_tile(s, tile)].students.add(moved);
}

// Coins from the general supply (coins stay conserved).
[[maybe_unused]] void give_coins(State& s, Seat p, int n) {
  ASSERT_GE(s.supply, n);
  s.supply = u8(s.supply - n);
  s.boards[p].coins = u8(s.boards[p].coins + n);
}
[[maybe_unused]] void set_coins(State& s, Seat p, int n) {
  s.supply = u8(s.supply + s.boards[p].coins);
  s.boards[p].coins = 0;
  give_coins(s, p, n);
}

[[maybe_unused]] int slot_of(const State& s, CharacterId id) {
  for (int i = 0; i < kCharactersInPlay; ++i)
    if (s.characters[i].id == id) return i;
  return -1;
}

// Replaces the three drawn characters by `ids` (completed with cards that hold nothing),
// with their setup students (from the bag) and No-Entry tiles. Call before anything is used.
[[maybe_unused]] void install(State& s, std::initializer_list<CharacterId> ids) {
  for (auto& card : s.characters) {
    s.bag.add(card.students);
    card = CharacterCard{};
  }
  std::vector<CharacterId> chosen(ids);
  for (CharacterId filler : {CharacterId::Knight, CharacterId::Centaur, CharacterId::Farmer,
                             CharacterId::Postman, CharacterId::Thief})
    if (chosen.size() < static_cast<std::size_t>(kCharactersInPlay) &&
        std::find(chosen.begin(), chosen.end(), filler) == chosen.end())
      chosen.push_back(filler);
  for (int i = 0; i < kCharactersInPlay; ++i) {
    CharacterCard& card = s.characters[i];
    card.id = chosen[i];
    if (card.id == CharacterId::GrandmaHerbs) card.no_entry = 4;
    for (int k = 0, c = 0; k < setup_students(card.id); ++c) {
      const Color col = kAllColors[c % kColorCount];
      if (s.bag[col] == 0) continue;
      s.bag[col] = u8(s.bag[col] - 1);
      card.students[col] = u8(card.students[col] + 1);
      ++k;
    }
  }
}

[[maybe_unused]] void set_card_students(State& s, CharacterId id, const Students& on) {
  CharacterCard& card = s.characters[slot_of(s, id)];
  s.bag.add(card.students);
  card.students = Students{};
  from_bag(s, on);
  card.students = on;
}

// Rebuilds the circle as groups of the given sizes from tile 0, without students or towers
// (only valid while no tower is on the islands). Mother Nature goes to group 0.
[[maybe_unused]] void make_groups(State& s, const std::vector<int>& sizes) {
  clear_islands(s);
  for (auto& g : s.groups) g = IslandGroup{};
  int tile = 0;
  for (std::size_t g = 0; g < sizes.size(); ++g) {
    s.groups[g].first_tile = u8(tile);
    s.groups[g].tiles = u8(sizes[g]);
    tile += sizes[g];
  }
  s.group_count = u8(static_cast<int>(sizes.size()));
  s.mother_nature = 0;
}

// Towers of `c` on every tile of the group holding `tile`, taken from the colour's holder.
[[maybe_unused]] void own(State& s, int tile, TowerColor c) {
  IslandGroup& g = s.groups[group_of_tile(s, tile)];
  if (g.tower) {
    SchoolBoard& old = s.boards[tower_holder(s, *g.tower)];
    old.towers = u8(old.towers + g.towers);
  }
  const Seat holder = tower_holder(s, c);
  ASSERT_NE(holder, kNoSeat);
  ASSERT_GE(s.boards[holder].towers, g.tiles);
  s.boards[holder].towers = u8(s.boards[holder].towers - g.tiles);
  g.tower = c;
  g.towers = g.tiles;
}

[[maybe_unused]] void mn_at(State& s, int tile) {
  s.mother_nature = u8(group_of_tile(s, tile));
}

[[maybe_unused]] int towers_on_islands(const State& s, TowerColor c) {
  int n = 0;
  for (int g = 0; g < s.group_count; ++g)
    if (s.groups[g].tower == c) n += s.groups[g].towers;
  return n;
}

// The stable code of check's refusal, or "ACCEPTED".
[[maybe_unused]] std::string code(const Match& m, Seat seat, const Command& c,
                                  Authority a = Authority::Player) {
  const auto refused = m.refuse(seat, c, a);
  return refused ? std::string(rule_code_name(*refused)) : std::string("ACCEPTED");
}

[[maybe_unused]] Color some_colour(const Students& s) {
  for (Color c : kAllColors)
    if (s[c] > 0) return c;
  return Color::Yellow;
}

// The acting seat moves its remaining mandatory students onto the island `tile`.
[[maybe_unused]] void move_rest_to_island(Match& m, int tile) {
  const Seat p = m.state.current_seat();
  const int left = moves_per_turn(m.state.players()) - m.state.turn.students_moved;
  for (int i = 0; i < left && !::testing::Test::HasFatalFailure(); ++i)
    m.play(p, MoveToIsland{some_colour(m.state.boards[p].entrance), u8(tile)});
}

// Ends the acting seat's turn quietly: students onto Mother Nature's group, one step, first
// cloud left (no cloud in a short-bag round).
[[maybe_unused]] void finish_turn(Match& m) {
  const Seat p = m.state.current_seat();
  move_rest_to_island(m, m.state.groups[m.state.mother_nature].first_tile);
  if (::testing::Test::HasFatalFailure()) return;
  if (!m.state.turn.mother_nature_moved) m.play(p, MoveMotherNature{1});
  if (m.state.phase != Phase::Action || m.state.current_seat() != p ||
      !m.state.turn.mother_nature_moved)
    return;
  for (int i = 0; i < m.state.players(); ++i)
    if (!m.state.clouds[i].taken && !m.state.clouds[i].students.empty()) {
      m.play(p, ChooseCloud{u8(i)});
      return;
    }
  ADD_FAILURE() << "no cloud left to take";
}

// A whole round: the assistants (by seat), then every action turn via finish_turn.
[[maybe_unused]] void play_round(Match& m, const std::vector<int>& values) {
  m.plan(values);
  for (int guard = 0; m.state.phase == Phase::Action && guard < 8; ++guard) {
    if (::testing::Test::HasFatalFailure()) return;
    finish_turn(m);
  }
}

// 2p: seat 0 acts first with assistant `value` (seat 1 plays 10), islands are 12 empty
// single tiles, no professor owned, Mother Nature on tile 0.
[[maybe_unused]] Match action_2p(Mode mode = Mode::Simple, int value = 1,
                                 std::initializer_list<CharacterId> characters = {}) {
  Match m = started_match(2, mode, 5);
  if (mode == Mode::Expert) install(m.state, characters);
  neutralize(m.state);
  m.plan({value, 10});
  make_groups(m.state, std::vector<int>(kIslandTiles, 1));
  return m;
}

// --- end of helpers ---------------------------------------------------------------------------

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
