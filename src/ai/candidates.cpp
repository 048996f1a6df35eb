#include "eryantis/ai/candidates.hpp"

#include <array>
#include <variant>

#include "eryantis/rules/decider.hpp"
#include "influence.hpp"

namespace eryantis::ai {

using namespace rules;

namespace {

// The tile a command names, if it names one.
std::optional<std::uint8_t> tile_of(const Command& c) {
  if (auto m = std::get_if<MoveToIsland>(&c)) return m->island;
  if (auto m = std::get_if<UseMonk>(&c)) return m->island;
  if (auto m = std::get_if<UseHerald>(&c)) return m->island;
  if (auto m = std::get_if<UseGrandmaHerbs>(&c)) return m->island;
  return std::nullopt;
}

bool many_choices(const Command& c) {
  return std::holds_alternative<UseMonk>(c) || std::holds_alternative<UseJester>(c) ||
         std::holds_alternative<UseMinstrel>(c);
}

bool students_left(const State& s, Seat seat) {
  return s.turn.students_moved < moves_per_turn(s.players()) && !s.boards[seat].entrance.empty();
}

// The groups Mother Nature can stop on this turn without a Postman (one character
// per turn: a seat that uses the Knight, Centaur or Mushroom Hunter cannot also
// use the Postman) and where a stop computes influence (no No-Entry tile).
template <class F>
bool any_resolvable_stop(const State& s, Seat seat, F&& pred) {
  if (s.turn.mother_nature_moved || s.group_count == 0) return false;
  const int reach = mother_nature_steps(s.boards[seat].played);
  for (int steps = 1; steps <= reach; ++steps) {
    const IslandGroup& g = s.groups[detail::group_ahead(s, steps)];
    if (g.no_entry == 0 && pred(g)) return true;
  }
  return false;
}

bool herald_changes(const State& s, int tile) {
  const IslandGroup& g = s.groups[group_of_tile(s, tile)];
  if (g.no_entry > 0) return true;  // the tile goes back to Grandma Herbs
  const int leader = detail::influence_leader(detail::influence(s, g));
  return leader >= 0 && !(g.tower && static_cast<int>(*g.tower) == leader);
}

bool farmer_takes_now(const State& s, Seat seat) {
  for (Color c : kAllColors) {
    const int mine = s.boards[seat].dining[c];
    if (mine == 0 || s.professors[index(c)] == seat) continue;
    bool tie_or_better = true;
    for (Seat q = 0; q < s.players(); ++q)
      if (q != seat && s.boards[q].dining[c] > mine) tie_or_better = false;
    if (tie_or_better) return true;
  }
  return false;
}

}  // namespace

bool character_can_matter(const State& s, Seat seat, const Command& c) {
  const auto any = [](const IslandGroup&) { return true; };
  return std::visit(
      [&]<class T>(const T& command) -> bool {
        if constexpr (std::is_same_v<T, UsePostman>) {
          return !s.turn.mother_nature_moved;
        } else if constexpr (std::is_same_v<T, UseKnight>) {
          return any_resolvable_stop(s, seat, any);
        } else if constexpr (std::is_same_v<T, UseCentaur>) {
          return any_resolvable_stop(s, seat, [](const IslandGroup& g) {
            return g.tower.has_value() && g.towers > 0;
          });
        } else if constexpr (std::is_same_v<T, UseMushroomHunter>) {
          // Students still to move can take a professor or land on a reachable group.
          if (students_left(s, seat)) return any_resolvable_stop(s, seat, any);
          if (s.professors[index(command.color)] == kNoSeat) return false;
          return any_resolvable_stop(
              s, seat, [&](const IslandGroup& g) { return g.students[command.color] > 0; });
        } else if constexpr (std::is_same_v<T, UseFarmer>) {
          return students_left(s, seat) || farmer_takes_now(s, seat);
        } else if constexpr (std::is_same_v<T, UseThief>) {
          for (Seat p = 0; p < s.players(); ++p)
            if (s.boards[p].dining[command.color] > 0) return true;
          return false;
        } else if constexpr (std::is_same_v<T, UseHerald>) {
          return herald_changes(s, command.island);
        } else {
          return true;
        }
      },
      c);
}

std::vector<Command> candidate_commands(const State& s, Seat seat) {
  std::vector<Command> legal = legal_commands(s, seat);
  std::vector<Command> out;
  out.reserve(legal.size());
  const auto keep = [&](const Command& c) {
    if (auto tile = tile_of(c); tile && s.groups[group_of_tile(s, *tile)].first_tile != *tile)
      return false;
    return !command_character(c) || character_can_matter(s, seat, c);
  };
  std::array<std::size_t, std::variant_size_v<Command>> per_type{};
  for (const Command& c : legal)
    if (many_choices(c) && keep(c)) ++per_type[c.index()];
  std::array<std::size_t, std::variant_size_v<Command>> seen{};
  for (Command& c : legal) {
    if (!keep(c)) continue;
    if (many_choices(c)) {
      const std::size_t n = per_type[c.index()];
      const std::size_t i = seen[c.index()]++;
      // Keep the first of each of kMaxPerCharacter equal strides of the list.
      const bool first_of_stride =
          i == 0 || (i * kMaxPerCharacter) / n != ((i - 1) * kMaxPerCharacter) / n;
      if (n > kMaxPerCharacter && !first_of_stride) continue;
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace eryantis::ai
