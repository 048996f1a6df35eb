// The strong level: information-set Monte Carlo tree search with determinization
// (single-observer ISMCTS). Each playout samples a full state from the view (the
// order of future draws, sampling.hpp), walks one shared tree of command sequences,
// choosing among the children legal in that sample by UCB1 over availability
// counts, expands one untried command, plays kRolloutPlies random commands and
// scores the position with the static evaluation squashed to [0, 1] per team (or
// 1 / 0 / 0.5 each at a game's end). Each seat in the tree maximises its own team's
// reward (max^n), so it plays 3- and 4-player games too.
#include <cmath>

#include "eryantis/ai/evaluation.hpp"
#include "eryantis/rules/random_game.hpp"
#include "players.hpp"
#include "sampling.hpp"

namespace eryantis::ai::detail {

using namespace rules;

namespace {

// Tuned with eryantis-arena against the greedy level (docs/bots.md).
constexpr double kExploration = 0.7;
constexpr int kRolloutPlies = 12;        // about one player's turn and a half
constexpr double kAdvantageScale = 8.0;  // an advantage of one tower (10) -> reward 0.78
constexpr std::uint32_t kDeadlineEvery = 32;

using Rewards = std::array<double, kTowerColorCount>;

struct Node {
  Command action;  // the command that led here from the parent
  int team = -1;   // the team of the seat that chose it
  std::uint32_t visits = 0;
  std::uint32_t available = 0;  // playouts in which the parent could choose it
  Rewards reward{};             // summed over visits
  std::vector<int> children;
};

Rewards rewards_of(const State& s) {
  Rewards r{};
  if (s.phase == Phase::GameOver) {
    std::array<bool, kTowerColorCount> won{};
    int teams = 0;
    for (Seat p = 0; p < s.players(); ++p) {
      const int t = team_index(s, p);
      if (t >= 0 && (s.result.winners & (1u << p)) && !won[t]) {
        won[t] = true;
        ++teams;
      }
    }
    for (int t = 0; t < kTowerColorCount; ++t) r[t] = won[t] ? (teams == 1 ? 1.0 : 0.5) : 0.0;
    return r;
  }
  const TeamScores scores = team_scores(s);
  for (int t = 0; t < kTowerColorCount; ++t)
    r[t] = 1.0 / (1.0 + std::exp(-advantage(s, scores, t) / kAdvantageScale));
  return r;
}

Seat actor_of(const State& s) {
  const auto seats = seats_to_act(s);
  return seats.empty() ? kNoSeat : seats.front();
}

class Search {
 public:
  Search(const View& seen, Seat seat, Prng prng) : seen_(seen), seat_(seat), prng_(prng) {
    nodes_.push_back(Node{});
  }

  void playout() {
    State s = determinize(seen_, prng_);
    path_.assign(1, 0);
    int node = 0;
    Seat actor = seat_;
    while (s.phase != Phase::GameOver && actor != kNoSeat) {
      const auto candidates = candidate_commands(s, actor);
      if (candidates.empty()) break;
      const int team = team_index(s, actor);
      // Children legal in this sample compete; the first untried command is expanded.
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
        const Command& command =
            candidates[untried_[prng_.below(static_cast<std::uint32_t>(untried_.size()))]];
        auto next = rules::decide(s, actor, command);
        if (!next) break;  // not reached: candidates are legal
        Node child;
        child.action = command;
        child.team = team;
        child.available = 1;
        const int id = static_cast<int>(nodes_.size());
        nodes_.push_back(std::move(child));
        nodes_[node].children.push_back(id);
        path_.push_back(id);
        s = std::move(next->next);
        break;
      }
      const int chosen = select(legal_children_);
      auto next = rules::decide(s, actor, nodes_[chosen].action);
      if (!next) break;  // not reached
      s = std::move(next->next);
      node = chosen;
      path_.push_back(node);
      actor = actor_of(s);
    }
    for (int ply = 0; ply < kRolloutPlies && s.phase != Phase::GameOver; ++ply) {
      auto step = random_legal_command(s, prng_, RandomPolicy::ByType);
      if (!step) break;
      auto next = rules::decide(s, step->seat, step->command);
      if (!next) break;
      s = std::move(next->next);
    }
    const Rewards r = rewards_of(s);
    for (int id : path_) {
      Node& n = nodes_[id];
      n.visits += 1;
      for (int t = 0; t < kTowerColorCount; ++t) n.reward[t] += r[t];
    }
  }

  // The root's most visited command (ties: the better mean for the seat's team).
  std::optional<Command> best() const {
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

  const View& seen_;
  Seat seat_;
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
  const auto candidates = candidate_commands(seen.state, seat);
  if (candidates.empty()) return std::nullopt;
  // Setup choices (wizard, tower colour) do not change the game; a single choice
  // needs no search.
  if (seen.state.phase == Phase::Setup || candidates.size() == 1)
    return Choice{pick_random_command(candidates, prng), 0};
  Search search(seen, seat, prng);
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
