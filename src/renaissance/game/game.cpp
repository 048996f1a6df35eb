// Masters of Renaissance described for the engine's adapter (eryantis/game/adapter.hpp): the rules
// (eryantis/renaissance/rules), the codecs and the words, mapped onto the platform's types, and
// the hooks of the engine's generic search (eryantis/game/search.hpp).
#include "eryantis/renaissance/game/game.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "eryantis/game/adapter.hpp"
#include "eryantis/renaissance/codec/codec.hpp"
#include "eryantis/renaissance/render/render.hpp"
#include "eryantis/renaissance/rules/hooks.hpp"
#include "eryantis/renaissance/rules/invariants.hpp"
#include "eryantis/renaissance/rules/score.hpp"

namespace eryantis::renaissance {

namespace {

game::RuleError rule_error(const RuleError& e) {
  return game::RuleError{std::string(rule_code_name(e.code)), e.message};
}

template <class T>
game::Decoded<T> decoded(codec::Decoded<T> d) {
  if (!d) return std::unexpected(game::DecodeError{std::move(d.error().message)});
  return std::move(*d);
}

Authority authority(game::Authority a) {
  return a == game::Authority::Server ? Authority::Server : Authority::Player;
}

struct Renaissance {
  using State = renaissance::State;
  using Command = renaissance::Command;
  using Event = renaissance::Event;
  using Options = renaissance::Options;

  static constexpr std::string_view kName = "renaissance";
  static constexpr std::string_view kTitle = "Masters of Renaissance";
  static constexpr int kVersion = 1;
  static constexpr int kMinSeats = 1;
  static constexpr int kMaxSeats = kMaxPlayers;
  static constexpr bool kViewsArePublic = false;  // hands, deck orders, the token stack
  static constexpr int kEventSchema = codec::kEventSchema;
  static constexpr int kStateSchema = codec::kStateSchema;
  // The strong player's search, tuned with tests/renaissance/game/game_test.cpp's arena against
  // greedy (2 players, 300 playouts, 6 games, seed 20261128): a victory point is about one unit of
  // evaluate(), and a sigmoid that reaches 0.73 at 1.5 points separates moves a point apart. No
  // random rollout: random Renaissance commands mostly discard at the market, so a rollout
  // measures noise and the evaluation after the tree's moves is the signal. Strong won 1 of 6 at
  // scale 5 with the engine's 12-ply rollouts, 2 of 6 at scale 5 without them and 6 of 6 at 1.5
  // without them, at 12 ms CPU a decision (a third of the time with rollouts). Over 30 games
  // (seeds 1 to 4 and 20261128) scale 1.5 won 18, 0.75 won 14 and 2.5 won 15.
  static constexpr double kRewardScale = 1.5;
  static constexpr int kRolloutPlies = 0;

  // --- seats and options ------------------------------------------------------------------------
  static game::Ruled<Options> options_from_request(int seats, const json::Value* options) {
    auto o = codec::options_from_request(seats, options);
    if (!o) return std::unexpected(game::RuleError{"INVALID_OPTIONS", o.error().message});
    return *o;
  }
  static std::string options_json(const Options& o) { return codec::options_to_json(o); }
  static game::Decoded<Options> options_from_json(std::string_view text) {
    return decoded(codec::options_from_json(text));
  }
  static int seats(const Options& o) { return o.players; }

