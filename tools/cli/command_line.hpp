#pragma once
// What a person types into eryantis-cli, parsed into an action. Pure: no I/O.
//   play 7 | dining red | island red 4 | mn 2 | cloud 1 | wizard 2 | tower black
//   char herald 5 | char jester r,r for b,g | char minstrel blue for red | ...
//   list | create 2 expert [--computer 1] [--level strong] | join 3 [seat] | quick [players] [mode]
//   | leave | watch 3 board | moves | auto | autoplay | wait | help [topic] | resign [yes] | quit
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "eryantis/rules/command.hpp"

namespace eryantis::cli {

struct GameCommand {
  rules::Command command;
};
struct LobbyList {};
struct LobbyCreate {
  rules::MatchOptions options;
  int computers = 0;  // --computer N: seats for the server's computer players
  std::string level;  // --level random|greedy|strong; "" = the server's default
};
struct LobbyJoin {
  std::int64_t match = 0;
  std::optional<int> seat;
};
struct LobbyQuick {
  std::optional<int> players;
  std::optional<rules::Mode> mode;
};
struct LobbyLeave {};
struct Watch {
  std::int64_t match = 0;
};
struct ShowBoard {};
struct ShowMoves {};
struct AutoMove {};  // a random legal move: for the impatient, and for scripts
struct WaitTurn {};  // hold the following input until it is my turn (or the game ends)
struct AutoPlay {};  // random legal moves whenever it is my turn, until the game ends
struct Help {
  std::string topic;  // "" = the whole help; a character ("jester") or "turn"
};
struct Resign {
  bool confirmed = false;  // `resign yes`: a plain `resign` only says what it would do
};
struct Quit {};

using Action =
    std::variant<GameCommand, LobbyList, LobbyCreate, LobbyJoin, LobbyQuick, LobbyLeave, Watch,
                 ShowBoard, ShowMoves, AutoMove, WaitTurn, AutoPlay, Help, Resign, Quit>;

// An empty line is nullopt; a mistake is an error sentence saying what to type.
std::expected<std::optional<Action>, std::string> parse_line(std::string_view line);

// The command as a person would type it ("island red 4", "char jester red for blue").
std::string command_text(const rules::Command& command);

// The words tab completion offers as the first word.
const std::vector<std::string>& command_words();

// The help screen: every command, and how a turn goes.
std::string help_text();
// `help <topic>`: a character (what it does, its parameters, an example) or
// "turn"; an error sentence listing the topics for anything else.
std::expected<std::string, std::string> help_topic(std::string_view topic);

// Tab completion: the words that may follow `before` (the line up to the word
// being completed) and start with `word`. For game commands the values come from
// `legal` (my legal commands now) when it holds commands of that kind, else from
// the argument's whole domain (wizard -> 0 1 2 3, island -> colours then 0-11).
std::vector<std::string> completions(std::string_view before, std::string_view word,
                                     const std::vector<rules::Command>& legal = {});

}  // namespace eryantis::cli
