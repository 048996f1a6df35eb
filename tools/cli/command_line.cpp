#include "command_line.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "eryantis/util/words.hpp"

// The platform's words (the lobby, the client's own commands) around the game's,
// which the game parses, prints, explains and completes (game::Game's words).
namespace eryantis::cli {

namespace {

bool is_eriantys(const std::string& game) {
  return game.empty() || game == "eriantys";
}

// True when `verb` is the first word of one of `game`'s commands: the game reads
// it as a command or says what must follow it.
bool is_game_word(const game::Game& game, std::string_view verb) {
  auto parsed = game.command_from_words(verb);
  return !parsed || parsed->has_value();
}

// "no help on "x": the topics are turn, monk, ..." from the game's own topics.
std::string help_topics_sentence(const game::Game& game, std::string_view asked) {
  std::string topics;
  for (const auto& t : game.help_topics()) {
    if (t.empty()) continue;
    if (!topics.empty()) topics += ", ";
    topics += t;
  }
  std::string out = "no help on \"" + std::string(asked) + "\"";
  if (!topics.empty()) out += ": help " + topics;
  return out;
}

std::optional<long long> number(const std::string& w) {
  long long v = 0;
  auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size()) return std::nullopt;
  return v;
}

// split_words without the lower-casing: the same words, as typed (an invite code's case counts).
std::vector<std::string> split_keeping_case(std::string_view line) {
  std::vector<std::string> out;
  std::string w;
  for (char c : line) {
    if (c == ' ' || c == '\t' || c == '\r') {
      if (!w.empty()) out.push_back(std::move(w)), w.clear();
    } else {
      w.push_back(c);
    }
  }
  if (!w.empty()) out.push_back(std::move(w));
  return out;
}

using Parsed = std::expected<std::optional<Action>, std::string>;
Parsed error(std::string message) {
  return std::unexpected(std::move(message));
}
Parsed action(Action a) {
  return std::optional<Action>(std::move(a));
}

}  // namespace

std::vector<std::string> split_words(std::string_view line) { return util::split_words(line); }

std::optional<JoinLink> parse_join_link(std::string_view text) {
  const auto hash = text.find('#');
  if (hash == std::string_view::npos) return std::nullopt;
  std::string_view rest = text.substr(hash + 1);
  std::optional<long long> match;
  std::string code;
  while (!rest.empty()) {
    const auto amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    if (pair.starts_with("join=")) match = number(std::string(pair.substr(5)));
    if (pair.starts_with("code=")) code = std::string(pair.substr(5));
  }
  const bool code_ok = !code.empty() && code.size() <= 64 &&
                       std::all_of(code.begin(), code.end(), [](char c) {
                         return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
                       });
  if (!match || *match < 1 || !code_ok) return std::nullopt;
  return JoinLink{*match, std::move(code)};
}

