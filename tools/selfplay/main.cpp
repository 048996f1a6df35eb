// eryantis-selfplay: plays N random legal games and reports each one. The first
// thing a newcomer can run; exits non-zero if any invariant of the rules breaks.
// With --db FILE every game is also written through the store exactly as the
// server writes a match (row, seats, events with state hashes, final status).
// --game NAME plays any game of the catalogue through the engine's interface
// (generic_selfplay.cpp); Eriantys keeps the path below, whose figures docs pin.
#include <spdlog/fmt/fmt.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "eryantis/catalogue/catalogue.hpp"
#include "eryantis/render/render.hpp"
#include "eryantis/rules/invariants.hpp"
#include "eryantis/rules/random_game.hpp"
#include "eryantis/util/command_line.hpp"
#include "generic_selfplay.hpp"
#include "match_writer.hpp"

using namespace eryantis::rules;
namespace render = eryantis::render;
namespace selfplay = eryantis::selfplay;

namespace {

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
    if (first_team < 0)
      first_team = team_of(s, p);
    else if (team_of(s, p) != first_team)
      return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Plays random legal Eriantys games and checks the rules' invariants after every command."};
  int games = 10;
  int players = 2;
  std::string mode = "simple";
  std::uint64_t seed = 1;
  bool quiet = false;
  std::string db_path;
  int batch = 32;
  std::string policy_name = "by-type";
  std::string game_name(eryantis::catalogue::games().default_game().name());
  std::string options_text;
  app.add_option("--game", game_name,
                 "the game played, one of the catalogue's (eriantys, ...); Eriantys by default");
  app.add_option("--options", options_text,
                 "a game's options as a JSON object, as in create_match (games other than "
                 "Eriantys; Eriantys takes --mode)");
  app.add_option("--games", games, "number of games")->check(CLI::Range(1, 10'000'000));
  app.add_option("--players", players, "players per game (the game's range: Eriantys 2 to 4)")
      ->check(CLI::Range(1, 4));
  app.add_option("--mode", mode, "Eriantys: simple or expert")
      ->check(CLI::IsMember({"simple", "expert"}));
  app.add_option("--seed", seed, "seed of the first game (game i uses seed + i)");
  app.add_flag("--quiet", quiet, "only print the summary");
  app.add_option("--db", db_path,
                 "also write every game to this SQLite event store, as the server would "
                 "(created if missing; games are appended after the matches already there)");
  app.add_option("--batch", batch, "games per transaction with --db")->check(CLI::Range(1, 10'000));
  app.add_option("--policy", policy_name,
                 "how the players choose: by-type (a command type, then one of its "
                 "commands), uniform (uniformly over the legal commands) or greedy (the "
                 "computer's greedy level; games other than Eriantys)")
      ->check(CLI::IsMember({"by-type", "uniform", "greedy"}));
  if (auto exit = eryantis::util::parse_command_line(app, argc, argv)) return *exit;
  const eryantis::game::Game* played = eryantis::catalogue::games().find(game_name);
  if (!played) {
    std::string names;
    for (const eryantis::game::Game* g : eryantis::catalogue::games().games())
      names.append(names.empty() ? "" : ", ").append(g->name());
    std::fprintf(stderr, "eryantis-selfplay: no game \"%s\" in this build (it has: %s)\n",
                 game_name.c_str(), names.c_str());
    return 2;
  }
  // --db: opened (created) only once the arguments are known to be good.
  std::optional<selfplay::MatchWriter> db;
  auto open_db = [&] {
    if (db_path.empty()) return true;
    db = selfplay::MatchWriter::open(db_path, eryantis::catalogue::games(), batch);
    return db.has_value();
  };
  if (played != &eryantis::catalogue::games().default_game()) {
    if (app.count("--mode") > 0) {
      std::fprintf(stderr, "eryantis-selfplay: --mode is Eriantys's; give --options\n");
      return 2;
    }
    eryantis::selfplay::GenericRun run;
    run.game = played;
    run.options_json = options_text.empty() ? "{}" : options_text;
    run.players = players;
    run.games = games;
    run.seed = seed;
    run.quiet = quiet;
    using Policy = eryantis::selfplay::GenericRun::Policy;
    run.policy = policy_name == "uniform"  ? Policy::Uniform
                 : policy_name == "greedy" ? Policy::Greedy
                                           : Policy::ByType;
    run.db_path = db_path;
    run.batch = batch;
    run.games_of_db = &eryantis::catalogue::games();
    return eryantis::selfplay::play_generic(run);
  }
  if (!options_text.empty()) {
    std::fprintf(stderr, "eryantis-selfplay: Eriantys takes --mode, not --options\n");
    return 2;
  }
  if (players < 2) {
    std::fprintf(stderr, "eryantis-selfplay: Eriantys is for 2 to 4 players\n");
    return 2;
  }
  if (policy_name == "greedy") {
    std::fprintf(stderr, "eryantis-selfplay: --policy greedy is for games other than Eriantys\n");
    return 2;
  }
  const RandomPolicy policy =
      policy_name == "uniform" ? RandomPolicy::Uniform : RandomPolicy::ByType;
  std::array<long, kCharacterCount> character_uses{};
  std::array<long, kCharacterCount> character_offered{};

  if (!open_db()) return 2;
  std::vector<std::uint64_t> hashes;

  const MatchOptions options{static_cast<std::uint8_t>(players),
                             mode == "expert" ? Mode::Expert : Mode::Simple};
  long total_commands = 0;
  long total_rounds = 0;
  int broken = 0;
  int draws = 0;
  std::array<int, 6> by_reason{};
  for (int g = 0; g < games; ++g) {
    const std::uint64_t game_seed = seed + static_cast<std::uint64_t>(g);
    std::string violation;
    std::uint32_t violation_at = 0;
    hashes.clear();
    auto game = play_random_game(
        options, game_seed,
        [&](const Event& e, const State& s) {
          if (db) hashes.push_back(hash(s));
          if (auto used = command_character(e.command))
            character_uses[static_cast<std::size_t>(*used)] += 1;
          if (std::holds_alternative<CreateMatch>(e.command) && s.expert())
            for (const CharacterCard& card : s.characters)
              character_offered[static_cast<std::size_t>(card.id)] += 1;
          if (violation.empty()) {
            violation = invariant_violation(s);
            violation_at = s.events_applied;
          }
        },
        100000, policy);
    const State& s = game.state;
    if (s.phase != Phase::GameOver && violation.empty()) violation = "the game did not finish";
    if (!violation.empty()) {
      ++broken;
      std::printf("seed %llu  INVARIANT BROKEN after event %u: %s\n",
                  static_cast<unsigned long long>(game_seed), violation_at, violation.c_str());
      continue;
    }
    if (db) {
      // Eriantys's values as the handles its adapter reads.
      selfplay::PlayedMatch m;
      m.game = played;
      m.options = eryantis::game::Options::of(s.options);
      for (const Event& e : game.events) m.events.push_back(eryantis::game::Event::of(e));
      m.hashes = hashes;
      m.after_first = eryantis::game::State::of(fold(std::span(game.events).first(1)));
      m.last = eryantis::game::State::of(s);
      if (!db->add(m)) return 2;
    }
    total_commands += game.commands;
    total_rounds += s.round;
    by_reason[static_cast<int>(s.result.reason)] += 1;
    if (is_draw(s)) ++draws;
    if (!quiet)
      std::printf("seed %-10llu rounds %2d  commands %4d  winner %-5s  %s%s\n",
                  static_cast<unsigned long long>(game_seed), s.round, game.commands,
                  winners_text(s).c_str(),
                  std::string(render::end_reason_text(s.result.reason)).c_str(),
                  is_draw(s) ? " (draw)" : "");
  }
  if (db) {
    if (!db->flush()) return 2;
    std::printf("wrote matches %lld..%lld to %s\n", static_cast<long long>(db->first_id()),
                static_cast<long long>(db->next_id() - 1), db_path.c_str());
  }
  const int ok = games - broken;
  std::printf("\n%d game(s), %d player(s), %s mode: %d finished, %d broken\n", games, players,
              mode.c_str(), ok, broken);
  if (ok > 0) {
    std::printf("  average %.1f rounds, %.1f commands per game, %d draw(s)\n",
                double(total_rounds) / ok, double(total_commands) / ok, draws);
    for (int r = 1; r <= 5; ++r)
      if (by_reason[r])
        std::printf("  %-40s %d\n",
                    std::string(render::end_reason_text(static_cast<EndReason>(r))).c_str(),
                    by_reason[r]);
  }
  if (options.mode == Mode::Expert) {
    std::printf("  character uses (games it was drawn in):\n");
    for (int c = 0; c < kCharacterCount; ++c)
      std::printf("    %-16s %7ld  (%ld)\n",
                  std::string(character_name(static_cast<CharacterId>(c))).c_str(),
                  character_uses[static_cast<std::size_t>(c)],
                  character_offered[static_cast<std::size_t>(c)]);
  }
  return broken == 0 ? 0 : 1;
}
