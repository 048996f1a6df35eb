#pragma once
// The engine's computer players, written once for every game over the hooks of its
// rules (adapter.hpp's Rules): `determinise` (a full state consistent with what the
// seat sees), `candidates` (the commands worth searching), `evaluate` (a score per
// seat) and the decider itself. Templates, instantiated in each game's adapter, so
// that the search runs on the game's typed values: a playout makes hundreds of
// decisions, and boxing each state and command would cost more than the rules.
//
//   random: uniformly over the legal commands of the view.
//   greedy: one sampled state, every candidate played once and the position after
//           it scored; the best wins, ties drawn at random.
//   strong: information-set Monte Carlo tree search (single observer, ISMCTS):
//           each playout samples a state from the view, walks one shared tree of
//           command sequences choosing among the children legal in that sample by
//           UCB1 over availability counts, expands one untried command, plays a
//           few random commands and scores the position (squashed to [0, 1] per
//           seat, or 1 / 0.5 / 0 at a game's end). Each seat maximises its own
//           side's reward (max^n), so it plays any number of seats.
//
// Pure: the same (view, seat, bot seed, playouts) gives the same command on every
// run and machine; the view's own fingerprint seeds the decision's generator.
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "eryantis/game/computer.hpp"
#include "eryantis/game/game.hpp"
#include "eryantis/game/prng.hpp"

namespace eryantis::game {

template <class Command>
struct TypedChoice {
  Command command;
  std::uint32_t playouts = 0;  // simulations run to choose it (strong only)
};

namespace search_detail {

// The optional hooks, with their defaults.
template <class R>
int team(const typename R::State& s, Seat seat) {
  if constexpr (requires { R::team(s, seat); })
    return R::team(s, seat);
  else
    return seat;
}
// How far apart two sides' evaluations must be for the reward to move from 0.5 to
// 0.73 (one unit of the sigmoid).
template <class R>
constexpr double reward_scale() {
  if constexpr (requires { R::kRewardScale; })
    return R::kRewardScale;
  else
    return 10.0;
}
template <class R>
constexpr int rollout_plies() {
  if constexpr (requires { R::kRolloutPlies; })
    return R::kRolloutPlies;
  else
    return 12;
}
// False when setup choices do not change the game (Eriantys's wizards and towers):
// the strong level then picks one at random instead of searching.
template <class R>
constexpr bool search_setup() {
  if constexpr (requires { R::kSearchSetup; })
    return R::kSearchSetup;
  else
    return true;
}
template <class R>
std::vector<typename R::Command> candidates(const typename R::State& s, Seat seat) {
  if constexpr (requires { R::candidates(s, seat); })
    return R::candidates(s, seat);
  else
    return R::legal_commands(s, seat);
}

inline constexpr double kExploration = 0.7;  // tuned with eryantis-arena (docs/bots.md)
inline constexpr std::uint32_t kDeadlineEvery = 32;

using Rewards = std::array<double, kMaxSeats>;

template <class R>
Seat actor_of(const typename R::State& s) {
  const std::vector<ToAct> seats = R::to_act(s);
  return seats.empty() ? kNoSeat : seats.front().seat;
}

// Each seat's score minus the best score of a seat on another side; a seat with no other side
// (a solo game against the game itself, as Masters of Renaissance's against Lorenzo) is scored by
// its own evaluation, which then measures it against the game.
template <class R>
std::array<double, kMaxSeats> advantages(const typename R::State& s) {
  const std::array<double, kMaxSeats> scores = R::evaluate(s);
  const int n = R::seats(s);
  std::array<double, kMaxSeats> out{};
  for (int p = 0; p < n; ++p) {
    double best_other = -1e300;
    for (int q = 0; q < n; ++q)
      if (team<R>(s, static_cast<Seat>(q)) != team<R>(s, static_cast<Seat>(p)))
        best_other = std::max(best_other, scores[q]);
    out[p] = best_other == -1e300 ? scores[p] : scores[p] - best_other;
  }
  return out;
}

template <class R>
Rewards rewards_of(const typename R::State& s) {
  Rewards r{};
  if (std::optional<Outcome> o = R::outcome(s)) {
    for (std::size_t p = 0; p < o->places.size() && p < r.size(); ++p)
      r[p] = o->places[p] == 1 && !o->winners.empty() ? (o->draw ? 0.5 : 1.0) : 0.0;
    return r;
  }
  const auto adv = advantages<R>(s);
  for (int p = 0; p < R::seats(s); ++p)
    r[p] = 1.0 / (1.0 + std::exp(-adv[p] / reward_scale<R>()));
  return r;
}

// A random command for whoever acts first: a command type drawn uniformly, then one
// command of that type (so a type with many parameter choices is not favoured).
template <class R>
std::optional<std::pair<Seat, typename R::Command>> random_step(const typename R::State& s,
                                                                 Prng& prng) {
  const Seat actor = actor_of<R>(s);
  if (actor == kNoSeat) return std::nullopt;
  std::vector<typename R::Command> legal = R::legal_commands(s, actor);
  if (legal.empty()) return std::nullopt;
  std::vector<std::string_view> types;
  for (const auto& c : legal) {
    const std::string_view t = R::command_type(c);
    bool known = false;
    for (std::string_view k : types) known = known || k == t;
    if (!known) types.push_back(t);
  }
  const std::string_view type = types[prng.below(static_cast<std::uint32_t>(types.size()))];
  std::vector<std::size_t> of_type;
  for (std::size_t i = 0; i < legal.size(); ++i)
    if (R::command_type(legal[i]) == type) of_type.push_back(i);
  return std::pair<Seat, typename R::Command>{
      actor, std::move(legal[of_type[prng.below(static_cast<std::uint32_t>(of_type.size()))]])};
}

template <class R>
class Tree {
  using S = typename R::State;
  using C = typename R::Command;
  struct Node {
    std::optional<C> action;  // the command that led here from the parent
    Seat seat = kNoSeat;      // who chose it
    std::uint32_t visits = 0;
    std::uint32_t available = 0;  // playouts in which the parent could choose it
    Rewards reward{};             // summed over visits
    std::vector<int> children;
  };

