// check, decide, apply and fold: one execution of the rules, run two ways.
#include "eryantis/renaissance/rules/invariants.hpp"
#include "eryantis/util/expected.hpp"
#include "internal.hpp"

namespace eryantis::renaissance {

namespace {

std::expected<Decision, RuleError> run(const State& state, Seat seat, const Command& command,
                                       Authority authority, bool need_state) {
  if (auto error = detail::validate(state, seat, command, authority))
    return std::unexpected(*error);
  Decision d{Event{}, State{}};
  d.event.seat = std::holds_alternative<CreateMatch>(command) ? kNoSeat : seat;
  // Decision 62: the event records the layout or payment a client left to the rules.
  d.event.command = detail::lacks_defaults(command) ? detail::with_defaults(state, seat, command)
                                                    : command;
  // Only the transition draws and reveals: commands that do neither need not run to be checked
  // (the property tests hold check's event equal to decide's for every command they play).
  if (!need_state && !detail::draws_or_reveals(state, command)) return d;
  const MatchSeed seed = std::holds_alternative<CreateMatch>(command)
                             ? std::get<CreateMatch>(command).seed
                             : state.seed;
  detail::RecordingDrawer drawer(event_prng(seed, state.events_applied), d.event);
  d.next = state;
  detail::execute(d.next, d.event.seat, d.event.command, drawer);
  return d;
}

}  // namespace

std::expected<Event, RuleError> check(const State& state, Seat seat, const Command& command,
                                      Authority authority) {
  auto decision = run(state, seat, command, authority, false);
  if (!decision) return util::forward_error(decision);
  return std::move(decision->event);
}

std::expected<Decision, RuleError> decide(const State& state, Seat seat, const Command& command,
                                          Authority authority) {
  return run(state, seat, command, authority, true);
}

std::expected<Event, RuleError> create_match(const Options& options, const MatchSeed& seed) {
  return check(State{}, kNoSeat, CreateMatch{options, seed}, Authority::Server);
}

std::expected<Event, RuleError> create_match(const Options& options, std::uint64_t seed) {
  return create_match(options, MatchSeed{seed, 0});
}

void apply_in_place(State& state, const Event& event) {
  detail::ReplayDrawer drawer(event);
  detail::execute(state, event.seat, event.command, drawer);
}

State apply(const State& state, const Event& event) {
  State next = state;
  apply_in_place(next, event);
  return next;
}

namespace {

std::expected<State, RuleError> checked(const State& state, const Event& event, detail::Sight sight) {
  if (auto error = detail::validate(state, event.seat, event.command, Authority::Server, sight))
    return std::unexpected(*error);
  if (std::holds_alternative<CreateMatch>(event.command) && event.seat != kNoSeat)
    return std::unexpected(
        RuleError{RuleCode::InconsistentEvent, "create_match is not made by a seat."});
  if (detail::lacks_defaults(event.command))  // decision 62: check() records them
    return std::unexpected(RuleError{RuleCode::InconsistentEvent,
                                     "A stored event records its layout and its payment."});
  State next = state;
  detail::ReplayDrawer drawer(event, sight.view);
  detail::execute(next, event.seat, event.command, drawer);
  if (!drawer.consistent())
    return std::unexpected(RuleError{
        RuleCode::InconsistentEvent,
        "The event's recorded draws or reveals do not fit the state, or are incomplete."});
  // A view's blanks accept a 0 wherever redaction may put one; one where it never does (a deck's
  // top, say) leaves a view no state has: refused like any other inconsistency.
  if (sight.view)
    if (std::string broken = view_violation(next); !broken.empty())
      return std::unexpected(RuleError{RuleCode::InconsistentEvent,
                                       "The event leaves a view no game can have: " + broken + "."});
  return next;
}

}  // namespace

std::expected<State, RuleError> apply_checked(const State& state, const Event& event) {
  return checked(state, event, detail::Sight::all());
}

std::expected<State, RuleError> apply_checked_view(const State& view, Seat viewer,
                                                   const Event& event) {
  if (viewer != kNoSeat && view.events_applied != 0 && (viewer < 0 || viewer >= view.players()))
    return std::unexpected(
        RuleError{RuleCode::NotSeated, "Seat " + std::to_string(viewer) + " is not in this game."});
  return checked(view, event, detail::Sight::of(viewer));
}

State fold(std::span<const Event> events) {
  State s;
  for (const Event& e : events) apply_in_place(s, e);
  return s;
}

std::vector<Seat> seats_to_act(const State& state) {
  std::vector<Seat> seats;
  if (state.events_applied == 0) return seats;
  switch (state.phase) {
    case Phase::Setup:
      for (Seat p = 0; p < state.players(); ++p)
        if (detail::setup_pending(state, p)) seats.push_back(p);
      break;
    case Phase::Play:
      if (state.current != kNoSeat) seats.push_back(state.current);
      break;
    case Phase::GameOver:
      break;
  }
  return seats;
}

}  // namespace eryantis::renaissance
