#pragma once
// Influence on an island group with no character in effect (3.2 step 2): the
// students of each colour count for the team holding that colour's professor, and
// the towers on the group for their colour. The rules compute the same sum (and
// its character variants) in src/rules/influence.cpp; the players need the plain
// one to read a position: the evaluation, the candidate rules and the playout
// policy.
#include <algorithm>
#include <array>

#include "eryantis/rules/state.hpp"

namespace eryantis::ai::detail {

inline std::array<int, rules::kTowerColorCount> influence(const rules::State& s,
                                                          const rules::IslandGroup& g) {
  std::array<int, rules::kTowerColorCount> inf{};
  for (rules::Color c : rules::kAllColors) {
    const rules::Seat owner = s.professors[rules::index(c)];
    if (owner == rules::kNoSeat) continue;
    if (auto team = rules::team_color(s, owner)) inf[static_cast<int>(*team)] += g.students[c];
  }
  if (g.tower) inf[static_cast<int>(*g.tower)] += g.towers;
  return inf;
}

// The team (tower colour index) with strictly the most influence, or -1 on a tie or
// when nobody has any: who would build here if Mother Nature stopped now.
inline int influence_leader(const std::array<int, rules::kTowerColorCount>& inf) {
  const int best = static_cast<int>(std::max_element(inf.begin(), inf.end()) - inf.begin());
  if (inf[best] == 0 || std::count(inf.begin(), inf.end(), inf[best]) > 1) return -1;
  return best;
}

// The group `steps` clockwise from Mother Nature's.
inline int group_ahead(const rules::State& s, int steps) {
  return (s.mother_nature + steps) % s.group_count;
}

}  // namespace eryantis::ai::detail
