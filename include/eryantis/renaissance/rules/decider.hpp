#pragma once
// The decider of Masters of Renaissance: the whole game as pure functions over values, with the
// same names and shapes as Eriantys's (include/eryantis/rules/decider.hpp), so that one adapter
// can wrap both games.
//   check(state, seat, command) -> Event or RuleError   (validates, draws and records chance)
//   apply(state, event)         -> State                (pure, never draws; trusted events only)
//   view(state, viewer)         -> what a seat or spectator may see
//   redact(event, viewer)       -> the event as that viewer may see it
//   legal_commands(state, seat) -> every command check accepts from that seat, canonically spelt
//   hash(state)                 -> stable 64-bit fingerprint
#include <cstdint>
#include <expected>
#include <span>
#include <vector>

#include "eryantis/renaissance/rules/command.hpp"
#include "eryantis/renaissance/rules/event.hpp"
#include "eryantis/renaissance/rules/rule_error.hpp"
#include "eryantis/renaissance/rules/state.hpp"

namespace eryantis::renaissance {

enum class Authority : std::uint8_t { Player, Server };

// Validates `command` from `seat` against `state` (section 9's order) and, if legal, returns the
// event to append: the command plus every random outcome (drawn from the match's PRNG) and every
// hidden card or token it reveals. Server-only commands need Authority::Server.
std::expected<Event, RuleError> check(const State& state, Seat seat, const Command& command,
                                      Authority authority = Authority::Player);

// check() and the state the event leads to, from one execution of the rules.
struct Decision {
  Event event;
  State next;
};
std::expected<Decision, RuleError> decide(const State& state, Seat seat, const Command& command,
                                          Authority authority = Authority::Player);

// The first event of every match (check of CreateMatch against the empty state).
std::expected<Event, RuleError> create_match(const Options& options, const MatchSeed& seed);
// A 64-bit seed (tests, tools, random games): MatchSeed{seed, 0}.
std::expected<Event, RuleError> create_match(const Options& options, std::uint64_t seed);

// Applies an event to the state it was decided for. Pure; replays the recorded draws and
// reveals, never draws.
//
// PRECONDITION: `event` was produced by check() (or decide()) for a state equal to `state`, or
// it is redact(that event, v) and `state` is view(that state, v).state: a viewer's fold of
// redacted events is its view (the client's mirror). Any other event is a contract violation
// (RENAISSANCE_ASSERT aborts in Debug and sanitizer builds where it would index out of range).
// Events from storage, a peer or a file go through apply_checked.
State apply(const State& state, const Event& event);
void apply_in_place(State& state, const Event& event);

// Total: for events from untrusted sources (the store, a broadcast). Re-validates the command with
// today's rules and checks that the recorded draws and reveals are consistent with the state.
std::expected<State, RuleError> apply_checked(const State& state, const Event& event);

// The same for a viewer's fold (a client's mirror that follows events alone): `view` is what
// `viewer` sees (kNoSeat: a spectator) and `event` is redact(e, viewer). Everything apply_checked
// checks is checked but what the viewer cannot see: an id redact() blanked (0) stands for any
// hidden one, and another seat's leader played from its hidden hand is checked against the
// leaders the viewer knows to be elsewhere. For every e apply_checked accepts on s,
// apply_checked_view(view(s, v).state, v, redact(e, v)) == view(apply(s, e), v).state.
std::expected<State, RuleError> apply_checked_view(const State& view, Seat viewer,
                                                   const Event& event);

// fold(apply, events) from the empty state.
State fold(std::span<const Event> events);

// Every command `seat` may send now (player commands only; `resign` aside: decision 57), in a
// stable order, each spelt canonically (decision 58): check accepts a command exactly when its
// canonical_command is listed here.
std::vector<Command> legal_commands(const State& state, Seat seat);

// The canonical spelling of a command (decision 58): payments warehouse first, market and setup
// layouts by their content, lists sorted, empty depots without a type, zero leader-depot entries
// of active depot leaders left out. A command check accepts keeps its acceptance and its meaning
// up to a rearrangement the player could make next; a command check refuses may come back
// unchanged.
Command canonical_command(const State& state, Seat seat, const Command& command);

// Seats that may act now (setup: everyone who still has a choice to make).
std::vector<Seat> seats_to_act(const State& state);

// What `viewer` may see (2.6): the state without its secrets. Blanked (set to 0): the seed, every
// deck's cards below its top, the solo token stack, and other seats' dealt, kept (in hand) and
// discarded leaders (their number and status stay visible). kNoSeat = a spectator, who sees no
// hand at all.
struct View {
  Seat viewer = kNoSeat;
  State state;
  friend bool operator==(const View&, const View&) = default;
};
View view(const State& state, Seat viewer);

// The event as `viewer` may see it: the seed, the deck orders below the tops, the other seats'
// dealt leaders, their choose_leaders and discard_leader ids and every token stack are blanked
// (0). apply(view(s, v).state, redact(e, v)) == view(apply(s, e), v).state.
Event redact(const Event& event, Seat viewer);

// Stable 64-bit fingerprint of every field of the state (same on every run and machine).
std::uint64_t hash(const State& state);

inline bool is_over(const State& state) {
  return state.phase == Phase::GameOver;
}

}  // namespace eryantis::renaissance
