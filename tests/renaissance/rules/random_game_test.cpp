// Random games as a whole: every leader kind is played and every solo token revealed, every
// command type used; games end; the state stays small and the fold fast (reported, not timed).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>

#include "eryantis/renaissance/rules/random_game.hpp"

namespace eryantis::renaissance {
namespace {

bool sanitizer_run() {
  return std::getenv("ERYANTIS_SANITIZER_RUN") != nullptr;
}

TEST(RandomGames, EveryLeaderKindIsPlayedAndEveryTokenRevealed) {
  std::array<int, kLeaderKindCount> kinds{};
  std::array<int, kTokens + 1> tokens{};
  std::map<std::string, int> types;
  std::map<std::string, int> endings;
  // 100 games of each player count (under the sanitizers: until every kind and token was seen),
  // and more while one is missing, at most 500 of each.
  const int at_least = sanitizer_run() ? 1 : 100;
  auto all_seen = [&]() {
    for (int k = 0; k < kLeaderKindCount; ++k)
      if (kinds[k] == 0) return false;
    for (int t = 1; t <= kTokens; ++t)
      if (tokens[t] == 0) return false;
    return true;
  };
  for (int g = 0; g < 500 && (g < at_least || !all_seen()); ++g)
    for (int players = 1; players <= 4; ++players) {
      const std::uint64_t seed = 9'000'000 + 1000 * players + static_cast<std::uint64_t>(g);
      const auto game = play_random_game(
          Options{static_cast<std::uint8_t>(players)}, seed,
          [&](const Event& e, const State&) {
            types[std::string(command_type(e.command))] += 1;
            if (const auto* a = std::get_if<ActivateLeader>(&e.command))
              kinds[static_cast<int>(leader_card(a->leader).kind)] += 1;
            if (e.token != 0) tokens[e.token] += 1;
          },
          20000, RandomPolicy::Purposeful);
      ASSERT_EQ(game.state.phase, Phase::GameOver) << "seed " << seed;
      endings[std::to_string(players) + "p " + std::string(end_reason_name(game.state.result.reason))] += 1;
    }
  std::cout << "[ measured ] leaders played by kind:";
  for (int k = 0; k < kLeaderKindCount; ++k)
    std::cout << " " << leader_kind_name(static_cast<LeaderKind>(k)) << "=" << kinds[k];
  std::cout << "\n[ measured ] tokens revealed:";
  for (int t = 1; t <= kTokens; ++t) std::cout << " T" << t << "=" << tokens[t];
  std::cout << "\n[ measured ] commands:";
  for (const auto& [type, n] : types) std::cout << " " << type << "=" << n;
  std::cout << "\n[ measured ] endings:";
  for (const auto& [ending, n] : endings) std::cout << " " << ending << "=" << n;
  std::cout << std::endl;
  for (int k = 0; k < kLeaderKindCount; ++k) EXPECT_GT(kinds[k], 0) << leader_kind_name(static_cast<LeaderKind>(k));
  for (int t = 1; t <= kTokens; ++t) EXPECT_GT(tokens[t], 0) << "T" << t;
  for (const char* type : {"choose_leaders", "choose_initial_resources", "take_from_market", "buy_card",
                           "produce", "activate_leader", "discard_leader", "arrange_warehouse", "end_turn"})
    EXPECT_GT(types[type], 0) << type;
}

TEST(RandomGames, TheStateIsSmallAndTheFoldFast) {
  // A plain value: no heap. 4 boards of ~56 bytes, the grid, the market, Lorenzo: well under the
  // 8 KiB an idle 4-player match may cost the server.
  static_assert(std::is_trivially_copyable_v<State>);
  static_assert(sizeof(State) <= 1024);
  std::vector<std::vector<Event>> games;
  long events = 0;
  for (std::uint64_t seed = 0; seed < (sanitizer_run() ? 10u : 100u); ++seed) {
    games.push_back(play_random_game(Options{4}, seed, {}, 20000, RandomPolicy::Purposeful).events);
    events += static_cast<long>(games.back().size());
  }
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t sink = 0;
  for (int round = 0; round < 5; ++round)
    for (const auto& e : games) sink += fold(e).events_applied;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(sink, static_cast<std::uint64_t>(events) * 5);
  std::cout << "[ measured ] sizeof(State) = " << sizeof(State) << " bytes; fold: " << events * 5
            << " events of 4-player games in " << seconds << " s = "
            << static_cast<long>(static_cast<double>(events * 5) / seconds) << " events/s" << std::endl;
}

}  // namespace
}  // namespace eryantis::renaissance
