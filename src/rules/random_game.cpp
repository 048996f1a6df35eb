#include "eryantis/rules/random_game.hpp"

namespace eryantis::rules {

std::optional<SeatCommand> random_legal_command(const State& s, Prng& prng) {
  const auto seats = seats_to_act(s);
  if (seats.empty()) return std::nullopt;
  const Seat seat = seats[prng.below(static_cast<std::uint32_t>(seats.size()))];
  auto legal = legal_commands(s, seat);
  if (legal.empty()) return std::nullopt;
  return SeatCommand{seat, std::move(legal[prng.below(static_cast<std::uint32_t>(legal.size()))])};
}

RandomGame play_random_game(const MatchOptions& options, std::uint64_t seed,
                            const std::function<void(const Event&, const State&)>& on_event,
                            int max_commands) {
  RandomGame game;
  auto created = create_match(options, seed);
  if (!created) return game;
  apply_in_place(game.state, *created);
  if (on_event) on_event(*created, game.state);
  game.events.push_back(std::move(*created));
  // The players' choices come from a generator of their own, not the match's secret one.
  Prng prng(seed ^ 0x5eedf00dULL);
  while (game.state.phase != Phase::GameOver && game.commands < max_commands) {
    auto next = random_legal_command(game.state, prng);
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
