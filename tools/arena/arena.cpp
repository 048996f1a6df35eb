#include "arena.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>

namespace eryantis::arena {

using Clock = std::chrono::steady_clock;

namespace {

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1000 + static_cast<double>(t.tv_nsec) / 1e6;
}

class SteadyDeadline final : public game::Deadline {
 public:
  explicit SteadyDeadline(Clock::time_point at) : at_(at) {}
  bool passed() const override { return Clock::now() >= at_; }

 private:
  Clock::time_point at_;
};

// Far above the longest game seen (about 250 commands in 4-player Eriantys).
constexpr int kMaxCommands = 20000;

}  // namespace

GameOutcome play_game(const GameSetup& setup, std::array<LevelWork, game::kLevelCount>& work) {
  GameOutcome out;
  const game::Game& g = *setup.game;
  auto created = g.create_match(setup.options, game::Seed{setup.match_seed, ~setup.match_seed});
  if (!created) {
    out.error = created.error().message;
    return out;
  }
  game::State state = g.apply(g.empty_state(), *created);
  int commands = 0;
  while (g.stage(state) != game::Stage::Over) {
    if (++commands > kMaxCommands) {
      out.error = "the game did not end";
      return out;
    }
    const auto to_act = g.to_act(state);
    if (to_act.empty()) {
      out.error = "nobody can act";
      return out;
    }
    const game::Seat seat = to_act.front().seat;
    if (to_act.front().wait == game::Wait::SkipNow) {  // as the server's timer would
      auto skipped = g.decide(state, seat, g.skip_turn(), game::Authority::Server);
      if (!skipped) {
        out.error = "skip_turn refused: " + skipped.error().message;
        return out;
      }
      state = std::move(skipped->next);
      continue;
    }
    const game::Level level = setup.seats[static_cast<std::size_t>(seat)];
    game::Budget budget = setup.budget;
    const auto started = Clock::now();
    const double cpu_started = thread_cpu_ms();
    const SteadyDeadline deadline(
        started + std::chrono::microseconds(static_cast<long>(setup.decision_ms * 1000)));
    if (setup.decision_ms > 0) budget.deadline = &deadline;
    const auto choice = g.choose(g.view(state, seat), seat, level, budget,
                                 setup.bot_seed + static_cast<std::uint64_t>(seat));
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
    const double cpu_ms = thread_cpu_ms() - cpu_started;
    LevelWork& w = work[static_cast<std::size_t>(level)];
    w.decisions += 1;
    w.seconds += ms / 1000;
    w.slowest_ms = std::max(w.slowest_ms, ms);
    w.cpu_seconds += cpu_ms / 1000;
    w.slowest_cpu_ms = std::max(w.slowest_cpu_ms, cpu_ms);
    if (!choice) {
      out.error = "a seat to act had no command";
      return out;
    }
    w.playouts += choice->playouts;
    auto next = g.decide(state, seat, choice->command);
    if (!next) {
      out.error = "illegal command from level " + std::string(game::level_name(level)) + ": " +
                  next.error().message;
      return out;
    }
    state = std::move(next->next);
  }
  out.rounds = g.round(state);
  const auto outcome = g.outcome(state);
  if (!outcome) {
    out.error = "a finished game without an outcome";
    return out;
  }
  // A win is 1; winners of more than one side share a draw at 0.5 each.
  for (game::Seat p : outcome->winners) out.score[p] = outcome->draw ? 0.5 : 1.0;
  return out;
}

Interval wilson95(double score, double n) {
  if (n <= 0) return {0, 1};
  constexpr double z = 1.96;
  const double p = score / n;
  const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

std::array<double, game::kLevelCount> elo_ratings(
    const std::array<std::array<double, game::kLevelCount>, game::kLevelCount>& scores,
    const std::array<std::array<double, game::kLevelCount>, game::kLevelCount>& games,
    game::Level anchor) {
  // Newton steps on the Bradley-Terry likelihood in Elo units. A perfect score
  // would diverge, so every pairing gets half a point of prior on each side.
  std::array<double, game::kLevelCount> r{};
  for (int step = 0; step < 200; ++step) {
    std::array<double, game::kLevelCount> next = r;
    for (int i = 0; i < game::kLevelCount; ++i) {
      double surplus = 0, curvature = 0;
      for (int j = 0; j < game::kLevelCount; ++j) {
        if (i == j || games[i][j] <= 0) continue;
        const double expected = 1 / (1 + std::pow(10.0, (r[j] - r[i]) / 400));
        surplus += (scores[i][j] + 0.5) - (games[i][j] + 1) * expected;
        curvature += (games[i][j] + 1) * expected * (1 - expected);
      }
      // Half a Newton step: the levels move together and a full one can overshoot.
      if (curvature > 0) next[i] += 0.5 * 400 / std::log(10.0) * surplus / curvature;
    }
    const double zero = next[static_cast<std::size_t>(anchor)];
    for (double& x : next) x -= zero;
    r = next;
  }
  return r;
}

}  // namespace eryantis::arena
