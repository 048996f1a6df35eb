#include "fuzz_support.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace eryantis::fuzz {

const std::vector<rules::State>& sample_states() {
  static const std::vector<rules::State> states = [] {
    struct Game {
      rules::MatchOptions options;
      std::uint64_t seed;
    };
    const Game games[] = {{{2, rules::Mode::Expert}, 7},
                          {{3, rules::Mode::Expert}, 11},
                          {{4, rules::Mode::Simple}, 13},
                          {{2, rules::Mode::Simple}, 17}};
    std::vector<rules::State> out;
    for (const Game& g : games) {
      std::vector<rules::State> seen;
      rules::play_random_game(g.options, g.seed, [&](const rules::Event&, const rules::State& s) {
        seen.push_back(s);
      });
      // Setup, the first planning phase, a quarter, half and three quarters in, the end.
      for (std::size_t at : {std::size_t{1}, seen.size() / 8, seen.size() / 4, seen.size() / 2,
                             seen.size() * 3 / 4, seen.size() - 1})
        if (at < seen.size()) out.push_back(seen[at]);
    }
    return out;
  }();
  return states;
}

void fail(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "fuzz property broken: %.*s\n%.*s\n", static_cast<int>(what.size()),
               what.data(), static_cast<int>(detail.size()), detail.data());
  std::abort();
}

void exercise_state(const rules::State& s) {
  std::uint64_t sink = rules::hash(s);
  for (rules::Seat seat : rules::seats_to_act(s)) sink += seat;
  for (int seat = 0; seat < s.players(); ++seat) {
    const auto p = static_cast<rules::Seat>(seat);
    sink += rules::hash(rules::view(s, p).state);
    sink += rules::legal_commands(s, p).size();
  }
  sink += rules::hash(rules::view(s, rules::kNoSeat).state);
  sink += rules::invariant_violation(s).size();
  // Keeps the calls from being optimised away without printing anything.
  asm volatile("" : : "r"(sink));
}

}  // namespace eryantis::fuzz
