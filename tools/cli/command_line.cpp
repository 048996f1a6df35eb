#include "command_line.hpp"

#include <algorithm>
#include <charconv>

#include "eryantis/eriantys/words/words.hpp"

// The platform's words (the lobby, the client's own commands) around the game's,
// which eryantis/eriantys/words/words.hpp parses, prints, explains and completes.
namespace eryantis::cli {

namespace {

std::optional<long long> number(const std::string& w) {
  long long v = 0;
  auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size()) return std::nullopt;
  return v;
}

using Parsed = std::expected<std::optional<Action>, std::string>;
Parsed error(std::string message) {
  return std::unexpected(std::move(message));
}
Parsed action(Action a) {
  return std::optional<Action>(std::move(a));
}

}  // namespace

Parsed parse_line(std::string_view line) {
  const auto w = eriantys::words::split(line);
  if (w.empty()) return std::optional<Action>{};
  const std::string& verb = w[0];
  auto arg_number = [&](std::size_t i, long long lo, long long hi) -> std::optional<long long> {
    if (w.size() <= i) return std::nullopt;
    auto n = number(w[i]);
    if (!n || *n < lo || *n > hi) return std::nullopt;
    return n;
  };
  if (verb == "help" || verb == "?") {
    if (w.size() > 2) return error("usage: help [character or turn], e.g. help jester");
    if (w.size() == 2) {
      if (!eriantys::words::help(w[1])) return error(eriantys::words::help_topics_sentence(w[1]));
      return action(Help{w[1]});
    }
    return action(Help{});
  }
  if (verb == "resign") {
    if (w.size() == 1) return action(Resign{});
    if (w.size() == 2 && w[1] == "yes") return action(Resign{true});
    return error("usage: resign (then resign yes to confirm)");
  }
  if (verb == "quit" || verb == "exit") return action(Quit{});
  if (verb == "board") return action(ShowBoard{});
  if (verb == "moves" || verb == "hint") return action(ShowMoves{});
  if (verb == "auto") return action(AutoMove{});
  if (verb == "autoplay") return action(AutoPlay{});
  if (verb == "wait") return action(WaitTurn{});
  if (verb == "list" || verb == "lobby") return action(LobbyList{});
  if (verb == "leave") return action(LobbyLeave{});
  if (verb == "create") {
    auto players = arg_number(1, 2, 4);
    if (!players)
      return error(
          "usage: create <2|3|4> [simple|expert] [--computer N] [--level random|greedy|strong]");
    LobbyCreate create{{static_cast<std::uint8_t>(*players), rules::Mode::Simple}, 0, {}};
    for (std::size_t i = 2; i < w.size(); ++i) {
      if (w[i] == "expert") {
        create.options.mode = rules::Mode::Expert;
      } else if (w[i] == "simple") {
        create.options.mode = rules::Mode::Simple;
      } else if (w[i] == "--computer" || w[i] == "--computers") {
        auto n = arg_number(i + 1, 1, *players - 1);
        if (!n)
          return error("--computer takes how many seats the computer plays: 1 to " +
                       std::to_string(*players - 1) + " (at least one seat is yours)");
        create.computers = static_cast<int>(*n);
        ++i;
      } else if (w[i] == "--level") {
        if (i + 1 >= w.size() ||
            (w[i + 1] != "random" && w[i + 1] != "greedy" && w[i + 1] != "strong"))
          return error("--level is random, greedy or strong");
        create.level = w[++i];
      } else {
        return error(
            "the mode is simple or expert (then --computer N, --level random|greedy|strong)");
      }
    }
    if (!create.level.empty() && create.computers == 0) create.computers = 1;
    return action(std::move(create));
  }
  if (verb == "join" || verb == "watch") {
    auto match = arg_number(1, 1, 1LL << 62);
    if (!match)
      return error("usage: " + verb + " <match number>" + (verb == "join" ? " [seat]" : ""));
    if (verb == "watch") return action(Watch{*match});
    std::optional<int> seat;
    if (w.size() > 2) {
      auto s = arg_number(2, 0, 3);
      if (!s) return error("a seat is 0 to 3");
      seat = static_cast<int>(*s);
    }
    return action(LobbyJoin{*match, seat});
  }
  if (verb == "quick") {
    LobbyQuick q;
    for (std::size_t i = 1; i < w.size(); ++i) {
      if (w[i] == "simple")
        q.mode = rules::Mode::Simple;
      else if (w[i] == "expert")
        q.mode = rules::Mode::Expert;
      else if (auto n = arg_number(i, 2, 4))
        q.players = static_cast<int>(*n);
      else
        return error("usage: quick [2|3|4] [simple|expert]");
    }
    return action(q);
  }
  if (eriantys::words::is_verb(verb)) {
    auto command = eriantys::words::parse_command(line);
    if (!command) return error(std::move(command.error()));
    return action(GameCommand{std::move(**command)});
  }
  return error("unknown command \"" + verb + "\"; type help");
}

