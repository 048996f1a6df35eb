// Rules tests: planning (see /work/shared/rules/eriantys.md).
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

TEST(Planning, OrderIsClockwiseFromTheFirstPlayer) {
  for (std::uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
    Match m = started_match(4, Mode::Simple, seed);
    const Seat first = m.state.first_player;
    ASSERT_EQ(m.state.order_size, 4);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(m.state.order[i], (first + i) % 4);
    // Each seat plays in turn; the others are refused until then.
    for (int i = 0; i < 4; ++i) {
      const Seat seat = static_cast<Seat>((first + i) % 4);
      EXPECT_EQ(seats_to_act(m.state), (std::vector<Seat>{seat}));
      const Seat other = static_cast<Seat>((seat + 1) % 4);
      EXPECT_EQ(code(m, other, PlayAssistant{u8(i + 5)}), "NOT_YOUR_TURN");
      m.play(seat, PlayAssistant{u8(i + 1)});
    }
    EXPECT_EQ(m.state.phase, Phase::Action);
  }
}

TEST(Planning, ActionCommandsAreRefusedInPlanning) {
  Match m = started_match(2, Mode::Expert, 3);
  const Seat seat = m.state.current_seat();
  EXPECT_EQ(code(m, seat, MoveToDining{some_colour(m.state.boards[seat].entrance)}), "WRONG_PHASE");
  EXPECT_EQ(code(m, seat, MoveToIsland{some_colour(m.state.boards[seat].entrance), 3}),
            "WRONG_PHASE");
  EXPECT_EQ(code(m, seat, MoveMotherNature{1}), "WRONG_PHASE");
  EXPECT_EQ(code(m, seat, ChooseCloud{0}), "WRONG_PHASE");
  install(m.state, {CharacterId::Knight});
  EXPECT_EQ(code(m, seat, UseKnight{}), "WRONG_PHASE");
}

TEST(Planning, AssistantValueAndHandChecks) {
  Match m = started_match(2, Mode::Simple, 3);
  const Seat a = m.state.order[0];
  const Seat b = m.state.order[1];
  EXPECT_EQ(code(m, a, PlayAssistant{0}), "INVALID_COMMAND");
  EXPECT_EQ(code(m, a, PlayAssistant{11}), "INVALID_COMMAND");
  m.state.boards[a].hand = static_cast<std::uint16_t>(kFullHand & ~assistant_bit(4));
  EXPECT_EQ(code(m, a, PlayAssistant{4}), "ASSISTANT_NOT_IN_HAND");
  m.play(a, PlayAssistant{7});
  EXPECT_EQ(m.state.boards[a].played, 7);
  EXPECT_EQ(m.state.boards[a].discard, 7);
  EXPECT_FALSE(m.state.boards[a].has_assistant(7));
  EXPECT_EQ(code(m, b, PlayAssistant{7}), "ASSISTANT_ALREADY_PLAYED");
  EXPECT_EQ(code(m, a, PlayAssistant{3}), "NOT_YOUR_TURN");
  m.play(b, PlayAssistant{6});
  EXPECT_EQ(m.state.phase, Phase::Action);
  EXPECT_EQ(code(m, b, PlayAssistant{2}), "WRONG_PHASE");
}

TEST(Planning, ActionOrderIsAscendingAssistantValue) {
  Match m = started_match(4, Mode::Simple, 11);
  m.plan({7, 3, 9, 1});
  ASSERT_EQ(m.state.phase, Phase::Action);
  ASSERT_EQ(m.state.order_size, 4);
  EXPECT_EQ(m.state.order[0], 3);
  EXPECT_EQ(m.state.order[1], 1);
  EXPECT_EQ(m.state.order[2], 0);
  EXPECT_EQ(m.state.order[3], 2);
  EXPECT_EQ(m.state.current_seat(), 3);
  EXPECT_EQ(m.state.first_player, 3);  // the lowest assistant starts the next planning
}

