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
#include "eryantis/store/sqlite_store.hpp"
#include "eryantis/util/command_line.hpp"
#include "generic_selfplay.hpp"

using namespace eryantis::rules;
namespace render = eryantis::render;
namespace store = eryantis::store;

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

constexpr std::array<const char*, kMaxPlayers> kNicknames = {"alice", "bob", "carol", "dana"};

// The server's result JSON (server_messages.cpp result_json), seats named as above.
std::string result_json(const State& s) {
  std::string winners, nicknames;
  for (Seat p = 0; p < s.players(); ++p) {
    if (!(s.result.winners & (1u << p))) continue;
    if (!winners.empty()) {
      winners += ',';
      nicknames += ',';
    }
    winners += std::to_string(p);
    nicknames += fmt::format("\"{}\"", kNicknames[static_cast<std::size_t>(p)]);
  }
  return fmt::format(
      R"({{"type":"result","reason":"{}","winners":[{}],"nicknames":[{}],"draw":{}}})",
      end_reason_name(s.result.reason), winners, nicknames, is_draw(s));
}

// Writes games as the server does: the match row in the lobby with its seats and the
// create_match event, then the rest of the events with status finished and the result.
// Several games share one transaction (each game is two requests of append_batch).
class DbWriter {
 public:
  static std::optional<DbWriter> open(const std::string& path, int batch) {
    store::Options options;
    options.durability = store::Durability::Normal;  // generated data: no fsync per commit
    options.games = &eryantis::catalogue::games();   // the store encodes each match by its game
    auto opened = store::SqliteStore::open(path, options);
    if (!opened) {
      std::fprintf(stderr, "eryantis-selfplay: cannot open %s: %s\n", path.c_str(),
                   opened.error().message.c_str());
      return std::nullopt;
    }
    auto max_id = opened->max_match_id();
    if (!max_id) {
      std::fprintf(stderr, "eryantis-selfplay: %s: %s\n", path.c_str(),
                   max_id.error().message.c_str());
      return std::nullopt;
    }
    return DbWriter(std::move(*opened), *max_id + 1, batch);
  }

  // `hashes[i]` is rules::hash of the state after events[i].
  bool add(const RandomGame& game, const std::vector<std::uint64_t>& hashes) {
    const store::MatchId id = next_id_++;
    store::AppendRequest create =
        store::AppendRequest::of(id, 0, {new_event(game.events[0], hashes[0])},
                                 eryantis::game::State::of(fold(std::span(game.events).first(1))));
    create.create =
        store::NewMatch{eryantis::game::Options::of(game.state.options), store::MatchStatus::Lobby};
    for (int p = 0; p < game.state.players(); ++p) {
      store::SeatRecord seat;
      seat.match_id = id;
      seat.seat = p;
      seat.nickname = kNicknames[static_cast<std::size_t>(p)];
      seat.resume_token_hash = store::hash_to_hex(hashes[0] ^ static_cast<std::uint64_t>(p + 1));
      create.seats.push_back(std::move(seat));
    }
    std::vector<store::NewEvent> rest;
    rest.reserve(game.events.size() - 1);
    for (std::size_t i = 1; i < game.events.size(); ++i) {
      const Seat seat = game.events[i].seat;
      const bool server = std::holds_alternative<SkipTurn>(game.events[i].command) ||
                          std::holds_alternative<AwardForfeit>(game.events[i].command);
      store::NewEvent e = new_event(game.events[i], hashes[i]);
      e.actor = server ? store::Actor::server() : store::Actor::player(seat);
      rest.push_back(std::move(e));
    }
    store::AppendRequest finish =
        store::AppendRequest::of(id, 1, std::move(rest), eryantis::game::State::of(game.state));
    finish.status = game.state.phase == Phase::GameOver ? store::MatchStatus::Finished
                                                        : store::MatchStatus::Running;
    if (game.state.phase == Phase::GameOver) finish.result_json = result_json(game.state);
    pending_.push_back(std::move(create));
    pending_.push_back(std::move(finish));
    if (static_cast<int>(pending_.size()) >= 2 * batch_) return flush();
    return true;
  }

  bool flush() {
    if (pending_.empty()) return true;
    auto results = store_.append_batch(pending_);
    pending_.clear();
    for (const auto& r : results) {
      if (!r) {
        std::fprintf(stderr, "eryantis-selfplay: store: %s\n", r.error().message.c_str());
        return false;
      }
    }
    return true;
  }

  store::MatchId first_id() const { return first_id_; }
  store::MatchId next_id() const { return next_id_; }

 private:
  DbWriter(store::SqliteStore s, store::MatchId first, int batch)
      : store_(std::move(s)), first_id_(first), next_id_(first), batch_(batch) {}

  static store::NewEvent new_event(const Event& e, std::uint64_t hash) {
    store::NewEvent n;
    n.actor = store::Actor::server();
    n.event = eryantis::game::Event::of(e);  // the handle the Eriantys adapter reads
    n.state_hash = hash;
    return n;
  }

  store::SqliteStore store_;
  store::MatchId first_id_;
  store::MatchId next_id_;
  int batch_;
  std::vector<store::AppendRequest> pending_;
};

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
                 "how the random players choose: by-type (a command type, then one of its "
                 "commands) or uniform (uniformly over the legal commands)")
      ->check(CLI::IsMember({"by-type", "uniform"}));
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
  if (played != &eryantis::catalogue::games().default_game()) {
    if (!db_path.empty()) {
      std::fprintf(stderr,
                   "eryantis-selfplay: --db writes Eriantys matches only (the store keeps "
                   "other games once it reaches them through the engine's interface)\n");
      return 2;
    }
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
    run.uniform = policy_name == "uniform";
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
  const RandomPolicy policy =
      policy_name == "uniform" ? RandomPolicy::Uniform : RandomPolicy::ByType;
  std::array<long, kCharacterCount> character_uses{};
  std::array<long, kCharacterCount> character_offered{};

  std::optional<DbWriter> db;
  if (!db_path.empty()) {
    db = DbWriter::open(db_path, batch);
    if (!db) return 2;
  }
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
    if (db && !db->add(game, hashes)) return 2;
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
