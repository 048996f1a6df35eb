// Eriantys behind the engine's interface: the typed description Adapter<R> wraps.
// Every function here forwards to the game's own layers (rules, codec, render,
// words, ai hooks); the only logic is the mapping of the platform's notions
// (stages, timers, outcomes) onto the rules' phases.
#include "eryantis/eriantys/game/game.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <variant>

#include "eryantis/ai/decision.hpp"
#include "eryantis/ai/evaluation.hpp"
#include "eryantis/codec/codec.hpp"
#include "eryantis/codec/command_list.hpp"
#include "eryantis/codec/json_value.hpp"
#include "eryantis/eriantys/words/words.hpp"
#include "eryantis/game/adapter.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/json/value.hpp"
#include "eryantis/render/render.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/invariants.hpp"
#include "eryantis/rules/prng.hpp"

namespace eryantis::eriantys {

namespace {

game::RuleError rule_error(const rules::RuleError& e) {
  return {std::string(rules::rule_code_name(e.code)), e.message};
}

template <class T>
game::Decoded<T> decoded(std::expected<T, codec::DecodeError> r) {
  if (!r) return std::unexpected(game::DecodeError{std::move(r.error().message)});
  return std::move(*r);
}

struct Eriantys {
  using State = rules::State;
  using Command = rules::Command;
  using Event = rules::Event;
  using Options = rules::MatchOptions;

  static constexpr std::string_view kName = "eriantys";
  static constexpr std::string_view kTitle = "Eriantys";
  // The rules' version: bump it when a change would fold a stored match differently.
  static constexpr int kVersion = 1;
  static constexpr int kMinSeats = 2;
  static constexpr int kMaxSeats = 4;
  // Nothing is hidden from anyone but the seed (the bag is counts): one view for all.
  static constexpr bool kViewsArePublic = true;
  static constexpr int kEventSchema = rules::kEventSchemaVersion;
  static constexpr int kStateSchema = codec::kStateSchemaVersion;

  // --- options: {"mode":"simple"|"expert"} --------------------------------
  static game::Ruled<Options> options_from_request(int seats, const json::Value* options) {
    Options o;
    if (seats < kMinSeats || seats > kMaxSeats)
      return std::unexpected(game::RuleError{"invalid_options", "players must be 2, 3 or 4"});
    o.players = static_cast<std::uint8_t>(seats);
    if (!options) return o;
    if (!options->IsObject())
      return std::unexpected(game::RuleError{"invalid_options", "options must be an object"});
    for (auto it = options->MemberBegin(); it != options->MemberEnd(); ++it) {
      const std::string_view key(it->name.GetString(), it->name.GetStringLength());
      if (key != "mode")
        return std::unexpected(game::RuleError{
            "invalid_options", "unknown option \"" + std::string(key) + "\" (Eriantys has: mode)"});
      const std::string_view mode = it->value.IsString()
                                        ? std::string_view(it->value.GetString(),
                                                           it->value.GetStringLength())
                                        : std::string_view();
      if (mode == "simple")
        o.mode = rules::Mode::Simple;
      else if (mode == "expert")
        o.mode = rules::Mode::Expert;
      else
        return std::unexpected(
            game::RuleError{"invalid_options", "option \"mode\" must be \"simple\" or \"expert\""});
    }
    return o;
  }
  static std::string options_json(const Options& o) {
    return "{\"players\":" + std::to_string(o.players) + ",\"mode\":\"" +
           std::string(rules::mode_name(o.mode)) + "\"}";
  }
  static game::Decoded<Options> options_from_json(std::string_view text) {
    json::LineDocument line;
    auto& doc = line.doc();
    if (doc.Parse(text.data(), text.size()).HasParseError() || !doc.IsObject())
      return std::unexpected(game::DecodeError{"options: not a JSON object"});
    const json::Value* players = json::present_member(doc, "players");
    if (!players || !players->IsInt())
      return std::unexpected(game::DecodeError{"options: \"players\" must be an integer"});
    json::Value rest(rapidjson::kObjectType);
    if (const json::Value* mode = json::present_member(doc, "mode"))
      rest.AddMember("mode", json::Value(*mode, doc.GetAllocator()), doc.GetAllocator());
    auto o = options_from_request(players->GetInt(), &rest);
    if (!o) return std::unexpected(game::DecodeError{"options: " + o.error().message});
    return *o;
  }
  static int seats(const Options& o) { return o.players; }

