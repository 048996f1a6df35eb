#pragma once
// One computer decision as a value in and a value out, for a worker pool: the event
// loop copies the seat's view into a request, a worker runs it, the loop gets the
// result back and sends its command through the same check as a person's. Nothing
// here refers to the loop, the match or the store.
#include <cstdint>
#include <optional>

#include "eryantis/ai/budget.hpp"
#include "eryantis/ai/level.hpp"
#include "eryantis/rules/command.hpp"
#include "eryantis/rules/decider.hpp"

namespace eryantis::ai {

struct DecisionRequest {
  std::uint64_t match_id = 0;  // echoed in the result: the caller's key
  rules::Seat seat = rules::kNoSeat;
  rules::View view;  // rules::view(state, seat): never the state itself (it holds the seed)
  Level level = Level::Random;
  std::uint64_t bot_seed = 0;  // per computer seat, stored with the seat: replays explain it
  std::uint32_t playouts = 2000;
};

struct DecisionResult {
  std::uint64_t match_id = 0;
  rules::Seat seat = rules::kNoSeat;
  // The view's events_applied: a result for an older position than the match's
  // current one is stale (someone else moved, a timer skipped the seat) and dropped.
  std::uint32_t events_applied = 0;
  std::optional<rules::Command> command;  // nullopt: the seat had nothing to do
  std::uint32_t playouts = 0;
};

// Runs on any thread; shares nothing with other calls. `deadline` (optional) caps
// the strong level's search in time as well as in playouts.
DecisionResult run_decision(const DecisionRequest& request, const Deadline* deadline = nullptr);

}  // namespace eryantis::ai