std::string command_text(const rules::Command& command) {
  return eriantys::words::command_text(command);
}

const std::vector<std::string>& command_words() {
  static const std::vector<std::string> w = [] {
    std::vector<std::string> out = {"help",  "list",  "create", "join", "quick", "leave",
                                    "watch", "board", "moves",  "auto", "autoplay", "wait",
                                    "quit"};
    for (const auto& v : eriantys::words::verbs()) out.push_back(v);
    out.push_back("resign");
    return out;
  }();
  return w;
}

std::string help_text() {
  // Paragraphs, one line each, wrapped by the client (wrap.hpp).
  return std::string(R"(Lobby
  list                         open and running matches
  create <2|3|4> [expert]      a new match (simple mode unless you say expert)
  create ... --computer N      with N seats played by the computer (create 2 --computer 1)
  create ... --level L         the computer's level: random, greedy or strong
  join <match> [seat]          take a seat (4 players: seats 0+2 and 1+3 are teams)
  quick [2|3|4] [expert]       the first open match that fits, or a new one
  watch <match>                spectate
  leave                        give your seat back in a match that has not started
)") + *eriantys::words::help("") +
         R"(Other
  resign                       give up the match (your team loses)
  board                        the board again
  moves                        what you may type now
  auto                         a random legal move
  wait                         wait for your turn
  autoplay                     random moves until the game ends
  help [topic]                 this help, or a character's or the turn's
  quit                         leave the client (your seat stays yours)

)" + *eriantys::words::help("turn");
}

std::expected<std::string, std::string> help_topic(std::string_view topic) {
  if (auto text = eriantys::words::help(topic); text && !topic.empty()) return *text;
  return std::unexpected(eriantys::words::help_topics_sentence(topic));
}

std::vector<std::string> completions(std::string_view before, std::string_view word,
                                     const std::vector<rules::Command>& legal) {
  const std::vector<std::string> typed = eriantys::words::split(before);
  const std::size_t at = typed.size();  // the index of the word being completed
  if (at > 0 && eriantys::words::is_verb(typed[0]))
    return eriantys::words::completions(before, word, legal);
  std::vector<std::string> candidates;
  auto add = [&](std::string w) {
    if (std::find(candidates.begin(), candidates.end(), w) == candidates.end())
      candidates.push_back(std::move(w));
  };
  auto range = [&](int lo, int hi) {
    for (int i = lo; i <= hi; ++i) add(std::to_string(i));
  };
  if (at == 0) {
    for (const auto& w : command_words()) add(w);
  } else {
    const std::string& verb = typed[0];
    if ((verb == "create" || verb == "quick") && at == 1) range(2, 4);
    if ((verb == "create" || verb == "quick") && at == 2)
      for (const char* m : {"simple", "expert"}) add(m);
    if (verb == "create" && at >= 2) {
      const std::string& previous = typed[at - 1];
      if (previous == "--level") {
        candidates.clear();
        for (const char* l : {"random", "greedy", "strong"}) add(l);
      } else if (previous == "--computer") {
        candidates.clear();
        range(1, 3);
      } else {
        for (const char* f : {"--computer", "--level"}) add(f);
      }
    }
    if (verb == "join" && at == 2) range(0, 3);
    if (verb == "resign" && at == 1) add("yes");
    if (verb == "help" && at == 1)
      for (const auto& t : eriantys::words::help_topics()) add(t);
  }
  std::vector<std::string> out;
  for (const auto& c : candidates)
    if (c.compare(0, word.size(), word) == 0) out.push_back(c);
  return out;
}

}  // namespace eryantis::cli
