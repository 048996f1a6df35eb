#pragma once
// Plays random legal commands: the property tests, benchmarks and (later) the self-play tool and
// load bots use it to make realistic matches. Deterministic for a seed.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "eryantis/renaissance/rules/decider.hpp"
#include "eryantis/renaissance/rules/prng.hpp"

namespace eryantis::renaissance {

// How a random player picks among the legal commands of its seat.
enum class RandomPolicy : std::uint8_t {
  // A command type uniformly among the types on offer, then one command of that type uniformly
  // (a market action competes with an end of turn as an equal, not as 1,000 to 1).
  ByType,
  // Uniformly over the commands.
  Uniform,
  // A random player with a plan, for realistic games: a command type drawn with weights that
  // favour buying a card and playing a leader (200) over production and ending the turn (80),
  // the market (60), setup choices (20), rearranging (10) and discarding a leader (1); a market action
  // mostly (3 in 4) keeps as much of its line as the warehouse holds. Every choice within a type
  // stays uniform. Without it random players discard both leaders and buy almost nothing (0
  // leaders played in 800 games).
  Purposeful,
};

// One of `legal` (which must not be empty), drawn from `prng` by `policy` (Purposeful needs the
// state the list was made for; this overload treats it as ByType).
const Command& pick_random_command(std::span<const Command> legal, Prng& prng,
                                   RandomPolicy policy = RandomPolicy::ByType);
const Command& pick_random_command(const State& s, Seat seat, std::span<const Command> legal,
                                   Prng& prng, RandomPolicy policy);

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

// Plays one full game (at most max_commands player commands; decision 41: the rules set no
// limit). `on_event` (optional) sees every event and the state after it.
RandomGame play_random_game(const Options& options, std::uint64_t seed,
                            const std::function<void(const Event&, const State&)>& on_event = {},
                            int max_commands = 20000, RandomPolicy policy = RandomPolicy::ByType);

}  // namespace eryantis::renaissance