  // --- the decider ---------------------------------------------------------
  static game::Ruled<Event> create_match(const Options& o, const game::Seed& seed) {
    auto e = rules::create_match(o, rules::MatchSeed{seed.hi, seed.lo});
    if (!e) return std::unexpected(rule_error(e.error()));
    return std::move(*e);
  }
  static game::Ruled<std::pair<Event, State>> decide(const State& s, game::Seat seat,
                                                      const Command& c, game::Authority a) {
    auto d = rules::decide(s, seat, c,
                           a == game::Authority::Server ? rules::Authority::Server
                                                        : rules::Authority::Player);
    if (!d) return std::unexpected(rule_error(d.error()));
    return std::pair<Event, State>{std::move(d->event), std::move(d->next)};
  }
  static State apply(const State& s, const Event& e) { return rules::apply(s, e); }
  static std::expected<void, game::RuleError> apply_checked(State& s, const Event& e) {
    auto next = rules::apply_checked(s, e);
    if (!next) return std::unexpected(rule_error(next.error()));
    s = std::move(*next);
    return {};
  }
  static std::vector<Command> legal_commands(const State& s, game::Seat seat) {
    return rules::legal_commands(s, seat);
  }
  static std::vector<game::ToAct> to_act(const State& s) {
    std::vector<game::ToAct> out;
    for (rules::Seat seat : rules::seats_to_act(s)) {
      game::Wait wait = game::Wait::Turn;
      if (s.phase == rules::Phase::Setup)
        wait = game::Wait::Choice;
      else if (s.phase == rules::Phase::Action && s.boards[seat].skipped_planning)
        wait = game::Wait::SkipNow;  // absent in planning: only skip_turn (decision 23)
      out.push_back({seat, wait});
    }
    return out;
  }
  static game::Stage stage(const State& s) {
    switch (s.phase) {
      case rules::Phase::Setup:
        return game::Stage::Setup;
      case rules::Phase::GameOver:
        return game::Stage::Over;
      default:
        return game::Stage::Play;
    }
  }
  static int seats(const State& s) { return s.players(); }
  static std::optional<game::Outcome> outcome(const State& s) {
    if (s.phase != rules::Phase::GameOver) return std::nullopt;
    game::Outcome o;
    o.reason = std::string(rules::end_reason_name(s.result.reason));
    o.places.assign(s.players(), 2);
    int first_team = -1;
    for (rules::Seat p = 0; p < s.players(); ++p) {
      if (!(s.result.winners & (1u << p))) continue;
      o.winners.push_back(p);
      o.places[p] = 1;
      const int team = rules::team_of(s, p);
      if (first_team < 0)
        first_team = team;
      else if (team != first_team)
        o.draw = true;
    }
    // Nobody won (an operator ended it): everybody shares the one place.
    if (o.winners.empty()) std::fill(o.places.begin(), o.places.end(), 1);
    return o;
  }
  static std::uint64_t hash(const State& s) { return rules::hash(s); }
  static State view(const State& s, game::Seat viewer) { return rules::view(s, viewer).state; }
  static Event event_for(const Event& e, game::Seat) {
    if (!std::holds_alternative<rules::CreateMatch>(e.command)) return e;
    Event copy = e;  // create_match without its secret seed
    std::get<rules::CreateMatch>(copy.command).seed = rules::MatchSeed{};
    return copy;
  }
  static std::string invariant_violation(const State& s) { return rules::invariant_violation(s); }
  static std::string_view phase_name(const State& s) { return rules::phase_name(s.phase); }
  static int round(const State& s) { return s.round; }

  static Command skip_turn() { return rules::SkipTurn{}; }
  static Command award_forfeit() { return rules::AwardForfeit{}; }
  static Command end_match() { return rules::EndMatch{}; }
  static Command resign() { return rules::Resign{}; }
  static Command abandon_match() { return rules::AbandonMatch{}; }
  static std::string_view command_type(const Command& c) { return rules::command_type(c); }
  static std::vector<std::string> rule_codes() {
    std::vector<std::string> out;
    for (int i = 0; i < rules::kRuleCodeCount; ++i)
      out.emplace_back(rules::rule_code_name(static_cast<rules::RuleCode>(i)));
    return out;
  }
  static bool is_server_command(const Command& c) {
    return rules::is_server_command(c) || std::holds_alternative<rules::CreateMatch>(c);
  }

