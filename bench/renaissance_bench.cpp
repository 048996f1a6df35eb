// Masters of Renaissance rules benchmarks: fold throughput (issue 25's BM_Fold goal: >= 2M
// events/s), random full games, legal_commands, check, and the size of a state.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "eryantis/renaissance/codec/codec.hpp"
#include "eryantis/renaissance/rules/random_game.hpp"

using namespace eryantis::renaissance;

namespace {

// 200 recorded random games (the purposeful random player: cards, leaders, production).
std::vector<std::vector<Event>> recorded_games(int players) {
  std::vector<std::vector<Event>> games;
  for (std::uint64_t seed = 1; seed <= 200; ++seed)
    games.push_back(play_random_game(Options{static_cast<std::uint8_t>(players)}, seed, {}, 20000,
                                     RandomPolicy::Purposeful)
                        .events);
  return games;
}

void fold_benchmark(benchmark::State& st, int players) {
  const auto games = recorded_games(players);
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

void BM_RenaissanceFold2p(benchmark::State& st) {
  fold_benchmark(st, 2);
}
void BM_RenaissanceFold4p(benchmark::State& st) {
  fold_benchmark(st, 4);
}
void BM_RenaissanceFoldSolo(benchmark::State& st) {
  fold_benchmark(st, 1);
}

void BM_RenaissanceRandomGame2p(benchmark::State& st) {
  std::uint64_t seed = 1;
  std::int64_t commands = 0;
  for (auto _ : st) {
    auto g = play_random_game(Options{2}, seed++, {}, 20000, RandomPolicy::Purposeful);
    commands += g.commands;
    benchmark::DoNotOptimize(g.state);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()));
  st.counters["commands_per_game"] = benchmark::Counter(double(commands) / double(st.iterations()));
}

// legal_commands at every state a 4-player game passes through.
void BM_RenaissanceLegalCommands(benchmark::State& st) {
  std::vector<State> states;
  play_random_game(Options{4}, 7, [&](const Event&, const State& s) { states.push_back(s); }, 20000,
                   RandomPolicy::Purposeful);
  std::int64_t listed = 0;
  for (auto _ : st)
    for (const State& s : states)
      for (Seat p : seats_to_act(s)) listed += static_cast<std::int64_t>(legal_commands(s, p).size());
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * states.size()));
  st.counters["commands_per_list"] =
      benchmark::Counter(double(listed) / double(st.iterations() * states.size()));
}

// The `legal` arrays a 2-player server writes: every list of 20 random games, as one array
// (commands_to_json: the market commands from shared pieces) and, as the baseline in the same
// run, one command at a time (what it did before, issue 25).
std::vector<std::vector<Command>> legal_lists_2p() {
  std::vector<std::vector<Command>> lists;
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    play_random_game(
        Options{2}, seed,
        [&](const Event&, const State& s) {
          for (Seat p : seats_to_act(s)) lists.push_back(legal_commands(s, p));
        },
        20000, RandomPolicy::Purposeful);
  return lists;
}

void legal_json_benchmark(benchmark::State& st, bool one_by_one) {
  const auto lists = legal_lists_2p();
  std::int64_t bytes = 0;
  for (auto _ : st) {
    for (const auto& list : lists) {
      std::string text;
      if (one_by_one) {
        text = "[";
        for (const Command& c : list) {
          if (text.size() > 1) text += ',';
          text += codec::command_to_json(c);
        }
        text += ']';
      } else {
        text = codec::commands_to_json(list);
      }
      bytes += static_cast<std::int64_t>(text.size());
      benchmark::DoNotOptimize(text);
    }
  }
  st.SetBytesProcessed(bytes);
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * lists.size()));
}

void BM_RenaissanceLegalJson(benchmark::State& st) {
  legal_json_benchmark(st, false);
}
void BM_RenaissanceLegalJsonOneByOne(benchmark::State& st) {
  legal_json_benchmark(st, true);
}

void BM_RenaissanceHash(benchmark::State& st) {
  const State s = play_random_game(Options{4}, 7, {}, 60).state;
  for (auto _ : st) benchmark::DoNotOptimize(hash(s));
  st.counters["sizeof_State"] = double(sizeof(State));
}

}  // namespace

BENCHMARK(BM_RenaissanceFold2p)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RenaissanceFold4p)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RenaissanceFoldSolo)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RenaissanceRandomGame2p)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RenaissanceLegalCommands)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RenaissanceLegalJson)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RenaissanceLegalJsonOneByOne)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RenaissanceHash);
