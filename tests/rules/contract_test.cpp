// apply()'s contract (decider.hpp): its event must come from check for that
// state. Where ERYANTIS_ASSERT is active (Debug and the sanitizer build, whatever
// NDEBUG says) apply aborts on the indices it trusts; Release compiles the checks
// out. apply_checked, for untrusted events, refuses the same events instead.
#include <gtest/gtest.h>

#include <span>

#include "eryantis/rules/assert.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/random_game.hpp"

namespace eryantis::rules {
namespace {

// The state before a game's first event of type T, and that event.
template <class T>
std::pair<State, Event> before_first(const MatchOptions& options, std::uint64_t seed) {
  const RandomGame game = play_random_game(options, seed);
  std::size_t i = 0;
  while (!std::holds_alternative<T>(game.events.at(i).command)) ++i;
  return {fold(std::span(game.events.data(), i)), game.events[i]};
}

// Events check never produces, each next to the state it would be applied to.
std::vector<std::pair<State, Event>> broken_events() {
  std::vector<std::pair<State, Event>> out;
  auto [cloud_state, cloud] = before_first<ChooseCloud>({2, Mode::Simple}, 3);
  cloud.command = ChooseCloud{9};
  out.emplace_back(cloud_state, cloud);
  auto [island_state, island] = before_first<MoveToIsland>({3, Mode::Simple}, 4);
  std::get<MoveToIsland>(island.command).island = 200;
  out.emplace_back(island_state, island);
  auto [seat_state, seat] = before_first<PlayAssistant>({2, Mode::Simple}, 5);
  seat.seat = -1;
  out.emplace_back(seat_state, seat);
  auto [farmer_state, farmer] = before_first<MoveToIsland>({2, Mode::Simple}, 6);
  farmer.command = UseFarmer{};  // no character in a simple match: slot -1
  out.emplace_back(farmer_state, farmer);
  return out;
}

TEST(Contract, ApplyCheckedRefusesWhatApplyMayNotBeGiven) {
  for (const auto& [state, event] : broken_events()) EXPECT_FALSE(apply_checked(state, event));
}

#if defined(ERYANTIS_ASSERTIONS)
TEST(ContractDeathTest, ApplyAbortsOnTheIndicesItTrusts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto broken = broken_events();
  EXPECT_DEATH(apply(broken[0].first, broken[0].second), "contract broken: c.cloud < s.players");
  EXPECT_DEATH(apply(broken[1].first, broken[1].second), "contract broken: tile >= 0");
  EXPECT_DEATH(apply(broken[2].first, broken[2].second), "contract broken: .*seat >= 0");
  EXPECT_DEATH(apply(broken[3].first, broken[3].second), "contract broken: slot >= 0");
}

TEST(ContractDeathTest, ATrueConditionRunsOnce) {
  int evaluated = 0;
  ERYANTIS_ASSERT(++evaluated == 1);
  EXPECT_EQ(evaluated, 1);
}
#else
TEST(Contract, ReleaseCompilesTheAssertionsOut) {
  int evaluated = 0;
  ERYANTIS_ASSERT(++evaluated == 1);  // not evaluated: the build has no assertions
  EXPECT_EQ(evaluated, 0);
}
#endif

}  // namespace
}  // namespace eryantis::rules
