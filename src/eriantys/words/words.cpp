#include "eryantis/eriantys/words/words.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "eryantis/util/words.hpp"

namespace eryantis::eriantys::words {

namespace {

using rules::Color;

using util::split_words;

std::optional<long long> number(const std::string& w) {
  long long v = 0;
  auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size()) return std::nullopt;
  return v;
}

std::optional<Color> color(const std::string& w) {
  if (auto c = rules::parse_color(w)) return c;
  if (w.size() == 1) {
    switch (w[0]) {
      case 'y':
        return Color::Yellow;
      case 'b':
        return Color::Blue;
      case 'g':
        return Color::Green;
      case 'r':
        return Color::Red;
      case 'p':
        return Color::Pink;
      default:
        break;
    }
  }
  return std::nullopt;
}

// "red,red" or "r,b" -> students
std::optional<rules::Students> color_list(const std::string& w) {
  rules::Students s;
  std::string part;
  std::stringstream in(w);
  while (std::getline(in, part, ',')) {
    auto c = color(part);
    if (!c) return std::nullopt;
    s[*c] += 1;
  }
  if (s.empty()) return std::nullopt;
  return s;
}

using Parsed = std::expected<std::optional<rules::Command>, std::string>;
Parsed error(std::string message) {
  return std::unexpected(std::move(message));
}
Parsed game(rules::Command c) {
  return std::optional<rules::Command>(std::move(c));
}

constexpr const char* kColors = "a colour: yellow, blue, green, red, pink (or y, b, g, r, p)";

Parsed character(const std::vector<std::string>& w) {
  if (w.size() < 2) return error("which character? e.g. char herald 5 (see help)");
  const std::string& name = w[1];
  auto need = [&](std::size_t n, const char* usage) -> std::optional<std::string> {
    if (w.size() != n) return std::string("usage: ") + usage;
    return std::nullopt;
  };
  auto island = [&](const std::string& x) -> std::optional<std::uint8_t> {
    auto n = number(x);
    if (!n || *n < 0 || *n > 11) return std::nullopt;
    return static_cast<std::uint8_t>(*n);
  };
  if (name == "monk") {
    if (auto e = need(4, "char monk <colour> <island>")) return error(*e);
    auto c = color(w[2]);
    auto i = island(w[3]);
    if (!c || !i) return error("usage: char monk <colour> <island 0-11>");
    return game(rules::UseMonk{*c, *i});
  }
  if (name == "farmer") return game(rules::UseFarmer{});
  if (name == "postman") return game(rules::UsePostman{});
  if (name == "centaur") return game(rules::UseCentaur{});
  if (name == "knight") return game(rules::UseKnight{});
  if (name == "herald" || name == "herbs" || name == "grandma") {
    if (w.size() != 3 || !island(w[2])) return error("usage: char " + name + " <island 0-11>");
    if (name == "herald") return game(rules::UseHerald{*island(w[2])});
    return game(rules::UseGrandmaHerbs{*island(w[2])});
  }
  if (name == "mushroom" || name == "princess" || name == "thief") {
    auto c = w.size() == 3 ? color(w[2]) : std::nullopt;
    if (!c) return error("usage: char " + name + " <colour>");
    if (name == "mushroom") return game(rules::UseMushroomHunter{*c});
    if (name == "princess") return game(rules::UsePrincess{*c});
    return game(rules::UseThief{*c});
  }
  if (name == "jester" || name == "minstrel") {
    const char* usage = name == "jester" ? "char jester <card colours> for <entrance colours>, "
                                           "e.g. char jester red,red for blue,green"
                                         : "char minstrel <entrance colours> for <dining colours>, "
                                           "e.g. char minstrel red for blue";
    if (w.size() != 5 || w[3] != "for") return error(std::string("usage: ") + usage);
    auto a = color_list(w[2]);
    auto b = color_list(w[4]);
    if (!a || !b) return error(std::string("usage: ") + usage);
    if (name == "jester") return game(rules::UseJester{*a, *b});
    return game(rules::UseMinstrel{*a, *b});
  }
  return error("unknown character \"" + name +
               "\": monk, farmer, herald, postman, herbs, centaur, jester, knight, mushroom, "
               "minstrel, princess, thief");
}

const std::vector<std::string> kVerbs = {"wizard", "tower", "play",  "dining",
                                         "island", "mn",    "cloud", "char"};
// Other spellings a person may type for a verb.
const std::vector<std::string> kSynonyms = {"towers", "assistant", "mother", "character"};

struct CharacterHelp {
  const char* word;     // what to type after `char`
  const char* title;    // its name for people and its base price
  const char* what;     // what it does
  const char* params;   // its parameters
  const char* example;  // one line to type
};

// docs/rules.md section 4, in words for the player about to use it.
constexpr CharacterHelp kCharacterHelp[] = {
    {"monk", "Monk (1 coin)",
     "Holds 4 students. Move one of them to any island; a student from the bag replaces it. "
     "Nothing is resolved there until Mother Nature stops on that island.",
     "the colour of a student on the card, and an island (0-11)", "char monk red 4"},
    {"farmer", "Farmer (2 coins)",
     "For the rest of your turn a tie is enough to take a professor: you win it with at least "
     "as many students of its colour as everyone else (and at least one).",
     "none", "char farmer"},
    {"herald", "Herald (3 coins)",
     "Resolve an island as if Mother Nature had stopped there: influence, towers, merging. "
     "Mother Nature stays where she is and still makes her own move this turn.",
     "the island (0-11)", "char herald 5"},
    {"postman", "Magic Postman (1 coin)",
     "This turn Mother Nature may walk up to 2 steps further than your assistant allows.", "none",
     "char postman"},
    {"herbs", "Grandma Herbs (2 coins)",
     "Put a No-Entry tile on an island: the next time Mother Nature stops there (or the "
     "Herald picks it) the tile goes back to the card and the island is not resolved.",
     "the island (0-11)", "char herbs 7"},
    {"centaur", "Centaur (3 coins)",
     "This turn towers count nothing for influence, on every island resolved (yours too).", "none",
     "char centaur"},
    {"jester", "Jester (1 coin)",
     "Holds 6 students. Swap 1 to 3 of them with as many students of your entrance. Your dining "
     "room is untouched, and the swap is not one of your student moves.",
     "the card's colours, `for`, then your entrance's colours (same count, no colour on both "
     "sides)",
     "char jester red,red for blue,green"},
    {"knight", "Knight (2 coins)",
     "In every influence count this turn you (your team) get 2 extra points.", "none",
     "char knight"},
    {"mushroom", "Mushroom Hunter (3 coins)",
     "Choose a colour: this turn students of that colour give no influence to anyone.",
     "the colour", "char mushroom pink"},
    {"minstrel", "Minstrel (1 coin)",
     "Exchange 1 or 2 students of your entrance with as many of your dining room: the entrance "
     "ones sit down (coins and professors as usual), the dining ones go to the entrance.",
     "your entrance's colours, `for`, then your dining room's colours (same count)",
     "char minstrel red for blue"},
    {"princess", "Spoiled Princess (2 coins)",
     "Holds 4 students. Seat one of them in your dining room; a student from the bag replaces it.",
     "the colour of a student on the card", "char princess yellow"},
    {"thief", "Thief (3 coins)",
     "Choose a colour: every player, you too, puts 3 students of it from the dining room back "
     "into the bag (all they have if fewer).",
     "the colour", "char thief green"},
};

const CharacterHelp* character_help(std::string_view word) {
  if (word == "grandma" || word == "grandma_herbs") word = "herbs";
  if (word == "mushroom_hunter") word = "mushroom";
  if (word == "magic_postman") word = "postman";
  for (const auto& h : kCharacterHelp)
    if (word == h.word) return &h;
  return nullptr;
}

// Written as paragraphs, one line each: the client wraps them to the terminal's width
// (wrap.hpp), continued lines under the paragraph's text column.
constexpr const char* kTurnHelp = R"(A round, for each player in turn:
  Planning   everyone plays an assistant (play <1-10>), lowest card first next: the card's value orders the action phase and its steps (shown in your hand as "7:4") are how far Mother Nature may walk. Nobody may copy a card already played this round unless they hold nothing else.
  Action     in the order of the assistants, each player:
             1. moves 3 students from the entrance (4 with 3 players): dining <colour> or island <colour> <island>. A student in the dining room may win you the professor of its colour (most students of that colour).
             2. moves Mother Nature: mn <steps>, 1 up to the assistant's steps. On the island she reaches, the most influence (students whose professor you hold, plus your towers) builds a tower there; neighbours of one colour merge.
             3. takes a cloud: cloud <n>, its students go to the entrance.
  Expert     once per turn in the action phase, a character: char <name> ... (help <character> explains each one).
The game ends when someone places their last tower, 3 island groups are left, or at the end of the round in which the bag or the assistants ran out: fewest towers left wins.
)";

}  // namespace