  // --- codecs ----------------------------------------------------------------
  static std::string command_to_json(const Command& c) { return codec::command_to_json(c); }
  static std::string commands_to_json(std::span<const Command> cs) {
    return codec::commands_to_json(cs);
  }
  static game::Decoded<Command> command_from_json(const json::Value& v) {
    return decoded(codec::command_from_json_value(v));
  }
  static game::Decoded<Command> command_from_json(std::string_view text) {
    return decoded(codec::command_from_json(text));
  }
  static std::string event_to_json(const Event& e) { return codec::event_to_json(e); }
  static game::Decoded<Event> event_from_json(std::string_view text) {
    return decoded(codec::event_from_json(text));
  }
  static std::string state_to_json(const State& s) { return codec::state_to_json(s); }
  static game::Decoded<State> state_from_json(std::string_view text) {
    return decoded(codec::state_from_json(text));
  }
  static std::string state_to_binary(const State& s) { return codec::state_to_binary(s); }
  static game::Decoded<State> state_from_binary(std::string_view bytes) {
    return decoded(codec::state_from_binary(bytes));
  }
  static std::string view_to_json(const State& v, game::Seat viewer) {
    return codec::view_to_json(rules::View{viewer, v});
  }
  static game::Decoded<State> view_from_json(std::string_view text) {
    auto v = codec::view_from_json(text);
    if (!v) return std::unexpected(game::DecodeError{std::move(v.error().message)});
    return std::move(v->state);
  }

  // --- words -------------------------------------------------------------------
  static std::string describe_event(const State& before, const Event& e, const State& after,
                                    const game::Names& names) {
    return render::describe_event(before, e, after, names);
  }
  static std::string render_board(const State& s, const game::BoardOptions& b) {
    render::RenderOptions o;
    o.names = b.names;
    o.color = b.color;
    o.viewer = b.viewer;
    o.compact = b.compact;
    o.away = b.away;
    return render::render_board(s, o);
  }
  static std::string legal_summary(const State& s, game::Seat seat) {
    return render::legal_summary(s, seat);
  }
  static std::vector<std::string> help_topics() { return words::help_topics(); }
  static std::optional<std::string> help(std::string_view topic) { return words::help(topic); }
  static std::expected<std::optional<Command>, std::string> command_from_words(
      std::string_view line) {
    const auto w = words::split(line);
    if (w.empty() || !words::is_verb(w[0])) return std::optional<Command>{};
    return words::parse_command(line);
  }
  static std::string command_words(const Command& c) { return words::command_text(c); }
  static std::vector<std::string> complete_words(std::string_view before, std::string_view word,
                                                 std::span<const Command> legal) {
    return words::completions(before, word, legal);
  }

  // --- computer players ---------------------------------------------------------
  // What a seat cannot see is the order of the bag's future draws (its contents are
  // counts in the view): a new seed for them, as eryantis/ai's own sampling does.
  static State determinise(const State& v, game::Seat, std::uint64_t rng) {
    State s = v;
    rules::Prng prng(rng, 0x5eed);
    s.seed = rules::MatchSeed{prng.next(), prng.next() | 1};
    return s;
  }
  // Each seat gets its team's score (ai::team_scores, a tower is worth 10).
  static std::array<double, game::kMaxSeats> evaluate(const State& s) {
    const ai::TeamScores scores = ai::team_scores(s);
    std::array<double, game::kMaxSeats> out{};
    for (rules::Seat p = 0; p < s.players(); ++p)
      if (const int t = ai::team_index(s, p); t >= 0) out[p] = scores[t];
    return out;
  }
  static int team(const State& s, game::Seat seat) { return ai::team_index(s, seat); }
  // Eriantys keeps its own tuned players (eryantis/ai: pruned candidates, a rollout
  // policy, coins' worth; docs/bots.md) rather than the engine's generic search.
  static std::optional<game::TypedChoice<Command>> choose(const State& v, game::Seat seat,
                                                          game::Level level,
                                                          const game::Budget& budget,
                                                          std::uint64_t bot_seed) {
    struct Bridge final : ai::Deadline {
      const game::Deadline* inner;
      explicit Bridge(const game::Deadline* d) : inner(d) {}
      bool passed() const override { return inner && inner->passed(); }
    } bridge(budget.deadline);
    ai::DecisionRequest request;
    request.seat = seat;
    request.view = rules::View{seat, v};
    request.view.state.seed = rules::MatchSeed{};
    request.level = static_cast<ai::Level>(static_cast<int>(level));
    request.bot_seed = bot_seed;
    request.playouts = budget.playouts;
    ai::DecisionResult result = ai::run_decision(request, budget.deadline ? &bridge : nullptr);
    if (!result.command) return std::nullopt;
    return game::TypedChoice<Command>{std::move(*result.command), result.playouts};
  }
};

static_assert(game::Rules<Eriantys>);

}  // namespace

std::unique_ptr<const game::Game> make_game() {
  return std::make_unique<const game::Adapter<Eriantys>>();
}

}  // namespace eryantis::eriantys
