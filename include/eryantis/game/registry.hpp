#pragma once
// The games a build serves, by name. The platform looks a match's game up here
// (create_match's `game`, a stored match's game column); the registry is filled
// once at start (eryantis/catalogue: every game of the build; tests add their own)
// and only read afterwards.
#include <memory>
#include <string_view>
#include <vector>

#include "eryantis/game/game.hpp"

namespace eryantis::game {

class Registry {
 public:
  // The first game added is the default: what create_match without `game` plays.
  // PRECONDITION: no game of that name was added before.
  void add(std::unique_ptr<const Game> game);
  // nullptr when the build has no such game.
  const Game* find(std::string_view name) const;
  // The game of a stored match: nullptr unless the build has the game and reads
  // that version of its rules.
  const Game* find(std::string_view name, int version) const;
  // PRECONDITION: at least one game was added.
  const Game& default_game() const;
  std::vector<const Game*> games() const;

 private:
  std::vector<std::unique_ptr<const Game>> games_;
};

}  // namespace eryantis::game