  // --- the decider --------------------------------------------------------------------------------
  static game::Ruled<Event> create_match(const Options& o, const game::Seed& seed) {
    auto e = renaissance::create_match(o, MatchSeed{seed.lo, seed.hi});
    if (!e) return std::unexpected(rule_error(e.error()));
    return std::move(*e);
  }
  static game::Ruled<std::pair<Event, State>> decide(const State& s, game::Seat seat,
                                                     const Command& c, game::Authority a) {
    auto d = renaissance::decide(s, seat, c, authority(a));
    if (!d) return std::unexpected(rule_error(d.error()));
    return std::pair<Event, State>{std::move(d->event), std::move(d->next)};
  }
  static State apply(const State& s, const Event& e) { return renaissance::apply(s, e); }
  static std::expected<void, game::RuleError> apply_checked(State& s, const Event& e) {
    auto next = renaissance::apply_checked(s, e);
    if (!next) return std::unexpected(rule_error(next.error()));
    s = *next;
    return {};
  }
  static std::expected<void, game::RuleError> apply_checked_view(State& v, game::Seat viewer,
                                                                  const Event& e) {
    auto next = renaissance::apply_checked_view(v, viewer, e);
    if (!next) return std::unexpected(rule_error(next.error()));
    v = *next;
    return {};
  }
  static std::vector<Command> legal_commands(const State& s, game::Seat seat) {
    return renaissance::legal_commands(s, seat);
  }
  // Setup: every seat with a choice left (freed after setup_choice_ms); play: the active seat,
  // whose turn skip_turn passes when it is away (decisions 34, 50).
  static std::vector<game::ToAct> to_act(const State& s) {
    std::vector<game::ToAct> out;
    const game::Wait wait = s.phase == Phase::Setup ? game::Wait::Choice : game::Wait::Turn;
    for (Seat p : seats_to_act(s)) out.push_back({p, wait});
    return out;
  }
  static game::Stage stage(const State& s) {
    switch (s.phase) {
      case Phase::Setup:
        return game::Stage::Setup;
      case Phase::Play:
        return game::Stage::Play;
      case Phase::GameOver:
        return game::Stage::Over;
    }
    return game::Stage::Setup;
  }
  static int seats(const State& s) { return s.players(); }
  // Winners first; the others by points, then resources left (5.4); a seat that resigned last,
  // whatever its score (decision 57). Solo: the player is 1st when it beat Lorenzo, 2nd when
  // Lorenzo won. Nobody wins an ended or abandoned match: all 1st.
  static std::optional<game::Outcome> outcome(const State& s) {
    if (s.phase != Phase::GameOver) return std::nullopt;
    const Result& r = s.result;
    game::Outcome o;
    o.reason = std::string(end_reason_name(r.reason));
    const int n = s.players();
    for (Seat p = 0; p < n; ++p)
      if (r.winners & (1u << p)) o.winners.push_back(p);
    o.draw = o.winners.size() > 1;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> key(n);
    for (Seat p = 0; p < n; ++p) key[p] = {r.scores[p], score(s, p).resources_left};
    o.places.assign(n, 1);
    const bool nobody = r.winners == 0 && !r.lorenzo_won;
    for (Seat p = 0; p < n && !nobody; ++p) {
      if (r.winners & (1u << p)) continue;
      const bool resigned = (r.resigned & (1u << p)) != 0;
      int place = 1 + static_cast<int>(o.winners.size()) + (r.lorenzo_won ? 1 : 0);
      for (Seat q = 0; q < n; ++q) {
        if ((r.winners & (1u << q)) || q == p) continue;
        const bool q_resigned = (r.resigned & (1u << q)) != 0;
        if (resigned ? !q_resigned || key[q] > key[p] : !q_resigned && key[q] > key[p]) ++place;
      }
      o.places[p] = place;
    }
    o.details_json = "\"scores\":[";
    for (Seat p = 0; p < n; ++p) o.details_json += (p ? "," : "") + std::to_string(r.scores[p]);
    o.details_json += "]";
    if (s.solo()) o.details_json += std::string(",\"lorenzo_won\":") + (r.lorenzo_won ? "true" : "false");
    return o;
  }
  static std::uint64_t hash(const State& s) { return renaissance::hash(s); }
  static State view(const State& s, game::Seat viewer) { return renaissance::view(s, viewer).state; }
  static Event event_for(const Event& e, game::Seat viewer) { return redact(e, viewer); }
  static std::string invariant_violation(const State& s) { return renaissance::invariant_violation(s); }
  static std::string view_violation(const State& s) { return renaissance::view_violation(s); }
  static std::string_view phase_name(const State& s) { return renaissance::phase_name(s.phase); }
  // Rounds of play (a round: every seat's turn from the inkwell); 0 in setup.
  static int round(const State& s) {
    if (s.phase == Phase::Setup || s.turn == 0) return 0;
    return static_cast<int>((s.turn + s.players() - 1) / s.players());
  }

