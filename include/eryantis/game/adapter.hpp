#pragma once
// From a game's typed rules to the platform's Game: the one place where a game's
// values are boxed into handles (value.hpp) and unboxed again.
//
// A game describes itself with a struct R of types and static functions (the
// `Rules` concept below): its State, Command, Event and Options types and the
// decider over them, written as plain value code it can test and benchmark on its
// own. Adapter<R> is the Game the platform holds. Why a concept and a template
// rather than each game deriving from Game by hand (docs/architecture.md): the
// boxing, the copy-on-write fold and the defaults are written once; the compiler
// names the function a new game is missing; and the game's code stays free of
// virtual calls and handles, so its own fold and search run on typed values.
#include <algorithm>
#include <concepts>
#include <expected>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eryantis/game/game.hpp"
#include "eryantis/game/search.hpp"

namespace eryantis::game {

// What every game's rules provide (the optional hooks are listed in Adapter).
template <class R>
concept Rules = requires(const typename R::State& s, typename R::State& ms, Seat seat,
                         const typename R::Command& c, const typename R::Event& e,
                         const typename R::Options& o, const Seed& seed, Authority a,
                         std::string_view text, const json::Value& value, const Names& names,
                         const BoardOptions& board, std::uint64_t rng) {
  requires std::equality_comparable<typename R::State>;
  requires std::equality_comparable<typename R::Command>;
  requires std::equality_comparable<typename R::Event>;
  requires std::equality_comparable<typename R::Options>;
  { R::kName } -> std::convertible_to<std::string_view>;
  { R::kTitle } -> std::convertible_to<std::string_view>;
  { R::kVersion } -> std::convertible_to<int>;
  { R::kMinSeats } -> std::convertible_to<int>;
  { R::kMaxSeats } -> std::convertible_to<int>;
  { R::kViewsArePublic } -> std::convertible_to<bool>;
  { R::options_from_request(1, &value) } -> std::same_as<Ruled<typename R::Options>>;
  { R::options_json(o) } -> std::same_as<std::string>;
  { R::options_from_json(text) } -> std::same_as<Decoded<typename R::Options>>;
  { R::seats(o) } -> std::same_as<int>;
  { R::create_match(o, seed) } -> std::same_as<Ruled<typename R::Event>>;
  { R::decide(s, seat, c, a) } -> std::same_as<Ruled<std::pair<typename R::Event, typename R::State>>>;
  { R::apply(s, e) } -> std::same_as<typename R::State>;
  { R::apply_checked(ms, e) } -> std::same_as<std::expected<void, RuleError>>;
  { R::legal_commands(s, seat) } -> std::same_as<std::vector<typename R::Command>>;
  { R::to_act(s) } -> std::same_as<std::vector<ToAct>>;
  { R::stage(s) } -> std::same_as<Stage>;
  { R::seats(s) } -> std::same_as<int>;
  { R::outcome(s) } -> std::same_as<std::optional<Outcome>>;
  { R::hash(s) } -> std::same_as<std::uint64_t>;
  { R::view(s, seat) } -> std::same_as<typename R::State>;
  { R::event_for(e, seat) } -> std::same_as<typename R::Event>;
  { R::invariant_violation(s) } -> std::same_as<std::string>;
  { R::phase_name(s) } -> std::convertible_to<std::string_view>;
  { R::round(s) } -> std::same_as<int>;
  { R::skip_turn() } -> std::same_as<typename R::Command>;
  { R::award_forfeit() } -> std::same_as<typename R::Command>;
  { R::end_match() } -> std::same_as<typename R::Command>;
  { R::resign() } -> std::same_as<typename R::Command>;
  { R::abandon_match() } -> std::same_as<typename R::Command>;
  { R::command_type(c) } -> std::convertible_to<std::string_view>;
  { R::is_server_command(c) } -> std::same_as<bool>;
  { R::command_to_json(c) } -> std::same_as<std::string>;
  { R::command_from_json(value) } -> std::same_as<Decoded<typename R::Command>>;
  { R::command_from_json(text) } -> std::same_as<Decoded<typename R::Command>>;
  { R::kEventSchema } -> std::convertible_to<int>;
  { R::event_to_json(e) } -> std::same_as<std::string>;
  { R::event_from_json(text) } -> std::same_as<Decoded<typename R::Event>>;
  { R::kStateSchema } -> std::convertible_to<int>;
  { R::state_to_json(s) } -> std::same_as<std::string>;
  { R::state_from_json(text) } -> std::same_as<Decoded<typename R::State>>;
  { R::state_to_binary(s) } -> std::same_as<std::string>;
  { R::state_from_binary(text) } -> std::same_as<Decoded<typename R::State>>;
  { R::view_to_json(s, seat) } -> std::same_as<std::string>;
  { R::view_from_json(text) } -> std::same_as<Decoded<typename R::State>>;
  { R::describe_event(s, e, s, names) } -> std::same_as<std::string>;
  { R::render_board(s, board) } -> std::same_as<std::string>;
  { R::legal_summary(s, seat) } -> std::same_as<std::string>;
  { R::help_topics() } -> std::same_as<std::vector<std::string>>;
  { R::help(text) } -> std::same_as<std::optional<std::string>>;
  { R::command_from_words(text) } -> std::same_as<std::expected<std::optional<typename R::Command>, std::string>>;
  { R::command_words(c) } -> std::same_as<std::string>;
  { R::complete_words(text, text, std::span<const typename R::Command>{}) } -> std::same_as<std::vector<std::string>>;
  { R::determinise(s, seat, rng) } -> std::same_as<typename R::State>;
  { R::evaluate(s) } -> std::same_as<std::array<double, kMaxSeats>>;
};

template <Rules R>
class Adapter final : public Game {
  using S = typename R::State;
  using C = typename R::Command;
  using E = typename R::Event;
  using O = typename R::Options;

