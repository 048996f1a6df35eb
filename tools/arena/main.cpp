// eryantis-arena: round robin between the computer levels. Every pairing plays
// --games games per player count with the seats rotated (2 players: the sides swap
// seats every game; 3: the lone seat moves round the table and the sides swap who
// has two seats; 4: the sides swap teams), each move checked by the rules. Prints
// each side's score with a 95 % Wilson interval, an Elo-style table and the
// decision work of each level (docs/bots.md has the figures and the full command).
#include <spdlog/fmt/fmt.h>
#include <CLI/CLI.hpp>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

#include "arena.hpp"
#include "eryantis/util/command_line.hpp"

using namespace eryantis;
using arena::GameSetup;
using arena::LevelWork;

namespace {

struct Pairing {
  ai::Level a, b;
  int players;
  double points_a = 0;  // side a's score (1 win, 0.5 shared draw)
  int games = 0;
  int errors = 0;
  double rounds = 0;
};

// Which level sits where in game g of a pairing.
std::array<ai::Level, rules::kMaxPlayers> seating(const Pairing& p, int g) {
  std::array<ai::Level, rules::kMaxPlayers> seats{};
  const bool swap = g % 2 == 1;
  const ai::Level first = swap ? p.b : p.a;
  const ai::Level second = swap ? p.a : p.b;
  if (p.players == 3) {
    const int lone = (g / 2) % 3;
    for (int s = 0; s < 3; ++s) seats[s] = s == lone ? first : second;
  } else {
    for (int s = 0; s < p.players; ++s) seats[s] = s % 2 == 0 ? first : second;
  }
  return seats;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Plays the computer levels against each other and reports win rates and Elo."};
  std::vector<std::string> level_names = {"random", "greedy", "strong"};
  std::vector<int> player_counts = {2};
  std::string mode = "expert";
  int games = 20;
  std::uint32_t playouts = 2000;
  double decision_ms = 0;
  std::uint64_t seed = 1;
  int jobs = 1;
  bool verbose = false;
  app.add_option("--levels", level_names, "levels in the round robin")
      ->check(CLI::IsMember({"random", "greedy", "strong"}))
      ->delimiter(',');
  app.add_option("--players", player_counts, "player counts (each pairing plays each)")
      ->check(CLI::IsMember({2, 3, 4}))
      ->delimiter(',');
  app.add_option("--mode", mode, "simple or expert")->check(CLI::IsMember({"simple", "expert"}));
  app.add_option("--games", games, "games per pairing and player count")
      ->check(CLI::Range(1, 1'000'000));
  app.add_option("--playouts", playouts, "the strong level's playouts per decision")
      ->check(CLI::Range(1u, 10'000'000u));
  app.add_option("--ms", decision_ms,
                 "also stop the strong level's search after this many ms per decision (0: "
                 "playouts only, deterministic)")
      ->check(CLI::Range(0.0, 60'000.0));
  app.add_option("--seed", seed, "seed of the first game");
  app.add_option("--jobs", jobs, "games played at once (threads)")->check(CLI::Range(1, 64));
  app.add_flag("--verbose", verbose, "print every game");
  if (auto exit = eryantis::util::parse_command_line(app, argc, argv)) return *exit;

  std::vector<ai::Level> levels;
  for (const auto& name : level_names) levels.push_back(*ai::parse_level(name));
  std::vector<Pairing> pairings;
  for (int n : player_counts)
    for (std::size_t i = 0; i < levels.size(); ++i)
      for (std::size_t j = i + 1; j < levels.size(); ++j)
        pairings.push_back(Pairing{levels[j], levels[i], n});

  const rules::MatchOptions base{2, mode == "expert" ? rules::Mode::Expert : rules::Mode::Simple};
  std::array<LevelWork, ai::kLevelCount> work{};
  std::mutex mutex;
  const auto started = std::chrono::steady_clock::now();
  for (std::size_t pi = 0; pi < pairings.size(); ++pi) {
    Pairing& p = pairings[pi];
    std::atomic<int> next{0};
    auto worker = [&] {
      std::array<LevelWork, ai::kLevelCount> mine{};
      for (int g = next++; g < games; g = next++) {
        GameSetup setup;
        setup.options = base;
        setup.options.players = static_cast<std::uint8_t>(p.players);
        setup.match_seed = seed + static_cast<std::uint64_t>(g) + 1'000'003ULL * pi;
        setup.bot_seed = setup.match_seed * 0x9e3779b97f4a7c15ULL;
        setup.seats = seating(p, g);
        setup.budget.playouts = playouts;
        setup.decision_ms = decision_ms;
        const auto outcome = arena::play_game(setup, mine);
        double side_a = 0, side_b = 0;
        for (int s = 0; s < p.players; ++s)
          (setup.seats[s] == p.a ? side_a : side_b) =
              std::max(setup.seats[s] == p.a ? side_a : side_b, outcome.score[s]);
        const std::lock_guard lock(mutex);
        if (!outcome.error.empty()) {
          ++p.errors;
          std::printf("game %d (match seed %llu): %s\n", g,
                      static_cast<unsigned long long>(setup.match_seed), outcome.error.c_str());
          continue;
        }
        p.games += 1;
        p.points_a += side_a + side_b > 0 ? side_a / (side_a + side_b) : 0.5;
        p.rounds += outcome.rounds;
        if (verbose)
          std::printf("%s v %s, %dp, game %d: %s %.1f\n", std::string(ai::level_name(p.a)).c_str(),
                      std::string(ai::level_name(p.b)).c_str(), p.players, g,
                      std::string(ai::level_name(p.a)).c_str(),
                      side_a + side_b > 0 ? side_a / (side_a + side_b) : 0.5);
        if (verbose) std::fflush(stdout);  // a long run shows its games as they end
      }
      const std::lock_guard lock(mutex);
      for (int l = 0; l < ai::kLevelCount; ++l) {
        work[l].decisions += mine[l].decisions;
        work[l].playouts += mine[l].playouts;
        work[l].seconds += mine[l].seconds;
        work[l].slowest_ms = std::max(work[l].slowest_ms, mine[l].slowest_ms);
        work[l].cpu_seconds += mine[l].cpu_seconds;
        work[l].slowest_cpu_ms = std::max(work[l].slowest_cpu_ms, mine[l].slowest_cpu_ms);
        work[l].character_uses += mine[l].character_uses;
        work[l].spent_uses += mine[l].spent_uses;
      }
    };
    std::vector<std::jthread> threads;
    for (int t = 0; t < jobs; ++t) threads.emplace_back(worker);
    threads.clear();
    const auto ci = arena::wilson95(p.points_a, p.games);
    std::printf(
        "%-7s v %-7s %dp %s: %5d games  %-7s scores %.3f  95%% CI [%.3f, %.3f]  %.1f rounds%s\n",
        std::string(ai::level_name(p.a)).c_str(), std::string(ai::level_name(p.b)).c_str(),
        p.players, mode.c_str(), p.games, std::string(ai::level_name(p.a)).c_str(),
        p.games ? p.points_a / p.games : 0.0, ci.low, ci.high, p.games ? p.rounds / p.games : 0.0,
        p.errors ? fmt::format("  ({} errors)", p.errors).c_str() : "");
    std::fflush(stdout);
  }

  for (int n : player_counts) {
    std::array<std::array<double, ai::kLevelCount>, ai::kLevelCount> scores{}, played{};
    for (const Pairing& p : pairings) {
      if (p.players != n) continue;
      const auto a = static_cast<std::size_t>(p.a), b = static_cast<std::size_t>(p.b);
      scores[a][b] += p.points_a;
      scores[b][a] += p.games - p.points_a;
      played[a][b] += p.games;
      played[b][a] += p.games;
    }
    const auto elo = arena::elo_ratings(scores, played, levels.front());
    std::printf("\nElo, %d players (%s = 0):\n", n,
                std::string(ai::level_name(levels.front())).c_str());
    for (ai::Level l : levels)
      std::printf("  %-7s %+7.0f\n", std::string(ai::level_name(l)).c_str(),
                  elo[static_cast<std::size_t>(l)]);
  }
  std::printf("\nDecisions (on %d thread(s), %.0f s in all):\n", jobs,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  for (ai::Level l : levels) {
    const LevelWork& w = work[static_cast<std::size_t>(l)];
    if (w.decisions == 0) continue;
    std::printf("  %-7s %8llu decisions  CPU %7.2f ms mean %7.1f ms slowest  (wall %7.2f / %7.1f)",
                std::string(ai::level_name(l)).c_str(),
                static_cast<unsigned long long>(w.decisions), 1000 * w.cpu_seconds / w.decisions,
                w.slowest_cpu_ms, 1000 * w.seconds / w.decisions, w.slowest_ms);
    if (w.playouts > 0)
      std::printf("  %5.0f playouts/decision  %6.0f playouts per CPU second",
                  double(w.playouts) / w.decisions, w.playouts / w.cpu_seconds);
    std::printf("\n");
    if (w.character_uses > 0)
      std::printf("  %-7s %8llu character uses, %llu of them spent (could change nothing)\n", "",
                  static_cast<unsigned long long>(w.character_uses),
                  static_cast<unsigned long long>(w.spent_uses));
  }
  int errors = 0;
  for (const Pairing& p : pairings) errors += p.errors;
  return errors == 0 ? 0 : 1;
}
