#include "sampling.hpp"

#include <array>
#include <variant>

namespace eryantis::ai::detail {

using namespace rules;

Prng decision_prng(const View& seen, Seat seat, std::uint64_t bot_seed) {
  State public_part = seen.state;
  public_part.seed = MatchSeed{};
  const std::uint64_t position = hash(public_part) ^ (0x9e3779b97f4a7c15ULL * (seat + 1ULL));
  return Prng(bot_seed, position);
}

State determinize(const View& seen, Prng& prng) {
  State s = seen.state;
  s.seed = MatchSeed{prng.next(), prng.next() | 1};
  return s;
}

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

}  // namespace

std::vector<Command> candidate_commands(const State& s, Seat seat) {
  std::vector<Command> legal = legal_commands(s, seat);
  std::vector<Command> out;
  out.reserve(legal.size());
  std::array<std::size_t, std::variant_size_v<Command>> per_type{};
  for (const Command& c : legal) {
    if (auto tile = tile_of(c); tile && s.groups[group_of_tile(s, *tile)].first_tile != *tile)
      continue;
    if (many_choices(c)) ++per_type[c.index()];
  }
  std::array<std::size_t, std::variant_size_v<Command>> seen{};
  for (Command& c : legal) {
    if (auto tile = tile_of(c); tile && s.groups[group_of_tile(s, *tile)].first_tile != *tile)
      continue;
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

}  // namespace eryantis::ai::detail