  // --- the platform's commands (decisions 57, 59) --------------------------------------------------
  static Command skip_turn() { return SkipTurn{}; }
  static Command award_forfeit() { return AwardForfeit{}; }
  static Command end_match() { return EndMatch{}; }
  static Command abandon_match() { return AbandonMatch{}; }  // decision 61
  static Command resign() { return Resign{}; }
  static std::string_view command_type(const Command& c) { return renaissance::command_type(c); }
  static bool is_server_command(const Command& c) { return renaissance::is_server_command(c); }
  static std::vector<std::string> rule_codes() {
    std::vector<std::string> out;
    for (int i = 0; i < kRuleCodeCount; ++i)
      out.emplace_back(rule_code_name(static_cast<RuleCode>(i)));
    return out;
  }

  // --- codecs ---------------------------------------------------------------------------------
  static std::string command_to_json(const Command& c) { return codec::command_to_json(c); }
  static std::string commands_to_json(std::span<const Command> cs) { return codec::commands_to_json(cs); }
  static game::Decoded<Command> command_from_json(const json::Value& v) {
    return decoded(codec::command_from_json(v));
  }
  static game::Decoded<Command> command_from_json(std::string_view text) {
    return decoded(codec::command_from_json(text));
  }
  static std::string event_to_json(const Event& e) { return codec::event_to_json(e); }
  // The coverage selfplay reports (issue 25): each leader kind played and each solo token revealed.
  static std::vector<std::string> usage_tags(const Event& e) {
    std::vector<std::string> tags;
    if (const auto* a = std::get_if<ActivateLeader>(&e.command); a && is_leader_id(a->leader))
      tags.push_back("leader " + std::string(leader_kind_name(leader_card(a->leader).kind)));
    if (e.token != 0) tags.push_back("token T" + std::to_string(e.token));
    return tags;
  }
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
    return codec::view_to_json(View{viewer, v});
  }
  static game::Decoded<State> view_from_json(std::string_view text) {
    auto v = codec::view_from_json(text);
    if (!v) return std::unexpected(game::DecodeError{std::move(v.error().message)});
    return std::move(v->state);
  }

  // --- words ----------------------------------------------------------------------------------
  static std::string describe_event(const State& before, const Event& e, const State& after,
                                    const game::Names& names) {
    return render::describe_event(before, e, after, names);
  }
  static std::string render_board(const State& s, const game::BoardOptions& b) {
    return render::render_board(s, render::BoardOptions{b.names, b.color, b.viewer, b.compact, b.away});
  }
  static std::string legal_summary(const State& s, game::Seat seat) {
    return render::legal_summary(s, seat);
  }
  static std::vector<std::string> help_topics() { return render::help_topics(); }
  static std::optional<std::string> help(std::string_view topic) { return render::help(topic); }
  static std::expected<std::optional<Command>, std::string> command_from_words(std::string_view line) {
    return render::command_from_words(line);
  }
  static std::string command_words(const Command& c) { return render::command_words(c); }
  static std::vector<std::string> complete_words(std::string_view before, std::string_view word,
                                                 std::span<const Command> legal) {
    return render::complete_words(before, word, legal);
  }

  // --- computer players -----------------------------------------------------------------------
  static State determinise(const State& v, game::Seat seat, std::uint64_t rng) {
    return renaissance::determinise(View{seat, v}, seat, rng);
  }
  static std::array<double, game::kMaxSeats> evaluate(const State& s) {
    std::array<double, game::kMaxSeats> out{};
    for (Seat p = 0; p < s.players(); ++p) out[p] = renaissance::evaluate(s, p);
    return out;
  }
  // The legal commands worth searching (hooks.hpp), built without listing the others.
  static std::vector<Command> candidates(const State& s, game::Seat seat) {
    return renaissance::search_commands(s, seat);
  }
};

static_assert(game::Rules<Renaissance>);

}  // namespace

std::unique_ptr<const game::Game> make_game() {
  return std::make_unique<const game::Adapter<Renaissance>>();
}

}  // namespace eryantis::renaissance
