// The worker-pool API: a request is a value a worker runs on its own; the result
// echoes what the caller needs to route it and to drop it when it is stale.
#include <gtest/gtest.h>

#include <thread>

#include "eryantis/ai/decision.hpp"
#include "eryantis/ai/player.hpp"
#include "positions.hpp"

namespace eryantis::ai::testing {
namespace {

using namespace rules;

DecisionRequest request_for(const Position& p, Level level) {
  DecisionRequest request;
  request.match_id = 4242;
  request.seat = p.seat;
  request.view = view(p.state, p.seat);
  request.level = level;
  request.bot_seed = 31;
  request.playouts = 100;
  return request;
}

TEST(Decision, TheResultEchoesTheRequestAndMatchesThePlayer) {
  const auto positions = sample_positions(5500, 8);
  for (const Position& p : positions)
    for (int l = 0; l < kLevelCount; ++l) {
      const auto level = static_cast<Level>(l);
      const DecisionRequest request = request_for(p, level);
      const DecisionResult result = run_decision(request);
      EXPECT_EQ(result.match_id, 4242u);
      EXPECT_EQ(result.seat, p.seat);
      EXPECT_EQ(result.events_applied, p.state.events_applied);
      const auto direct = make_player(level)->decide(request.view, p.seat, 31, {100, nullptr});
      ASSERT_TRUE(result.command && direct);
      EXPECT_EQ(*result.command, direct->command);
      EXPECT_EQ(result.playouts, direct->playouts);
    }
}

TEST(Decision, WorkersOnOtherThreadsAgreeWithTheCallingThread) {
  const auto positions = sample_positions(5600, 4);
  std::vector<DecisionRequest> requests;
  for (const Position& p : positions) requests.push_back(request_for(p, Level::Strong));
  std::vector<DecisionResult> on_workers(requests.size());
  {
    std::vector<std::jthread> workers;
    for (std::size_t i = 0; i < requests.size(); ++i)
      workers.emplace_back([&, i] { on_workers[i] = run_decision(requests[i]); });
  }
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const DecisionResult here = run_decision(requests[i]);
    EXPECT_EQ(here.command, on_workers[i].command) << "request " << i;
  }
}

TEST(Decision, NothingToDoIsAnEmptyResult) {
  const auto positions = sample_positions(5700, 20);
  for (const Position& p : positions) {
    if (p.state.phase == Phase::Setup) continue;
    DecisionRequest request = request_for(p, Level::Strong);
    request.seat = static_cast<Seat>((p.seat + 1) % p.state.players());
    request.view = view(p.state, request.seat);
    EXPECT_FALSE(run_decision(request).command) << "game " << p.game_seed;
  }
}

}  // namespace
}  // namespace eryantis::ai::testing
