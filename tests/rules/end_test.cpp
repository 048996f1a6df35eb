// Rules tests: end (see /work/shared/rules/eriantys.md).
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

}  // namespace
}  // namespace eryantis::rules