std::vector<std::string> split(std::string_view line) {
  return split_words(line);
}

const std::vector<std::string>& verbs() {
  return kVerbs;
}

bool is_verb(std::string_view word) {
  return std::find(kVerbs.begin(), kVerbs.end(), word) != kVerbs.end() ||
         std::find(kSynonyms.begin(), kSynonyms.end(), word) != kSynonyms.end();
}

Parsed parse_command(std::string_view line) {
  const auto w = split_words(line);
  if (w.empty()) return std::optional<rules::Command>{};
  const std::string& verb = w[0];
  auto arg_number = [&](std::size_t i, long long lo, long long hi) -> std::optional<long long> {
    if (w.size() <= i) return std::nullopt;
    auto n = number(w[i]);
    if (!n || *n < lo || *n > hi) return std::nullopt;
    return n;
  };
  if (verb == "wizard") {
    auto n = arg_number(1, 0, 3);
    if (!n) return error("usage: wizard <0-3>");
    return game(rules::ChooseWizard{static_cast<std::uint8_t>(*n)});
  }
  if (verb == "tower" || verb == "towers") {
    auto c = w.size() == 2 ? rules::parse_tower_color(w[1]) : std::nullopt;
    if (!c) return error("usage: tower <black|white|grey>");
    return game(rules::ChooseTowerColor{*c});
  }
  if (verb == "play" || verb == "assistant") {
    auto n = arg_number(1, 1, 10);
    if (!n || w.size() != 2) return error("usage: play <assistant 1-10>");
    return game(rules::PlayAssistant{static_cast<std::uint8_t>(*n)});
  }
  if (verb == "dining") {
    auto c = w.size() == 2 ? color(w[1]) : std::nullopt;
    if (!c) return error(std::string("usage: dining <colour> — ") + kColors);
    return game(rules::MoveToDining{*c});
  }
  if (verb == "island") {
    auto c = w.size() == 3 ? color(w[1]) : std::nullopt;
    auto n = arg_number(2, 0, 11);
    if (!c || !n) return error("usage: island <colour> <island 0-11>, e.g. island red 4");
    return game(rules::MoveToIsland{*c, static_cast<std::uint8_t>(*n)});
  }
  if (verb == "mn" || verb == "mother") {
    auto n = arg_number(1, 1, 12);
    if (!n || w.size() != 2) return error("usage: mn <steps>, e.g. mn 2");
    return game(rules::MoveMotherNature{static_cast<std::uint8_t>(*n)});
  }
  if (verb == "cloud") {
    auto n = arg_number(1, 0, 3);
    if (!n || w.size() != 2) return error("usage: cloud <number>, e.g. cloud 1");
    return game(rules::ChooseCloud{static_cast<std::uint8_t>(*n)});
  }
  if (verb == "char" || verb == "character") return character(w);
  return error("unknown command \"" + verb + "\"; type help");
}

