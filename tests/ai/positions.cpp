#include "positions.hpp"

#include <cstdlib>

#include "eryantis/rules/random_game.hpp"

namespace eryantis::ai::testing {

using namespace rules;

bool sanitizer_run() {
  return std::getenv("ERYANTIS_SANITIZER_RUN") != nullptr;
}

std::vector<Position> sample_positions(std::uint64_t base_seed, int count) {
  std::vector<Position> out;
  Prng pick(base_seed);
  for (std::uint64_t g = 0; static_cast<int>(out.size()) < count; ++g) {
    const std::uint64_t seed = base_seed + g;
    const MatchOptions options{static_cast<std::uint8_t>(2 + g % 3),
                               g % 2 == 0 ? Mode::Expert : Mode::Simple};
    // About one position in 25 of each game, so every phase turns up.
    play_random_game(options, seed, [&](const Event&, const State& s) {
      if (static_cast<int>(out.size()) >= count || pick.below(25) != 0) return;
      const auto seats = seats_to_act(s);
      if (seats.empty()) return;
      out.push_back(Position{s, seats[pick.below(static_cast<std::uint32_t>(seats.size()))], seed});
    });
  }
  return out;
}

}  // namespace eryantis::ai::testing