 public:
  Tree(const S& view, Seat seat, Prng prng) : view_(view), seat_(seat), prng_(prng) {
    nodes_.push_back(Node{});
  }

  void playout() {
    S s = R::determinise(view_, seat_, prng_.next());
    path_.assign(1, 0);
    int node = 0;
    Seat actor = seat_;
    while (actor != kNoSeat && R::stage(s) != Stage::Over) {
      const std::vector<C> options = candidates<R>(s, actor);
      if (options.empty()) break;
      // Children legal in this sample compete; one untried command is expanded.
      untried_.clear();
      legal_children_.clear();
      for (std::size_t i = 0; i < options.size(); ++i) {
        bool tried = false;
        for (int child : nodes_[node].children)
          if (*nodes_[child].action == options[i]) {
            legal_children_.push_back(child);
            tried = true;
            break;
          }
        if (!tried) untried_.push_back(i);
      }
      for (int child : legal_children_) nodes_[child].available += 1;
      if (!untried_.empty()) {
        const C& command = options[untried_[prng_.below(static_cast<std::uint32_t>(untried_.size()))]];
        auto next = R::decide(s, actor, command, Authority::Player);
        if (!next) break;  // not reached: candidates are legal
        Node child;
        child.action = command;
        child.seat = actor;
        child.available = 1;
        const int id = static_cast<int>(nodes_.size());
        nodes_.push_back(std::move(child));
        nodes_[node].children.push_back(id);
        path_.push_back(id);
        s = std::move(next->second);
        break;
      }
      const int chosen = select(legal_children_);
      auto next = R::decide(s, actor, *nodes_[chosen].action, Authority::Player);
      if (!next) break;  // not reached
      s = std::move(next->second);
      node = chosen;
      path_.push_back(node);
      actor = actor_of<R>(s);
    }
    for (int ply = 0; ply < rollout_plies<R>() && R::stage(s) != Stage::Over; ++ply) {
      auto step = random_step<R>(s, prng_);
      if (!step) break;
      auto next = R::decide(s, step->first, step->second, Authority::Player);
      if (!next) break;
      s = std::move(next->second);
    }
    const Rewards r = rewards_of<R>(s);
    for (int id : path_) {
      Node& n = nodes_[id];
      n.visits += 1;
      for (std::size_t p = 0; p < r.size(); ++p) n.reward[p] += r[p];
    }
  }

