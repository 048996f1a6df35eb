#include "eryantis/util/expected.hpp"
#include "internal.hpp"

namespace eryantis::rules {

std::expected<Event, RuleError> check(const State& state, Seat seat, const Command& command,
                                      Authority authority) {
  auto decision = decide(state, seat, command, authority);
  if (!decision) return util::forward_error(decision);
  return std::move(decision->event);
}

std::expected<Decision, RuleError> decide(const State& state, Seat seat, const Command& command,
                                          Authority authority) {
  if (auto error = detail::validate(state, seat, command, authority))
    return std::unexpected(*error);
  Event event;
  event.seat = std::holds_alternative<CreateMatch>(command) ? kNoSeat : seat;
  event.command = command;
  // Run the transition on a scratch copy, recording every draw into the event.
  const MatchSeed seed = std::holds_alternative<CreateMatch>(command)
                             ? std::get<CreateMatch>(command).seed
                             : state.seed;
  detail::RecordingDrawer drawer(event_prng(seed, state.events_applied), event);
  State next = state;
  detail::execute(next, event.seat, command, drawer);
  return Decision{std::move(event), std::move(next)};
}

std::expected<Event, RuleError> create_match(const MatchOptions& options, const MatchSeed& seed) {
  return check(State{}, kNoSeat, CreateMatch{options, seed}, Authority::Server);
}

std::expected<Event, RuleError> create_match(const MatchOptions& options, std::uint64_t seed) {
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

std::expected<State, RuleError> apply_checked(const State& state, const Event& event) {
  if (auto error = detail::validate(state, event.seat, event.command, Authority::Server))
    return std::unexpected(*error);
  if (std::holds_alternative<CreateMatch>(event.command) && event.seat != kNoSeat)
    return std::unexpected(
        RuleError{RuleCode::InconsistentEvent, "create_match is not made by a seat."});
  State next = state;
  detail::ReplayDrawer drawer(event);
  detail::execute(next, event.seat, event.command, drawer);
  if (!drawer.consistent())
    return std::unexpected(
        RuleError{RuleCode::InconsistentEvent,
                  "The event's recorded draws do not match the bag or are incomplete."});
  return next;
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
        if (!state.boards[p].wizard || !state.boards[p].tower_color) seats.push_back(p);
      break;
    case Phase::Planning:
    case Phase::Action:
      if (state.current_seat() != kNoSeat) seats.push_back(state.current_seat());
      break;
    case Phase::GameOver:
      break;
  }
  return seats;
}

View view(const State& state, Seat viewer) {
  View v{viewer, state};
  v.state.seed = MatchSeed{};  // the only secret: it would let a client predict every draw
  return v;
}

}  // namespace eryantis::rules
