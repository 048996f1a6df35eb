#pragma once
// Eriantys as a person types it: the game's own words, shared by the terminal
// client (tools/cli, which adds the platform's lobby words around them) and by the
// game's adapter (Game::command_from_words, help, complete_words). Pure: no I/O.
//   play 7 | dining red | island red 4 | mn 2 | cloud 1 | wizard 2 | tower black
//   char herald 5 | char jester r,r for b,g | char minstrel blue for red | ...
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/rules/command.hpp"

namespace eryantis::eriantys::words {

// The line split at blanks, lower-cased: the words every parser here reads.
std::vector<std::string> split(std::string_view line);

// The first words of the game's commands (wizard, tower, play, ..., char).
const std::vector<std::string>& verbs();
bool is_verb(std::string_view word);

// An empty line is nullopt; a mistake (an unknown verb too) is a sentence saying
// what to type.
std::expected<std::optional<rules::Command>, std::string> parse_command(std::string_view line);

// The command as a person would type it ("island red 4", "char jester red for blue");
// parse_command reads it back as the same command.
std::string command_text(const rules::Command& command);

// Help: "" is the game's overview (its commands and how a turn goes), then a topic
// per character and "turn". nullopt for a topic the game does not have.
std::vector<std::string> help_topics();
std::optional<std::string> help(std::string_view topic);
// The sentence listing the topics, for a `help` with an unknown one.
std::string help_topics_sentence(std::string_view asked);

// Tab completion of a game command: the words that may follow `before` (the line
// up to the word being completed) and start with `word`. The values come from
// `legal` (the seat's legal commands now) when it holds commands of that kind, else
// from the argument's whole domain (wizard -> 0 1 2 3, island -> colours then 0-11).
// `before` empty: the verbs.
std::vector<std::string> completions(std::string_view before, std::string_view word,
                                     std::span<const rules::Command> legal = {});

}  // namespace eryantis::eriantys::words