namespace {
std::string list_text(const rules::Students& s) {
  std::string out;
  for (Color c : rules::kAllColors)
    for (int i = 0; i < s[c]; ++i) {
      if (!out.empty()) out += ',';
      out += rules::color_name(c);
    }
  return out;
}
}  // namespace

std::string command_text(const rules::Command& command) {
  using namespace rules;
  return std::visit(
      [](const auto& c) -> std::string {
        using T = std::decay_t<decltype(c)>;
        auto col = [](Color x) { return std::string(color_name(x)); };
        if constexpr (std::is_same_v<T, ChooseWizard>)
          return "wizard " + std::to_string(c.wizard);
        else if constexpr (std::is_same_v<T, ChooseTowerColor>)
          return "tower " + std::string(tower_color_name(c.color));
        else if constexpr (std::is_same_v<T, PlayAssistant>)
          return "play " + std::to_string(c.value);
        else if constexpr (std::is_same_v<T, MoveToDining>)
          return "dining " + col(c.color);
        else if constexpr (std::is_same_v<T, MoveToIsland>)
          return "island " + col(c.color) + " " + std::to_string(c.island);
        else if constexpr (std::is_same_v<T, MoveMotherNature>)
          return "mn " + std::to_string(c.steps);
        else if constexpr (std::is_same_v<T, ChooseCloud>)
          return "cloud " + std::to_string(c.cloud);
        else if constexpr (std::is_same_v<T, UseMonk>)
          return "char monk " + col(c.color) + " " + std::to_string(c.island);
        else if constexpr (std::is_same_v<T, UseFarmer>)
          return "char farmer";
        else if constexpr (std::is_same_v<T, UseHerald>)
          return "char herald " + std::to_string(c.island);
        else if constexpr (std::is_same_v<T, UsePostman>)
          return "char postman";
        else if constexpr (std::is_same_v<T, UseGrandmaHerbs>)
          return "char herbs " + std::to_string(c.island);
        else if constexpr (std::is_same_v<T, UseCentaur>)
          return "char centaur";
        else if constexpr (std::is_same_v<T, UseJester>)
          return "char jester " + list_text(c.from_card) + " for " + list_text(c.from_entrance);
        else if constexpr (std::is_same_v<T, UseKnight>)
          return "char knight";
        else if constexpr (std::is_same_v<T, UseMushroomHunter>)
          return "char mushroom " + col(c.color);
        else if constexpr (std::is_same_v<T, UseMinstrel>)
          return "char minstrel " + list_text(c.from_entrance) + " for " + list_text(c.from_dining);
        else if constexpr (std::is_same_v<T, UsePrincess>)
          return "char princess " + col(c.color);
        else if constexpr (std::is_same_v<T, UseThief>)
          return "char thief " + col(c.color);
        else
          return std::string(command_type(c));
      },
      command);
}

