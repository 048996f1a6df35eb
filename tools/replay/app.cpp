// eryantis-replay's command line: inspect a match database without touching it,
// and apply single commands to state files. Run `eryantis-replay --help`.
//
//   eryantis-replay DB list | log MATCH | show MATCH | step MATCH | verify | export MATCH
//   eryantis-replay DB ratings [--json] [--at MS]
//   eryantis-replay apply [--game NAME] --state FILE --seat N --command JSON   (no database)
#include "app.hpp"

#include <unistd.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <optional>
#include <string>

#include "backup.hpp"
#include "commands.hpp"
#include "serve.hpp"

namespace eryantis::replay {

int run_replay(int argc, char** argv, const game::Registry& games) {
  CLI::App app{
      "Inspects an Eryantis match database read-only (safe while the server runs): lists "
      "matches, prints a match's events in words, draws the board at any event, steps "
      "through a match, re-verifies every stored hash with today's rules and exports JSON. "
      "`apply` works on a state file and needs no database.\n"
      "Exit codes: 0 ok, 1 divergence (verify) or rule error (apply), 2 usage or data error."};
  app.require_subcommand(1);
  std::string db;
  app.add_option("DB", db,
                 "the SQLite database (e.g. data/eryantis.db) or a postgresql:// URI "
                 "(list, log, show, step, verify, export); not needed by `apply`");

  add_backup_command(app, db);
  auto color_default = [] { return isatty(STDOUT_FILENO) != 0; };

  auto* list = app.add_subcommand(
      "list", "matches: id, status, players, mode, events, last activity, nicknames");

  std::int64_t match = 0;
  LogArgs log_args;
  auto* log = app.add_subcommand(
      "log", "one line per event, in words (seq, time in UTC, round, what happened)");
  log->add_option("MATCH", log_args.match, "match id")->required();
  log->add_option("--round", log_args.round, "only the events of round R (0 = the setup)")
      ->check(CLI::Range(0, 1000));

  ShowArgs show_args;
  std::optional<std::int64_t> show_at;
  std::optional<int> show_as;
  bool color = false, no_color = false;
  auto* show = app.add_subcommand("show", "the board of a match after any event");
  show->add_option("MATCH", show_args.match, "match id")->required();
  show->add_option("--at", show_at,
                   "the board after event SEQ (default: the last; 0 = before any event: no "
                   "board yet, event 1 sets it up)");
  show->add_option("--as", show_as, "see the match as this seat would (its game's view)");
  show->add_flag("--color", color, "ANSI colours (default: when stdout is a terminal)");
  show->add_flag("--no-color", no_color, "plain text");

  bool step_color = false, step_no_color = false;
  auto* step = app.add_subcommand(
      "step", "step through a match: reads n/next, p/prev, j/jump SEQ, q/quit from stdin");
  step->add_option("MATCH", match, "match id")->required();
  step->add_flag("--color", step_color, "ANSI colours (default: when stdout is a terminal)");
  step->add_flag("--no-color", step_no_color, "plain text");

  VerifyArgs verify_args;
  std::optional<std::int64_t> verify_match;
  bool verify_all = false;
  auto* verify = app.add_subcommand(
      "verify",
      "refold matches from their first event, re-checking every event with today's rules and "
      "comparing every stored state hash; exit 1 on any divergence");
  auto* verify_match_opt = verify->add_option("MATCH", verify_match, "match id");
  verify->add_flag("--all", verify_all, "every match (the default without MATCH)")
      ->excludes(verify_match_opt);
  verify
      ->add_option("--threads", verify_args.threads,
                   "worker threads (default: one per core, at most 8)")
      ->check(CLI::Range(1, 64));

  ExportArgs export_args;
  std::optional<std::int64_t> export_at;
  auto* exp = app.add_subcommand("export", "a match's state (or its events) as JSON on stdout");
  exp->add_option("MATCH", export_args.match, "match id")->required();
  exp->add_option("--at", export_at,
                  "the state after event SEQ (default: the last; 0 = before any event, the "
                  "state create_match applies to)");
  exp->add_flag("--events", export_args.events, "the events up to --at as a JSON array instead");

  ApplyArgs apply_args;
  auto* apply = app.add_subcommand(
      "apply",
      "apply one command to a state file and print the new state JSON, or the rule error as "
      "{\"error\": CODE, \"message\": ...} (exit 1); needs no database");
  std::string game_names;
  for (const game::Game* g : games.games())
    game_names += (game_names.empty() ? "" : ", ") + std::string(g->name());
  apply->add_option("--game", apply_args.game,
                    "the game of the state file (" + game_names + "; default " +
                        std::string(games.default_game().name()) + ")");
  apply
      ->add_option("--state", apply_args.state_file,
                   "state JSON file (the game's state JSON, as `export` prints it; - = "
                   "stdin); `export --at 0` is the state before any event, to which "
                   "create_match applies with --seat -1 --server")
      ->required();
  apply->add_option("--seat", apply_args.seat, "the seat sending the command")
      ->required()
      ->check(CLI::Range(-1, 3));
  apply
      ->add_option("--command", apply_args.command_json,
                   R"(the command as JSON, e.g. '{"type":"play_assistant","value":3}')")
      ->required();
  apply->add_flag("--server", apply_args.server,
                  "with the server's authority (skip_turn, award_forfeit, ...)");

  RatingsArgs ratings_args;
  auto* ratings = app.add_subcommand(
      "ratings",
      "every rating recomputed from the log: the finished matches folded from their first "
      "event, in finishing order, through the rating book (Glicko-2); a table per game and "
      "player count (docs/accounts.md); exit 1 if a stored result disagrees with the log");
  ratings->add_option("--at", ratings_args.at_ms,
                      "widen deviations to this unix time in milliseconds (default: now), as "
                      "the server's GET /ratings/<game>?at=MS does");
  ratings->add_flag("--json", ratings_args.json, "JSON on stdout instead of the table");

  ServeArgs serve_args;
  auto* serve = app.add_subcommand(
      "serve", "the replay viewer in a browser: the web client and a JSON API (docs/web.md)");
  serve->add_option("--port", serve_args.port, "HTTP port (0 = any free port)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  serve->add_option("--listen", serve_args.listen, "address to listen on")->capture_default_str();
  serve->add_option("--static", serve_args.static_dir, "the built web client")
      ->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitError;
  }

  if (*apply) return run_apply(games, apply_args);
  if (db.empty()) {
    std::fprintf(stderr,
                 "eryantis-replay: this subcommand needs the database: eryantis-replay DB %s ...\n",
                 app.get_subcommands().front()->get_name().c_str());
    return kExitError;
  }
  if (*serve) return run_serve(games, db, serve_args);
  if (*list) return run_list(games, db);
  if (*ratings) return run_ratings(games, db, ratings_args);
  if (*log) return run_log(games, db, log_args);
  if (*show) {
    show_args.at = show_at;
    show_args.as = show_as;
    show_args.color = no_color ? false : (color || color_default());
    return run_show(games, db, show_args);
  }
  if (*step)
    return run_step(games, db, match, step_no_color ? false : (step_color || color_default()));
  if (*verify) {
    verify_args.match = verify_match;
    return run_verify(games, db, verify_args);
  }
  if (*exp) {
    export_args.at = export_at;
    return run_export(games, db, export_args);
  }
  return kExitError;
}

}  // namespace eryantis::replay
