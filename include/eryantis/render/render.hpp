#pragma once
// Pure text rendering of the rules' values for people: the whole board of a
// match, and one sentence per event. No I/O, no clock, no globals: the replay
// tool and the terminal client both print what these functions return.
//
//   render_board(state, options)           -> the board, ~40 lines of at most 100 columns
//   describe_event(before, event, after)   -> "alice moved Mother Nature 2 steps → island 7, ..."
//
// Everything here is derived from the states alone (and the event's command),
// so it works the same on a live match, a replay and a spectator's view.
#include <array>
#include <string>
#include <string_view>

#include "eryantis/rules/color.hpp"
#include "eryantis/rules/command.hpp"
#include "eryantis/rules/event.hpp"
#include "eryantis/rules/state.hpp"

namespace eryantis::render {

// Nicknames by seat; an empty entry is shown as "seat N".
using Names = std::array<std::string, rules::kMaxPlayers>;

struct RenderOptions {
  Names names{};       // nicknames per seat (optional)
  bool color = false;  // ANSI colours and bold; false = plain text, no escape sequences
  rules::Seat viewer =
      rules::kNoSeat;  // the seat looking at the board ("you"); kNoSeat = spectator
  // The 80x24 layout: at most 80 columns and 22 lines for 4 players (two island
  // columns, two lines per school board), the status line ("Your turn: ...") last
  // so that it stays right above the prompt.
  bool compact = false;
  // Seats whose player is not connected, marked "(away)" on the compact board
  // (the terminal client knows it from the server's `seats`).
  std::array<bool, rules::kMaxPlayers> away{};
};

// The whole board as text, one '\n'-terminated line each: header (round, phase,
// whose turn and what they may do, or the result), the island groups in circle
// order (a table with headers), the clouds, the characters (expert) and every
// school board, whose hand shows each assistant's Mother Nature steps ("7:4").
// Without colour every line is at most 100 columns (80 compact; UTF-8 code
// points) and pure ASCII.
std::string render_board(const rules::State& state, const RenderOptions& options = {});

// One line in words (no trailing newline) saying what `event` did, turning
// `before` into `after` (= rules::apply(before, event)). Consequences are derived
// by comparing the two states: conquests, merges, professors changing hands,
// coins earned, the phase or round changing, the game ending. Examples:
//   "bob played assistant 7 (Mother Nature up to 4)"
//   "alice moved Mother Nature 2 steps → island 7, conquered it (black tower)"
//   "alice used the Jester: swapped red, red from the card for blue, green"
// Callers add their own prefix (seq, round) if they want one.
std::string describe_event(const rules::State& before, const rules::Event& event,
                           const rules::State& after, const Names& names = {});

// The move log of a whole match: the events in seq order, each with the state it
// led to (as a fold hands them over, store::FoldPolicy::on_event), said one
// sentence each with describe_event; the first event starts from the empty state.
// What the server's `move_log` answer and the replay viewer's log are made of.
class MoveLog {
 public:
  explicit MoveLog(const Names& names = {}) : names_(names) {}
  std::string next(const rules::Event& event, const rules::State& after);

 private:
  Names names_;
  rules::State before_{};
};

// --- small helpers, shared with the terminal client ---------------------------

// names[seat] if set, else "seat N"; "server" for kNoSeat.
std::string seat_name(const Names& names, rules::Seat seat);
// One upper-case letter per colour: Y B G R P.
char color_letter(rules::Color c);
// "Mother Nature", "Grandma Herbs", ...: a character's name for people.
std::string character_title(rules::CharacterId id);
// The tiles of a group as "7" or "6-8" (wrapping: "11-1").
std::string group_label(const rules::State& state, int group);
// Why a game ended, in words: "last tower built", "forfeit", ...; "not over".
std::string_view end_reason_text(rules::EndReason reason);
// Students as "Y2 B1 R3" (only the colours present; "-" when empty).
std::string students_text(const rules::Students& students);
// What `seat` may do now, from rules::legal_commands, in words
// ("move a student (1 of 3 moved), use a character"); empty when nothing.
std::string legal_summary(const rules::State& state, rules::Seat seat);

}  // namespace eryantis::render
