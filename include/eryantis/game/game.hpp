#pragma once
// Everything the platform (store, server, protocol, net, main and the tools) may
// know of a game: one abstract class, implemented for each game by the adapter
// template (eryantis/game/adapter.hpp) over the game's own typed rules. The
// platform holds a game's values as opaque handles (value.hpp) and never includes
// a game's headers; a game never includes the platform's (the build enforces both,
// docs/architecture.md).
//
// The shape is the decider's (docs/architecture.md, "the path of a command"):
//   decide(state, seat, command)  -> the event (every draw recorded) and the next state
//   apply(state, event)           -> the next state: pure, never draws (trusted events)
//   apply_checked(state, event)   -> the same for events read from anywhere (total)
//   apply_checked_view(view, viewer, event) -> a viewer's own fold of what it is sent
//   view(state, viewer)           -> what a seat or a spectator may see
//   legal_commands(state, seat)   -> every command decide accepts from that seat
//   hash(state)                   -> a stable 64-bit fingerprint
// plus what the platform needs around them: seats and options, whose turn it is
// and what a timer does about it, the result, the codecs, the words and the hooks
// of a computer player. docs/games.md walks through adding a game.
#include <array>
#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/game/computer.hpp"
#include "eryantis/game/value.hpp"
#include "eryantis/json/fwd.hpp"

namespace eryantis::game {

using Seat = std::int8_t;
inline constexpr Seat kNoSeat = -1;  // a spectator (as a viewer), the server (as an actor)
// The most seats a match of any game has: the platform's per-seat arrays.
inline constexpr int kMaxSeats = 4;

// Who sends a command: a seat's player, or the server itself (create_match,
// skip_turn, award_forfeit, end_match), which players may not send.
enum class Authority : std::uint8_t { Player, Server };

// A refusal of the rules: a stable snake_case code ("not_your_turn") and a
// sentence that says what to do instead. Sent to clients as the error's code.
struct RuleError {
  std::string code;
  std::string message;
  friend bool operator==(const RuleError&, const RuleError&) = default;
};

// Text that does not decode (JSON of the wrong shape, an unknown name).
struct DecodeError {
  std::string message;
};

// The secret a match's chance is drawn from (128 bits, from the OS CSPRNG).
struct Seed {
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;
  friend bool operator==(const Seed&, const Seed&) = default;
};

// Where a match is, as far as the platform cares: Setup (seats still making their
// choices before play; the match's status stays "lobby"), Play ("running"), Over.
enum class Stage : std::uint8_t { Setup, Play, Over };

// What the platform does for a seat that must act and does not (its timers):
enum class Wait : std::uint8_t {
  Choice,   // a setup choice: the seat is freed after setup_choice_ms
  Turn,     // its turn: skipped (skip_turn) after turn_grace_ms while it is away
  SkipNow,  // nothing but skip_turn is possible now (e.g. absent in Eriantys's planning)
};
struct ToAct {
  Seat seat = kNoSeat;
  Wait wait = Wait::Turn;
  friend bool operator==(const ToAct&, const ToAct&) = default;
};

// How a finished match ended.
struct Outcome {
  // snake_case: "last_tower", "forfeit", "resign", "ended", ...; "abandoned" after
  // abandon_match (the platform then records the match abandoned, not finished).
  std::string reason;
  std::vector<Seat> winners;   // in seat order; empty when nobody won (an operator ended it)
  bool draw = false;           // seats of more than one side share the win
  // Per seat, 1 = first; equal numbers share a place. What ratings are computed from.
  std::vector<int> places;
  // The game's own members of the result object, e.g. "\"scores\":[12,9]" (may be empty).
  std::string details_json;
};

// Nicknames by seat for the words of the render hooks; "" = "seat N".
using Names = std::array<std::string, kMaxSeats>;

struct BoardOptions {
  Names names{};
  bool color = false;     // ANSI colours; false = plain text without escapes
  Seat viewer = kNoSeat;  // whose board this is ("you"); kNoSeat = a spectator
  // 80 columns and at most 22 lines (the terminal client's layout), else up to 100.
  bool compact = false;
  std::array<bool, kMaxSeats> away{};  // seats whose player is not connected
};

// One decision of the rules: the event to append and the state it leads to.
struct Decision {
  Event event;
  State next;
};

// A computer player's decision (Game::choose).
struct Choice {
  Command command;
  std::uint32_t playouts = 0;  // simulations run to choose it (strong only)
};

// A rule's refusal or a decoding failure, as the codecs report them.
template <class T>
using Decoded = std::expected<T, DecodeError>;
template <class T>
using Ruled = std::expected<T, RuleError>;

class Game {
 public:
  virtual ~Game() = default;

  // --- identity ------------------------------------------------------------
  // Stable, lower-case: the `game` of create_match, stored with every match.
  virtual std::string_view name() const = 0;
  virtual std::string_view title() const = 0;  // for people: "Eriantys"
  // The version of the rules, stored with every match. A build serves a stored
  // match only when its game reads that version (reads_version); otherwise the
  // match waits, untouched, for a build that does.
  virtual int version() const = 0;
  virtual bool reads_version(int version) const { return version == this->version(); }