  static const S& st(const State& v) { return v.get<S>(); }
  static const C& cmd(const Command& v) { return v.get<C>(); }
  static const E& ev(const Event& v) { return v.get<E>(); }
  static const O& opt(const Options& v) { return v.get<O>(); }
  // A list's JSON: the game's own writer when it has one (commands_to_json), else each
  // command's joined.
  static std::string typed_json(const std::vector<C>& typed) {
    if constexpr (requires(std::span<const C> cs) { R::commands_to_json(cs); }) {
      return R::commands_to_json(std::span<const C>(typed));
    } else {
      std::string out = "[";
      for (std::size_t i = 0; i < typed.size(); ++i) {
        if (i) out.push_back(',');
        out += R::command_to_json(typed[i]);
      }
      out.push_back(']');
      return out;
    }
  }
  template <class T>
  static std::vector<Command> commands(std::vector<T> typed) {
    std::vector<Command> out;
    out.reserve(typed.size());
    for (T& c : typed) out.push_back(Command::of(std::move(c)));
    return out;
  }
  template <class T, class Box, class Error>
  static std::expected<Box, Error> boxed(std::expected<T, Error> r) {
    if (!r) return std::unexpected(std::move(r.error()));
    return Box::of(std::move(*r));
  }

 public:
  std::string_view name() const override { return R::kName; }
  std::string_view title() const override { return R::kTitle; }
  int version() const override { return R::kVersion; }
  bool reads_version(int v) const override {
    if constexpr (requires { R::reads_version(v); })
      return R::reads_version(v);
    else
      return v == R::kVersion;
  }

  int min_seats() const override { return R::kMinSeats; }
  int max_seats() const override { return R::kMaxSeats; }
  Ruled<Options> options_from_request(int seats, const json::Value* options) const override {
    return boxed<O, Options>(R::options_from_request(seats, options));
  }
  std::string options_json(const Options& o) const override { return R::options_json(opt(o)); }
  Decoded<Options> options_from_json(std::string_view json) const override {
    return boxed<O, Options>(R::options_from_json(json));
  }
  int seats(const Options& o) const override { return R::seats(opt(o)); }
  // By default a state keeps its match's options as `options`; else R::options(s).
  Options options(const State& s) const override {
    if constexpr (requires { R::options(st(s)); })
      return Options::of(R::options(st(s)));
    else
      return Options::of(st(s).options);
  }

