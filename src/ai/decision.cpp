#include "eryantis/ai/decision.hpp"

#include "eryantis/ai/player.hpp"

namespace eryantis::ai {

DecisionResult run_decision(const DecisionRequest& request, const Deadline* deadline) {
  DecisionResult result;
  result.match_id = request.match_id;
  result.seat = request.seat;
  result.events_applied = request.view.state.events_applied;
  const auto player = make_player(request.level);
  const auto choice = player->decide(request.view, request.seat, request.bot_seed,
                                     Budget{request.playouts, deadline});
  if (choice) {
    result.command = choice->command;
    result.playouts = choice->playouts;
  }
  return result;
}

}  // namespace eryantis::ai
