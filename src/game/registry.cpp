#include "eryantis/game/registry.hpp"

#include <cassert>

namespace eryantis::game {

void Registry::add(std::unique_ptr<const Game> game) {
  assert(game && find(game->name()) == nullptr);
  games_.push_back(std::move(game));
}

const Game* Registry::find(std::string_view name) const {
  for (const auto& g : games_)
    if (g->name() == name) return g.get();
  return nullptr;
}

const Game* Registry::find(std::string_view name, int version) const {
  const Game* g = find(name);
  return g && g->reads_version(version) ? g : nullptr;
}

const Game& Registry::default_game() const {
  assert(!games_.empty());
  return *games_.front();
}

std::vector<const Game*> Registry::games() const {
  std::vector<const Game*> out;
  out.reserve(games_.size());
  for (const auto& g : games_) out.push_back(g.get());
  return out;
}

}  // namespace eryantis::game