  State empty_state() const override { return State::of(S{}); }
  Ruled<Event> create_match(const Options& o, const Seed& seed) const override {
    return boxed<E, Event>(R::create_match(opt(o), seed));
  }
  Ruled<Decision> decide(const State& s, Seat seat, const Command& c,
                         Authority authority) const override {
    auto d = R::decide(st(s), seat, cmd(c), authority);
    if (!d) return std::unexpected(std::move(d.error()));
    return Decision{Event::of(std::move(d->first)), State::of(std::move(d->second))};
  }
  State apply(const State& s, const Event& e) const override {
    return State::of(R::apply(st(s), ev(e)));
  }
  Ruled<State> apply_checked(State s, const Event& e) const override {
    // The caller's state, changed in place when nobody else holds it (a fold).
    if (auto r = R::apply_checked(s.template mutate<S>(), ev(e)); !r)
      return std::unexpected(std::move(r.error()));
    return s;
  }
  // A game whose views hide something folds its viewers' events with its own
  // R::apply_checked_view when it has one.
  bool viewers_fold_events() const override {
    return R::kViewsArePublic || requires(S& ms, Seat v, const E& e) { R::apply_checked_view(ms, v, e); };
  }
  Ruled<State> apply_checked_view(State v, Seat viewer, const Event& e) const override {
    if constexpr (requires(S& ms, const E& ee) { R::apply_checked_view(ms, viewer, ee); }) {
      if (auto r = R::apply_checked_view(v.template mutate<S>(), viewer, ev(e)); !r)
        return std::unexpected(std::move(r.error()));
      return v;
    } else {
      return Game::apply_checked_view(std::move(v), viewer, e);
    }
  }
  std::vector<Command> legal_commands(const State& s, Seat seat) const override {
    return commands(R::legal_commands(st(s), seat));
  }
  std::vector<ToAct> to_act(const State& s) const override { return R::to_act(st(s)); }
  Stage stage(const State& s) const override { return R::stage(st(s)); }
  int seats(const State& s) const override { return R::seats(st(s)); }
  std::optional<Outcome> outcome(const State& s) const override { return R::outcome(st(s)); }
  std::uint64_t hash(const State& s) const override { return R::hash(st(s)); }
  State view(const State& s, Seat viewer) const override {
    return State::of(R::view(st(s), viewer));
  }
  bool views_are_public() const override { return R::kViewsArePublic; }
  Event event_for(const Event& e, Seat viewer) const override {
    return Event::of(R::event_for(ev(e), viewer));
  }
  std::string invariant_violation(const State& s) const override {
    return R::invariant_violation(st(s));
  }
  // A game's own check of views when it has one (views that blank hidden parts).
  std::string view_violation(const State& s) const override {
    if constexpr (requires { R::view_violation(st(s)); })
      return R::view_violation(st(s));
    else
      return R::invariant_violation(st(s));
  }
  std::string_view phase_name(const State& s) const override { return R::phase_name(st(s)); }
  int round(const State& s) const override { return R::round(st(s)); }

  Command skip_turn() const override { return Command::of(R::skip_turn()); }
  Command award_forfeit() const override { return Command::of(R::award_forfeit()); }
  Command end_match() const override { return Command::of(R::end_match()); }
  Command resign() const override { return Command::of(R::resign()); }
  Command abandon_match() const override { return Command::of(R::abandon_match()); }
  std::string_view command_type(const Command& c) const override {
    return R::command_type(cmd(c));
  }
  bool is_server_command(const Command& c) const override { return R::is_server_command(cmd(c)); }
  std::vector<std::string> rule_codes() const override {
    if constexpr (requires { R::rule_codes(); })
      return R::rule_codes();
    else
      return {};
  }

  std::string command_to_json(const Command& c) const override {
    return R::command_to_json(cmd(c));
  }
  std::string commands_to_json(std::span<const Command> cs) const override {
    std::vector<C> typed;
    typed.reserve(cs.size());
    for (const Command& c : cs) typed.push_back(cmd(c));
    return typed_json(typed);
  }
  LegalJson legal_json(const State& s, Seat seat) const override {
    const std::vector<C> typed = R::legal_commands(st(s), seat);
    LegalJson out{typed_json(typed), "["};
    std::vector<std::string_view> seen;
    for (const C& c : typed) {
      const std::string_view type = R::command_type(c);
      if (std::find(seen.begin(), seen.end(), type) != seen.end()) continue;
      if (!seen.empty()) out.allowed.push_back(',');
      seen.push_back(type);
      // Command types are identifiers ([a-z_]): nothing to escape.
      out.allowed.append("\"").append(type).append("\"");
    }
    out.allowed.push_back(']');
    return out;
  }
  Decoded<Command> command_from_json(const json::Value& value) const override {
    return boxed<C, Command>(R::command_from_json(value));
  }
  Decoded<Command> command_from_json(std::string_view json) const override {
    return boxed<C, Command>(R::command_from_json(json));
  }
  int event_schema() const override { return R::kEventSchema; }
  Decoded<std::string> upcast_event(int schema, std::string json) const override {
    // A game that changed its events' JSON says how older text reads (R::upcast_event);
    // any other reads only its one schema.
    if constexpr (requires { R::upcast_event(schema, std::move(json)); }) {
      return R::upcast_event(schema, std::move(json));
    } else {
      if (schema != R::kEventSchema)
        return std::unexpected(DecodeError{"event schema " + std::to_string(schema) +
                                           " is not one this game wrote"});
      return json;
    }
  }
  // By default an event holds its command and the seat that sent it (`command`,
  // `seat`); a game whose events do not says so with R::event_type / R::event_actor.
  std::string_view event_type(const Event& e) const override {
    if constexpr (requires { R::event_type(ev(e)); })
      return R::event_type(ev(e));
    else
      return R::command_type(ev(e).command);
  }
  Seat event_actor(const Event& e) const override {
    if constexpr (requires { R::event_actor(ev(e)); }) {
      return R::event_actor(ev(e));
    } else {
      const auto& command = ev(e).command;
      if (R::is_server_command(command) || R::command_type(command) == "create_match")
        return kNoSeat;
      return static_cast<Seat>(ev(e).seat);
    }
  }
  std::vector<std::string> usage_tags(const Event& e) const override {
    if constexpr (requires { R::usage_tags(ev(e)); })
      return R::usage_tags(ev(e));
    else
      return {};
  }
  std::string event_to_json(const Event& e) const override { return R::event_to_json(ev(e)); }
  Decoded<Event> event_from_json(std::string_view json) const override {
    return boxed<E, Event>(R::event_from_json(json));
  }
  int state_schema() const override { return R::kStateSchema; }
  std::string state_to_json(const State& s) const override { return R::state_to_json(st(s)); }
  Decoded<State> state_from_json(std::string_view json) const override {
    return boxed<S, State>(R::state_from_json(json));
  }
  std::string state_to_binary(const State& s) const override {
    return R::state_to_binary(st(s));
  }
  Decoded<State> state_from_binary(std::string_view bytes) const override {
    return boxed<S, State>(R::state_from_binary(bytes));
  }
  std::string view_to_json(const State& v, Seat viewer) const override {
    return R::view_to_json(st(v), viewer);
  }
  Decoded<State> view_from_json(std::string_view json) const override {
    return boxed<S, State>(R::view_from_json(json));
  }

