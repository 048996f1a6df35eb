#include "arena.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>

#include "eryantis/ai/candidates.hpp"
#include "eryantis/rules/decider.hpp"

namespace eryantis::arena {

using namespace rules;
using Clock = std::chrono::steady_clock;

namespace {

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1000 + static_cast<double>(t.tv_nsec) / 1e6;
}

class SteadyDeadline final : public ai::Deadline {
 public:
  explicit SteadyDeadline(Clock::time_point at) : at_(at) {}
  bool passed() const override { return Clock::now() >= at_; }

 private:
  Clock::time_point at_;
};

// Far above the longest game seen (about 250 commands in 4 players).
constexpr int kMaxCommands = 5000;

}  // namespace

GameOutcome play_game(const GameSetup& setup, std::array<LevelWork, ai::kLevelCount>& work) {
  GameOutcome out;
  std::array<std::unique_ptr<ai::Player>, ai::kLevelCount> players;
  for (int l = 0; l < ai::kLevelCount; ++l) players[l] = ai::make_player(static_cast<ai::Level>(l));
  auto created = create_match(setup.options, setup.match_seed);
  if (!created) {
    out.error = created.error().message;
    return out;
  }
  State state = apply(State{}, *created);
  int commands = 0;
  while (state.phase != Phase::GameOver) {
    if (++commands > kMaxCommands) {
      out.error = "the game did not end";
      return out;
    }
    const auto seats = seats_to_act(state);
    if (seats.empty()) {
      out.error = "nobody can act";
      return out;
    }
    const Seat seat = seats.front();
    const ai::Level level = setup.seats[static_cast<std::size_t>(seat)];
    ai::Budget budget = setup.budget;
    const auto started = Clock::now();
    const double cpu_started = thread_cpu_ms();
    const SteadyDeadline deadline(
        started + std::chrono::microseconds(static_cast<long>(setup.decision_ms * 1000)));
    if (setup.decision_ms > 0) budget.deadline = &deadline;
    const auto choice = players[static_cast<std::size_t>(level)]->decide(
        view(state, seat), seat, setup.bot_seed + static_cast<std::uint64_t>(seat), budget);
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
    if (rules::command_character(choice->command)) {
      w.character_uses += 1;
      if (!ai::character_can_matter(state, seat, choice->command)) w.spent_uses += 1;
    }
    auto next = decide(state, seat, choice->command);
    if (!next) {
      out.error = "illegal command from level " + std::string(ai::level_name(level)) + ": " +
                  next.error().message;
      return out;
    }
    state = std::move(next->next);
  }
  out.rounds = state.round;
  int teams = 0;
  std::array<bool, kTowerColorCount> won{};
  for (Seat p = 0; p < state.players(); ++p)
    if (state.result.winners & (1u << p)) {
      const auto t = static_cast<int>(*team_color(state, p));
      if (!won[t]) ++teams;
      won[t] = true;
    }
  for (Seat p = 0; p < state.players(); ++p)
    if (state.result.winners & (1u << p)) out.score[p] = teams == 1 ? 1.0 : 0.5;
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

std::array<double, ai::kLevelCount> elo_ratings(
    const std::array<std::array<double, ai::kLevelCount>, ai::kLevelCount>& scores,
    const std::array<std::array<double, ai::kLevelCount>, ai::kLevelCount>& games,
    ai::Level anchor) {
  // Newton steps on the Bradley-Terry likelihood in Elo units. A perfect score
  // would diverge, so every pairing gets half a point of prior on each side.
  std::array<double, ai::kLevelCount> r{};
  for (int step = 0; step < 200; ++step) {
    std::array<double, ai::kLevelCount> next = r;
    for (int i = 0; i < ai::kLevelCount; ++i) {
      double surplus = 0, curvature = 0;
      for (int j = 0; j < ai::kLevelCount; ++j) {
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
