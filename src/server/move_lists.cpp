#include "eryantis/server/move_lists.hpp"

namespace eryantis::server {

MoveLists move_lists(const game::Game& game, const game::State& state, game::Seat seat) {
  if (seat == game::kNoSeat) return {"[]", "[]"};
  game::Game::LegalJson lists = game.legal_json(state, seat);
  return {std::move(lists.legal), std::move(lists.allowed)};
}

}  // namespace eryantis::server