  std::string describe_event(const State& before, const Event& e, const State& after,
                             const Names& names) const override {
    return R::describe_event(st(before), ev(e), st(after), names);
  }
  std::string render_board(const State& s, const BoardOptions& options) const override {
    return R::render_board(st(s), options);
  }
  std::string legal_summary(const State& s, Seat seat) const override {
    return R::legal_summary(st(s), seat);
  }
  std::vector<std::string> help_topics() const override { return R::help_topics(); }
  std::optional<std::string> help(std::string_view topic) const override {
    return R::help(topic);
  }
  std::expected<std::optional<Command>, std::string> command_from_words(
      std::string_view line) const override {
    auto r = R::command_from_words(line);
    if (!r) return std::unexpected(std::move(r.error()));
    if (!*r) return std::optional<Command>{};
    return std::optional<Command>{Command::of(std::move(**r))};
  }
  std::string command_words(const Command& c) const override { return R::command_words(cmd(c)); }
  std::vector<std::string> complete_words(std::string_view before, std::string_view word,
                                          std::span<const Command> legal) const override {
    std::vector<C> typed;
    typed.reserve(legal.size());
    for (const Command& c : legal) typed.push_back(cmd(c));
    return R::complete_words(before, word, std::span<const C>(typed));
  }

  std::optional<Choice> choose(const State& v, Seat seat, Level level, const Budget& budget,
                               std::uint64_t bot_seed) const override {
    // A game with a tuned player of its own (R::choose) keeps it; any other gets the
    // engine's generic random, greedy and ISMCTS players over its hooks.
    std::optional<TypedChoice<C>> c;
    if constexpr (requires { R::choose(st(v), seat, level, budget, bot_seed); })
      c = R::choose(st(v), seat, level, budget, bot_seed);
    else
      c = game::choose<R>(st(v), seat, level, budget, bot_seed);
    if (!c) return std::nullopt;
    return Choice{Command::of(std::move(c->command)), c->playouts};
  }
  State determinise(const State& v, Seat seat, std::uint64_t rng_seed) const override {
    return State::of(R::determinise(st(v), seat, rng_seed));
  }
  std::array<double, kMaxSeats> evaluate(const State& s) const override {
    return R::evaluate(st(s));
  }
  std::vector<Command> candidates(const State& s, Seat seat) const override {
    return commands(search_detail::candidates<R>(st(s), seat));
  }
  int team(const State& s, Seat seat) const override { return search_detail::team<R>(st(s), seat); }
  Seed secret(const State& s) const override {
    if constexpr (requires { R::secret(st(s)); })
      return R::secret(st(s));
    else if constexpr (requires { st(s).seed.hi; st(s).seed.lo; })
      return Seed{st(s).seed.hi, st(s).seed.lo};
    else
      return Seed{R::hash(st(s)), 0};
  }
};

}  // namespace eryantis::game
