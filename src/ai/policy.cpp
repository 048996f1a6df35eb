#include "eryantis/ai/policy.hpp"

#include <variant>

#include "eryantis/ai/candidates.hpp"
#include "eryantis/ai/evaluation.hpp"
#include "influence.hpp"

namespace eryantis::ai {

using namespace rules;

namespace {

// What the team gains if Mother Nature stops on group `g` now, in tiles: the
// tiles it would build on (or take over), minus those another team would.
int stop_gain(const State& s, int g, int team) {
  const IslandGroup& group = s.groups[g];
  if (group.no_entry > 0) return 0;
  const int leader = detail::influence_leader(detail::influence(s, group));
  if (leader < 0 || (group.tower && static_cast<int>(*group.tower) == leader)) return 0;
  return leader == team ? group.tiles : -group.tiles;
}

// The fewest steps to the best stop within `reach` (1 when no stop gains anything).
int best_steps(const State& s, int team, int reach) {
  int best = 1, best_gain = stop_gain(s, detail::group_ahead(s, 1), team);
  for (int steps = 2; steps <= reach; ++steps)
    if (const int gain = stop_gain(s, detail::group_ahead(s, steps), team); gain > best_gain) {
      best = steps;
      best_gain = gain;
    }
  return best;
}

bool wins_professor(const State& s, Seat seat, Color c) {
  const SchoolBoard& b = s.boards[seat];
  if (s.professors[index(c)] == seat || b.dining[c] >= kTableSeats) return false;
  for (Seat q = 0; q < s.players(); ++q)
    if (q != seat && s.boards[q].dining[c] >= b.dining[c] + 1) return false;
  return true;
}

bool holds_professor(const State& s, int team, Color c) {
  const Seat owner = s.professors[index(c)];
  return owner != kNoSeat && team_index(s, owner) == team;
}

Command planning(const State& s, Seat seat, std::vector<Command>& legal, Prng& prng) {
  if (prng.below(kPolicyRandomIn) == 0) return legal[prng.below(static_cast<std::uint32_t>(legal.size()))];
  const int team = team_index(s, seat);
  const int target = best_steps(s, team, mother_nature_steps(kAssistantCount));
  const Command* farthest = &legal.front();
  for (const Command& c : legal) {  // ascending values
    const int value = std::get<PlayAssistant>(c).value;
    if (mother_nature_steps(value) >= target) return c;
    farthest = &c;
  }
  return *farthest;
}

Command student_move(const State& s, Seat seat, Prng& prng) {
  const SchoolBoard& b = s.boards[seat];
  const int team = team_index(s, seat);
  std::array<Color, kColorCount> pool{};
  std::uint32_t n = 0;
  for (Color c : kAllColors)
    if (b.entrance[c] > 0 && wins_professor(s, seat, c)) pool[n++] = c;
  if (n > 0 && prng.below(kPolicyRandomIn) != 0) return MoveToDining{pool[prng.below(n)]};
  // Onto the reachable group the team is closest to winning, with a colour whose
  // professor it holds.
  n = 0;
  for (Color c : kAllColors)
    if (b.entrance[c] > 0 && holds_professor(s, team, c)) pool[n++] = c;
  if (n > 0 && prng.below(2) == 0) {
    int best_group = -1, best_margin = -1000;
    const int reach = mother_nature_steps(b.played);
    for (int steps = 1; steps <= reach; ++steps) {
      const int g = detail::group_ahead(s, steps);
      const IslandGroup& group = s.groups[g];
      if (group.no_entry > 0 || (group.tower && static_cast<int>(*group.tower) == team)) continue;
      const auto inf = detail::influence(s, group);
      int other = 0;
      for (int t = 0; t < kTowerColorCount; ++t)
        if (t != team) other = std::max(other, inf[t]);
      if (const int margin = inf[team] - other; margin > best_margin) {
        best_margin = margin;
        best_group = g;
      }
    }
    if (best_group >= 0) return MoveToIsland{pool[prng.below(n)], s.groups[best_group].first_tile};
  }
  // Anything: a colour from the entrance, to the dining room where it fits, else
  // to a random group.
  n = 0;
  for (Color c : kAllColors)
    if (b.entrance[c] > 0) pool[n++] = c;
  const Color c = pool[prng.below(n)];
  if (b.dining[c] < kTableSeats && prng.below(2) == 0) return MoveToDining{c};
  return MoveToIsland{c, s.groups[prng.below(s.group_count)].first_tile};
}

bool can_pay_a_character(const State& s, Seat seat) {
  if (!s.expert() || s.turn.character_used) return false;
  for (const CharacterCard& card : s.characters)
    if (s.boards[seat].coins >= card.cost()) return true;
  return false;
}

}  // namespace

std::optional<SeatCommand> policy_command(const State& s, Prng& prng) {
  if (s.phase == Phase::GameOver) return std::nullopt;
  if (s.phase == Phase::Setup) return random_legal_command(s, prng);
  const Seat seat = s.current_seat();
  if (seat == kNoSeat) return std::nullopt;
  if (s.phase == Phase::Planning) {
    auto legal = legal_commands(s, seat);
    if (legal.empty()) return std::nullopt;
    return SeatCommand{seat, planning(s, seat, legal, prng)};
  }
  const SchoolBoard& b = s.boards[seat];
  if (b.skipped_planning) return std::nullopt;  // only the server can skip an absent seat
  if (can_pay_a_character(s, seat) && prng.below(kPolicyCharacterIn) == 0) {
    auto candidates = candidate_commands(s, seat);
    std::erase_if(candidates, [](const Command& c) { return !command_character(c); });
    if (!candidates.empty())
      return SeatCommand{seat, candidates[prng.below(static_cast<std::uint32_t>(candidates.size()))]};
  }
  if (s.turn.students_moved < moves_per_turn(s.players()) && !b.entrance.empty())
    return SeatCommand{seat, student_move(s, seat, prng)};
  if (!s.turn.mother_nature_moved) {
    const int limit = mother_nature_steps(b.played) + (s.turn.active == CharacterId::Postman ? 2 : 0);
    const int steps = prng.below(kPolicyRandomIn) == 0
                          ? 1 + static_cast<int>(prng.below(static_cast<std::uint32_t>(limit)))
                          : best_steps(s, team_index(s, seat), limit);
    return SeatCommand{seat, MoveMotherNature{static_cast<std::uint8_t>(steps)}};
  }
  if (s.skip_clouds) return std::nullopt;  // not reached: the turn ended with Mother Nature's move
  std::array<std::uint8_t, kMaxPlayers> open{};
  std::uint32_t n = 0;
  for (int i = 0; i < s.players(); ++i)
    if (!s.clouds[i].taken && !s.clouds[i].students.empty()) open[n++] = static_cast<std::uint8_t>(i);
  if (n == 0) return std::nullopt;
  return SeatCommand{seat, ChooseCloud{open[prng.below(n)]}};
}

}  // namespace eryantis::ai
