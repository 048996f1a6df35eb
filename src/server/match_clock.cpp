// Clocks for everyone (docs/home.md, "Clocks"; docs/protocol.md, "Clocks"): a
// clocked match's clocks are the pure fold of clocks/clock.hpp over its events'
// stored times and its clock steps. The room advances them with every durable
// event and step; the server's tick (every 100 ms) and every `play` first handle
// the seats whose time is up (timeouts_due), by the match's on_timeout rule.
#include <spdlog/spdlog.h>

#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/loaded_match.hpp"
#include "eryantis/server/server.hpp"

namespace eryantis::server {

namespace {

std::string_view step_kind_name(clocks::ClockStep::Kind kind) {
  switch (kind) {
    case clocks::ClockStep::Kind::Pause:
      return "pause";
    case clocks::ClockStep::Kind::Resume:
      return "resume";
    case clocks::ClockStep::Kind::Untimed:
      return "untimed";
    case clocks::ClockStep::Kind::Event:
      break;
  }
  return "event";
}

std::optional<clocks::ClockStep> step_from_record(const store::ClockStepRecord& r) {
  clocks::ClockStep step;
  step.at_ms = r.at_ms;
  if (r.kind == "pause") {
    step.kind = clocks::ClockStep::Kind::Pause;
  } else if (r.kind == "resume") {
    step.kind = clocks::ClockStep::Kind::Resume;
  } else if (r.kind == "untimed") {
    step.kind = clocks::ClockStep::Kind::Untimed;
    step.seats = static_cast<clocks::SeatMask>(r.seats & 0xff);
  } else {
    return std::nullopt;
  }
  return step;
}

clocks::SeatMask mask_of(const std::vector<game::ToAct>& acting) {
  clocks::SeatMask mask = 0;
  for (const game::ToAct& a : acting)
    if (a.seat >= 0 && a.seat < clocks::kMaxSeats) mask |= clocks::seat_bit(a.seat);
  return mask;
}

}  // namespace

clocks::ClockState fold_match_clock(const game::Game& played, const clocks::TimeControl& control,
                                    int seats, const std::vector<store::StoredEvent>& events,
                                    const std::vector<store::ClockStepRecord>& steps) {
  clocks::ClockState clock = clocks::start_clocks(control, seats);
  std::size_t next_step = 0;
  auto steps_through = [&](store::Seq seq) {
    for (; next_step < steps.size() && steps[next_step].after_seq <= seq; ++next_step)
      if (auto step = step_from_record(steps[next_step]))
        clock = clocks::advance(std::move(clock), *step);
  };
  steps_through(0);
  game::State state = played.empty_state();
  for (const store::StoredEvent& stored : events) {
    std::string payload = stored.payload;
    if (stored.schema_version != played.event_schema()) {
      auto upcast = played.upcast_event(stored.schema_version, std::move(payload));
      if (!upcast) continue;
      payload = std::move(*upcast);
    }
    auto event = played.event_from_json(payload);
    if (!event) continue;
    state = played.apply(state, *event);
    clocks::ClockStep step;
    step.kind = clocks::ClockStep::Kind::Event;
    step.at_ms = stored.time_ms;
    step.to_act = mask_of(played.to_act(state));
    clock = clocks::advance(std::move(clock), step);
    steps_through(stored.seq);
  }
  steps_through(std::numeric_limits<store::Seq>::max());
  return clock;
}

void Room::clock_field(protocol::JsonLine& line) const {
  if (!clock) return;
  line.raw_field("clock",
                 protocol::JsonLine::object()
                     .field("control", clocks::time_control_text(clock->control))
                     .field("on_timeout", clocks::on_timeout_name(clock->control.on_timeout))
                     .str());
}

std::string Room::clocks_json(std::int64_t now) const {
  if (!clock) return {};
  std::string out = "[";
  const std::vector<clocks::SeatTime> times = clocks::clocks_at(*clock, now);
  for (std::size_t i = 0; i < times.size(); ++i) {
    const clocks::SeatTime& t = times[i];
    if (i) out.push_back(',');
    out.append(
        fmt::format(R"({{"left_ms":{},"delay_ms":{},"running":{},"untimed":{},"timeouts":{}}})",
                    t.left_ms, t.delay_left_ms, t.running, t.untimed, t.timeouts));
  }
  out.push_back(']');
  return out;
}

clocks::SeatMask Room::to_act_mask(const game::State& st) const {
  return mask_of(game->to_act(st));
}

clocks::SeatMask Room::computer_mask() const {
  clocks::SeatMask mask = 0;
  for (int i = 0; i < players() && i < clocks::kMaxSeats; ++i)
    if (is_computer(i)) mask |= clocks::seat_bit(i);
  return mask;
}

void Room::add_clock_step(MatchWrite& write, clocks::ClockStep step) const {
  write.clock_steps.push_back(store::ClockStepRecord{
      write.expected_seq + static_cast<store::Seq>(write.events.size()), step.at_ms,
      std::string(step_kind_name(step.kind)), static_cast<int>(step.seats)});
}

bool Server::check_clock(Room& room, std::int64_t now) {
  // No write in flight (queued requests may wait: a `play` checks before it runs).
  if (!room.clock || room.status != store::MatchStatus::Running || room.busy) return false;
  if (room.clock->paused) {  // loaded after a stop (or a pause): the clocks run again now
    if (shutting_down_ || !writable()) return false;
    clock_step(room, clocks::ClockStep{clocks::ClockStep::Kind::Resume, now});
    return true;
  }
  const std::vector<clocks::Timeout> due = clocks::timeouts_due(*room.clock, now);
  if (due.empty()) return false;
  const clocks::Timeout& t = due.front();  // one write at a time: the next after it
  const auto seat = static_cast<game::Seat>(t.seat);
  const std::string who = room.seats[seat] ? room.seats[seat]->nickname : "?";
  switch (t.action) {
    case clocks::OnTimeout::Computer:
      if (decisions_ && room.seats[seat] && !room.seats[seat]->computer) {
        spdlog::info("match {}: seat {} ({}) ran out of time: a computer takes the seat", room.id,
                     t.seat, who);
        take_over(room, seat, TakeoverReason::Timeout);
        return true;
      }
      break;  // no computer to take it: skipped
    case clocks::OnTimeout::Forfeit: {
      spdlog::info("match {}: seat {} ({}) ran out of time and forfeits", room.id, t.seat, who);
      const game::Command resign = room.game->resign();
      if (room.game->decide(room.state, seat, resign, game::Authority::Player)) {
        room.submit(seat, resign, game::Authority::Player, 0, "", std::nullopt);
        return true;
      }
      break;  // the game refuses it now: skipped
    }
    case clocks::OnTimeout::Skip:
      break;
  }
  spdlog::info("match {}: seat {} ({}) ran out of time: turn skipped", room.id, t.seat, who);
  const game::Command skip = room.game->skip_turn();
  if (room.game->decide(room.state, seat, skip, game::Authority::Server)) {
    room.submit(seat, skip, game::Authority::Server, 0, "", std::nullopt);
    return true;
  }
  // The game has no skip here: the first of its legal commands is played for the seat,
  // if the rules take it (else nothing is written and the timers run on: a refused
  // command reported as handled would stop the room's other timers every tick).
  const std::vector<game::Command> legal = room.game->legal_commands(room.state, seat);
  if (legal.empty() || !room.game->decide(room.state, seat, legal.front(), game::Authority::Player))
    return false;
  room.submit(seat, legal.front(), game::Authority::Player, 0, "", std::nullopt);
  return room.busy;
}

void Server::clock_step(Room& room, clocks::ClockStep step) {
  if (!room.clock || !writable()) return;
  MatchWrite w;
  w.match = room.id;
  w.expected_seq = room.seq;
  room.add_clock_step(w, step);
  room.persist(std::move(w), [step](store::Result<store::AppendOutcome> done, Room* room) {
    if (!room || !done || !room->clock) return;
    room->clock = clocks::advance(std::move(*room->clock), step);
  });
}

void Server::pause_clocks() {
  const std::int64_t now = clock_();
  for (auto& [id, room] : rooms_) {
    if (!room->clock || room->clock->paused || room->status != store::MatchStatus::Running)
      continue;
    const store::MatchId mid = id;
    room->enqueue(0, "", [this, mid, now] {
      if (Room* r = find_room(mid))
        clock_step(*r, clocks::ClockStep{clocks::ClockStep::Kind::Pause, now});
    });
  }
}

}  // namespace eryantis::server