  // --- seats and options ---------------------------------------------------
  virtual int min_seats() const = 0;
  virtual int max_seats() const = 0;
  // A match's options from create_match: `seats` players and the request's
  // `options` object (nullptr when absent). The error's message names the field.
  virtual Ruled<Options> options_from_request(int seats, const json::Value* options) const = 0;
  // Canonical JSON of the options, seat count included (stored with the match).
  virtual std::string options_json(const Options& options) const = 0;
  virtual Decoded<Options> options_from_json(std::string_view json) const = 0;
  virtual int seats(const Options& options) const = 0;
  // The options a match was created with (its state keeps them).
  virtual Options options(const State& state) const = 0;

  // --- setup and play ------------------------------------------------------
  // The state before a match's first event (what every fold starts from).
  virtual State empty_state() const = 0;
  // The first event of every match: setup, every draw of it made from `seed`.
  virtual Ruled<Event> create_match(const Options& options, const Seed& seed) const = 0;
  // Validates `command` from `seat` and returns its event and the next state, from
  // one execution of the rules. Server-only commands need Authority::Server.
  virtual Ruled<Decision> decide(const State& state, Seat seat, const Command& command,
                                 Authority authority = Authority::Player) const = 0;
  // PRECONDITION: `event` was decided for a state equal to `state`.
  virtual State apply(const State& state, const Event& event) const = 0;
  // Total: for events from the store, a file or a peer (re-validated, and the
  // recorded draws checked). Changes `state` in place when it is its only holder.
  virtual Ruled<State> apply_checked(State state, const Event& event) const = 0;
  // True when a viewer can follow a match from the events it is sent alone, folding
  // each with apply_checked_view (a client that asks for `"updates":"events"`): every
  // game whose views are public, and each game that implements that fold.
  virtual bool viewers_fold_events() const { return views_are_public(); }
  // A viewer's checked fold: `view` is view(s, viewer) and `event` is
  // event_for(e, viewer) for an event e apply_checked accepts on s; the result is
  // view(next, viewer). What the viewer may not see is blank and not checked; the
  // rest is, as apply_checked checks it. By default apply_checked itself: exact for
  // a game that hides nothing, and for one that does, a refusal of each event whose
  // hidden part it cannot check (the client then asks for a sync).
  virtual Ruled<State> apply_checked_view(State view, Seat viewer, const Event& event) const {
    (void)viewer;
    return apply_checked(std::move(view), event);
  }
  // Every command `seat` may send now (player commands, resign aside), stable order.
  virtual std::vector<Command> legal_commands(const State& state, Seat seat) const = 0;
  // Who must act now, and what a timer does about it.
  virtual std::vector<ToAct> to_act(const State& state) const = 0;
  virtual Stage stage(const State& state) const = 0;
  virtual int seats(const State& state) const = 0;
  // Set once stage() is Over.
  virtual std::optional<Outcome> outcome(const State& state) const = 0;
  virtual std::uint64_t hash(const State& state) const = 0;
  // What `viewer` may see (kNoSeat: a spectator): the state without its secrets.
  virtual State view(const State& state, Seat viewer) const = 0;
  // True when every viewer's view is the same (only the seed is secret): one hash
  // and one event text serve everybody.
  virtual bool views_are_public() const = 0;
  // The event as `viewer` may see it (hidden draws removed).
  virtual Event event_for(const Event& event, Seat viewer) const = 0;
  // A sentence when the state breaks an invariant of the rules, else "".
  virtual std::string invariant_violation(const State& state) const = 0;
  // The same for a view (from view() or view_from_json): what a client checks before its
  // rules index arrays with what a server sent. A game whose views blank hidden parts
  // (Masters of Renaissance) allows those blanks here; by default, invariant_violation.
  virtual std::string view_violation(const State& view) const { return invariant_violation(view); }
  // For lists and the operator: "planning", "game_over"; the round (0 before play).
  virtual std::string_view phase_name(const State& state) const = 0;
  virtual int round(const State& state) const = 0;

  // --- commands the platform sends -----------------------------------------
  virtual Command skip_turn() const = 0;      // the seat to act is away (server)
  virtual Command award_forfeit() const = 0;  // the seat is the only one left (server)
  virtual Command end_match() const = 0;      // an operator ended it, nobody wins (server)
  virtual Command resign() const = 0;         // a player gives up (never in legal_commands)
  // Nobody played it for the platform's time (server): the match ends, nobody wins.
  virtual Command abandon_match() const = 0;
  virtual std::string_view command_type(const Command& command) const = 0;
  virtual bool is_server_command(const Command& command) const = 0;
  // Every RuleError::code its rules can give (the metrics count each from the start).
  virtual std::vector<std::string> rule_codes() const = 0;

