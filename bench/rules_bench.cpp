// Rules benchmarks: fold throughput, random full games, and the size of a state.
#include <benchmark/benchmark.h>

#include <vector>

#include "eryantis/rules/random_game.hpp"
#include "eryantis/codec/codec.hpp"

using namespace eryantis::rules;

namespace {

// 200 recorded random games of one configuration.
std::vector<std::vector<Event>> recorded_games(MatchOptions options) {
  std::vector<std::vector<Event>> games;
  for (std::uint64_t seed = 1; seed <= 200; ++seed)
    games.push_back(play_random_game(options, seed).events);
  return games;
}

void fold_benchmark(benchmark::State& st, MatchOptions options) {
  const auto games = recorded_games(options);
  std::int64_t events = 0;
  for (auto _ : st) {
    for (const auto& g : games) {
      State s = fold(g);
      benchmark::DoNotOptimize(s);
      events += static_cast<std::int64_t>(g.size());
    }
  }
  st.SetItemsProcessed(events);
}

void BM_Fold2pSimple(benchmark::State& st) {
  fold_benchmark(st, {2, Mode::Simple});
}
void BM_Fold4pExpert(benchmark::State& st) {
  fold_benchmark(st, {4, Mode::Expert});
}

void random_game_benchmark(benchmark::State& st, MatchOptions options) {
  std::uint64_t seed = 1;
  std::int64_t commands = 0;
  for (auto _ : st) {
    auto g = play_random_game(options, seed++);
    commands += g.commands;
    benchmark::DoNotOptimize(g.state);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()));
  st.counters["commands_per_game"] = benchmark::Counter(double(commands) / double(st.iterations()));
}

void BM_RandomGame2pSimple(benchmark::State& st) {
  random_game_benchmark(st, {2, Mode::Simple});
}
void BM_RandomGame4pExpert(benchmark::State& st) {
  random_game_benchmark(st, {4, Mode::Expert});
}

void BM_Hash(benchmark::State& st) {
  const State s = play_random_game({4, Mode::Expert}, 7, {}, 60).state;
  for (auto _ : st) benchmark::DoNotOptimize(hash(s));
}

void BM_StateSize(benchmark::State& st) {
  const State s = play_random_game({4, Mode::Expert}, 7, {}, 60).state;
  std::size_t bytes = 0;
  for (auto _ : st) {
    bytes = eryantis::codec::state_to_binary(s).size();
    benchmark::DoNotOptimize(bytes);
  }
  st.counters["sizeof_State"] = double(sizeof(State));
  st.counters["snapshot_bytes"] = double(bytes);
  st.counters["json_bytes"] = double(eryantis::codec::state_to_json(s).size());
}

}  // namespace

BENCHMARK(BM_Fold2pSimple)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fold4pExpert)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RandomGame2pSimple)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RandomGame4pExpert)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Hash);
BENCHMARK(BM_StateSize);
