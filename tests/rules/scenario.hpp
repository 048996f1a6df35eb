#pragma once
// The rules unit tests' one preamble: GoogleTest, the standard headers they use,
// Match and started_match (test_support.hpp), and the scenario helpers that
// arrange a position by hand while keeping the invariants (130 students, 20
// coins, towers, No-Entry tiles). A test file includes this header and says
// `using namespace scenario;` inside its anonymous namespace.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace eryantis::rules::scenario {

using testing::invariant_violation;
using testing::Match;
using testing::started_match;

// --- scenario helpers -----------------------------------------------------------------------

inline std::uint8_t u8(int v) {
  return static_cast<std::uint8_t>(v);
}

// A multiset from (colour, count) pairs.
inline Students st(std::initializer_list<std::pair<Color, int>> list) {
  Students s;
  for (const auto& [c, n] : list) s[c] = u8(s[c] + n);
  return s;
}

// Takes `what` out of the bag, so that an arranged position still holds 130 students.
inline void from_bag(State& s, const Students& what) {
  ASSERT_TRUE(s.bag.contains(what)) << "the bag cannot supply the arranged students";
  s.bag.remove(what);
}

// Every island student back into the bag.
inline void clear_islands(State& s) {
  for (auto& g : s.groups) {
    s.bag.add(g.students);
    g.students = Students{};
  }
}

// No student on any island and no professor owned: Mother Nature then builds nothing.
inline void neutralize(State& s) {
  clear_islands(s);
  s.professors.fill(kNoSeat);
}

inline void set_entrance(State& s, Seat p, const Students& e) {
  s.bag.add(s.boards[p].entrance);
  s.boards[p].entrance = Students{};
  from_bag(s, e);
  s.boards[p].entrance = e;
}

inline void set_dining(State& s, Seat p, Color c, int n) {
  s.bag[c] = u8(s.bag[c] + s.boards[p].dining[c]);
  s.boards[p].dining[c] = 0;
  Students want;
  want[c] = u8(n);
  from_bag(s, want);
  s.boards[p].dining[c] = u8(n);
}

inline void put_island(State& s, int tile, Color c, int n) {
  Students want;
  want[c] = u8(n);
  from_bag(s, want);
  s.groups[group_of_tile(s, tile)].students[c] =
      u8(s.groups[group_of_tile(s, tile)].students[c] + n);
}

// Moves all but `keep` bag students onto the island `tile`.
inline void shrink_bag(State& s, int keep, int tile) {
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
inline void give_coins(State& s, Seat p, int n) {
  ASSERT_GE(s.supply, n);
  s.supply = u8(s.supply - n);
  s.boards[p].coins = u8(s.boards[p].coins + n);
}
inline void set_coins(State& s, Seat p, int n) {
  s.supply = u8(s.supply + s.boards[p].coins);
  s.boards[p].coins = 0;
  give_coins(s, p, n);
}

inline int slot_of(const State& s, CharacterId id) {
  for (int i = 0; i < kCharactersInPlay; ++i)
    if (s.characters[i].id == id) return i;
  return -1;
}

// Replaces the three drawn characters by `ids` (completed with cards that hold nothing),
// with their setup students (from the bag) and No-Entry tiles. Call before anything is used.
inline void install(State& s, std::initializer_list<CharacterId> ids) {
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

inline void set_card_students(State& s, CharacterId id, const Students& on) {
  CharacterCard& card = s.characters[slot_of(s, id)];
  s.bag.add(card.students);
  card.students = Students{};
  from_bag(s, on);
  card.students = on;
}

// Rebuilds the circle as groups of the given sizes from tile 0, without students or towers
// (only valid while no tower is on the islands). Mother Nature goes to group 0.
inline void make_groups(State& s, const std::vector<int>& sizes) {
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
inline void own(State& s, int tile, TowerColor c) {
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

inline void mn_at(State& s, int tile) {
  s.mother_nature = u8(group_of_tile(s, tile));
}

inline int towers_on_islands(const State& s, TowerColor c) {
  int n = 0;
  for (int g = 0; g < s.group_count; ++g)
    if (s.groups[g].tower == c) n += s.groups[g].towers;
  return n;
}

// The stable code of check's refusal, or "ACCEPTED".
inline std::string code(const Match& m, Seat seat, const Command& c,
                        Authority a = Authority::Player) {
  const auto refused = m.refuse(seat, c, a);
  return refused ? std::string(rule_code_name(*refused)) : std::string("ACCEPTED");
}

inline Color some_colour(const Students& s) {
  for (Color c : kAllColors)
    if (s[c] > 0) return c;
  return Color::Yellow;
}

// The acting seat moves its remaining mandatory students onto the island `tile`.
inline void move_rest_to_island(Match& m, int tile) {
  const Seat p = m.state.current_seat();
  const int left = moves_per_turn(m.state.players()) - m.state.turn.students_moved;
  for (int i = 0; i < left && !::testing::Test::HasFatalFailure(); ++i)
    m.play(p, MoveToIsland{some_colour(m.state.boards[p].entrance), u8(tile)});
}

// Ends the acting seat's turn quietly: students onto Mother Nature's group, one step, first
// cloud left (no cloud in a short-bag round).
inline void finish_turn(Match& m) {
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
inline void play_round(Match& m, const std::vector<int>& values) {
  m.plan(values);
  for (int guard = 0; m.state.phase == Phase::Action && guard < 8; ++guard) {
    if (::testing::Test::HasFatalFailure()) return;
    finish_turn(m);
  }
}

// 2p: seat 0 acts first with assistant `value` (seat 1 plays 10), islands are 12 empty
// single tiles, no professor owned, Mother Nature on tile 0.
inline Match action_2p(Mode mode = Mode::Simple, int value = 1,
                       std::initializer_list<CharacterId> characters = {}) {
  Match m = started_match(2, mode, 5);
  if (mode == Mode::Expert) install(m.state, characters);
  neutralize(m.state);
  m.plan({value, 10});
  make_groups(m.state, std::vector<int>(kIslandTiles, 1));
  return m;
}

}  // namespace eryantis::rules::scenario
