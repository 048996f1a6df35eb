// One live match: its queue, its submit → persist → broadcast chain and its
// deadlines, reaching outside only through RoomLinks (room.hpp).
#include "eryantis/server/room.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include "eryantis/protocol/codec.hpp"
#include "server_messages.hpp"

namespace eryantis::server {

using protocol::error_code_name;
using protocol::ErrorCode;

namespace {
// A game over without an outcome would break the game's contract (outcome() is
// set once stage() is Over); the platform still ends the match, nobody winning.
game::Outcome ended_outcome() {
  game::Outcome o;
  o.reason = "ended";
  return o;
}
}  // namespace

void Room::enqueue(ConnectionId conn, const std::string& id, std::function<void()> op) {
  if (static_cast<int>(waiting.size()) >= links_->max_queued) {
    if (conn)  // 0: the server's own operation (a token binding), nobody to answer
      links_->outbox.send_error(conn, id, error_code_name(ErrorCode::RateLimited),
                                "this match is busy; send your request again", this);
    return;
  }
  waiting.push_back(WaitingRequest{conn, id, std::move(op)});
  run_next();
}

void Room::run_next() {
  // Ops that do not write run at once; the first that writes makes the room busy.
  // An op may drop the room (its creation failed): `alive` says so.
  const std::weak_ptr<int> alive = life_;
  while (!alive.expired() && !busy && !waiting.empty()) {
    auto op = std::move(waiting.front().run);
    waiting.erase(waiting.begin());
    op();
  }
}

void Room::persist(MatchWrite write, AfterWrite after) {
  busy = true;
  write.match = id;
  write.game = game;
  links_->writes.write(
      *this, std::move(write),
      [this, alive = std::weak_ptr<int>(life_),
       after = std::move(after)](store::Result<store::AppendOutcome> r) {
        if (alive.expired()) {  // dropped meanwhile (another node took it, say)
          after(std::move(r), nullptr);
          return;
        }
        busy = false;
        after(std::move(r), this);
        if (!alive.expired()) run_next();
      });
}

void Room::submit(game::Seat seat, const game::Command& command, game::Authority authority,
                  ConnectionId reply_to, const std::string& id,
                  std::optional<std::string> command_id) {
  const game::Game& played = *game;
  // One execution of the rules gives both the event and the state it leads to.
  auto decision = played.decide(state, seat, command, authority);
  if (!decision) {
    if (reply_to)
      links_->outbox.send_error(reply_to, id, decision.error().code, decision.error().message,
                                this);
    return;
  }
  game::Event event = std::move(decision->event);
  game::State next = std::move(decision->next);
  MatchWrite w;
  w.expected_seq = seq;
  const store::Actor actor =
      authority == game::Authority::Server ? store::Actor::server() : store::Actor::player(seat);
  // Encoded once: the same JSON is stored and (where every viewer may see all of
  // it) broadcast.
  std::string payload = played.event_to_json(event);
  w.events.push_back(store::NewEvent{actor, command_id, event, played.hash(next), payload});
  // The store snapshots every snapshot_every events: only then does it need the
  // state (a State copy per command otherwise).
  if (const int every = links_->writes.snapshot_every();
      every > 0 && seq / every != (seq + 1) / every)
    w.state_after = next;
  std::optional<store::MatchStatus> to;
  const game::Stage stage = played.stage(next);
  if (status == store::MatchStatus::Lobby && stage != game::Stage::Setup)
    to = store::MatchStatus::Running;
  // The result, and its push kept for the players away, are stored with the last event.
  std::vector<store::UnseenEnding> kept;
  if (stage == game::Stage::Over) {
    const game::Outcome outcome = played.outcome(next).value_or(ended_outcome());
    // Given up (abandon_match): abandoned, like a lobby nobody came back to.
    const bool given_up = outcome.reason == "abandoned";
    to = given_up ? store::MatchStatus::Abandoned : store::MatchStatus::Finished;
    w.result_json = detail::result_json(*this, outcome, &next);
    kept = links_->owner.ending(*this, outcome).kept;
    w.keep_endings = kept;
  }
  w.status = to;
  if (clocks.deadline.kind != DeadlineKind::None || clocks.deserted.kind != DeadlineKind::None)
    w.deadline = Deadline{};  // the situation changed: re-armed as the event is told
  // A clocked match: the event is stored with the time its clocks charge, and the
  // event that starts the match resumes them (computer seats are never timed).
  std::vector<clocks::ClockStep> clock_steps;
  const std::int64_t at_ms = links_->clock();
  if (clock) {
    w.time_ms = at_ms;
    clocks::ClockStep step;
    step.at_ms = at_ms;
    step.to_act = to_act_mask(next);
    clock_steps.push_back(step);
    if (to == store::MatchStatus::Running) {
      if (const clocks::SeatMask computers = computer_mask()) {
        clocks::ClockStep untimed{clocks::ClockStep::Kind::Untimed, at_ms};
        untimed.seats = computers;
        clock_steps.push_back(untimed);
      }
      clock_steps.push_back(clocks::ClockStep{clocks::ClockStep::Kind::Resume, at_ms});
    }
    for (std::size_t i = 1; i < clock_steps.size(); ++i) add_clock_step(w, clock_steps[i]);
  }
  persist(std::move(w), [reply_to, id, seat, command_id, to, clock_steps, ev = std::move(event),
                         next = std::move(next), payload = std::move(payload),
                         kept = std::move(kept)](store::Result<store::AppendOutcome> done,
                                                 Room* room) mutable {
    if (!room) return;
    Outbox& out = room->links_->outbox;
    if (!done) {
      if (reply_to)
        out.send_error(reply_to, id, error_code_name(ErrorCode::StoreFailure),
                       "your command could not be saved: " + done.error().message, room);
      return;
    }
    if (done->replayed) {
      if (reply_to)
        out.send(reply_to, protocol::JsonLine("ack", id)
                               .field("match", room->id)
                               .field("seq", done->last_seq)
                               .field("replayed", true)
                               .str());
      return;
    }
    const game::Game& played = *room->game;
    // The sentence of the move log, once for every viewer, from the states around it.
    const std::string text =
        played.describe_event(room->state, ev, next, detail::seat_names(*room));
    room->state = std::move(next);
    room->seq = done->last_seq;
    if (room->clock)
      for (const clocks::ClockStep& step : clock_steps)
        room->clock = clocks::advance(std::move(*room->clock), step);
    room->clocks.deadline = Deadline{};
    room->clocks.deserted = Deadline{};
    if (to) room->links_->owner.moved(*room, room->status, *to);
    if (command_id) room->recent_commands.remember(*command_id, room->seq);
    // The ack carries the fingerprint of the sender's view (of the public view
    // when every viewer sees the same: one hash serves every update), computed
    // once for the ack and the sender's event.
    const game::Seat hashed = played.views_are_public() ? game::kNoSeat : seat;
    const std::uint64_t hash = played.hash(played.view(room->state, hashed));
    if (reply_to)
      out.send(reply_to, protocol::JsonLine("ack", id)
                             .field("match", room->id)
                             .field("seq", room->seq)
                             .field("hash", detail::hex(hash))
                             .str());
    room->broadcast_event(ev, payload, text, KnownHash{hashed, hash}, to);
    room->links_->owner.accepted(*room, kept);
  });
}

game::Outcome Room::outcome() const { return game->outcome(state).value_or(ended_outcome()); }

MoveLists Room::moves(game::Seat seat) const {
  if (status == store::MatchStatus::Lobby && !full()) return move_lists(*game, state, game::kNoSeat);
  return move_lists(*game, state, seat);
}

void Room::broadcast_event(const game::Event& event, const std::string& payload,
                           const std::string& text, std::optional<KnownHash> known,
                           std::optional<store::MatchStatus> moved) {
  const game::Game& played = *game;
  const game::State& st = state;
  const std::string to_act = detail::to_act_json(played, st);
  const std::int64_t now = links_->clock();
  update_deadlines(now);
  announced = next_deadline();
  const std::string deadline = deadline_json(now);
  const std::string clock_times = clocks_json(now);  // "" without a clock
  // What a viewer's line shares with others' is written once per view (the event
  // as that viewer may see it, the hash of its view, the sentence, who acts): once
  // for everybody when the game's views are public, else once per seat and once
  // for the spectators. Each viewer's line is that text without its closing
  // brace, then its own moves, the deadline and (if asked for) its view: the same
  // bytes JsonLine wrote field by field for each viewer.
  const bool one_view = played.views_are_public();
  // Each viewer's view, made once for its hash and its `view` (a game with hidden
  // information has one per seat and one for the spectators).
  std::array<std::optional<game::State>, game::kMaxSeats + 1> views;
  auto view_of = [&](game::Seat viewer) -> const game::State& {
    std::optional<game::State>& v = views[static_cast<std::size_t>(viewer + 1)];
    if (!v) v = played.view(st, viewer);
    return *v;
  };
  auto common_for = [&](game::Seat viewer) {
    const game::Event seen = played.event_for(event, viewer);
    const std::uint64_t hash = known && known->viewer == viewer
                                   ? known->hash
                                   : played.hash(view_of(viewer));
    protocol::JsonLine line("event");
    line.field("match", id).field("seq", seq).field("hash", detail::hex(hash));
    // Only on the event that moved the match on (lobby to running, or its end).
    if (moved) line.field("status", store::status_name(*moved));
    // The stored text when the viewer sees all of the event (no copy to encode).
    line.raw_field("event", seen == event ? payload : played.event_to_json(seen))
        .field("text", text)
        .raw_field("to_act", to_act);
    std::string common = line.str();
    common.pop_back();  // the closing '}'
    return common;
  };
  // The spectators' text (everybody's when the game's views are public), made when a
  // line first needs it: a match of a game with hidden information and no spectator
  // never does (its view, hash and redacted event would be thrown away).
  std::optional<std::string> shared;
  auto line_for = [&](ConnectionId conn, game::Seat viewer) {
    const MoveLists allowed = moves(viewer);
    std::string own;
    if (!one_view && viewer != game::kNoSeat) own = common_for(viewer);
    if (own.empty() && !shared) shared = common_for(game::kNoSeat);
    const std::string& common = own.empty() ? *shared : own;
    std::string view;
    if (links_->outbox.wants_views(conn))
      view = played.view_to_json(view_of(viewer), viewer);
    std::string line;
    line.reserve(common.size() + allowed.allowed.size() + allowed.legal.size() + deadline.size() +
                 view.size() + 48);
    line.append(common)
        .append(",\"allowed\":")
        .append(allowed.allowed)
        .append(",\"legal\":")
        .append(allowed.legal)
        .append(",\"deadline\":")
        .append(deadline);
    if (!clock_times.empty()) line.append(",\"clocks\":").append(clock_times);
    if (!view.empty()) line.append(",\"view\":").append(view);
    line.push_back('}');
    links_->outbox.send(conn, std::move(line));
  };
  for (int i = 0; i < players(); ++i)
    if (seats[i] && seats[i]->connection)
      line_for(seats[i]->connection, static_cast<game::Seat>(i));
  for (ConnectionId c : spectators) line_for(c, game::kNoSeat);
}

void Room::send_all(const std::string& line) {
  for (int i = 0; i < players(); ++i)
    if (seats[i] && seats[i]->connection) links_->outbox.send(seats[i]->connection, line);
  for (ConnectionId c : spectators) links_->outbox.send(c, line);
}

std::string Room::seats_json() const {
  protocol::JsonArray out;
  for (int i = 0; i < players(); ++i) {
    protocol::JsonLine seat = protocol::JsonLine::object();
    seat.field("seat", i);
    if (seats[i])
      seat.field("nickname", seats[i]->nickname)
          .field("connected", seats[i]->connection != 0 || is_computer(i));
    else
      seat.null_field("nickname").field("connected", false);
    if (is_computer(i))
      seat.field("computer", game::level_name(*seats[i]->computer));
    else
      seat.null_field("computer");
    out.raw(seat.str());
  }
  return out.str();
}

void Room::takeover_field(protocol::JsonLine& line) const {
  if (takeover) line.field("takeover", game::level_name(*takeover));
}

void Room::broadcast_seats(ConnectionId reply_to, const std::string& request_id) {
  const std::int64_t now = links_->clock();
  update_deadlines(now);
  announced = next_deadline();
  const std::string seat_list = seats_json();
  const std::string deadline = deadline_json(now);
  auto line_with = [&](const std::string& with_id) {
    protocol::JsonLine line("seats", with_id);
    line.field("match", id).raw_field("seats", seat_list);
    takeover_field(line);
    clock_field(line);
    if (clock) line.raw_field("clocks", clocks_json(now));
    return line.raw_field("deadline", deadline).str();
  };
  const std::string line = line_with({});
  // The request that caused it (add_computer, remove_computer) gets its copy as the reply.
  auto to = [&](ConnectionId c) {
    links_->outbox.send(c, c == reply_to && !request_id.empty() ? line_with(request_id) : line);
  };
  for (int i = 0; i < players(); ++i)
    if (seats[i] && seats[i]->connection) to(seats[i]->connection);
  for (ConnectionId c : spectators) to(c);
}

timers::Situation Room::situation() const {
  timers::Situation s;
  s.lobby = status == store::MatchStatus::Lobby;
  s.over = status == store::MatchStatus::Finished || status == store::MatchStatus::Abandoned;
  // The game's stage and who must act with what wait, as the game says them.
  s.stage = game->stage(state);
  s.to_act = game->to_act(state);
  s.players = players();
  for (int i = 0; i < s.players; ++i)
    if (seats[i]) s.seats[i] = {true, seats[i]->connection != 0, seats[i]->computer.has_value()};
  s.lobby_since_ms = lobby_since_ms;
  return s;
}

void Room::update_deadlines(std::int64_t now) {
  // A degraded server decides nothing more (and writes nothing).
  if (!links_->writes.writable()) return;
  timers::Update u = timers::update(situation(), clocks, links_->timers, now);
  clocks = u.clocks;
  if (u.store) save_deadline();
}

timers::Action Room::due(std::int64_t now) {
  update_deadlines(now);
  if (busy) return {};  // a new timer is being written: it starts now
  return timers::due(situation(), clocks, links_->timers, now);
}

void Room::save_deadline() {
  // The room's own write comes first (a write behind it would use a stale seq):
  // the deadline is written after it, as it stands then.
  auto save = [this] {
    if (status == store::MatchStatus::Finished || status == store::MatchStatus::Abandoned) return;
    MatchWrite w;
    w.expected_seq = seq;
    w.deadline = timers::stored(clocks);
    persist(std::move(w), [](store::Result<store::AppendOutcome>, Room*) {});
  };
  // The queue runs only while the room lives: `this` is safe in it.
  if (!idle())
    waiting.push_back(WaitingRequest{0, "", std::move(save)});
  else
    save();
}

Deadline Room::next_deadline() const {
  return timers::next(situation(), clocks, links_->timers);
}

std::string Room::deadline_json(std::int64_t now) const {
  const Deadline d = next_deadline();
  if (d.kind == DeadlineKind::None) return "null";
  protocol::JsonLine out = protocol::JsonLine::object();
  // A match with `takeover`: the grace ends with a computer in the seat, not a skip.
  out.field("action", d.kind == DeadlineKind::TurnGrace && takeover ? std::string_view("take_over")
                                                                    : deadline_action(d.kind));
  if (d.seat >= 0 && d.seat < players() && seats[d.seat])
    out.field("seat", static_cast<int>(d.seat)).field("nickname", seats[d.seat]->nickname);
  else
    out.null_field("seat").null_field("nickname");
  out.field("in_ms", std::max<std::int64_t>(0, d.at_ms - now));
  return out.str();
}

void Room::announce_deadline() {
  if (next_deadline() == announced) return;
  broadcast_seats();  // records what it announced
}

}  // namespace eryantis::server
