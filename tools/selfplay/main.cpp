// eryantis-selfplay: plays N random legal games and reports each one. The first
// thing a newcomer can run; exits non-zero if any invariant of the rules breaks.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

#include "eryantis/rules/invariants.hpp"
#include "eryantis/rules/random_game.hpp"

using namespace eryantis::rules;

namespace {

const char* reason_text(EndReason r) {
  switch (r) {
    case EndReason::LastTower: return "last tower built";
    case EndReason::ThreeGroups: return "three island groups left";
    case EndReason::BagEmpty: return "bag emptied, last round played";
    case EndReason::NoAssistants: return "assistants used up, last round played";
    case EndReason::Forfeit: return "forfeit";
    case EndReason::None: break;
  }
  return "not finished";
}

// Winning seats joined by '+' (teammates in 4p, or the players sharing a draw).
std::string winners_text(const State& s) {
  std::string out;
  for (Seat p = 0; p < s.players(); ++p) {
    if (!(s.result.winners & (1u << p))) continue;
    if (!out.empty()) out += '+';
    out += std::to_string(p);
  }
  return out.empty() ? "-" : out;
}

bool is_draw(const State& s) {
  int first_team = -1;
  for (Seat p = 0; p < s.players(); ++p) {
    if (!(s.result.winners & (1u << p))) continue;
    if (first_team < 0) first_team = team_of(s, p);
    else if (team_of(s, p) != first_team) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Plays random legal Eriantys games and checks the rules' invariants after every command."};
  int games = 10;
  int players = 2;
  std::string mode = "simple";
  std::uint64_t seed = 1;
  bool quiet = false;
  app.add_option("--games", games, "number of games")->check(CLI::Range(1, 10'000'000));
  app.add_option("--players", players, "players per game")->check(CLI::IsMember({2, 3, 4}));
  app.add_option("--mode", mode, "simple or expert")->check(CLI::IsMember({"simple", "expert"}));
  app.add_option("--seed", seed, "seed of the first game (game i uses seed + i)");
  app.add_flag("--quiet", quiet, "only print the summary");
  CLI11_PARSE(app, argc, argv);

  const MatchOptions options{static_cast<std::uint8_t>(players), mode == "expert" ? Mode::Expert : Mode::Simple};
  long total_commands = 0;
  long total_rounds = 0;
  int broken = 0;
  int draws = 0;
  std::array<int, 6> by_reason{};
  for (int g = 0; g < games; ++g) {
    const std::uint64_t game_seed = seed + static_cast<std::uint64_t>(g);
    std::string violation;
    std::uint32_t violation_at = 0;
    auto game = play_random_game(options, game_seed, [&](const Event&, const State& s) {
      if (violation.empty()) {
        violation = invariant_violation(s);
        violation_at = s.events_applied;
      }
    });
    const State& s = game.state;
    if (s.phase != Phase::GameOver && violation.empty()) violation = "the game did not finish";
    if (!violation.empty()) {
      ++broken;
      std::printf("seed %llu  INVARIANT BROKEN after event %u: %s\n", static_cast<unsigned long long>(game_seed),
                  violation_at, violation.c_str());
      continue;
    }
    total_commands += game.commands;
    total_rounds += s.round;
    by_reason[static_cast<int>(s.result.reason)] += 1;
    if (is_draw(s)) ++draws;
    if (!quiet)
      std::printf("seed %-10llu rounds %2d  commands %4d  winner %-5s  %s%s\n",
                  static_cast<unsigned long long>(game_seed), s.round, game.commands, winners_text(s).c_str(),
                  reason_text(s.result.reason), is_draw(s) ? " (draw)" : "");
  }
  const int ok = games - broken;
  std::printf("\n%d game(s), %d player(s), %s mode: %d finished, %d broken\n", games, players, mode.c_str(), ok, broken);
  if (ok > 0) {
    std::printf("  average %.1f rounds, %.1f commands per game, %d draw(s)\n", double(total_rounds) / ok,
                double(total_commands) / ok, draws);
    for (int r = 1; r <= 5; ++r)
      if (by_reason[r]) std::printf("  %-40s %d\n", reason_text(static_cast<EndReason>(r)), by_reason[r]);
  }
  return broken == 0 ? 0 : 1;
}
