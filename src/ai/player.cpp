#include "eryantis/ai/player.hpp"

#include "players.hpp"

namespace eryantis::ai {

std::unique_ptr<Player> make_player(Level level) {
  switch (level) {
    case Level::Random:
      return std::make_unique<detail::RandomPlayer>();
    case Level::Greedy:
      return std::make_unique<detail::GreedyPlayer>();
    case Level::Strong:
      return std::make_unique<detail::MctsPlayer>();
  }
  return std::make_unique<detail::RandomPlayer>();
}

}  // namespace eryantis::ai
