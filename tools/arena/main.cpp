// eryantis-arena: round robin between the computer levels of any game of the
// catalogue (--game, default eriantys). Every pairing plays
// --games games per player count with the seats rotated (2 players: the sides swap
// seats every game; 3: the lone seat moves round the table and the sides swap who
// has two seats; 4: the sides swap teams), each move checked by the rules. Prints
// each side's score with a 95 % Wilson interval, an Elo-style table and the
// decision work of each level (docs/bots.md has the figures and the full command).
// One player (--players 1, a game with a solo mode such as renaissance): each level
// plays --games games alone against the game itself (Lorenzo) and its win rate is
// reported with the same interval.
#include <spdlog/fmt/fmt.h>
#include <CLI/CLI.hpp>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

#include "arena.hpp"
#include "eryantis/catalogue/catalogue.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/json/value.hpp"
#include "eryantis/util/command_line.hpp"

using namespace eryantis;
using arena::GameSetup;
using arena::LevelWork;

namespace {

struct Pairing {
  game::Level a, b;
  int players;
  double points_a = 0;  // side a's score (1 win, 0.5 shared draw)
  int games = 0;
  int errors = 0;
  double rounds = 0;
  bool solo() const { return players == 1; }
};

// Which level sits where in game g of a pairing.
std::array<game::Level, game::kMaxSeats> seating(const Pairing& p, int g) {
  std::array<game::Level, game::kMaxSeats> seats{};
  const bool swap = g % 2 == 1;
  const game::Level first = swap ? p.b : p.a;
  const game::Level second = swap ? p.a : p.b;
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
  std::string game_name(catalogue::games().default_game().name());
  std::string mode;
  std::string options_text;
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
      ->check(CLI::IsMember({1, 2, 3, 4}))
      ->delimiter(',');
  app.add_option("--game", game_name, "the game played (the catalogue's: eriantys, ...)");
  app.add_option("--options", options_text,
                 "the game's options as a JSON object, as in create_match (e.g. "
                 "'{\"mode\":\"simple\"}'); the player count comes from --players");
  app.add_option("--mode", mode,
                 "shorthand for --options '{\"mode\":M}' (Eriantys: simple or expert; "
                 "Eriantys is played in expert mode unless told otherwise)");
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

  const game::Game* played = catalogue::games().find(game_name);
  if (!played) {
    std::string names;
    for (const game::Game* g : catalogue::games().games())
      names += (names.empty() ? "" : ", ") + std::string(g->name());
    std::fprintf(stderr, "eryantis-arena: no game \"%s\" in this build (it has: %s)\n",
                 game_name.c_str(), names.c_str());
    return 2;
  }
  json::LineDocument options_line;
  auto& options_doc = options_line.doc();
  options_doc.Parse(options_text.empty() ? "{}" : options_text.c_str());
  if (options_doc.HasParseError() || !options_doc.IsObject()) {
    std::fprintf(stderr, "eryantis-arena: --options must be a JSON object\n");
    return 2;
  }
  if (mode.empty() && played->name() == "eriantys" && !json::present_member(options_doc, "mode"))
    mode = "expert";
  if (!mode.empty()) {
    options_doc.RemoveMember("mode");
    options_doc.AddMember("mode", json::Value(mode.c_str(), options_doc.GetAllocator()),
                          options_doc.GetAllocator());
  }
  std::vector<game::Options> options_by_players(game::kMaxSeats + 1);
  for (int n : player_counts) {
    auto options = played->options_from_request(n, &options_doc);
    if (!options) {
      std::fprintf(stderr, "eryantis-arena: %s, %d players: %s\n", game_name.c_str(), n,
                   options.error().message.c_str());
      return 2;
    }
    options_by_players[static_cast<std::size_t>(n)] = std::move(*options);
  }
  const std::string options_label = json::text(options_doc);

  std::vector<game::Level> levels;
  for (const auto& name : level_names) levels.push_back(*game::parse_level(name));
  std::vector<Pairing> pairings;
  for (int n : player_counts) {
    if (n == 1) {  // each level alone against the game
      for (game::Level l : levels) pairings.push_back(Pairing{l, l, 1});
      continue;
    }
    for (std::size_t i = 0; i < levels.size(); ++i)
      for (std::size_t j = i + 1; j < levels.size(); ++j)
        pairings.push_back(Pairing{levels[j], levels[i], n});
  }

  std::array<LevelWork, game::kLevelCount> work{};
  std::mutex mutex;
  const auto started = std::chrono::steady_clock::now();
  for (std::size_t pi = 0; pi < pairings.size(); ++pi) {
    Pairing& p = pairings[pi];
    std::atomic<int> next{0};
    auto worker = [&] {
      std::array<LevelWork, game::kLevelCount> mine{};
      for (int g = next++; g < games; g = next++) {
        GameSetup setup;
        setup.game = played;
        setup.options = options_by_players[static_cast<std::size_t>(p.players)];
        // Alone, every level meets the same deals: their rates compare game for game.
        setup.match_seed =
            seed + static_cast<std::uint64_t>(g) + (p.solo() ? 0 : 1'000'003ULL * pi);
        setup.bot_seed = setup.match_seed * 0x9e3779b97f4a7c15ULL;
        setup.seats = seating(p, g);
        setup.budget.playouts = playouts;
        setup.decision_ms = decision_ms;
        const auto outcome = arena::play_game(setup, mine);
        double side_a = 0, side_b = 0;
        for (int s = 0; s < p.players; ++s)
          (setup.seats[s] == p.a ? side_a : side_b) =
              std::max(setup.seats[s] == p.a ? side_a : side_b, outcome.score[s]);
        // Alone, the other side is the game: a loss is 0, not half of nothing.
        const double share =
            p.solo() ? side_a : side_a + side_b > 0 ? side_a / (side_a + side_b) : 0.5;
        const std::lock_guard lock(mutex);
        if (!outcome.error.empty()) {
          ++p.errors;
          std::printf("game %d (match seed %llu): %s\n", g,
                      static_cast<unsigned long long>(setup.match_seed), outcome.error.c_str());
          continue;
        }
        p.games += 1;
        p.points_a += share;
        p.rounds += outcome.rounds;
        if (verbose)
          std::printf("%s v %s, %dp, game %d: %s %.1f\n", std::string(game::level_name(p.a)).c_str(),
                      p.solo() ? "the game" : std::string(game::level_name(p.b)).c_str(), p.players, g,
                      std::string(game::level_name(p.a)).c_str(), share);
        if (verbose) std::fflush(stdout);  // a long run shows its games as they end
      }
      const std::lock_guard lock(mutex);
      for (int l = 0; l < game::kLevelCount; ++l) {
        work[l].decisions += mine[l].decisions;
        work[l].playouts += mine[l].playouts;
        work[l].seconds += mine[l].seconds;
        work[l].slowest_ms = std::max(work[l].slowest_ms, mine[l].slowest_ms);
        work[l].cpu_seconds += mine[l].cpu_seconds;
        work[l].slowest_cpu_ms = std::max(work[l].slowest_cpu_ms, mine[l].slowest_cpu_ms);
      }
    };
    std::vector<std::jthread> threads;
    for (int t = 0; t < jobs; ++t) threads.emplace_back(worker);
    threads.clear();
    const auto ci = arena::wilson95(p.points_a, p.games);
    if (p.solo()) {
      std::printf("%-7s alone   1p %s: %5d games  wins %.3f  95%% CI [%.3f, %.3f]  %.1f rounds%s\n",
                  std::string(game::level_name(p.a)).c_str(), options_label.c_str(), p.games,
                  p.games ? p.points_a / p.games : 0.0, ci.low, ci.high,
                  p.games ? p.rounds / p.games : 0.0,
                  p.errors ? fmt::format("  ({} errors)", p.errors).c_str() : "");
      std::fflush(stdout);
      continue;
    }
    std::printf(
        "%-7s v %-7s %dp %s: %5d games  %-7s scores %.3f  95%% CI [%.3f, %.3f]  %.1f rounds%s\n",
        std::string(game::level_name(p.a)).c_str(), std::string(game::level_name(p.b)).c_str(),
        p.players, options_label.c_str(), p.games, std::string(game::level_name(p.a)).c_str(),
        p.games ? p.points_a / p.games : 0.0, ci.low, ci.high, p.games ? p.rounds / p.games : 0.0,
        p.errors ? fmt::format("  ({} errors)", p.errors).c_str() : "");
    std::fflush(stdout);
  }

  for (int n : player_counts) {
    if (n == 1) continue;  // no pairings, no ratings
    std::array<std::array<double, game::kLevelCount>, game::kLevelCount> scores{}, played{};
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
                std::string(game::level_name(levels.front())).c_str());
    for (game::Level l : levels)
      std::printf("  %-7s %+7.0f\n", std::string(game::level_name(l)).c_str(),
                  elo[static_cast<std::size_t>(l)]);
  }
  std::printf("\nDecisions (on %d thread(s), %.0f s in all):\n", jobs,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  for (game::Level l : levels) {
    const LevelWork& w = work[static_cast<std::size_t>(l)];
    if (w.decisions == 0) continue;
    std::printf("  %-7s %8llu decisions  CPU %7.2f ms mean %7.1f ms slowest  (wall %7.2f / %7.1f)",
                std::string(game::level_name(l)).c_str(),
                static_cast<unsigned long long>(w.decisions), 1000 * w.cpu_seconds / w.decisions,
                w.slowest_cpu_ms, 1000 * w.seconds / w.decisions, w.slowest_ms);
    if (w.playouts > 0)
      std::printf("  %5.0f playouts/decision  %6.0f playouts per CPU second",
                  double(w.playouts) / w.decisions, w.playouts / w.cpu_seconds);
    std::printf("\n");
  }
  int errors = 0;
  for (const Pairing& p : pairings) errors += p.errors;
  return errors == 0 ? 0 : 1;
}
