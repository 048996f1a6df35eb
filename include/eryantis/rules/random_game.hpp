#pragma once
// Plays uniformly random legal commands: the self-play tool, benchmarks and the
// store's tests use it to make realistic matches. Deterministic for a seed.
#include <cstdint>
#include <functional>
#include <vector>

#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/prng.hpp"

namespace eryantis::rules {

// One uniformly random legal command for a seat that may act (nullopt at game over).
struct SeatCommand {
  Seat seat;
  Command command;
};
std::optional<SeatCommand> random_legal_command(const State& s, Prng& prng);

struct RandomGame {
  State state;
  std::vector<Event> events;  // events[0] is create_match
  int commands = 0;           // player commands played (setup included)
};

// Plays one full game. `on_event` (optional) sees every event and the state after it.
RandomGame play_random_game(const MatchOptions& options, std::uint64_t seed,
                            const std::function<void(const Event&, const State&)>& on_event = {},
                            int max_commands = 100000);

}  // namespace eryantis::rules