  // --- codecs: JSON for saves, the wire and tools; binary for snapshots ------
  virtual std::string command_to_json(const Command& command) const = 0;
  // "[" + the commands' JSON joined by "," + "]" (the `legal` lists).
  virtual std::string commands_to_json(std::span<const Command> commands) const = 0;
  // What `seat` may send now as the wire carries it: `legal`, commands_to_json of
  // legal_commands, and `allowed`, their distinct types in order as a JSON array of
  // strings. One call, from the game's own typed commands: boxing each command and
  // copying it back was ~5 % of a Renaissance server's CPU under load (issue 25).
  struct LegalJson {
    std::string legal;
    std::string allowed;
  };
  virtual LegalJson legal_json(const State& state, Seat seat) const = 0;
  virtual Decoded<Command> command_from_json(const json::Value& value) const = 0;
  virtual Decoded<Command> command_from_json(std::string_view json) const = 0;
  // The schema of event_to_json's text (stored with every event), and the text of
  // an older schema rewritten as today's, for event_from_json (JSON in, JSON out).
  // An error when `schema` is not one this game ever wrote.
  virtual int event_schema() const = 0;
  virtual Decoded<std::string> upcast_event(int schema, std::string json) const = 0;
  virtual std::string event_to_json(const Event& event) const = 0;
  // The type stored beside an event (its command's: "play_assistant"), and who
  // caused it: the seat that sent its command, or kNoSeat for the server's own
  // commands (create_match, skip_turn, ...). The store keeps both as columns.
  virtual std::string_view event_type(const Event& event) const = 0;
  virtual Seat event_actor(const Event& event) const = 0;
  // What an event used beyond its command's type, as words a coverage count can
  // tally (eryantis-selfplay): Renaissance says "leader discount", "token T3". Most
  // games say nothing.
  virtual std::vector<std::string> usage_tags(const Event& event) const = 0;
  virtual Decoded<Event> event_from_json(std::string_view json) const = 0;
  virtual int state_schema() const = 0;
  virtual std::string state_to_json(const State& state) const = 0;
  virtual Decoded<State> state_from_json(std::string_view json) const = 0;
  virtual std::string state_to_binary(const State& state) const = 0;
  virtual Decoded<State> state_from_binary(std::string_view bytes) const = 0;
  // {"viewer":<seat or -1>,"state":{...}}: a view (from view()) as clients get it.
  virtual std::string view_to_json(const State& view, Seat viewer) const = 0;
  // Reads view_to_json's text back (clients mirror a match with it).
  virtual Decoded<State> view_from_json(std::string_view json) const = 0;

  // --- words for people ----------------------------------------------------
  // One line saying what `event` did, turning `before` into `after`.
  virtual std::string describe_event(const State& before, const Event& event,
                                     const State& after, const Names& names) const = 0;
  // The board as text ('\n'-terminated lines).
  virtual std::string render_board(const State& state, const BoardOptions& options) const = 0;
  // What `seat` may do now, in words ("play an assistant"); "" when nothing.
  virtual std::string legal_summary(const State& state, Seat seat) const = 0;
  // Help: the topics ("turn", each action, each card) and each topic's text.
  virtual std::vector<std::string> help_topics() const = 0;
  virtual std::optional<std::string> help(std::string_view topic) const = 0;
  // The terminal client's words. A line typed as words ("play 7", "island red 4"):
  // its command, nullopt when its first word is not one of this game's (the
  // client's own words: lobby, help, ...), or a sentence saying what to type.
  virtual std::expected<std::optional<Command>, std::string> command_from_words(
      std::string_view line) const = 0;
  // The words that type `command` back.
  virtual std::string command_words(const Command& command) const = 0;
  // Tab completion: the words that may follow `before` (the line up to the word
  // being completed) and start with `word`, values taken from `legal` (the seat's
  // legal commands now) where it holds commands of that kind. With `before` empty:
  // this game's first words.
  virtual std::vector<std::string> complete_words(std::string_view before, std::string_view word,
                                                  std::span<const Command> legal) const = 0;

  // --- computer players ---------------------------------------------------
  // The command `seat` sends in `view` (what it sees: view(state, seat)) at
  // `level`, or nullopt when it has nothing to do. Pure: the engine's search
  // (search.hpp) over the hooks below, on the game's typed values.
  virtual std::optional<Choice> choose(const State& view, Seat seat, Level level,
                                       const Budget& budget, std::uint64_t bot_seed) const = 0;
  // The hooks that search reaches the game through, for tools and tests:
  // a full state consistent with `view` as `seat` sees it (hidden information
  // sampled from `rng_seed`, a fresh seed for the chance to come);
  virtual State determinise(const State& view, Seat seat, std::uint64_t rng_seed) const = 0;
  // a static score per seat (higher is better; comparable between seats);
  virtual std::array<double, kMaxSeats> evaluate(const State& state) const = 0;
  // the commands worth searching (the legal ones that can matter);
  virtual std::vector<Command> candidates(const State& state, Seat seat) const = 0;
  // and the side a seat plays for (teammates share one): the seat by default.
  virtual int team(const State& state, Seat seat) const = 0;
  // The match's secret the platform's computer seats draw their own seeds from
  // (one-way, server/computer.hpp), so that a replay explains every computer move:
  // the match's seed where the state keeps it, else a fingerprint of the whole
  // state (hidden parts included; never shown to a player).
  virtual Seed secret(const State& state) const = 0;
};

}  // namespace eryantis::game
