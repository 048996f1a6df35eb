#include "generic_selfplay.hpp"

#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "eryantis/game/prng.hpp"
#include "eryantis/json/json.hpp"
#include "match_writer.hpp"

namespace eryantis::selfplay {

namespace {

// Far above any real game: a bound on a rules bug that never ends a match.
constexpr int kMaxEvents = 100000;

struct Played {
  game::State state;
  std::vector<game::Event> events;
  std::vector<std::uint64_t> hashes;  // the game's hash after each event
  game::State after_first;
  int commands = 0;       // player commands
  std::string violation;  // the first broken invariant, or why the game stopped
  int violation_at = 0;   // after this many events
};

using Policy = GenericRun::Policy;

game::Command pick(const game::Game& g, const game::State& s, game::Seat seat,
                   const std::vector<game::Command>& legal, game::Prng& prng, Policy policy) {
  if (policy == Policy::Greedy) {
    auto choice = g.choose(g.view(s, seat), seat, game::Level::Greedy, game::Budget{}, prng.next());
    if (choice) return std::move(choice->command);
    // Not reached (a seat with legal commands always has a choice); play on at random.
  }
  if (policy == Policy::Uniform) return legal[prng.below(static_cast<std::uint32_t>(legal.size()))];
  std::vector<std::string_view> types;
  for (const game::Command& c : legal) {
    const std::string_view t = g.command_type(c);
    if (types.empty() || types.back() != t) {
      bool seen = false;
      for (std::string_view u : types) seen = seen || u == t;
      if (!seen) types.push_back(t);
    }
  }
  const std::string_view type = types[prng.below(static_cast<std::uint32_t>(types.size()))];
  std::vector<const game::Command*> of_type;
  for (const game::Command& c : legal)
    if (g.command_type(c) == type) of_type.push_back(&c);
  return *of_type[prng.below(static_cast<std::uint32_t>(of_type.size()))];
}

Played play_one(const game::Game& g, const game::Options& options, std::uint64_t seed, Policy policy,
                std::map<std::string, long>& uses, std::map<std::string, long>& tags) {
  Played out;
  auto created = g.create_match(options, game::Seed{seed, ~seed * 0x9e3779b97f4a7c15ULL});
  if (!created) {
    out.violation = "create_match refused: " + created.error().message;
    return out;
  }
  std::vector<game::Event>& events = out.events;
  events.push_back(*created);
  game::State s = g.apply(g.empty_state(), *created);
  out.after_first = s;
  out.hashes.push_back(g.hash(s));
  game::Prng prng(seed);
  auto check = [&](const game::State& after) {
    if (!out.violation.empty()) return;
    out.violation = g.invariant_violation(after);
    out.violation_at = static_cast<int>(events.size());
  };
  check(s);
  while (g.stage(s) != game::Stage::Over && out.violation.empty()) {
    if (static_cast<int>(events.size()) > kMaxEvents) {
      out.violation = "the game did not end";
      break;
    }
    const std::vector<game::ToAct> to_act = g.to_act(s);
    if (to_act.empty()) {
      out.violation = "nobody may act in a game that is not over";
      break;
    }
    const game::ToAct who = to_act[prng.below(static_cast<std::uint32_t>(to_act.size()))];
    std::vector<game::Command> legal;
    if (who.wait != game::Wait::SkipNow) legal = g.legal_commands(s, who.seat);
    // A seat with nothing to do is skipped by the server's timer in a real match.
    const game::Command played =
        legal.empty() ? g.skip_turn() : pick(g, s, who.seat, legal, prng, policy);
    game::Ruled<game::Decision> d = g.decide(
        s, who.seat, played, legal.empty() ? game::Authority::Server : game::Authority::Player);
    if (!d) {
      out.violation = "a listed command was refused: " + d.error().code + ": " + d.error().message;
      break;
    }
    uses[std::string(g.command_type(played))] += 1;
    for (std::string& tag : g.usage_tags(d->event)) tags[std::move(tag)] += 1;
    if (!legal.empty()) ++out.commands;
    events.push_back(d->event);
    s = std::move(d->next);
    out.hashes.push_back(g.hash(s));
    check(s);
  }
  // The store's fold: the events again from the empty state, checked, give the same state.
  if (out.violation.empty()) {
    game::State folded = g.empty_state();
    for (const game::Event& e : events) {
      auto next = g.apply_checked(std::move(folded), e);
      if (!next) {
        out.violation = "the fold refused an event: " + next.error().message;
        break;
      }
      folded = std::move(*next);
    }
    if (out.violation.empty() && g.hash(folded) != g.hash(s))
      out.violation = "the fold of the events differs from the state played";
  }
  out.state = std::move(s);
  return out;
}

}  // namespace

int play_generic(const GenericRun& run) {
  const game::Game& g = *run.game;
  json::LineDocument line;
  auto& doc = line.doc();
  doc.Parse(run.options_json.c_str());
  if (doc.HasParseError() || !doc.IsObject()) {
    std::fprintf(stderr, "eryantis-selfplay: --options must be a JSON object\n");
    return 2;
  }
  auto options = g.options_from_request(run.players, &doc);
  if (!options) {
    std::fprintf(stderr, "eryantis-selfplay: %s, %d player(s): %s\n", std::string(g.name()).c_str(),
                 run.players, options.error().message.c_str());
    return 2;
  }
  std::optional<MatchWriter> db;  // opened once the options are good: a refusal writes nothing
  if (!run.db_path.empty()) {
    db = MatchWriter::open(run.db_path, *run.games_of_db, run.batch);
    if (!db) return 2;
  }
  std::map<std::string, long> uses;        // command type -> times played
  std::map<std::string, int> games_using;  // command type -> games it was played in
  std::map<std::string, long> tag_uses;    // the game's usage tags, the same way
  std::map<std::string, int> games_tagged;
  std::map<std::string, int> by_reason;
  long total_commands = 0;
  long total_rounds = 0;
  int broken = 0;
  int draws = 0;
  for (int i = 0; i < run.games; ++i) {
    const std::uint64_t seed = run.seed + static_cast<std::uint64_t>(i);
    std::map<std::string, long> game_uses, game_tags;
    const Played p = play_one(g, *options, seed, run.policy, game_uses, game_tags);
    for (const auto& [type, n] : game_uses) {
      uses[type] += n;
      games_using[type] += 1;
    }
    for (const auto& [tag, n] : game_tags) {
      tag_uses[tag] += n;
      games_tagged[tag] += 1;
    }
    if (!p.violation.empty()) {
      ++broken;
      std::printf("seed %llu  INVARIANT BROKEN after event %d: %s\n",
                  static_cast<unsigned long long>(seed), p.violation_at, p.violation.c_str());
      continue;
    }
    if (db) {
      const PlayedMatch m{&g, *options, p.events, p.hashes, p.after_first, p.state};
      if (!db->add(m)) return 2;
    }
    const auto outcome = g.outcome(p.state);
    std::string winners;
    // push_back, not a string assignment: g++ 12 warns falsely (-Wrestrict) on that.
    for (game::Seat w : outcome->winners) {
      if (!winners.empty()) winners.push_back('+');
      winners.append(std::to_string(w));
    }
    if (winners.empty()) winners.push_back('-');
    total_commands += p.commands;
    total_rounds += g.round(p.state);
    by_reason[outcome->reason] += 1;
    if (outcome->draw) ++draws;
    if (!run.quiet)
      std::printf("seed %-10llu rounds %2d  commands %4d  winner %-5s  %s%s\n",
                  static_cast<unsigned long long>(seed), g.round(p.state), p.commands,
                  winners.c_str(), outcome->reason.c_str(), outcome->draw ? " (draw)" : "");
  }
  if (db) {
    if (!db->flush()) return 2;
    std::printf("wrote matches %lld..%lld to %s\n", static_cast<long long>(db->first_id()),
                static_cast<long long>(db->next_id() - 1), run.db_path.c_str());
  }
  const int ok = run.games - broken;
  std::printf("\n%d game(s) of %s, %d player(s), options %s: %d finished, %d broken\n", run.games,
              std::string(g.title()).c_str(), run.players, g.options_json(*options).c_str(), ok,
              broken);
  if (ok > 0) {
    std::printf("  average %.1f rounds, %.1f commands per game, %d draw(s)\n",
                double(total_rounds) / ok, double(total_commands) / ok, draws);
    for (const auto& [reason, n] : by_reason) std::printf("  %-40s %d\n", reason.c_str(), n);
  }
  // Every kind of command, so a run shows which rules it reached (and which not).
  std::printf("  command uses (games it was played in):\n");
  for (const auto& [type, n] : uses)
    std::printf("    %-32s %8ld  (%d)\n", type.c_str(), n, games_using[type]);
  // And what the game counts beyond command types (Renaissance: leader kinds, solo tokens).
  if (!tag_uses.empty()) {
    std::printf("  game uses (games):\n");
    for (const auto& [tag, n] : tag_uses)
      std::printf("    %-32s %8ld  (%d)\n", tag.c_str(), n, games_tagged[tag]);
  }
  return broken == 0 ? 0 : 1;
}

}  // namespace eryantis::selfplay
