// Section 7's invariants, as a function anyone can call on any state.
#include "eryantis/rules/invariants.hpp"

#include <array>

namespace eryantis::rules {

int count_students(const State& s) {
  int n = s.bag.total();
  for (int g = 0; g < s.group_count; ++g) n += s.groups[g].students.total();
  for (int i = 0; i < s.players(); ++i) n += s.clouds[i].students.total();
  for (int p = 0; p < s.players(); ++p)
    n += s.boards[p].entrance.total() + s.boards[p].dining.total();
  if (s.expert())
    for (const auto& c : s.characters) n += c.students.total();
  return n;
}

std::string invariant_violation(const State& s) {
  if (count_students(s) != kTotalStudents)
    return "students: " + std::to_string(count_students(s)) + " != 130";
  if (s.phase != Phase::Setup) {
    std::array<int, kTowerColorCount> towers{};
    std::array<bool, kTowerColorCount> used{};
    for (Seat p = 0; p < s.players(); ++p) {
      if (!s.boards[p].holds_towers) {
        if (s.boards[p].towers != 0) return "a seat without the team's towers holds towers";
        continue;
      }
      // A decoded state can claim towers without a colour (found by fuzz_state_binary).
      if (!s.boards[p].tower_color) return "a seat holding towers has no tower colour";
      towers[static_cast<int>(*s.boards[p].tower_color)] += s.boards[p].towers;
      used[static_cast<int>(*s.boards[p].tower_color)] = true;
    }
    for (int g = 0; g < s.group_count; ++g) {
      const auto& grp = s.groups[g];
      if (grp.tower) towers[static_cast<int>(*grp.tower)] += grp.towers;
      if (grp.towers > grp.tiles) return "a group carries more towers than tiles";
      if (!grp.tower && grp.towers != 0) return "towers without a colour";
      if (grp.tower && grp.towers != grp.tiles && s.phase != Phase::GameOver)
        return "an owned group's tower count differs from its tiles outside game over";
    }
    for (int i = 0; i < kTowerColorCount; ++i)
      if (used[i] && towers[i] != towers_per_color(s.players()))
        return "towers of colour " + std::to_string(i) + ": " + std::to_string(towers[i]);
  }
  int tiles = 0;
  for (int g = 0; g < s.group_count; ++g) {
    tiles += s.groups[g].tiles;
    const int next = (g + 1) % s.group_count;
    if (s.group_count > 1 &&
        (s.groups[g].first_tile + s.groups[g].tiles) % kIslandTiles != s.groups[next].first_tile)
      return "groups are not contiguous in circle order";
  }
  if (tiles != kIslandTiles) return "tiles: " + std::to_string(tiles);
  if (s.mother_nature >= s.group_count) return "Mother Nature is off the islands";
  if (s.expert()) {
    int coins = s.supply;
    for (Seat p = 0; p < s.players(); ++p) coins += s.boards[p].coins;
    for (const auto& c : s.characters) coins += c.used ? 1 : 0;
    if (coins != kTotalCoins) return "coins: " + std::to_string(coins);
    int tiles_no_entry = 0;
    for (int g = 0; g < s.group_count; ++g) tiles_no_entry += s.groups[g].no_entry;
    for (const auto& c : s.characters)
      if (c.id == CharacterId::GrandmaHerbs) tiles_no_entry += c.no_entry;
    bool herbs = false;
    for (const auto& c : s.characters) herbs = herbs || c.id == CharacterId::GrandmaHerbs;
    if (tiles_no_entry != (herbs ? 4 : 0))
      return "no-entry tiles: " + std::to_string(tiles_no_entry);
  }
  for (Color c : kAllColors) {
    const Seat o = s.professors[index(c)];
    if (o < kNoSeat || o >= s.players()) return "professor owner out of range";
  }
  for (Seat p = 0; p < s.players(); ++p)
    for (Color c : kAllColors)
      if (s.boards[p].dining[c] > kTableSeats) return "a dining table holds more than 10";
  return {};
}

}  // namespace eryantis::rules