Parsed parse_line(std::string_view line, const game::Game& game) {
  const auto w = split_words(line);
  if (w.empty()) return std::optional<Action>{};
  const std::string& verb = w[0];
  if (verb == "say" || verb == "chat") {
    // The text as typed: after the verb and the blanks that follow it.
    std::string_view rest = line;
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    rest.remove_prefix(std::min(rest.size(), verb.size()));
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t' || rest.back() == '\r'))
      rest.remove_suffix(1);
    if (rest.empty()) return error("usage: say <text>, e.g. say good luck");
    return action(Say{std::string(rest)});
  }
  auto arg_number = [&](std::size_t i, long long lo, long long hi) -> std::optional<long long> {
    if (w.size() <= i) return std::nullopt;
    auto n = number(w[i]);
    if (!n || *n < lo || *n > hi) return std::nullopt;
    return n;
  };
  if (verb == "help" || verb == "?") {
    if (w.size() > 2) return error("usage: help [character or turn], e.g. help jester");
    if (w.size() == 2) {
      if (!game.help(w[1])) return error(help_topics_sentence(game, w[1]));
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
  // --game NAME at `i` (then i moves past it): false when the name is missing.
  auto game_flag = [&](std::size_t& i, std::string& out) {
    if (w[i] != "--game") return false;
    if (i + 1 >= w.size()) return false;
    out = w[++i];
    return true;
  };
  if (verb == "create") {
    auto players = arg_number(1, 1, game::kMaxSeats);
    if (!players)
      return error(
          "usage: create <2|3|4> [simple|expert] [--computer N] [--level random|greedy|strong] "
          "[--game NAME]");
    LobbyCreate create;
    create.players = static_cast<int>(*players);
    bool mode_typed = false;
    for (std::size_t i = 2; i < w.size(); ++i) {
      if (w[i] == "expert" || w[i] == "simple") {
        create.mode = w[i];
        mode_typed = true;
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
      } else if (w[i] == "--game") {
        if (!game_flag(i, create.game)) return error("--game takes a game's name, e.g. --game eriantys");
      } else if (w[i] == "--private") {
        create.private_match = true;
      } else if (w[i] == "--takeover") {
        if (i + 1 >= w.size() ||
            (w[i + 1] != "random" && w[i + 1] != "greedy" && w[i + 1] != "strong"))
          return error("--takeover is random, greedy or strong: the computer that takes the seat "
                       "of a player who leaves");
        if (*players < 3)
          return error("--takeover needs 3 or 4 players: with 2, a player who leaves ends the "
                       "match");
        create.takeover = w[++i];
      } else if (w[i] == "--clock") {
        // The server checks the text (BAD_TIME_CONTROL): "10+5", "15m", "24h/turn".
        if (i + 1 >= w.size() || w[i + 1].starts_with("--"))
          return error("--clock takes a time control, e.g. --clock 10+5, --clock 15m or "
                       "--clock 24h/turn");
        create.clock = w[++i];
      } else if (w[i] == "--on-timeout") {
        if (i + 1 >= w.size() ||
            (w[i + 1] != "skip" && w[i + 1] != "computer" && w[i + 1] != "forfeit"))
          return error("--on-timeout is skip, computer or forfeit: what a seat out of time gets");
        create.on_timeout = w[++i];
      } else {
        return error(
            "the mode is simple or expert (then --computer N, --level random|greedy|strong, "
            "--game NAME)");
      }
    }
    if (is_eriantys(create.game)) {
      // Eriantys is played by 2 to 4; the server says it for any other game.
      if (*players < 2)
        return error(
            "usage: create <2|3|4> [simple|expert] [--computer N] [--level random|greedy|strong] "
            "[--game NAME]");
      if (!mode_typed) create.mode = "simple";
    } else if (mode_typed) {
      return error("simple and expert are Eriantys's modes; " + create.game + " has none");
    }
    if (!create.level.empty() && create.computers == 0) create.computers = 1;
    return action(std::move(create));
  }
  if (verb == "join" || verb == "watch") {
    // The words as typed: an invite code is case-sensitive.
    const auto typed = split_keeping_case(line);
    if (w.size() == 2) {
      if (auto link = parse_join_link(typed[1])) {
        if (verb == "watch") return action(Watch{link->match, link->code});
        return action(LobbyJoin{link->match, std::nullopt, link->code});
      }
    }
    auto match = arg_number(1, 1, 1LL << 62);
    const std::string usage = "usage: " + verb + " <match number>" +
                              (verb == "join" ? " [seat] [invite code], or join <invite link>"
                                              : " [invite code]");
    if (!match) return error(usage);
    if (verb == "watch") {
      if (w.size() > 3) return error(usage);
      return action(Watch{*match, w.size() == 3 ? typed[2] : ""});
    }
    std::optional<int> seat;
    std::string code;
    for (std::size_t i = 2; i < w.size(); ++i) {
      if (!seat && code.empty() && w[i].size() <= 2 && number(w[i])) {
        auto s = arg_number(i, 0, 3);
        if (!s) return error("a seat is 0 to 3");
        seat = static_cast<int>(*s);
      } else if (code.empty()) {
        code = typed[i];
      } else {
        return error(usage);
      }
    }
    return action(LobbyJoin{*match, seat, code});
  }
  if (verb == "logout") {
    if (w.size() == 1) return action(Logout{false});
    if (w.size() == 2 && w[1] == "all") return action(Logout{true});
    return error("usage: logout [all] (all: every session of your account, on every device)");
  }
  if (verb == "revoke") {
    if (w.size() == 1) return action(RevokeInvite{true});
    if (w.size() == 2 && w[1] == "--none") return action(RevokeInvite{false});
    return error("usage: revoke [--none] (a new invite code replaces the old one; --none: no code)");
  }
  if (verb == "quick") {
    LobbyQuick q;
    for (std::size_t i = 1; i < w.size(); ++i) {
      if (w[i] == "simple" || w[i] == "expert")
        q.mode = w[i];
      else if (auto n = arg_number(i, 1, game::kMaxSeats))
        q.players = static_cast<int>(*n);
      else if (w[i] == "--game" && game_flag(i, q.game))
        continue;
      else
        return error("usage: quick [2|3|4] [simple|expert] [--game NAME]");
    }
    if (q.mode && !is_eriantys(q.game))
      return error("simple and expert are Eriantys's modes; " + q.game + " has none");
    if (q.players && *q.players < 2 && is_eriantys(q.game))
      return error("usage: quick [2|3|4] [simple|expert] [--game NAME]");
    return action(q);
  }
  if (is_game_word(game, verb)) {
    auto command = game.command_from_words(line);
    if (!command) return error(std::move(command.error()));
    if (!*command) return error("unknown command \"" + verb + "\"; type help");
    return action(GameCommand{std::move(**command)});
  }
  return error("unknown command \"" + verb + "\"; type help");
}

std::string command_text(const game::Game& game, const game::Command& command) {
  return game.command_words(command);
}

std::vector<std::string> command_words(const game::Game& game) {
  std::vector<std::string> out = {"help",  "list",  "create", "join", "quick",    "leave",
                                  "watch", "board", "moves",  "auto", "autoplay", "wait",
                                  "say",   "revoke", "logout", "quit"};
  // With nothing typed before it, the game completes its own first words.
  for (auto& v : game.complete_words("", "", {})) out.push_back(std::move(v));
  out.push_back("resign");
  return out;
}

std::string help_text(const game::Game& game) {
  // Paragraphs, one line each, wrapped by the client (wrap.hpp).
  return std::string(R"(Lobby
  list                         open and running matches
  create <2|3|4> [expert]      a new match (simple mode unless you say expert)
  create ... --computer N      with N seats played by the computer (create 2 --computer 1)
  create ... --level L         the computer's level: random, greedy or strong
  create ... --game NAME       a match of another game the server plays
  create ... --private         not listed: friends join with its invite code
  create ... --takeover L      3-4 players: a computer (level L) takes the seat of one who leaves
  create ... --clock C         a clock for each seat: 10+5, 15m, 5m;d3s, 24h/turn
  create ... --on-timeout R    with --clock: skip (default), computer or forfeit when one runs out
  join <match> [seat]          take a seat (4 players: seats 0+2 and 1+3 are teams)
  join <match> <code>          a private match, with its invite code (or: join <invite link>)
  revoke [--none]              a new invite code for your private match (--none: no code)
  quick [2|3|4] [expert]       the first open match that fits, or a new one
  watch <match> [code]         spectate
  logout [all]                 an account (--login): end this session (all: everywhere) and quit
  leave                        give your seat back in a match that has not started (with --takeover: any time, a computer plays on)
)") + game.help("").value_or("") +
         R"(Other
  resign                       give up the match (your team loses)
  board                        the board again
  moves                        what you may type now
  auto                         a random legal move
  wait                         wait for your turn
  autoplay                     random moves until the game ends
  help [topic]                 this help, or a character's or the turn's
  say <text>                   chat: to the match's players (watching: to its spectators)
  quit                         leave the client (your seat stays yours)

)" + game.help("turn").value_or("");
}

std::expected<std::string, std::string> help_topic(std::string_view topic,
                                                   const game::Game& game) {
  if (auto text = game.help(topic); text && !topic.empty()) return *text;
  return std::unexpected(help_topics_sentence(game, topic));
}

std::vector<std::string> completions(std::string_view before, std::string_view word,
                                     const std::vector<game::Command>& legal,
                                     const game::Game& game) {
  const std::vector<std::string> typed = split_words(before);
  const std::size_t at = typed.size();  // the index of the word being completed
  if (at > 0 && is_game_word(game, typed[0])) return game.complete_words(before, word, legal);
  std::vector<std::string> candidates;
  auto add = [&](std::string w) {
    if (std::find(candidates.begin(), candidates.end(), w) == candidates.end())
      candidates.push_back(std::move(w));
  };
  auto range = [&](int lo, int hi) {
    for (int i = lo; i <= hi; ++i) add(std::to_string(i));
  };
  if (at == 0) {
    for (const auto& w : command_words(game)) add(w);
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
      } else if (previous == "--game") {
        candidates.clear();
        for (const game::Game* g : catalogue::games().games()) add(std::string(g->name()));
      } else {
        for (const char* f : {"--computer", "--level"}) add(f);
      }
    }
    if (verb == "join" && at == 2) range(0, 3);
    if (verb == "resign" && at == 1) add("yes");
    if (verb == "help" && at == 1)
      for (const auto& t : game.help_topics())
        if (!t.empty()) add(t);
  }
  std::vector<std::string> out;
  for (const auto& c : candidates)
    if (c.compare(0, word.size(), word) == 0) out.push_back(c);
  return out;
}

}  // namespace eryantis::cli

