#pragma once
// The decider: the whole game as five pure functions over values.
//   check(state, seat, command) -> Event or RuleError   (validates, resolves chance)
//   apply(state, event)         -> State                (pure, never draws; trusted events only)
//   view(state, viewer)         -> what a seat or spectator may see
//   legal_commands(state, seat) -> every command check accepts from that seat (resign aside)
//   hash(state)                 -> stable 64-bit fingerprint
#include <cstdint>
#include <expected>
#include <span>
#include <vector>

#include "eryantis/rules/command.hpp"
#include "eryantis/rules/event.hpp"
#include "eryantis/rules/rule_error.hpp"
#include "eryantis/rules/state.hpp"

namespace eryantis::rules {

enum class Authority : std::uint8_t { Player, Server };

// Validates `command` from `seat` against `state` and, if legal, returns the
// event to append: the command plus every random outcome, drawn from the match's
// PRNG. Server-only commands need Authority::Server. The state is not changed.
std::expected<Event, RuleError> check(const State& state, Seat seat, const Command& command,
                                      Authority authority = Authority::Player);

// check() and the state the event leads to, from one execution of the rules:
// what a server needs per command (check followed by apply would run them twice).
struct Decision {
  Event event;
  State next;
};
std::expected<Decision, RuleError> decide(const State& state, Seat seat, const Command& command,
                                          Authority authority = Authority::Player);

// The first event of every match (check of CreateMatch against an empty state).
std::expected<Event, RuleError> create_match(const MatchOptions& options, const MatchSeed& seed);
// A 64-bit seed (tests, tools, random games): the same as MatchSeed{seed, 0}.
std::expected<Event, RuleError> create_match(const MatchOptions& options, std::uint64_t seed);

// Applies an event to the state it was decided for. Pure; replays the recorded
// draws, never draws.
//
// PRECONDITION: `event` was produced by check() (or decide()) for a state equal
// to `state`. apply is not total: it indexes seats, character slots, island
// groups and clouds with the event's values as check validated them. Any other
// event is a contract violation: the Debug and sanitizer builds abort on the
// indices it trusts (ERYANTIS_ASSERT, rules/assert.hpp); Release has undefined
// behaviour. Events read from storage, a peer or any file are not check's
// output: they go through apply_checked.
State apply(const State& state, const Event& event);
void apply_in_place(State& state, const Event& event);

// Total: for events from untrusted sources (the store, a server's broadcast).
// Re-validates the command with today's rules (any seat, cloud, character,
// island out of range is refused here, before it can index anything) and checks
// that the recorded draws are consistent with the bag.
std::expected<State, RuleError> apply_checked(const State& state, const Event& event);

// state = fold(apply, events), starting from the empty state (apply's precondition
// holds for each event in turn).
State fold(std::span<const Event> events);

// Every command `seat` may send now (player commands only, `resign` aside: decision
// 26), in a stable order.
std::vector<Command> legal_commands(const State& state, Seat seat);

// Seats that may act now (setup: everyone who still has a choice to make).
std::vector<Seat> seats_to_act(const State& state);

// What `viewer` may see: the state without its secrets (the seed that drives
// the PRNG). The bag is already only counts. kNoSeat = a spectator.
struct View {
  Seat viewer = kNoSeat;
  State state;  // seed zeroed
  friend bool operator==(const View&, const View&) = default;
};
View view(const State& state, Seat viewer);

// Stable 64-bit fingerprint of every field of the state (same on every run and machine).
std::uint64_t hash(const State& state);

}  // namespace eryantis::rules
