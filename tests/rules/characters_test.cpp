// Rules tests: characters (see /work/shared/rules/eriantys.md).
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