std::vector<std::string> help_topics() {
  std::vector<std::string> out = {"turn"};
  for (const auto& h : kCharacterHelp) out.emplace_back(h.word);
  return out;
}

std::optional<std::string> help(std::string_view topic) {
  // Paragraphs, one line each, wrapped by the client (see kTurnHelp).
  if (topic.empty())
    return std::string(R"(Setup
  wizard <0-3>                 tower <black|white|grey>
Your turn
  play <1-10>                  play an assistant (planning)
  dining <colour>              move an entrance student to your dining room
  island <colour> <0-11>       move an entrance student to an island
  mn <steps>                   move Mother Nature
  cloud <n>                    take the students of cloud n
  char <character> ...         expert: help <character> explains each one
Colours: yellow blue green red pink, or y b g r p. Tab completes commands and their values.
Characters: monk farmer herald postman herbs centaur jester knight mushroom minstrel princess thief (help monk, help jester, ...).
)");
  if (topic == "turn" || topic == "round" || topic == "rules") return std::string(kTurnHelp);
  if (const CharacterHelp* h = character_help(topic))
    return std::string(h->title) + "\n" + h->what + "\n  parameters:  " + h->params +
           "\n  example:     " + h->example + "\n";
  return std::nullopt;
}

std::string help_topics_sentence(std::string_view asked) {
  return "no help on \"" + std::string(asked) +
         "\": help turn, or a character: monk, farmer, herald, postman, herbs, centaur, jester, "
         "knight, mushroom, minstrel, princess, thief";
}

std::vector<std::string> completions(std::string_view before, std::string_view word,
                                     std::span<const rules::Command> legal) {
  const std::vector<std::string> typed = split_words(before);
  std::vector<std::string> candidates;
  auto add = [&](std::string w) {
    if (std::find(candidates.begin(), candidates.end(), w) == candidates.end())
      candidates.push_back(std::move(w));
  };
  auto range = [&](int lo, int hi) {
    for (int i = lo; i <= hi; ++i) add(std::to_string(i));
  };
  static const std::vector<std::string> kColorWords = {"yellow", "blue", "green", "red", "pink"};
  const std::size_t at = typed.size();  // the index of the word being completed
  if (at == 0) {
    for (const auto& w : kVerbs) add(w);
  } else {
    // The next word of every legal command that starts like the line.
    for (const rules::Command& c : legal) {
      const std::vector<std::string> parts = split_words(command_text(c));
      if (parts.size() <= at) continue;
      if (std::equal(typed.begin(), typed.end(), parts.begin())) add(parts[at]);
    }
    if (candidates.empty()) {
      const std::string& verb = typed[0];
      const std::string sub = typed.size() > 1 ? typed[1] : "";
      if (verb == "wizard" && at == 1) range(0, 3);
      if ((verb == "tower" || verb == "towers") && at == 1)
        for (const char* t : {"black", "white", "grey"}) add(t);
      if ((verb == "play" || verb == "assistant") && at == 1) range(1, 10);
      if (verb == "dining" && at == 1) candidates = kColorWords;
      if (verb == "island" && at == 1) candidates = kColorWords;
      if (verb == "island" && at == 2) range(0, 11);
      if ((verb == "mn" || verb == "mother") && at == 1) range(1, 7);
      if (verb == "cloud" && at == 1) range(0, 3);
      if ((verb == "char" || verb == "character") && at == 1)
        for (const auto& h : kCharacterHelp) add(h.word);
      if ((verb == "char" || verb == "character") && at >= 2) {
        if (at == 2 && (sub == "monk" || sub == "mushroom" || sub == "princess" || sub == "thief"))
          candidates = kColorWords;
        if (sub == "monk" && at == 3) range(0, 11);
        if ((sub == "herald" || sub == "herbs") && at == 2) range(0, 11);
        if ((sub == "jester" || sub == "minstrel") && at == 3) add("for");
        if ((sub == "jester" || sub == "minstrel") && (at == 2 || at == 4))
          candidates = kColorWords;
      }
    }
  }
  std::vector<std::string> out;
  for (const auto& c : candidates)
    if (c.compare(0, word.size(), word) == 0) out.push_back(c);
  return out;
}

}  // namespace eryantis::eriantys::words
