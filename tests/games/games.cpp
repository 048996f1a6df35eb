#include "games/games.hpp"

#include "eryantis/eriantys/game/game.hpp"
#include "eryantis/renaissance/game/game.hpp"
#include "games/goofspiel/goofspiel.hpp"

namespace eryantis::test {

const game::Registry& games() {
  static const game::Registry registry = [] {
    game::Registry r;
    r.add(eriantys::make_game());
    r.add(goofspiel::make_game());
    r.add(renaissance::make_game());
    return r;
  }();
  return registry;
}

std::vector<std::string> game_names() {
  std::vector<std::string> out;
  for (const game::Game* g : games().games()) out.emplace_back(g->name());
  return out;
}

}  // namespace eryantis::test
