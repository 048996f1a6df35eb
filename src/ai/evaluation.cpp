#include "eryantis/ai/evaluation.hpp"

#include <algorithm>

#include "influence.hpp"

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
// A character a seat can pay for is an option on a better turn: Postman's extra
// steps, Knight's +2, Monk's student. Without this a search sees 4 coins as 2.4 and
// spends them on anything that scores a little.
constexpr double kCharacterInReach = 1.0;
constexpr double kEntranceStudent = 0.1;

}  // namespace

double coin_worth(const State& s, int coins) {
  double worth = kCoin * coins;
  for (const CharacterCard& card : s.characters)
    if (coins >= card.cost()) worth += kCharacterInReach;
  return worth;
}

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
    if (s.expert()) v[t] += coin_worth(s, b.coins);
  }
  for (Color c : kAllColors) {
    const Seat owner = s.professors[index(c)];
    if (owner == kNoSeat) continue;
    if (const int t = team_index(s, owner); t >= 0) v[t] += kProfessor;
  }
  for (int g = 0; g < s.group_count; ++g) {
    const IslandGroup& group = s.groups[g];
    const int best = detail::influence_leader(detail::influence(s, group));
    if (best < 0) continue;
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
