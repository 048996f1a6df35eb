// The timers' decisions (timers.hpp). Every clock belongs to one stage of a match:
// setup choices and the lobby's abandon to the lobby; forfeit, desertion and turn
// grace to play. Nothing here reads a clock: `now` is an argument.
#include "eryantis/server/timers.hpp"

#include <algorithm>

namespace eryantis::server::timers {

int Situation::seated() const {
  int n = 0;
  for (int i = 0; i < players; ++i) n += seats[i].seated;
  return n;
}

int Situation::connected() const {
  int n = 0;
  for (int i = 0; i < players; ++i) n += seats[i].seated && seats[i].connected;
  return n;
}

int Situation::computers() const {
  int n = 0;
  for (int i = 0; i < players; ++i) n += seats[i].seated && seats[i].computer;
  return n;
}

bool Situation::away(game::Seat seat) const {
  if (seat < 0 || seat >= players) return false;
  const SeatPresence& p = seats[seat];
  return p.seated && !p.connected && !p.computer;
}

namespace {

bool has(const Situation& s, game::Wait wait) {
  return std::any_of(s.to_act.begin(), s.to_act.end(),
                     [wait](const game::ToAct& a) { return a.wait == wait; });
}

// The first seat to act that a timer waits for with `wait`, kNoSeat when none.
game::Seat first(const Situation& s, game::Wait wait) {
  for (const game::ToAct& a : s.to_act)
    if (a.wait == wait) return a.seat;
  return game::kNoSeat;
}

bool to_act(const Situation& s, game::Seat seat, game::Wait wait) {
  return std::any_of(s.to_act.begin(), s.to_act.end(), [&](const game::ToAct& a) {
    return a.seat == seat && a.wait == wait;
  });
}

}  // namespace

Deadline stored(const Clocks& clocks) {
  if (clocks.deserted.kind == DeadlineKind::None) return clocks.deadline;
  Deadline d = clocks.deserted;
  d.seat = clocks.deadline.kind == DeadlineKind::TurnGrace ? clocks.deadline.seat : game::kNoSeat;
  return d;
}

Clocks restored(const Deadline& stored, bool running, int players, const Settings& settings) {
  Clocks c;
  c.deadline = stored;
  if (running && stored.kind == DeadlineKind::Abandon) {
    c.deserted = Deadline{DeadlineKind::Abandon, game::kNoSeat, stored.at_ms};
    c.deadline = stored.seat >= 0 && stored.seat < players
                     ? Deadline{DeadlineKind::TurnGrace, stored.seat,
                                stored.at_ms - settings.abandon_after_ms + settings.turn_grace_ms}
                     : Deadline{};
  }
  return c;
}

Update update(const Situation& s, const Clocks& before, const Settings& settings,
              std::int64_t now) {
  Update u{before, false};
  if (s.over) return u;
  Clocks& c = u.clocks;
  const int connected = s.connected();
  if (!s.lobby) c.setup = {};
  if (s.stage != game::Stage::Play) {
    c.forfeit = {};
    c.deserted = {};
  }
  Deadline want;        // the stored timer this situation calls for
  bool keep = false;    // the stored timer stays as it is
  bool resave = false;  // the desertion started or ended: the stored timer changes
  if (s.lobby) {
    // Nobody is held hostage: seats still choosing in a full match are freed after
    // setup_choice_ms (the clock runs while someone is there to wait for them), and
    // a match nobody joins or leaves for lobby_idle_ms is given up (next()).
    const game::Seat choosing = first(s, game::Wait::Choice);
    if (!s.full() || connected == 0 || s.stage != game::Stage::Setup ||
        choosing == game::kNoSeat)
      c.setup = {};
    else if (c.setup.kind != DeadlineKind::Remove)
      c.setup = {DeadlineKind::Remove, choosing, now + settings.setup_choice_ms};
    else
      c.setup.seat = choosing;
    // Nobody here, or a full match stuck in setup because someone left: give up
    // after abandon_after (a match that never started has no forfeit).
    if (connected == 0 || (s.full() && s.present() < s.players))
      want = {DeadlineKind::Abandon, game::kNoSeat, now + settings.abandon_after_ms};
  } else if (s.stage == game::Stage::Play) {
    // The forfeit clock measures how long one player has been waiting alone: it
    // stops when they leave too (nobody connected) or someone comes back, and a
    // restart (which disconnects everybody) gives the others the full time again.
    // Computer seats are always there: a person playing computers is never alone.
    if (connected == 1 && s.present() == 1 && s.players > 1) {
      game::Seat alone = game::kNoSeat;
      for (int i = 0; i < s.players; ++i)
        if (s.seats[i].seated && s.seats[i].connected) alone = static_cast<game::Seat>(i);
      if (c.forfeit.kind != DeadlineKind::Forfeit || c.forfeit.seat != alone)
        c.forfeit = {DeadlineKind::Forfeit, alone, now + settings.forfeit_after_ms};
    } else {
      c.forfeit = {};
    }
    // Deserted: no person connected (computer seats and spectators play nobody's
    // turn). Given up abandon_after_ms after the last one left, unless someone comes
    // back first; stored, so a restart keeps its time.
    Deadline deserted;
    if (connected == 0)
      deserted = c.deserted.kind == DeadlineKind::Abandon
                     ? c.deserted
                     : Deadline{DeadlineKind::Abandon, game::kNoSeat,
                                now + settings.abandon_after_ms};
    if (deserted != c.deserted) {
      c.deserted = deserted;
      resave = true;
    }
    if (connected == 0) {
      // Nobody to play with: no turn is skipped, and the turn grace deadline (of this
      // turn, perhaps restored from before a restart) is kept as it is.
      keep = true;
    } else if (has(s, game::Wait::SkipNow)) {
      keep = true;  // skipped at once (due())
    } else {
      // The grace clock runs from when an absent seat's turn came, whoever else
      // comes and goes; it skips the turn only while two players are present
      // (one player alone is the forfeit clock's business; computers are present).
      game::Seat absent = game::kNoSeat;
      for (const game::ToAct& a : s.to_act)
        if (a.wait == game::Wait::Turn && s.away(a.seat)) {
          absent = a.seat;
          break;
        }
      if (absent != game::kNoSeat) {
        want = {DeadlineKind::TurnGrace, absent, now + settings.turn_grace_ms};
        keep = s.present() < 2 && c.deadline.kind == want.kind && c.deadline.seat == want.seat;
      }
    }
  }
  // The same timer still in force keeps its time (one restored from before a restart too).
  if (!keep && (c.deadline.kind != want.kind || c.deadline.seat != want.seat)) {
    c.deadline = want;
    u.store = true;
  } else if (resave) {
    u.store = true;
  }
  return u;
}

Action due(const Situation& s, const Clocks& c, const Settings& settings, std::int64_t now) {
  if (s.over) return {};
  const int connected = s.connected();
  if (s.lobby) {
    if (c.setup.kind == DeadlineKind::Remove && now >= c.setup.at_ms)
      return {Due::RemoveLateSeats, c.setup.seat};
    if (!s.full() && connected > 0 && now - s.lobby_since_ms >= settings.lobby_idle_ms)
      return {Due::AbandonIdleLobby, game::kNoSeat};
    if (c.deadline.kind == DeadlineKind::Abandon && now >= c.deadline.at_ms)
      return {Due::AbandonLobby, game::kNoSeat};
    return {};
  }
  if (s.stage != game::Stage::Play) return {};
  // The forfeit stays in force until its event is applied (and is tried again if
  // the write fails): nothing announces it as gone before the event says so.
  if (c.forfeit.kind == DeadlineKind::Forfeit && now >= c.forfeit.at_ms)
    return {Due::Forfeit, c.forfeit.seat};
  if (c.deserted.kind == DeadlineKind::Abandon && now >= c.deserted.at_ms)
    return {Due::AbandonDeserted, game::kNoSeat};
  if (connected == 0) return {};
  // The rules allow this seat nothing but skip_turn (Eriantys: absent in planning,
  // decision 23): skipped at once.
  if (const game::Seat seat = first(s, game::Wait::SkipNow); seat != game::kNoSeat)
    return {Due::SkipTurn, seat};
  if (c.deadline.kind == DeadlineKind::TurnGrace && to_act(s, c.deadline.seat, game::Wait::Turn) &&
      s.present() >= 2 && now >= c.deadline.at_ms)
    return {Due::SkipTurn, c.deadline.seat};
  return {};
}

Deadline next(const Situation& s, const Clocks& c, const Settings& settings) {
  if (s.over) return {};
  Deadline next;
  auto consider = [&](const Deadline& d) {
    if (d.kind != DeadlineKind::None && (next.kind == DeadlineKind::None || d.at_ms < next.at_ms))
      next = d;
  };
  consider(c.forfeit);
  consider(c.deserted);
  // A turn is skipped only while two players are present (due()).
  if (c.deadline.kind != DeadlineKind::TurnGrace || s.present() >= 2) consider(c.deadline);
  consider(c.setup);
  if (s.lobby && !s.full() && s.connected() > 0)
    consider({DeadlineKind::Abandon, game::kNoSeat, s.lobby_since_ms + settings.lobby_idle_ms});
  return next;
}

}  // namespace eryantis::server::timers
