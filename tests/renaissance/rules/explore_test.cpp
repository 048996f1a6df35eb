#include <chrono>
#include <iostream>
#include "eryantis/renaissance/rules/random_game.hpp"
#include "scenario.hpp"
namespace eryantis::renaissance {
namespace {
TEST(Explore, Fold) {
  std::cout << "sizeof State " << sizeof(State) << " Board " << sizeof(Board) << " Event " << sizeof(Event) << " Command " << sizeof(Command) << "\n";
  std::vector<std::vector<Event>> games;
  long n = 0;
  for (int g = 0; g < 200; ++g) { games.push_back(play_random_game(Options{4}, g, {}, 20000, RandomPolicy::Purposeful).events); n += games.back().size(); }
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t h = 0;
  for (int rep = 0; rep < 5; ++rep) for (auto& e : games) h ^= fold(e).events_applied;
  auto t1 = std::chrono::steady_clock::now();
  double s = std::chrono::duration<double>(t1 - t0).count();
  {
    std::vector<State> starts; for (auto& e : games) starts.push_back(apply(State{}, e[0]));
    auto a = std::chrono::steady_clock::now();
    long m = 0;
    for (int rep = 0; rep < 5; ++rep) for (std::size_t i = 0; i < games.size(); ++i) { State st = starts[i]; for (std::size_t k = 1; k < games[i].size(); ++k) { apply_in_place(st, games[i][k]); ++m; } h ^= st.turn; }
    auto b = std::chrono::steady_clock::now();
    double t = std::chrono::duration<double>(b - a).count();
    std::cout << "without create: " << m / t << " events/s\n";
    a = std::chrono::steady_clock::now();
    for (int rep = 0; rep < 50; ++rep) for (auto& e : games) h ^= apply(State{}, e[0]).turn;
    b = std::chrono::steady_clock::now();
    std::cout << "create: " << std::chrono::duration<double>(b - a).count() / (50.0 * games.size()) * 1e9 << " ns each\n";
  }
  std::cout << "events " << n * 5 << " in " << s << " s = " << (n * 5 / s) << " events/s " << h << "\n";
}
}
}
