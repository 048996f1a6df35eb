#pragma once
// Plays random legal commands: the self-play tool, the property tests, benchmarks,
// the load bots and the store's tests use it to make realistic matches.
// Deterministic for a seed.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/prng.hpp"

namespace eryantis::rules {

// How a random player picks among the legal commands of its seat.
enum class RandomPolicy : std::uint8_t {
  // A command type uniformly among the types on offer, then one command of that type
  // uniformly. Every character is used: a Thief (one command per colour) competes
  // with a Monk (up to 48) as an equal, where a uniform pick among up to a few
  // hundred commands almost never chose it (0 uses in 5,100 expert games).
  ByType,
  // Uniformly over the commands (the policy of every random game before issue 15;
  // the golden test keeps its pins for it).
  Uniform,
};

// One of `legal` (which must not be empty), drawn from `prng` by `policy`.
const Command& pick_random_command(std::span<const Command> legal, Prng& prng,
                                   RandomPolicy policy = RandomPolicy::ByType);

// One random legal command for a seat that may act (nullopt at game over).
struct SeatCommand {
  Seat seat;
  Command command;
};
std::optional<SeatCommand> random_legal_command(const State& s, Prng& prng,
                                                RandomPolicy policy = RandomPolicy::ByType);

struct RandomGame {
  State state;
  std::vector<Event> events;  // events[0] is create_match
  int commands = 0;           // player commands played (setup included)
};

// Plays one full game. `on_event` (optional) sees every event and the state after it.
RandomGame play_random_game(const MatchOptions& options, std::uint64_t seed,
                            const std::function<void(const Event&, const State&)>& on_event = {},
                            int max_commands = 100000, RandomPolicy policy = RandomPolicy::ByType);

}  // namespace eryantis::rules
