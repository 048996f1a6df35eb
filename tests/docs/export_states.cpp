// Prints states of real games with their rules::hash, one JSON object a line,
// for tests/docs/state_hash.py, which recomputes each hash from the JSON alone
// following docs/state.md ("The hash"):
//   {"name":"...","hash":"<16 hex>","state":<state JSON>}   the full state, seed included
//   {"name":"...","hash":"<16 hex>","view":<view JSON>}     a view (no seed): the protocol's hash
// The games are random but fixed (their seeds are printed in each name).
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "eryantis/codec/codec.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/random_game.hpp"

namespace {

using namespace eryantis;

std::string hex(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, v);
  return text;
}

void print_state(const std::string& name, const rules::State& s) {
  std::printf("{\"name\":\"%s\",\"hash\":\"%s\",\"state\":%s}\n", name.c_str(),
              hex(rules::hash(s)).c_str(), codec::state_to_json(s).c_str());
}

void print_view(const std::string& name, const rules::State& s, rules::Seat viewer) {
  const rules::View v = rules::view(s, viewer);
  std::printf("{\"name\":\"%s\",\"hash\":\"%s\",\"view\":%s}\n", name.c_str(),
              hex(rules::hash(v.state)).c_str(), codec::view_to_json(v).c_str());
}

}  // namespace

int main() {
  struct Game {
    int players;
    rules::Mode mode;
    std::uint64_t seed;
  };
  const std::vector<Game> games = {{2, rules::Mode::Expert, 7},
                                   {3, rules::Mode::Expert, 11},
                                   {4, rules::Mode::Simple, 13},
                                   {4, rules::Mode::Expert, 29},
                                   {2, rules::Mode::Simple, 17}};
  for (const Game& g : games) {
    const std::string game = std::to_string(g.players) + "p-" +
                             std::string(rules::mode_name(g.mode)) + "-seed" +
                             std::to_string(g.seed);
    int index = 0;
    rules::play_random_game(rules::MatchOptions{static_cast<std::uint8_t>(g.players), g.mode},
                            g.seed, [&](const rules::Event&, const rules::State& s) {
                              // Every 7th state, every state with a character in effect (optionals
                              // present), and the end: all phases, optionals absent and present.
                              const bool sample = index % 7 == 0 || s.turn.active.has_value() ||
                                                  s.phase == rules::Phase::GameOver;
                              if (sample) {
                                const std::string name = game + "-event" + std::to_string(index);
                                print_state(name, s);
                                print_view(name + "-spectator", s, rules::kNoSeat);
                                if (index % 14 == 0) {
                                  // A 128-bit seed (the high word is fed only when it is not 0).
                                  rules::State wide = s;
                                  wide.seed.hi =
                                      0x9e3779b97f4a7c15ULL ^ static_cast<std::uint64_t>(index);
                                  print_state(name + "-wide-seed", wide);
                                }
                              }
                              ++index;
                            });
  }
  return 0;
}
