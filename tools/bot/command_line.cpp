// eryantis-bot: load generator and protocol conformance client. Opens
// --matches x (--players - --computers) connections on one libuv loop, creates and
// fills the matches (the server's computer players, if asked for, take seats 1..K),
// plays random legal moves chosen on each bot's mirrored state, over TCP or a
// WebSocket (--ws, --url ws://...), and reports throughput, ack latency and errors
// (see docs/performance.md and, with computer players, docs/bots.md). With --nodes,
// a match's bots start on different nodes of a cluster and follow the redirects to
// the node serving it (counted: docs/cluster-demo.md).
#include "command_line.hpp"

#include <CLI/CLI.hpp>

#include "bot.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/json/value.hpp"
#include "eryantis/util/command_line.hpp"

namespace eryantis::bot {

int run_command_line(int argc, char** argv, const game::Registry& registry) {
  CLI::App app{
      "Plays many matches of any game against a server with random legal moves and measures "
      "it."};
  app.footer(
      "Against computer players (docs/bots.md), e.g. the 200-match figure of issue 15:\n"
      "  eryantis-bot --matches 200 --players 2 --mode expert --computers 1 --level strong "
      "--duration 30 --warmup 5 --json\n"
      "Another game of the build: eryantis-bot --game renaissance --players 3 --games 5\n");
  Options o;
  std::string mode;
  std::string game_name;
  std::string options_text;
  app.add_option("--matches", o.matches, "concurrent matches")
      ->check(CLI::Range(1, 1'000'000))
      ->capture_default_str();
  app.add_option("--game", game_name,
                 "the game the bots create matches of (default: the server's default game, "
                 "Eriantys)");
  app.add_option("--options", options_text,
                 "the game's options for create_match, a JSON object, e.g. '{\"mode\":\"expert\"}'");
  app.add_option("--players", o.players, "players per match (the game's seat counts)")
      ->check(CLI::Range(1, 4))
      ->capture_default_str();
  app.add_option("--computers", o.computers,
                 "K: seats 1..K of each match go to the server's computer players; the bots "
                 "take the other seats and measure only their own commands (K < --players)")
      ->check(CLI::Range(0, 3))
      ->capture_default_str();
  app.add_option("--level", o.level,
                 "the computer players' strength (default: the server's [computer] level)")
      ->check(CLI::IsMember({"random", "greedy", "strong"}));
  app.add_option("--mode", mode,
                 "Eriantys's mode, simple (default) or expert: a shortcut for --options "
                 "'{\"mode\":...}'")
      ->check(CLI::IsMember({"simple", "expert"}))
      ->excludes("--options");
  auto* duration = app.add_option("--duration", o.duration_s, "run this many seconds")
                       ->check(CLI::PositiveNumber);
  auto* games = app.add_option("--games", o.games, "stop once this many games finished")
                    ->check(CLI::Range(1, 100'000'000));
  app.add_option("--seed", o.seed, "seed of the bots' move choices")->capture_default_str();
  app.add_option("--host", o.host, "server address (IPv4/IPv6 literal or localhost)")
      ->capture_default_str();
  app.add_option("--port", o.port, "server port")
      ->check(CLI::Range(1, 65535))
      ->capture_default_str();
  bool websocket = false;
  app.add_flag("--ws", websocket,
               "play over a WebSocket at ws://HOST:PORT/ws (give the web listener's port)");
  std::string url;
  app.add_option("--url", url,
                 "the server as ws://host:port/path (WebSocket) or host:port (TCP); replaces "
                 "--host, --port and --ws")
      ->excludes("--host")
      ->excludes("--port")
      ->excludes("--ws");
  std::vector<std::string> node_urls;
  app.add_option("--nodes", node_urls,
                 "a cluster's nodes, host:port[,host:port...] (or ws:// URLs): a match's bots "
                 "start on different nodes and follow redirects; replaces --host, --port, --url")
      ->delimiter(',')
      ->excludes("--host")
      ->excludes("--port")
      ->excludes("--url");
  std::string updates;
  app.add_option("--updates", updates,
                 "how the bots follow a match: events (folded into each seat's view; the default "
                 "when the game allows it) or full (each event with the seat's view)")
      ->check(CLI::IsMember({"events", "full"}));
  app.add_flag("--json", o.json, "print one JSON object with the results as the last stdout line");
  app.add_option("--chaos", o.chaos,
                 "per command, the probability of a drop+resume, a malformed line or an "
                 "out-of-turn command")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--warmup", o.warmup_s,
                 "seconds excluded from the throughput and latency figures, counted from when "
                 "every match is seated")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--idle", o.idle,
               "seat the matches, then hold them without playing (memory benchmark)");
  app.add_option("--stage-pause", o.stage_pause_s,
                 "with --idle: seconds between 'all connections logged in' and seating the matches")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--give-up", o.give_up_s, "seconds a bot keeps trying to reconnect")
      ->capture_default_str();
  app.add_option("--name-prefix", o.name_prefix, "nickname prefix (default: random per run)");
  app.add_option("--connect-rate", o.connects_per_tick, "new connections started per 5 ms")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--rate", o.rate,
                 "requests per second per connection (the server allows 50 by default)")
      ->check(CLI::Range(1.0, 100000.0))
      ->capture_default_str();
  app.add_option("--target-rate", o.target_rate,
                 "all bots together send at most this many plays per second (0 = unpaced)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--record", o.record_path,
                 "write the first games of tables 0-15 to this file (a transcript for --floor)");
  app.add_option("--acks", o.acks_path,
                 "write one line per acknowledged command to this file: unix ms, match, seq, "
                 "command id, node (the failover tests' record)");
  app.add_option("--drain", o.drain_s,
                 "at the end (--duration, SIGINT or SIGTERM) start no game and let the running "
                 "ones finish for at most this many seconds (a second signal stops at once)")
      ->check(CLI::NonNegativeNumber);
  std::string floor_path;
  app.add_option("--floor", floor_path,
                 "play this transcript against the floor server (bench/floor_server.cpp)");
  app.add_option("--watch-pid", o.watch_pid,
                 "report this process's CPU (user + system) per acknowledged command")
      ->check(CLI::PositiveNumber);
  app.add_flag("--quiet", o.quiet,
               "no progress line every second (the final one is still printed)");
  if (auto exit = eryantis::util::parse_command_line(app, argc, argv)) return *exit;
  if (!*duration && !*games) {
    std::fprintf(stderr, "eryantis-bot: give --duration S or --games G (or both)\n");
    return 2;
  }
  if (o.name_prefix.size() > 12) {
    std::fprintf(
        stderr,
        "eryantis-bot: --name-prefix is at most 12 characters (nicknames are at most 24)\n");
    return 2;
  }
  if (o.computers >= o.players) {
    std::fprintf(stderr,
                 "eryantis-bot: --computers %d leaves no seat for a bot in a %d-player match; give "
                 "at most --computers %d\n",
                 o.computers, o.players, o.players - 1);
    return 2;
  }
  if (o.computers > 0 && (!floor_path.empty() || !o.record_path.empty())) {
    std::fprintf(stderr,
                 "eryantis-bot: --floor and --record replay every seat's lines: they take no "
                 "--computers\n");
    return 2;
  }
  if (!o.level.empty() && o.computers == 0) {
    std::fprintf(
        stderr,
        "eryantis-bot: --level is the computer players' strength: give --computers K too\n");
    return 2;
  }
  if (websocket) o.websocket_path = "/ws";
  if (!url.empty()) {
    std::string error;
    auto endpoint = client::Endpoint::parse(url, error);
    if (!endpoint) {
      std::fprintf(stderr, "eryantis-bot: --url %s: %s\n", url.c_str(), error.c_str());
      return 2;
    }
    o.host = endpoint->host;
    o.port = endpoint->port;
    o.websocket_path = endpoint->websocket_path;
  }
  for (const auto& node : node_urls) {
    std::string error;
    auto endpoint = client::Endpoint::parse(node, error);
    if (!endpoint) {
      std::fprintf(stderr, "eryantis-bot: --nodes %s: %s\n", node.c_str(), error.c_str());
      return 2;
    }
    if (websocket && !endpoint->websocket()) endpoint->websocket_path = "/ws";
    o.nodes.push_back(*endpoint);
  }
  if (!o.nodes.empty()) {
    o.host = o.nodes.front().host;
    o.port = o.nodes.front().port;
    o.websocket_path = o.nodes.front().websocket_path;
  }
  // The game and its options, checked here as the server would check them: a
  // mistake is told at once, not as a BAD_OPTIONS from every table.
  o.registry = &registry;
  const game::Game* played =
      game_name.empty() ? &o.registry->default_game() : o.registry->find(game_name);
  if (!played) {
    std::string names;
    for (const game::Game* g : o.registry->games())
      names += (names.empty() ? "" : ", ") + std::string(g->name());
    std::fprintf(stderr, "eryantis-bot: no game \"%s\" in this build (it has: %s)\n",
                 game_name.c_str(), names.c_str());
    return 2;
  }
  o.game = game_name;
  const bool eriantys = played->name() == "eriantys";
  if (!mode.empty() && !eriantys) {
    std::fprintf(stderr,
                 "eryantis-bot: --mode is Eriantys's; give %s's options with --options '{...}'\n",
                 std::string(played->name()).c_str());
    return 2;
  }
  if (o.players < played->min_seats() || o.players > played->max_seats()) {
    std::fprintf(stderr, "eryantis-bot: %s is played by %d to %d players, not --players %d\n",
                 std::string(played->name()).c_str(), played->min_seats(), played->max_seats(),
                 o.players);
    return 2;
  }
  json::LineDocument options_line;
  auto& options_doc = options_line.doc();
  options_doc.Parse(options_text.empty() ? "{}" : options_text.c_str());
  if (options_doc.HasParseError() || !options_doc.IsObject()) {
    std::fprintf(stderr, "eryantis-bot: --options must be a JSON object\n");
    return 2;
  }
  if (!mode.empty())
    options_doc.AddMember("mode", json::Value(mode.c_str(), options_doc.GetAllocator()),
                          options_doc.GetAllocator());
  auto checked = played->options_from_request(o.players, &options_doc);
  if (!checked) {
    std::fprintf(stderr, "eryantis-bot: --options: %s\n", checked.error().message.c_str());
    return 2;
  }
  o.game_name = std::string(played->name());
  o.canonical_options = played->options_json(*checked);
  // Eriantys's matches are created as before (`mode`, simple unless --mode says);
  // any other game's with its options object, compact on one line.
  o.mode = eriantys && options_text.empty() ? (mode.empty() ? "simple" : mode) : std::string();
  if (!options_text.empty()) o.options_json = json::text(options_doc);
  // Events alone when this seat can fold them into its view (every game here can):
  // the server then encodes and sends no views.
  o.full_updates = !played->viewers_fold_events();
  if (updates == "full") o.full_updates = true;
  if (updates == "events" && o.full_updates) {
    std::fprintf(stderr,
                 "eryantis-bot: --updates events: a seat cannot follow %s from events alone; "
                 "use --updates full\n",
                 o.game_name.c_str());
    return 2;
  }
  if (!floor_path.empty()) {
    std::string error;
    auto transcript = Transcript::read(floor_path, error);
    if (!transcript) {
      std::fprintf(stderr, "eryantis-bot: --floor: %s\n", error.c_str());
      return 2;
    }
    if (transcript->players != o.players) {
      std::fprintf(stderr,
                   "eryantis-bot: --floor: the transcript is a %d-player game; give --players %d\n",
                   transcript->players, transcript->players);
      return 2;
    }
    o.floor = std::make_shared<const Transcript>(std::move(*transcript));
  }
  Runner runner(o);
  return runner.run();
}

}  // namespace eryantis::bot