TEST(Planning, DuplicateOnlyWhenEveryCardInHandWasPlayed) {
  Match m = started_match(2, Mode::Simple, 3);
  const Seat a = m.state.order[0];
  const Seat b = m.state.order[1];
  m.state.boards[b].hand = static_cast<std::uint16_t>(assistant_bit(5) | assistant_bit(8));
  m.play(a, PlayAssistant{5});
  EXPECT_EQ(code(m, b, PlayAssistant{5}), "ASSISTANT_ALREADY_PLAYED");  // 8 is still playable
  EXPECT_EQ(legal_commands(m.state, b), (std::vector<Command>{PlayAssistant{8}}));
  m.state.boards[b].hand = assistant_bit(5);
  EXPECT_EQ(code(m, b, PlayAssistant{5}), "ACCEPTED");
  m.play(b, PlayAssistant{5});
  ASSERT_EQ(m.state.phase, Phase::Action);
  EXPECT_EQ(m.state.order[0], a);  // the tie goes to the player who played it first
  EXPECT_EQ(m.state.order[1], b);
}

TEST(Planning, DuplicatedValueActsAfterTheFirstPlayerOfIt) {
  Match m = started_match(3, Mode::Simple, 5);
  const Seat o0 = m.state.order[0];
  const Seat o1 = m.state.order[1];
  const Seat o2 = m.state.order[2];
  m.state.boards[o2].hand = assistant_bit(6);
  m.play(o0, PlayAssistant{6});
  m.play(o1, PlayAssistant{2});
  m.play(o2, PlayAssistant{6});
  ASSERT_EQ(m.state.phase, Phase::Action);
  EXPECT_EQ(m.state.order[0], o1);
  EXPECT_EQ(m.state.order[1], o0);
  EXPECT_EQ(m.state.order[2], o2);
}

TEST(Planning, ThreeWayTieKeepsPlayOrder) {
  Match m = started_match(3, Mode::Simple, 6);
  const Seat o0 = m.state.order[0];
  const Seat o1 = m.state.order[1];
  const Seat o2 = m.state.order[2];
  m.state.boards[o1].hand = assistant_bit(4);
  m.state.boards[o2].hand = assistant_bit(4);
  m.play(o0, PlayAssistant{4});
  m.play(o1, PlayAssistant{4});
  m.play(o2, PlayAssistant{4});
  ASSERT_EQ(m.state.phase, Phase::Action);
  EXPECT_EQ(m.state.order[0], o0);
  EXPECT_EQ(m.state.order[1], o1);
  EXPECT_EQ(m.state.order[2], o2);
}

TEST(Planning, PlayedCardsNeverReturn) {
  Match m = started_match(2, Mode::Simple, 8);
  neutralize(m.state);
  play_round(m, {5, 9});
  ASSERT_EQ(m.state.round, 2);
  ASSERT_EQ(m.state.phase, Phase::Planning);
  EXPECT_EQ(m.state.boards[0].played, 0);
  EXPECT_EQ(m.state.boards[0].discard, 5);
  EXPECT_EQ(m.state.boards[1].discard, 9);
  EXPECT_EQ(m.state.boards[0].hand, kFullHand & ~assistant_bit(5));
  // Seat 0 played the lowest card, so it starts round 2.
  EXPECT_EQ(m.state.current_seat(), 0);
  EXPECT_EQ(code(m, 0, PlayAssistant{5}), "ASSISTANT_NOT_IN_HAND");
  EXPECT_EQ(code(m, 0, PlayAssistant{9}), "ACCEPTED");  // values used last round are free again
}

TEST(Planning, CloudsAreRefilledAtEveryPlanning) {
  Match m = started_match(2, Mode::Simple, 8);
  neutralize(m.state);
  const int bag = m.state.bag.total();
  play_round(m, {2, 3});
  ASSERT_EQ(m.state.round, 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(m.state.clouds[i].students.total(), 3);
    EXPECT_FALSE(m.state.clouds[i].taken);
  }
  EXPECT_EQ(m.state.bag.total(), bag - 6);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Planning, NextRoundStartsWithTheLowestAssistantThenClockwise) {
  Match m = started_match(3, Mode::Simple, 2);
  neutralize(m.state);
  // Give the lowest card to the seat that played second.
  const Seat second = m.state.order[1];
  std::vector<int> values(3, 0);
  values[m.state.order[0]] = 6;
  values[second] = 2;
  values[m.state.order[2]] = 9;
  play_round(m, values);
  ASSERT_EQ(m.state.phase, Phase::Planning);
  EXPECT_EQ(m.state.first_player, second);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(m.state.order[i], (second + i) % 3);
  EXPECT_EQ(m.state.current_seat(), second);
}

}  // namespace
}  // namespace eryantis::rules
