#include "eryantis/catalogue/catalogue.hpp"

#include "eryantis/eriantys/game/game.hpp"
#include "eryantis/renaissance/game/game.hpp"

namespace eryantis::catalogue {

const game::Registry& games() {
  static const game::Registry registry = [] {
    game::Registry r;
    r.add(eriantys::make_game());  // the first: the default game
    r.add(renaissance::make_game());
    return r;
  }();
  return registry;
}

}  // namespace eryantis::catalogue