  // The root's most visited command (ties: the better mean for its seat).
  std::optional<C> best() const {
    int best = -1;
    for (int child : nodes_[0].children) {
      if (best < 0) {
        best = child;
        continue;
      }
      const Node& a = nodes_[child];
      const Node& b = nodes_[best];
      if (a.visits > b.visits || (a.visits == b.visits && a.reward[a.seat] > b.reward[b.seat]))
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
      const double mean = n.reward[n.seat] / n.visits;
      const double value =
          mean + kExploration * std::sqrt(std::log(static_cast<double>(n.available)) / n.visits);
      if (value > best_value) {
        best_value = value;
        best = child;
      }
    }
    return best;
  }

  const S& view_;
  Seat seat_;
  Prng prng_;
  std::vector<Node> nodes_;
  std::vector<int> path_;
  std::vector<std::size_t> untried_;
  std::vector<int> legal_children_;
};

}  // namespace search_detail

// The command `seat` sends in `view` at `level`, or nullopt when it has nothing to do.
template <class R>
std::optional<TypedChoice<typename R::Command>> choose(const typename R::State& view, Seat seat,
                                                       Level level, const Budget& budget,
                                                       std::uint64_t bot_seed) {
  using C = typename R::Command;
  // The decision's own generator: the bot's seed and the position (seat included),
  // so the same position asks the same question of the same bot.
  Prng prng(bot_seed, R::hash(view) ^ (0x9e3779b97f4a7c15ULL * (seat + 1ULL)));
  if (level == Level::Random) {
    std::vector<C> legal = R::legal_commands(view, seat);
    if (legal.empty()) return std::nullopt;
    return TypedChoice<C>{std::move(legal[prng.below(static_cast<std::uint32_t>(legal.size()))]),
                          0};
  }
  if (level == Level::Greedy) {
    const typename R::State sampled = R::determinise(view, seat, prng.next());
    std::vector<C> options = search_detail::candidates<R>(sampled, seat);
    std::vector<std::size_t> best;
    double best_score = 0;
    for (std::size_t i = 0; i < options.size(); ++i) {
      auto next = R::decide(sampled, seat, options[i], Authority::Player);
      if (!next) continue;  // not reached: candidates are legal
      const double score = R::outcome(next->second)
                               ? search_detail::rewards_of<R>(next->second)[seat] * 1e6
                               : search_detail::advantages<R>(next->second)[seat];
      if (best.empty() || score > best_score + 1e-9) {
        best.assign(1, i);
        best_score = score;
      } else if (score > best_score - 1e-9) {
        best.push_back(i);
      }
    }
    if (best.empty()) return std::nullopt;
    return TypedChoice<C>{std::move(options[best[prng.below(static_cast<std::uint32_t>(best.size()))]]),
                          0};
  }
  std::vector<C> options = search_detail::candidates<R>(view, seat);
  if (options.empty()) return std::nullopt;
  if (options.size() == 1 ||
      (!search_detail::search_setup<R>() && R::stage(view) == Stage::Setup))
    return TypedChoice<C>{std::move(options[prng.below(static_cast<std::uint32_t>(options.size()))]),
                          0};
  search_detail::Tree<R> tree(view, seat, prng);
  std::uint32_t done = 0;
  while (done < budget.playouts) {
    if (budget.deadline && done % search_detail::kDeadlineEvery == 0 && done > 0 &&
        budget.deadline->passed())
      break;
    tree.playout();
    ++done;
  }
  std::optional<C> command = tree.best();
  if (!command) return TypedChoice<C>{std::move(options.front()), done};
  return TypedChoice<C>{std::move(*command), done};
}

}  // namespace eryantis::game
