#pragma once
// Masters of Renaissance in words: the move log's sentences, the text board of the terminal client,
// what a seat may do now, help, and the words a person types for each command (with Tab
// completion). Pure text from the rules' values: no I/O, no JSON. docs/renaissance/protocol.md
// section 9 lists the words.
#include <array>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/renaissance/rules/command.hpp"
#include "eryantis/renaissance/rules/event.hpp"
#include "eryantis/renaissance/rules/state.hpp"

namespace eryantis::renaissance::render {

// Nicknames by seat; "" = "seat N".
using Names = std::array<std::string, kMaxPlayers>;

// One line (no newline) saying what `event` did, turning `before` into `after`: "alice took the
// 2nd row from the market: 2 coins, 1 faith". Says nothing a viewer may not know (the ids of
// leaders kept or discarded, the cards under a deck's top), whichever event it is given.
std::string describe_event(const State& before, const Event& event, const State& after,
                           const Names& names);

struct BoardOptions {
  Names names{};
  bool color = false;     // ANSI colours for the marbles; false: plain text
  Seat viewer = kNoSeat;  // whose board this is ("you", listed first); kNoSeat: a spectator
  // At most 80 columns; 2 players fit in 22 lines (the terminal client's screen).
  bool compact = false;
  std::array<bool, kMaxPlayers> away{};  // seats whose player is not connected
};
// The board as '\n'-terminated lines: the market, the development grid, every personal board.
std::string render_board(const State& s, const BoardOptions& options);

// What `seat` may do now, in words ("take from the market, buy a card or produce"); "" when
// nothing.
std::string legal_summary(const State& s, Seat seat);

// Help: the topics (each action, each leader kind, the turn, the solo game, the words) and each
// one's text; help("") is the overview.
std::vector<std::string> help_topics();
std::optional<std::string> help(std::string_view topic);

// The words of the terminal client. A line typed as words ("market row 2", "buy 2 purple slot 1"):
// its command, nullopt when its first word is none of this game's (the client's own words), or a
// sentence saying what to type.
std::expected<std::optional<Command>, std::string> command_from_words(std::string_view line);
// The words that type `command` back: command_from_words(command_words(c)) == c for every command
// a player may send.
std::string command_words(const Command& command);
// Tab completion: the words that may follow `before` (the line up to the word being completed)
// and start with `word`, taken from `legal` (the seat's legal commands now); with `before` empty,
// this game's first words.
std::vector<std::string> complete_words(std::string_view before, std::string_view word,
                                        std::span<const Command> legal);

}  // namespace eryantis::renaissance::render
