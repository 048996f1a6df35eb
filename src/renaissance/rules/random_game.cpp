#include "eryantis/renaissance/rules/random_game.hpp"

#include <array>
#include <type_traits>

namespace eryantis::renaissance {

namespace {

// Purposeful's weight of each command type (by variant index); 0 for the server's commands.
std::uint32_t weight(const Command& c) {
  return std::visit(
      [](const auto& x) -> std::uint32_t {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, BuyCard> || std::is_same_v<T, ActivateLeader>) return 200;
        if constexpr (std::is_same_v<T, Produce> || std::is_same_v<T, EndTurn>) return 80;
        if constexpr (std::is_same_v<T, TakeFromMarket>) return 60;
        if constexpr (std::is_same_v<T, ChooseLeaders> || std::is_same_v<T, ChooseInitialResources>)
          return 20;
        if constexpr (std::is_same_v<T, ArrangeWarehouse>) return 10;
        if constexpr (std::is_same_v<T, DiscardLeader>) return 1;
        return 0;
      },
      c);
}

int kept(const Command& c) {
  const auto& m = std::get<TakeFromMarket>(c);
  if (!m.layout) return 0;  // listed commands always name it
  int n = 0;
  for (const Depot& d : m.layout->depots) n += d.count;
  for (const auto& entry : m.layout->leader_depots) n += entry.value_or(0);
  return n;
}

}  // namespace

const Command& pick_random_command(const State& s, Seat seat, std::span<const Command> legal,
                                   Prng& prng, RandomPolicy policy) {
  (void)s;
  (void)seat;
  if (policy != RandomPolicy::Purposeful) return pick_random_command(legal, prng, policy);
  std::array<std::uint32_t, std::variant_size_v<Command>> per_type{};
  for (const Command& c : legal) per_type[c.index()] += 1;
  std::uint32_t sum = 0;
  for (std::size_t t = 0; t < per_type.size(); ++t)
    if (per_type[t] > 0) {
      for (const Command& c : legal)
        if (c.index() == t) {
          sum += weight(c);
          break;
        }
    }
  if (sum == 0) return pick_random_command(legal, prng, RandomPolicy::ByType);
  std::uint32_t r = prng.below(sum);
  std::size_t type = 0;
  for (; type < per_type.size(); ++type) {
    if (per_type[type] == 0) continue;
    std::uint32_t w = 0;
    for (const Command& c : legal)
      if (c.index() == type) {
        w = weight(c);
        break;
      }
    if (r < w) break;
    r -= w;
  }
  std::uint32_t k = prng.below(per_type[type]);
  const Command* chosen = &legal.front();
  for (const Command& c : legal)
    if (c.index() == type && k-- == 0) {
      chosen = &c;
      break;
    }
  if (!std::holds_alternative<TakeFromMarket>(*chosen) || prng.below(4) == 0) return *chosen;
  // Keep as much of the chosen line as possible: the most resources among its layouts.
  const auto& line = std::get<TakeFromMarket>(*chosen);
  int most = 0;
  std::uint32_t best = 0;
  for (const Command& c : legal)
    if (const auto* m = std::get_if<TakeFromMarket>(&c); m && m->line == line.line && m->index == line.index) {
      if (kept(c) > most) {
        most = kept(c);
        best = 0;
      }
      if (kept(c) == most) ++best;
    }
  std::uint32_t pick = prng.below(best);
  for (const Command& c : legal)
    if (const auto* m = std::get_if<TakeFromMarket>(&c);
        m && m->line == line.line && m->index == line.index && kept(c) == most && pick-- == 0)
      return c;
  return *chosen;
}

const Command& pick_random_command(std::span<const Command> legal, Prng& prng,
                                   RandomPolicy policy) {
  if (policy == RandomPolicy::Purposeful) policy = RandomPolicy::ByType;
  if (policy == RandomPolicy::Uniform)
    return legal[prng.below(static_cast<std::uint32_t>(legal.size()))];
  // Count the commands of each type, draw a type among those on offer, then the k-th command of
  // that type.
  std::array<std::uint32_t, std::variant_size_v<Command>> per_type{};
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
  return SeatCommand{seat, pick_random_command(s, seat, legal, prng, policy)};
}

RandomGame play_random_game(const Options& options, std::uint64_t seed,
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
    auto decision = decide(game.state, next->seat, next->command);
    if (!decision) break;  // cannot happen: legal commands are accepted
    game.state = std::move(decision->next);
    if (on_event) on_event(decision->event, game.state);
    game.events.push_back(std::move(decision->event));
    ++game.commands;
  }
  return game;
}

}  // namespace eryantis::renaissance
