#pragma once
// The decisions of a match's timers as pure functions of its situation at one
// moment (docs/server.md, "Timers"): which clocks run, which one is stored, which
// is due and what it does. The server gathers the situation from a live match,
// keeps the clocks, stores the stored one and carries out what is due; these
// functions read no clock and touch nothing, so each rule of the timers has its
// own test (tests/server/timers_test.cpp). They know a game only through the
// engine's words for it: its stage and who must act with what wait (game.hpp).
#include <array>
#include <cstdint>
#include <vector>

#include "eryantis/game/game.hpp"
#include "eryantis/server/deadline.hpp"

namespace eryantis::server::timers {

// The server's timer settings (ServerConfig's milliseconds, config.hpp).
struct Settings {
  std::int64_t turn_grace_ms = 30000;
  std::int64_t forfeit_after_ms = 120000;
  std::int64_t abandon_after_ms = 600000;
  std::int64_t setup_choice_ms = 120000;
  std::int64_t lobby_idle_ms = 1800000;
};

struct SeatPresence {
  bool seated = false;     // somebody holds the seat
  bool connected = false;  // a person holding it is connected
  bool computer = false;   // a computer holds it: always there
};

// What the timers look at.
struct Situation {
  bool lobby = true;  // the match's status is lobby (waiting for players, or in setup)
  bool over = false;  // finished or abandoned: no timer runs
  game::Stage stage = game::Stage::Setup;
  std::vector<game::ToAct> to_act;  // the game's to_act(state)
  int players = 0;                  // the match's seats
  std::array<SeatPresence, game::kMaxSeats> seats{};
  // When a seat was last taken or given back (or the match was loaded).
  std::int64_t lobby_since_ms = 0;

  int seated() const;
  int connected() const;
  int computers() const;
  int present() const { return connected() + computers(); }  // who the timers count as there
  bool full() const { return seated() == players; }
  // A person holds the seat and is not connected.
  bool away(game::Seat seat) const;
};

// The clocks of one match.
struct Clocks {
  // The stored timer: turn grace (running) or abandon (lobby).
  Deadline deadline;
  // Running and no person connected: the match is abandoned at this time. Stored
  // in place of `deadline` while it lasts (stored()).
  Deadline deserted;
  // Who wins by forfeit when, while exactly one player is connected (in memory).
  Deadline forfeit;
  // Full and in setup with someone connected: the seats still choosing are freed
  // at this time (in memory).
  Deadline setup;
  friend bool operator==(const Clocks&, const Clocks&) = default;
};

// The timer a match stores: its desertion while it lasts (carrying the turn grace
// clock's seat, so a restart gives that clock back), else `deadline`.
Deadline stored(const Clocks& clocks);

// The clocks of a match loaded with `stored` (what stored() gave before a
// restart): a desertion keeps its time, and the turn grace clock of the seat it
// names, which ran from no later than the desertion's start, runs out at the
// latest turn_grace_ms after that start. `running`: the match's status.
Clocks restored(const Deadline& stored, bool running, int players, const Settings& settings);

struct Update {
  Clocks clocks;
  // The stored timer changed: write stored(clocks).
  bool store = false;
};

// The clocks this situation calls for at `now`: a clock still in force keeps its
// time (one restored from before a restart too); one that no longer applies stops.
Update update(const Situation& s, const Clocks& before, const Settings& settings,
              std::int64_t now);

// What a due timer does.
enum class Due : std::uint8_t {
  Nothing,
  RemoveLateSeats,   // lobby: the seats still choosing in setup are freed
  AbandonIdleLobby,  // lobby: nobody joined or left for lobby_idle_ms
  AbandonLobby,      // lobby: nobody connected (or a seat stayed away) for abandon_after_ms
  Forfeit,           // running: `seat`, the only player left, wins
  AbandonDeserted,   // running: no person connected for abandon_after_ms
  SkipTurn,          // running: `seat`'s turn is skipped
};
struct Action {
  Due due = Due::Nothing;
  game::Seat seat = game::kNoSeat;
  friend bool operator==(const Action&, const Action&) = default;
};

// The one thing to do at `now` with clocks as update() left them, in this order
// of precedence: freeing late seats, giving up a lobby, forfeit, desertion, a
// skip the rules call for at once (Wait::SkipNow), a skip after the turn grace.
Action due(const Situation& s, const Clocks& clocks, const Settings& settings, std::int64_t now);

// The timer that will act first (what clients are told as `deadline`), or kind None.
Deadline next(const Situation& s, const Clocks& clocks, const Settings& settings);

}  // namespace eryantis::server::timers
