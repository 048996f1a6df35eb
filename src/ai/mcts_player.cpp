// The strong level: information-set Monte Carlo tree search with determinization
// (single-observer ISMCTS). Each playout samples a full state from the view, walks
// one shared tree of command sequences, choosing among the children legal in that
// sample by UCB1 over availability counts, expands one untried command, simulates
// Game::kSimulationSteps commands of the game's policy and scores the position
// with the game's rewards (one per team, in [0, 1]). Each seat in the tree
// maximises its own team's reward (max^n), so it plays 3- and 4-player games too.
// The search reaches the game only through `Game` (eriantys_game.hpp).
#include <cmath>

#include "eriantys_game.hpp"
#include "players.hpp"

namespace eryantis::ai::detail {

using namespace rules;

namespace {

// Tuned with eryantis-arena against the greedy level (docs/bots.md).
constexpr double kExploration = 0.7;
constexpr std::uint32_t kDeadlineEvery = 32;

template <class Game>
class Search {
 public:
  using GameState = typename Game::State;
  using Move = typename Game::Command;
  using Rewards = typename Game::Rewards;

  Search(const typename Game::View& seen, typename Game::Seat seat, Prng prng)
      : seen_(seen), seat_(seat), prng_(prng) {
    nodes_.push_back(Node{});
  }

  void playout() {
    GameState s = Game::sample(seen_, prng_);
    path_.assign(1, 0);
    int node = 0;
    auto actor = seat_;
    while (!Game::over(s) && actor != Game::kNobody) {
      const auto candidates = Game::candidates(s, actor);
      if (candidates.empty()) break;
      const int team = Game::team(s, actor);
      // Children legal in this sample compete; an untried command is expanded.
      untried_.clear();
      legal_children_.clear();
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        bool tried = false;
        for (int child : nodes_[node].children)
          if (nodes_[child].action == candidates[i]) {
            legal_children_.push_back(child);
            tried = true;
            break;
          }
        if (!tried) untried_.push_back(i);
      }
      for (int child : legal_children_) nodes_[child].available += 1;
      if (!untried_.empty()) {
        const Move& command =
            candidates[untried_[prng_.below(static_cast<std::uint32_t>(untried_.size()))]];
        if (!Game::play(s, actor, command)) break;  // not reached: candidates are legal
        Node child;
        child.action = command;
        child.team = team;
        child.available = 1;
        const int id = static_cast<int>(nodes_.size());
        nodes_.push_back(std::move(child));
        nodes_[node].children.push_back(id);
        path_.push_back(id);
        break;
      }
      const int chosen = select(legal_children_);
      if (!Game::play(s, actor, nodes_[chosen].action)) break;  // not reached
      node = chosen;
      path_.push_back(node);
      actor = Game::actor(s);
    }
    for (int step = 0; step < Game::kSimulationSteps && !Game::over(s); ++step)
      if (!Game::simulate(s, prng_)) break;
    const Rewards r = Game::rewards(s);
    for (int id : path_) {
      Node& n = nodes_[id];
      n.visits += 1;
      for (std::size_t t = 0; t < r.size(); ++t) n.reward[t] += r[t];
    }
  }

  // The root's most visited command (ties: the better mean for the seat's team).
  std::optional<Move> best() const {
    const Node& root = nodes_[0];
    int best = -1;
    for (int child : root.children) {
      if (best < 0) {
        best = child;
        continue;
      }
      const Node& a = nodes_[child];
      const Node& b = nodes_[best];
      if (a.visits > b.visits ||
          (a.visits == b.visits && a.team >= 0 && a.reward[a.team] > b.reward[b.team]))
        best = child;
    }
    if (best < 0) return std::nullopt;
    return nodes_[best].action;
  }

 private:
  struct Node {
    Move action{};  // the command that led here from the parent
    int team = -1;  // the team of the seat that chose it
    std::uint32_t visits = 0;
    std::uint32_t available = 0;  // playouts in which the parent could choose it
    Rewards reward{};             // summed over visits
    std::vector<int> children;
  };

  int select(const std::vector<int>& children) const {
    int best = children.front();
    double best_value = -1;
    for (int child : children) {
      const Node& n = nodes_[child];
      const double mean = n.team >= 0 ? n.reward[n.team] / n.visits : 0.5;
      const double value =
          mean + kExploration * std::sqrt(std::log(static_cast<double>(n.available)) / n.visits);
      if (value > best_value) {
        best_value = value;
        best = child;
      }
    }
    return best;
  }

  const typename Game::View& seen_;
  typename Game::Seat seat_;
  Prng prng_;
  std::vector<Node> nodes_;
  std::vector<int> path_;
  std::vector<std::size_t> untried_;
  std::vector<int> legal_children_;
};

}  // namespace

std::optional<Choice> MctsPlayer::decide(const View& seen, Seat seat, std::uint64_t bot_seed,
                                         const Budget& budget) const {
  Prng prng = decision_prng(seen, seat, bot_seed);
  const auto candidates = EriantysGame::candidates(seen.state, seat);
  if (candidates.empty()) return std::nullopt;
  // Setup choices (wizard, tower colour) do not change the game; a single choice
  // needs no search.
  if (seen.state.phase == Phase::Setup || candidates.size() == 1)
    return Choice{pick_random_command(candidates, prng), 0};
  Search<EriantysGame> search(seen, seat, prng);
  std::uint32_t done = 0;
  while (done < budget.playouts) {
    if (budget.deadline && done % kDeadlineEvery == 0 && done > 0 && budget.deadline->passed())
      break;
    search.playout();
    ++done;
  }
  auto command = search.best();
  if (!command) return Choice{candidates.front(), done};
  return Choice{std::move(*command), done};
}

}  // namespace eryantis::ai::detail
