#include "eryantis/rules/random_game.hpp"

#include <array>

namespace eryantis::rules {

const Command& pick_random_command(std::span<const Command> legal, Prng& prng,
                                   RandomPolicy policy) {
  if (policy == RandomPolicy::Uniform)
    return legal[prng.below(static_cast<std::uint32_t>(legal.size()))];
  // Count the commands of each type, draw a type among those on offer, then the
  // k-th command of that type.
  std::array<std::uint16_t, std::variant_size_v<Command>> per_type{};
  std::uint32_t types = 0;
  for (const Command& c : legal)
    if (per_type[c.index()]++ == 0) ++types;
  std::uint32_t type_rank = prng.below(types);
  std::size_t type = 0;
  for (; type < per_type.size(); ++type)
    if (per_type[type] > 0 && type_rank-- == 0) break;
  std::uint32_t k = prng.below(per_type[type]);
  for (const Command& c : legal)
    if (c.index() == type && k-- == 0) return c;
  return legal.front();  // not reached: the type has per_type[type] > k commands
}

std::optional<SeatCommand> random_legal_command(const State& s, Prng& prng, RandomPolicy policy) {
  const auto seats = seats_to_act(s);
  if (seats.empty()) return std::nullopt;
  const Seat seat = seats[prng.below(static_cast<std::uint32_t>(seats.size()))];
  auto legal = legal_commands(s, seat);
  if (legal.empty()) return std::nullopt;
  return SeatCommand{seat, pick_random_command(legal, prng, policy)};
}

RandomGame play_random_game(const MatchOptions& options, std::uint64_t seed,
                            const std::function<void(const Event&, const State&)>& on_event,
                            int max_commands, RandomPolicy policy) {
  RandomGame game;
  auto created = create_match(options, seed);
  if (!created) return game;
  apply_in_place(game.state, *created);
  if (on_event) on_event(*created, game.state);
  game.events.push_back(std::move(*created));
  // The players' choices come from a generator of their own, not the match's secret one.
  Prng prng(seed ^ 0x5eedf00dULL);
  while (game.state.phase != Phase::GameOver && game.commands < max_commands) {
    auto next = random_legal_command(game.state, prng, policy);
    if (!next) break;
    auto event = check(game.state, next->seat, next->command);
    if (!event) break;  // cannot happen: legal commands are accepted
    apply_in_place(game.state, *event);
    if (on_event) on_event(*event, game.state);
    game.events.push_back(std::move(*event));
    ++game.commands;
  }
  return game;
}

}  // namespace eryantis::rules
