#pragma once
// What a person types into eryantis-cli, parsed into an action. Pure: no I/O.
// The client's own words (the lobby and the session):
//   list | create 2 expert [--computer 1] [--level strong] [--game NAME] [--private]
//   | join 3 [seat] [code] | join http://host:port/#join=3&code=CODE | revoke [--none]
//   | quick [players] [mode] [--game NAME] | leave | watch 3 [code] | board | moves | auto
//   | autoplay | wait | help [topic] | resign [yes] | say TEXT | logout [all] | quit
// around the words of the game in front of the player (game::Game::command_from_words,
// complete_words, help), e.g. Eriantys's play 7 | island red 4 | char jester r,r for b,g.
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "eryantis/catalogue/catalogue.hpp"
#include "eryantis/game/game.hpp"
#include "eryantis/game/registry.hpp"

namespace eryantis::cli {

struct GameCommand {
  game::Command command;  // of the game the line was read with
};
struct LobbyList {};
struct LobbyCreate {
  std::string game;  // --game NAME; "" = the server's default game (Eriantys)
  int players = 2;
  // Eriantys's mode: "simple" unless `expert` is typed; "" for another game.
  std::string mode;
  int computers = 0;  // --computer N: seats for the server's computer players
  std::string level;  // --level random|greedy|strong; "" = the server's default
  bool private_match = false;  // --private: never listed; friends join with its invite code
  // --takeover random|greedy|strong: a computer takes the seat of a player who leaves
  // the started match (3 or 4 seats); "" = none.
  std::string takeover = {};
  // --clock TEXT (the server checks it) and --on-timeout skip|computer|forfeit; "" = none.
  std::string clock = {};
  std::string on_timeout = {};
};
struct LobbyJoin {
  std::int64_t match = 0;
  std::optional<int> seat;
  std::string code = {};  // a private match's invite code, as typed ("" = none)
};
// revoke [--none]: the creator of a private match replaces its invite code (or removes it).
struct RevokeInvite {
  bool renew = true;
};
struct LobbyQuick {
  std::optional<int> players;
  std::optional<std::string> mode;  // Eriantys's "simple" or "expert"
  std::string game;                 // --game NAME; "" = the server's default game
};
struct LobbyLeave {};
struct Watch {
  std::int64_t match = 0;
  std::string code = {};  // a private match's invite code ("" = none)
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
// say TEXT: a chat message to my match's channel (its players', or its spectators'
// when watching), the text as typed (case and spaces kept).
struct Say {
  std::string text;
};

// logout [all]: ends this account session (all: every session of the account), forgets
// the saved session secret and quits.
struct Logout {
  bool all = false;
};

using Action =
    std::variant<GameCommand, LobbyList, LobbyCreate, LobbyJoin, LobbyQuick, LobbyLeave, Watch,
                 ShowBoard, ShowMoves, AutoMove, WaitTurn, AutoPlay, Help, Resign, Quit, Say,
                 RevokeInvite, Logout>;

// An invite link (http://host:port/#join=7&code=CODE, or only its #join=... part): the
// match and the code (case kept), or nullopt when `text` holds no join link.
struct JoinLink {
  std::int64_t match = 0;
  std::string code;
};
std::optional<JoinLink> parse_join_link(std::string_view text);

// The game whose words are read when no match is in front of the player: the
// build's default game (Eriantys).
inline const game::Game& default_game() {
  return catalogue::games().default_game();
}

// The line split at blanks, lower-cased.
std::vector<std::string> split_words(std::string_view line);

// An empty line is nullopt; a mistake is an error sentence saying what to type.
// Game commands are `game`'s (the match's, else the default game's).
std::expected<std::optional<Action>, std::string> parse_line(
    std::string_view line, const game::Game& game = default_game());

// The command as a person would type it ("island red 4", "char jester red for blue").
std::string command_text(const game::Game& game, const game::Command& command);

// The words tab completion offers as the first word: the client's and `game`'s.
std::vector<std::string> command_words(const game::Game& game = default_game());

// The help screen: every command, and how a turn goes in `game`.
std::string help_text(const game::Game& game = default_game());
// `help <topic>`: one of `game`'s topics (Eriantys: a character, what it does, its
// parameters, an example; or "turn"); an error sentence listing the topics for
// anything else.
std::expected<std::string, std::string> help_topic(std::string_view topic,
                                                   const game::Game& game = default_game());

// Tab completion: the words that may follow `before` (the line up to the word
// being completed) and start with `word`. For game commands `game` completes
// them, the values taken from `legal` (my legal commands now) when it holds
// commands of that kind, else from the argument's whole domain (Eriantys: wizard
// -> 0 1 2 3, island -> colours then 0-11).
std::vector<std::string> completions(std::string_view before, std::string_view word,
                                     const std::vector<game::Command>& legal = {},
                                     const game::Game& game = default_game());

}  // namespace eryantis::cli
