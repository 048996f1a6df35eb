#include "eryantis/ai/evaluation.hpp"

#include <algorithm>

namespace eryantis::ai {

using namespace rules;

namespace {

// Weights in "towers": a built tower is worth 10, since towers decide the game
// (5.3) and the last one ends it. A professor both wins ties (5.3) and carries
// influence, an island a team would take if Mother Nature stopped there now is a
// likely tower, dining students race for professors and (expert) earn coins.
constexpr double kTowerBuilt = 10.0;
constexpr double kProfessor = 4.0;
constexpr double kIslandLead = 3.0;  // per tile of a group the team would win now
constexpr double kIslandHeld = 1.0;  // per tile of its own group it would keep
constexpr double kDiningStudent = 0.4;
constexpr double kCoin = 0.6;
constexpr double kEntranceStudent = 0.1;

std::array<int, kTowerColorCount> influence(const State& s, const IslandGroup& g) {
  std::array<int, kTowerColorCount> inf{};
  for (Color c : kAllColors) {
    const Seat owner = s.professors[index(c)];
    if (owner == kNoSeat) continue;
    if (auto team = team_color(s, owner)) inf[static_cast<int>(*team)] += g.students[c];
  }
  if (g.tower) inf[static_cast<int>(*g.tower)] += g.towers;
  return inf;
}

}  // namespace

int team_index(const State& s, Seat seat) {
  auto c = team_color(s, seat);
  return c ? static_cast<int>(*c) : -1;
}

TeamScores team_scores(const State& s) {
  TeamScores v{};
  if (s.phase == Phase::GameOver) {
    int winning_teams = 0;
    std::array<bool, kTowerColorCount> won{};
    for (Seat p = 0; p < s.players(); ++p) {
      const int t = team_index(s, p);
      if (t >= 0 && (s.result.winners & (1u << p)) && !won[t]) {
        won[t] = true;
        ++winning_teams;
      }
    }
    if (winning_teams == 1)
      for (int t = 0; t < kTowerColorCount; ++t) v[t] = won[t] ? kWin : -kWin;
    return v;
  }
  for (Seat p = 0; p < s.players(); ++p) {
    const int t = team_index(s, p);
    if (t < 0) continue;
    const SchoolBoard& b = s.boards[p];
    if (b.holds_towers) v[t] += kTowerBuilt * (towers_per_color(s.players()) - b.towers);
    v[t] += kDiningStudent * b.dining.total() + kEntranceStudent * b.entrance.total();
    if (s.expert()) v[t] += kCoin * b.coins;
  }
  for (Color c : kAllColors) {
    const Seat owner = s.professors[index(c)];
    if (owner == kNoSeat) continue;
    if (const int t = team_index(s, owner); t >= 0) v[t] += kProfessor;
  }
  for (int g = 0; g < s.group_count; ++g) {
    const IslandGroup& group = s.groups[g];
    const auto inf = influence(s, group);
    const int best = static_cast<int>(std::max_element(inf.begin(), inf.end()) - inf.begin());
    if (inf[best] == 0 || std::count(inf.begin(), inf.end(), inf[best]) > 1) continue;
    // A No-Entry tile spends the next stop there: the lead is worth less.
    const double reach = group.no_entry > 0 ? 0.5 : 1.0;
    const bool held = group.tower && static_cast<int>(*group.tower) == best;
    v[best] += reach * group.tiles * (held ? kIslandHeld : kIslandLead);
  }
  return v;
}

double advantage(const State& s, const TeamScores& scores, int team) {
  double best_other = -2 * kWin;
  bool any_other = false;
  for (Seat p = 0; p < s.players(); ++p) {
    const int t = team_index(s, p);
    if (t < 0 || t == team) continue;
    best_other = std::max(best_other, scores[t]);
    any_other = true;
  }
  return any_other ? scores[team] - best_other : scores[team];
}

}  // namespace eryantis::ai
