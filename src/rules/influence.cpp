// Influence, towers, merging and the end of the game (3.2 step 2, section 5).
#include <algorithm>

#include "internal.hpp"

namespace eryantis::rules::detail {

namespace {
std::array<int, kTowerColorCount> influence_on(const State& s, const IslandGroup& g) {
  std::array<int, kTowerColorCount> inf{};
  const Seat actor = s.phase == Phase::Action ? s.current_seat() : kNoSeat;
  const auto active = s.turn.active;
  for (Color c : kAllColors) {
    if (active == CharacterId::MushroomHunter && s.turn.excluded_color == c) continue;
    const Seat owner = s.professors[index(c)];
    if (owner == kNoSeat) continue;
    if (auto team = team_color(s, owner)) inf[static_cast<int>(*team)] += g.students[c];
  }
  if (g.tower && active != CharacterId::Centaur)
    inf[static_cast<int>(*g.tower)] += g.towers;  // decision 14
  if (active == CharacterId::Knight && actor != kNoSeat)
    if (auto team = team_color(s, actor)) inf[static_cast<int>(*team)] += 2;  // decision 13
  return inf;
}

// Merges groups[i] with the group clockwise after it (index (i+1) % n).
void merge_with_next(State& s, int i) {
  const int n = s.group_count;
  const int j = (i + 1) % n;
  IslandGroup& a = s.groups[i];
  const IslandGroup& b = s.groups[j];
  a.students.add(b.students);
  a.tiles = static_cast<std::uint8_t>(a.tiles + b.tiles);
  a.towers = static_cast<std::uint8_t>(a.towers + b.towers);
  a.no_entry = static_cast<std::uint8_t>(a.no_entry + b.no_entry);  // decision 8
  for (int k = j; k + 1 < n; ++k) s.groups[k] = s.groups[k + 1];
  s.groups[n - 1] = IslandGroup{};
  s.group_count = static_cast<std::uint8_t>(n - 1);
}

void finish(State& s, EndReason reason, std::uint8_t winners) {
  s.phase = Phase::GameOver;
  s.result = Result{reason, winners};
  s.order_size = 0;
  s.turn_index = 0;
  s.turn = TurnState{};
}

std::uint8_t seats_of(const State& s, TowerColor c) {
  std::uint8_t mask = 0;
  for (Seat p = 0; p < s.players(); ++p)
    if (team_color(s, p) == c) mask = static_cast<std::uint8_t>(mask | (1u << p));
  return mask;
}
}  // namespace

void finish_by_count(State& s, EndReason reason, std::uint8_t losers) {
  // 5.3: most towers built, then most professors (team-summed); still tied = shared draw.
  std::array<int, kTowerColorCount> built{};
  std::array<int, kTowerColorCount> profs{};
  std::array<bool, kTowerColorCount> playing{};
  for (Seat p = 0; p < s.players(); ++p) {
    auto c = team_color(s, p);
    if (!c || (losers & (1u << p))) continue;
    const int i = static_cast<int>(*c);
    playing[i] = true;
    if (s.boards[p].holds_towers) built[i] = towers_per_color(s.players()) - s.boards[p].towers;
    for (Color col : kAllColors)
      if (s.professors[index(col)] == p) ++profs[i];
  }
  int best_built = -1;
  for (int i = 0; i < kTowerColorCount; ++i)
    if (playing[i]) best_built = std::max(best_built, built[i]);
  int best_profs = -1;
  for (int i = 0; i < kTowerColorCount; ++i)
    if (playing[i] && built[i] == best_built) best_profs = std::max(best_profs, profs[i]);
  std::uint8_t winners = 0;
  for (int i = 0; i < kTowerColorCount; ++i)
    if (playing[i] && built[i] == best_built && profs[i] == best_profs)
      winners = static_cast<std::uint8_t>(winners | seats_of(s, static_cast<TowerColor>(i)));
  finish(s, reason, winners);
}

void resolve_island(State& s, int g) {
  IslandGroup& group = s.groups[g];
  if (group.no_entry > 0) {  // 4.5 and decision 7: the tile goes home, nothing else happens
    group.no_entry -= 1;
    const int slot = character_slot(s, CharacterId::GrandmaHerbs);
    if (slot >= 0) s.characters[slot].no_entry += 1;
    return;
  }
  const auto inf = influence_on(s, group);
  int best = 0;
  for (int i = 1; i < kTowerColorCount; ++i)
    if (inf[i] > inf[best]) best = i;
  for (int i = 0; i < kTowerColorCount; ++i)
    if (i != best && inf[i] == inf[best]) return;  // only a strict maximum builds
  const auto winner = static_cast<TowerColor>(best);
  if (group.tower == winner) return;
  const Seat holder = tower_holder(s, winner);
  if (holder == kNoSeat) return;  // cannot happen once setup is complete

  if (group.tower) {  // the previous owner's towers go home
    const Seat loser = tower_holder(s, *group.tower);
    if (loser != kNoSeat)
      s.boards[loser].towers = static_cast<std::uint8_t>(s.boards[loser].towers + group.towers);
  }
  // Tower shortage: place what is left (decision 15).
  const int placed = std::min<int>(group.tiles, s.boards[holder].towers);
  s.boards[holder].towers = static_cast<std::uint8_t>(s.boards[holder].towers - placed);
  group.tower = winner;
  group.towers = static_cast<std::uint8_t>(placed);

  // Merge with same-coloured neighbours (both sides may join at once). Groups are
  // tracked by a tile they contain, since merging shifts indices.
  const int built_tile = group.first_tile;
  const int mn_tile = s.groups[s.mother_nature].first_tile;
  int here = g;
  if (s.group_count > 1) {
    const int next = (here + 1) % s.group_count;
    if (next != here && s.groups[next].tower == winner) merge_with_next(s, here);
  }
  here = group_of_tile(s, built_tile);
  if (s.group_count > 1) {
    const int prev = (here + s.group_count - 1) % s.group_count;
    if (prev != here && s.groups[prev].tower == winner) merge_with_next(s, prev);
  }
  s.mother_nature = static_cast<std::uint8_t>(group_of_tile(s, mn_tile));

  // 5.1: immediate end (decision 24: the merge above happens first).
  if (s.boards[holder].towers == 0) {
    finish(s, EndReason::LastTower, seats_of(s, winner));
  } else if (s.group_count <= 3) {
    finish_by_count(s, EndReason::ThreeGroups);
  }
}

}  // namespace eryantis::rules::detail
