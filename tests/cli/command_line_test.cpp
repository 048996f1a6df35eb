// The pure parser of eryantis-cli: every form of the help screen, the mistakes a
// person makes, and command_text() parsing back to the same command.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "command_line.hpp"
#include "eryantis/rules/random_game.hpp"

namespace {

using namespace eryantis;
using cli::parse_line;
using rules::Color;

// The action a line parses to; fails the test (and returns Help) on an error or an empty line.
cli::Action action(const std::string& line) {
  auto parsed = parse_line(line);
  EXPECT_TRUE(parsed.has_value()) << "\"" << line << "\": " << (parsed ? "" : parsed.error());
  if (!parsed) return cli::Help{};
  EXPECT_TRUE(parsed->has_value()) << "\"" << line << "\" parsed to nothing";
  if (!parsed->has_value()) return cli::Help{};
  return **parsed;
}

// The game command a line parses to (Eriantys's, the default game's: rules' commands).
rules::Command command(const std::string& line) {
  const cli::Action a = action(line);
  const auto* g = std::get_if<cli::GameCommand>(&a);
  EXPECT_NE(g, nullptr) << "\"" << line << "\" is not a game command (index " << a.index() << ")";
  return g ? g->command.get<rules::Command>() : rules::Command{rules::SkipTurn{}};
}

// The options a create asks for, as Eriantys reads them.
rules::MatchOptions options_of(const cli::LobbyCreate& c) {
  return {static_cast<std::uint8_t>(c.players),
          c.mode == "expert" ? rules::Mode::Expert : rules::Mode::Simple};
}
std::optional<rules::Mode> mode_of(const std::optional<std::string>& mode) {
  if (!mode) return std::nullopt;
  return *mode == "expert" ? rules::Mode::Expert : rules::Mode::Simple;
}

// The error sentence of a bad line ("" when it parsed).
std::string error_of(const std::string& line) {
  auto parsed = parse_line(line);
  EXPECT_FALSE(parsed.has_value()) << "\"" << line << "\" should be refused";
  return parsed ? std::string() : parsed.error();
}

rules::Students students(std::initializer_list<Color> colors) {
  rules::Students s;
  for (Color c : colors) s[c] += 1;
  return s;
}

template <class T>
bool holds(const cli::Action& a) {
  return std::holds_alternative<T>(a);
}

// --- every form of the help screen ----------------------------------------------

TEST(CommandLine, TurnCommands) {
  EXPECT_EQ(command("play 7"), (rules::Command{rules::PlayAssistant{7}}));
  EXPECT_EQ(command("assistant 10"), (rules::Command{rules::PlayAssistant{10}}));
  EXPECT_EQ(command("dining red"), (rules::Command{rules::MoveToDining{Color::Red}}));
  EXPECT_EQ(command("dining r"), (rules::Command{rules::MoveToDining{Color::Red}}));
  EXPECT_EQ(command("dining y"), (rules::Command{rules::MoveToDining{Color::Yellow}}));
  EXPECT_EQ(command("dining b"), (rules::Command{rules::MoveToDining{Color::Blue}}));
  EXPECT_EQ(command("dining g"), (rules::Command{rules::MoveToDining{Color::Green}}));
  EXPECT_EQ(command("dining p"), (rules::Command{rules::MoveToDining{Color::Pink}}));
  EXPECT_EQ(command("island red 4"), (rules::Command{rules::MoveToIsland{Color::Red, 4}}));
  EXPECT_EQ(command("island pink 0"), (rules::Command{rules::MoveToIsland{Color::Pink, 0}}));
  EXPECT_EQ(command("island g 11"), (rules::Command{rules::MoveToIsland{Color::Green, 11}}));
  EXPECT_EQ(command("mn 2"), (rules::Command{rules::MoveMotherNature{2}}));
  EXPECT_EQ(command("mother 5"), (rules::Command{rules::MoveMotherNature{5}}));
  EXPECT_EQ(command("cloud 1"), (rules::Command{rules::ChooseCloud{1}}));
  EXPECT_EQ(command("cloud 0"), (rules::Command{rules::ChooseCloud{0}}));
}

TEST(CommandLine, SetupCommands) {
  EXPECT_EQ(command("wizard 2"), (rules::Command{rules::ChooseWizard{2}}));
  EXPECT_EQ(command("wizard 0"), (rules::Command{rules::ChooseWizard{0}}));
  EXPECT_EQ(command("tower black"),
            (rules::Command{rules::ChooseTowerColor{rules::TowerColor::Black}}));
  EXPECT_EQ(command("tower white"),
            (rules::Command{rules::ChooseTowerColor{rules::TowerColor::White}}));
  EXPECT_EQ(command("towers grey"),
            (rules::Command{rules::ChooseTowerColor{rules::TowerColor::Grey}}));
}

TEST(CommandLine, Characters) {
  EXPECT_EQ(command("char monk red 4"), (rules::Command{rules::UseMonk{Color::Red, 4}}));
  EXPECT_EQ(command("char farmer"), (rules::Command{rules::UseFarmer{}}));
  EXPECT_EQ(command("char herald 5"), (rules::Command{rules::UseHerald{5}}));
  EXPECT_EQ(command("char postman"), (rules::Command{rules::UsePostman{}}));
  EXPECT_EQ(command("char herbs 3"), (rules::Command{rules::UseGrandmaHerbs{3}}));
  EXPECT_EQ(command("char grandma 3"), (rules::Command{rules::UseGrandmaHerbs{3}}));
  EXPECT_EQ(command("char centaur"), (rules::Command{rules::UseCentaur{}}));
  EXPECT_EQ(command("char jester red,red for blue,green"),
            (rules::Command{rules::UseJester{students({Color::Red, Color::Red}),
                                             students({Color::Blue, Color::Green})}}));
  EXPECT_EQ(
      command("char jester r,b,p for y,y,g"),
      (rules::Command{rules::UseJester{students({Color::Red, Color::Blue, Color::Pink}),
                                       students({Color::Yellow, Color::Yellow, Color::Green})}}));
  EXPECT_EQ(command("char knight"), (rules::Command{rules::UseKnight{}}));
  EXPECT_EQ(command("char mushroom pink"), (rules::Command{rules::UseMushroomHunter{Color::Pink}}));
  EXPECT_EQ(command("char minstrel red for blue"),
            (rules::Command{rules::UseMinstrel{students({Color::Red}), students({Color::Blue})}}));
  EXPECT_EQ(command("char minstrel r,g for b,b"),
            (rules::Command{rules::UseMinstrel{students({Color::Red, Color::Green}),
                                               students({Color::Blue, Color::Blue})}}));
  EXPECT_EQ(command("char princess y"), (rules::Command{rules::UsePrincess{Color::Yellow}}));
  EXPECT_EQ(command("char thief g"), (rules::Command{rules::UseThief{Color::Green}}));
  EXPECT_EQ(command("character thief green"), (rules::Command{rules::UseThief{Color::Green}}));
}

TEST(CommandLine, LobbyCommands) {
  {
    const auto a = action("create 3 expert");
    ASSERT_TRUE(holds<cli::LobbyCreate>(a));
    EXPECT_EQ(options_of(std::get<cli::LobbyCreate>(a)), (rules::MatchOptions{3, rules::Mode::Expert}));
  }
  {
    const auto a = action("create 2");
    ASSERT_TRUE(holds<cli::LobbyCreate>(a));
    EXPECT_EQ(options_of(std::get<cli::LobbyCreate>(a)), (rules::MatchOptions{2, rules::Mode::Simple}));
  }
  {
    const auto a = action("create 4 simple");
    ASSERT_TRUE(holds<cli::LobbyCreate>(a));
    EXPECT_EQ(options_of(std::get<cli::LobbyCreate>(a)), (rules::MatchOptions{4, rules::Mode::Simple}));
  }
  {
    const auto a = action("create 2 expert --computer 1 --level strong");
    ASSERT_TRUE(holds<cli::LobbyCreate>(a));
    const auto& c = std::get<cli::LobbyCreate>(a);
    EXPECT_EQ(options_of(c), (rules::MatchOptions{2, rules::Mode::Expert}));
    EXPECT_EQ(c.computers, 1);
    EXPECT_EQ(c.level, "strong");
  }
  {
    const auto a = action("create 4 --computer 3");
    ASSERT_TRUE(holds<cli::LobbyCreate>(a));
    EXPECT_EQ(std::get<cli::LobbyCreate>(a).computers, 3);
    EXPECT_EQ(std::get<cli::LobbyCreate>(a).level, "");
    EXPECT_EQ(options_of(std::get<cli::LobbyCreate>(a)).mode, rules::Mode::Simple);
  }
  {
    // A level alone means one computer opponent.
    const auto a = action("create 3 --level random");
    ASSERT_TRUE(holds<cli::LobbyCreate>(a));
    EXPECT_EQ(std::get<cli::LobbyCreate>(a).computers, 1);
  }
  {
    const auto a = action("join 4 2");
    ASSERT_TRUE(holds<cli::LobbyJoin>(a));
    EXPECT_EQ(std::get<cli::LobbyJoin>(a).match, 4);
    EXPECT_EQ(std::get<cli::LobbyJoin>(a).seat, std::optional<int>(2));
  }
  {
    const auto a = action("join 17");
    ASSERT_TRUE(holds<cli::LobbyJoin>(a));
    EXPECT_EQ(std::get<cli::LobbyJoin>(a).match, 17);
    EXPECT_EQ(std::get<cli::LobbyJoin>(a).seat, std::nullopt);
  }
  {
    const auto a = action("quick 2 expert");
    ASSERT_TRUE(holds<cli::LobbyQuick>(a));
    EXPECT_EQ(std::get<cli::LobbyQuick>(a).players, std::optional<int>(2));
    EXPECT_EQ(mode_of(std::get<cli::LobbyQuick>(a).mode), std::optional<rules::Mode>(rules::Mode::Expert));
  }
  {
    const auto a = action("quick");
    ASSERT_TRUE(holds<cli::LobbyQuick>(a));
    EXPECT_EQ(std::get<cli::LobbyQuick>(a).players, std::nullopt);
    EXPECT_EQ(mode_of(std::get<cli::LobbyQuick>(a).mode), std::nullopt);
  }
  {
    const auto a = action("quick simple 4");
    ASSERT_TRUE(holds<cli::LobbyQuick>(a));
    EXPECT_EQ(std::get<cli::LobbyQuick>(a).players, std::optional<int>(4));
    EXPECT_EQ(mode_of(std::get<cli::LobbyQuick>(a).mode), std::optional<rules::Mode>(rules::Mode::Simple));
  }
  {
    const auto a = action("watch 5");
    ASSERT_TRUE(holds<cli::Watch>(a));
    EXPECT_EQ(std::get<cli::Watch>(a).match, 5);
  }
  EXPECT_TRUE(holds<cli::LobbyLeave>(action("leave")));
  EXPECT_TRUE(holds<cli::LobbyList>(action("list")));
  EXPECT_TRUE(holds<cli::LobbyList>(action("lobby")));
}

TEST(CommandLine, OtherCommands) {
  EXPECT_TRUE(holds<cli::ShowBoard>(action("board")));
  EXPECT_TRUE(holds<cli::ShowMoves>(action("moves")));
  EXPECT_TRUE(holds<cli::ShowMoves>(action("hint")));
  EXPECT_TRUE(holds<cli::AutoMove>(action("auto")));
  EXPECT_TRUE(holds<cli::AutoPlay>(action("autoplay")));
  EXPECT_TRUE(holds<cli::WaitTurn>(action("wait")));
  EXPECT_TRUE(holds<cli::Help>(action("help")));
  EXPECT_TRUE(holds<cli::Help>(action("?")));
  EXPECT_TRUE(holds<cli::Quit>(action("quit")));
  EXPECT_TRUE(holds<cli::Quit>(action("exit")));
}

TEST(CommandLine, UpperCaseAndExtraSpaces) {
  EXPECT_EQ(command("PLAY 7"), (rules::Command{rules::PlayAssistant{7}}));
  EXPECT_EQ(command("  Island   RED\t 4  "), (rules::Command{rules::MoveToIsland{Color::Red, 4}}));
  EXPECT_EQ(command("Dining R\r"), (rules::Command{rules::MoveToDining{Color::Red}}));
  EXPECT_EQ(command("Tower BLACK"),
            (rules::Command{rules::ChooseTowerColor{rules::TowerColor::Black}}));
  EXPECT_EQ(command("CHAR Jester  RED,Red  FOR  blue,G"),
            (rules::Command{rules::UseJester{students({Color::Red, Color::Red}),
                                             students({Color::Blue, Color::Green})}}));
  EXPECT_EQ(command(" char   PRINCESS   Y "), (rules::Command{rules::UsePrincess{Color::Yellow}}));
  const auto a = action("  CREATE   3   EXPERT ");
  ASSERT_TRUE(holds<cli::LobbyCreate>(a));
  EXPECT_EQ(options_of(std::get<cli::LobbyCreate>(a)), (rules::MatchOptions{3, rules::Mode::Expert}));
  EXPECT_TRUE(holds<cli::AutoPlay>(action("AutoPlay")));
  EXPECT_TRUE(holds<cli::Quit>(action("\tQUIT  ")));
}

TEST(CommandLine, EmptyLinesAreNothing) {
  for (const char* line : {"", "   ", "\t", " \t \r"}) {
    auto parsed = parse_line(line);
    ASSERT_TRUE(parsed.has_value()) << "\"" << line << "\"";
    EXPECT_FALSE(parsed->has_value()) << "\"" << line << "\"";
  }
}

// Every word tab completion offers is a known command (some need arguments) and is on the help
// screen.
TEST(CommandLine, EveryCompletionWordIsACommand) {
  for (const auto& w : cli::command_words()) {
    auto parsed = parse_line(w);
    const bool needs_arguments = w == "create" || w == "join" || w == "watch" || w == "wizard" ||
                                 w == "tower" || w == "play" || w == "dining" || w == "island" ||
                                 w == "mn" || w == "cloud" || w == "char" || w == "say";
    if (needs_arguments) {
      ASSERT_FALSE(parsed.has_value()) << w;
      EXPECT_EQ(parsed.error().find("unknown command"), std::string::npos)
          << w << ": " << parsed.error();
      EXPECT_FALSE(parsed.error().empty()) << w;
    } else {
      EXPECT_TRUE(parsed.has_value() && parsed->has_value()) << w;
    }
  }
  const std::string help = cli::help_text();
  for (const auto& w : cli::command_words()) EXPECT_NE(help.find(w), std::string::npos) << w;
}

// --- mistakes: an error sentence, never an action ---------------------------------

TEST(CommandLine, UnknownCommandsAndCharacters) {
  EXPECT_NE(error_of("fly 3").find("unknown command \"fly\""), std::string::npos);
  EXPECT_NE(error_of("FLY").find("unknown command \"fly\""), std::string::npos);
  EXPECT_NE(error_of("playy 3").find("unknown command"), std::string::npos);
  EXPECT_NE(error_of("char wizard").find("unknown character \"wizard\""), std::string::npos);
  EXPECT_NE(error_of("char").find("which character"), std::string::npos);
}

TEST(CommandLine, OutOfRangeNumbers) {
  for (const char* line : {"play 0",
                           "play 11",
                           "play -1",
                           "play 7x",
                           "play seven",
                           "mn 0",
                           "mn 13",
                           "cloud 4",
                           "cloud -1",
                           "wizard 4",
                           "wizard -1",
                           "island red 12",
                           "island red -1",
                           "create 1",
                           "create 5",
                           "join 0",
                           "join -3",
                           "join 3 4",
                           "join 3 -1",
                           "watch 0",
                           "quick 1",
                           "quick 5",
                           "char monk red 12",
                           "char herald 12",
                           "char herbs -1",
                           "play 99999999999999999999999"}) {
    const std::string e = error_of(line);
    EXPECT_FALSE(e.empty()) << line;
    EXPECT_EQ(e.find("unknown command"), std::string::npos) << line << ": " << e;
  }
  EXPECT_NE(error_of("play 11").find("usage: play"), std::string::npos);
  EXPECT_NE(error_of("join 3 4").find("seat"), std::string::npos);
}

TEST(CommandLine, BadColours) {
  for (const char* line :
       {"dining purple", "dining x", "dining 3", "island purple 3", "island 3 red",
        "char monk purple 3", "char mushroom orange", "char princess", "char thief rr",
        "char jester red,purple for blue", "char minstrel red for", "tower red", "tower"}) {
    const std::string e = error_of(line);
    EXPECT_NE(e.find("usage"), std::string::npos) << line << ": " << e;
  }
  EXPECT_NE(error_of("dining purple").find("yellow, blue, green, red, pink"), std::string::npos);
}

TEST(CommandLine, MissingAndExtraArguments) {
  for (const char* line : {"play",
                           "dining",
                           "island red",
                           "island",
                           "mn",
                           "cloud",
                           "wizard",
                           "create",
                           "join",
                           "watch",
                           "char monk red",
                           "char monk",
                           "char herald",
                           "char herbs",
                           "char mushroom",
                           "char jester red,red",
                           "char jester red,red blue",
                           "char jester red for",
                           "char minstrel",
                           "play 7 8",
                           "dining red blue",
                           "island red 4 5",
                           "mn 2 3",
                           "cloud 1 2",
                           "tower black white",
                           "char herald 5 6",
                           "char thief red blue"}) {
    const std::string e = error_of(line);
    EXPECT_NE(e.find("usage"), std::string::npos) << line << ": " << e;
  }
  EXPECT_NE(error_of("create 2 hard").find("simple or expert"), std::string::npos);
  EXPECT_NE(error_of("create 2 --computer 2").find("1 to 1"), std::string::npos);
  EXPECT_NE(error_of("create 2 --computer").find("--computer takes"), std::string::npos);
  EXPECT_NE(error_of("create 2 --level expert").find("random, greedy or strong"),
            std::string::npos);
  EXPECT_NE(error_of("quick 2 hard").find("usage: quick"), std::string::npos);
}

// --- command_text parses back to the same command ----------------------------------

void expect_round_trip(const rules::Command& c) {
  const std::string text = cli::command_text(cli::default_game(), game::Command::of(c));
  auto parsed = parse_line(text);
  ASSERT_TRUE(parsed.has_value()) << text << ": " << parsed.error();
  ASSERT_TRUE(parsed->has_value()) << text;
  const auto* g = std::get_if<cli::GameCommand>(&**parsed);
  ASSERT_NE(g, nullptr) << text;
  EXPECT_EQ(g->command.get<rules::Command>(), c) << text;
}

TEST(CommandLine, CommandTextRoundTripsEveryKind) {
  using namespace rules;
  std::vector<Command> all;
  for (std::uint8_t w = 0; w < 4; ++w) all.emplace_back(ChooseWizard{w});
  for (auto t : {TowerColor::Black, TowerColor::White, TowerColor::Grey})
    all.emplace_back(ChooseTowerColor{t});
  for (std::uint8_t v = 1; v <= 10; ++v) all.emplace_back(PlayAssistant{v});
  for (std::uint8_t s = 1; s <= 12; ++s) all.emplace_back(MoveMotherNature{s});
  for (std::uint8_t c = 0; c < 4; ++c) all.emplace_back(ChooseCloud{c});
  for (std::uint8_t i = 0; i < 12; ++i) {
    all.emplace_back(UseHerald{i});
    all.emplace_back(UseGrandmaHerbs{i});
  }
  for (Color c : kAllColors) {
    all.emplace_back(MoveToDining{c});
    all.emplace_back(UseMushroomHunter{c});
    all.emplace_back(UsePrincess{c});
    all.emplace_back(UseThief{c});
    for (std::uint8_t i = 0; i < 12; ++i) {
      all.emplace_back(MoveToIsland{c, i});
      all.emplace_back(UseMonk{c, i});
    }
    for (Color d : kAllColors) {
      all.emplace_back(UseMinstrel{students({c}), students({d})});
      all.emplace_back(UseMinstrel{students({c, d}), students({d, d})});
      all.emplace_back(UseJester{students({c}), students({d})});
      all.emplace_back(UseJester{students({c, c, d}), students({d, Color::Pink, Color::Yellow})});
    }
  }
  all.emplace_back(UseFarmer{});
  all.emplace_back(UsePostman{});
  all.emplace_back(UseCentaur{});
  all.emplace_back(UseKnight{});

  // Every player command kind is covered (the server-only ones are never typed;
  // resign is typed as an action that asks for confirmation: tested below).
  std::vector<bool> kinds(std::variant_size_v<Command>, false);
  kinds[Command{Resign{}}.index()] = true;
  for (const auto& c : all) {
    kinds[c.index()] = true;
    expect_round_trip(c);
  }
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    Command probe;
    // Build a default command of kind k to ask whether it is server-only.
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((I == k ? void(probe = Command{std::in_place_index<I>}) : void()), ...);
    }
    (std::make_index_sequence<std::variant_size_v<Command>>{});
    if (!is_server_command(probe)) {
      EXPECT_TRUE(kinds[k]) << "no round trip for " << command_type(probe);
    }
  }
}

// The commands `moves` lists and `auto`/`autoplay` print come from legal_commands:
// each of them, in real games, reads back as itself.
TEST(CommandLine, CommandTextRoundTripsLegalCommandsOfRandomGames) {
  using namespace rules;
  std::size_t checked = 0;
  std::uint64_t seed = 11;
  for (std::uint8_t players : {2, 3, 4}) {
    for (Mode mode : {Mode::Simple, Mode::Expert}) {
      ++seed;
      play_random_game(MatchOptions{players, mode}, seed, [&](const Event&, const State& s) {
        for (Seat seat : seats_to_act(s))
          for (const auto& c : legal_commands(s, seat)) {
            expect_round_trip(c);
            ++checked;
          }
      });
      ASSERT_FALSE(HasFailure()) << "seed " << seed;
    }
  }
  EXPECT_GT(checked, 1000u);
}

}  // namespace

namespace {

// `help <character>` for each of the 12: a title with the price, what it does,
// its parameters and an example that parses to that very character's command.
TEST(CommandLine, HelpOnEveryCharacterHasAnExampleThatParses) {
  const std::vector<std::pair<std::string, rules::CharacterId>> characters = {
      {"monk", rules::CharacterId::Monk},
      {"farmer", rules::CharacterId::Farmer},
      {"herald", rules::CharacterId::Herald},
      {"postman", rules::CharacterId::Postman},
      {"herbs", rules::CharacterId::GrandmaHerbs},
      {"centaur", rules::CharacterId::Centaur},
      {"jester", rules::CharacterId::Jester},
      {"knight", rules::CharacterId::Knight},
      {"mushroom", rules::CharacterId::MushroomHunter},
      {"minstrel", rules::CharacterId::Minstrel},
      {"princess", rules::CharacterId::Princess},
      {"thief", rules::CharacterId::Thief},
  };
  for (const auto& [word, id] : characters) {
    SCOPED_TRACE(word);
    EXPECT_TRUE(holds<cli::Help>(action("help " + word)));
    auto text = cli::help_topic(word);
    ASSERT_TRUE(text.has_value());
    EXPECT_NE(text->find("coin"), std::string::npos) << *text;
    EXPECT_NE(text->find("\n  parameters: "), std::string::npos) << *text;
    const auto at = text->find("\n  example:     ");
    ASSERT_NE(at, std::string::npos) << *text;
    const std::string example = text->substr(at + 16, text->find('\n', at + 16) - at - 16);
    const rules::Command c = command(example);
    ASSERT_TRUE(rules::command_character(c).has_value()) << example;
    EXPECT_EQ(*rules::command_character(c), id) << example;
    EXPECT_NE(cli::help_text().find(word), std::string::npos);
  }
  EXPECT_TRUE(cli::help_topic("grandma_herbs").has_value());
  EXPECT_NE(cli::help_topic("turn")->find("Mother Nature"), std::string::npos);
  EXPECT_NE(cli::help_text().find("A round, for each player in turn:"), std::string::npos);
  EXPECT_NE(error_of("help dragon").find("no help on \"dragon\""), std::string::npos);
  EXPECT_TRUE(holds<cli::Resign>(action("resign")));
  EXPECT_TRUE(std::get<cli::Resign>(action("resign yes")).confirmed);
  EXPECT_FALSE(std::get<cli::Resign>(action("resign")).confirmed);
  EXPECT_FALSE(error_of("resign now").empty());
}

std::vector<std::string> range(int lo, int hi) {
  std::vector<std::string> out;
  for (int i = lo; i <= hi; ++i) out.push_back(std::to_string(i));
  return out;
}

// Tab completion offers each argument's values; legal commands narrow them.
TEST(CommandLine, CompletionOffersEachArgumentsValues) {
  using cli::completions;
  using V = std::vector<std::string>;
  const V colours = {"yellow", "blue", "green", "red", "pink"};
  EXPECT_EQ(completions("wizard ", ""), range(0, 3));
  EXPECT_EQ(completions("tower ", "g"), V{"grey"});
  EXPECT_EQ(completions("play ", ""), range(1, 10));
  EXPECT_EQ(completions("play ", "1"), (V{"1", "10"}));
  EXPECT_EQ(completions("dining ", ""), colours);
  EXPECT_EQ(completions("island ", "r"), V{"red"});
  EXPECT_EQ(completions("island red ", ""), range(0, 11));
  EXPECT_EQ(completions("cloud ", ""), range(0, 3));
  EXPECT_EQ(completions("mn ", ""), range(1, 7));
  EXPECT_EQ(completions("create ", ""), range(2, 4));
  EXPECT_EQ(completions("create 4 ", "e"), V{"expert"});
  EXPECT_EQ(completions("create 2 expert ", "--"), (V{"--computer", "--level"}));
  EXPECT_EQ(completions("create 2 expert --level ", ""), (V{"random", "greedy", "strong"}));
  EXPECT_EQ(completions("char ", "m"), (V{"monk", "mushroom", "minstrel"}));
  EXPECT_EQ(completions("char monk ", ""), colours);
  EXPECT_EQ(completions("char monk red ", "1"), (V{"1", "10", "11"}));
  EXPECT_EQ(completions("char herald ", ""), range(0, 11));
  EXPECT_EQ(completions("char jester red ", ""), V{"for"});
  EXPECT_EQ(completions("char thief ", "p"), V{"pink"});
  EXPECT_TRUE(completions("char farmer ", "").empty());
  EXPECT_EQ(completions("help ", "t"), (V{"turn", "thief"}));
  EXPECT_EQ(completions("", "re"), (V{"revoke", "resign"}));  // the client's words, then the game's
  EXPECT_EQ(completions("  ", "wi"), V{"wizard"});
  // With legal commands: only their values.
  std::vector<game::Command> legal;
  for (const rules::Command& c :
       {rules::Command{rules::PlayAssistant{3}}, rules::Command{rules::PlayAssistant{7}},
        rules::Command{rules::MoveToIsland{Color::Red, 4}},
        rules::Command{rules::MoveToIsland{Color::Red, 9}}})
    legal.push_back(game::Command::of(c));
  EXPECT_EQ(completions("play ", "", legal), (V{"3", "7"}));
  EXPECT_EQ(completions("island ", "", legal), V{"red"});
  EXPECT_EQ(completions("island red ", "", legal), (V{"4", "9"}));
  EXPECT_EQ(completions("wizard ", "", legal), range(0, 3));  // none legal: the domain
}

}  // namespace

namespace eryantis::cli {
namespace {

// `say` keeps the text as typed (case, inner spaces, markup); only the blanks around it go.
TEST(CommandLine, SayKeepsTheTextAsTyped) {
  for (const auto& [line, text] : std::vector<std::pair<std::string, std::string>>{
           {"say Good Luck", "Good Luck"},
           {"  SAY   two  spaces kept  ", "two  spaces kept"},
           {"chat <img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>"}}) {
    auto parsed = parse_line(line);
    ASSERT_TRUE(parsed && *parsed) << line;
    ASSERT_TRUE(std::holds_alternative<Say>(**parsed)) << line;
    EXPECT_EQ(std::get<Say>(**parsed).text, text) << line;
  }
  auto empty = parse_line("say   ");
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().find("usage: say"), std::string::npos);
}

}  // namespace
// Invite codes and links: the code as typed (case kept), a link or its fragment, and
// the mistakes.
TEST(CommandLine, PrivateMatchesAndInviteLinks) {
  const cli::Action create = action("create 3 expert --private");
  ASSERT_TRUE(holds<cli::LobbyCreate>(create));
  EXPECT_TRUE(std::get<cli::LobbyCreate>(create).private_match);
  EXPECT_FALSE(std::get<cli::LobbyCreate>(action("create 3")).private_match);
  // --takeover: a computer takes a leaver's seat (3 or 4 players only).
  const cli::Action taken = action("create 3 --takeover strong");
  ASSERT_TRUE(holds<cli::LobbyCreate>(taken));
  EXPECT_EQ(std::get<cli::LobbyCreate>(taken).takeover, "strong");
  EXPECT_EQ(std::get<cli::LobbyCreate>(action("create 3")).takeover, "");
  EXPECT_NE(error_of("create 2 --takeover greedy").find("3 or 4"), std::string::npos);
  // --clock and --on-timeout: the text is the server's to check.
  const cli::Action clocked = action("create 2 --clock 10+5 --on-timeout forfeit");
  ASSERT_TRUE(std::holds_alternative<cli::LobbyCreate>(clocked));
  EXPECT_EQ(std::get<cli::LobbyCreate>(clocked).clock, "10+5");
  EXPECT_EQ(std::get<cli::LobbyCreate>(clocked).on_timeout, "forfeit");
  EXPECT_EQ(std::get<cli::LobbyCreate>(action("create 2")).clock, "");
  EXPECT_NE(error_of("create 2 --clock").find("--clock takes"), std::string::npos);
  EXPECT_NE(error_of("create 2 --clock 10m --on-timeout nap").find("skip, computer or forfeit"),
            std::string::npos);
  EXPECT_NE(error_of("create 3 --takeover expert").find("random, greedy or strong"),
            std::string::npos);
  const cli::Action coded = action("join 7 AbC_-9");
  ASSERT_TRUE(holds<cli::LobbyJoin>(coded));
  EXPECT_EQ(std::get<cli::LobbyJoin>(coded).match, 7);
  EXPECT_FALSE(std::get<cli::LobbyJoin>(coded).seat);
  EXPECT_EQ(std::get<cli::LobbyJoin>(coded).code, "AbC_-9");
  const cli::Action seated = action("join 7 2 AbC");
  EXPECT_EQ(std::get<cli::LobbyJoin>(seated).seat, 2);
  EXPECT_EQ(std::get<cli::LobbyJoin>(seated).code, "AbC");
  const cli::Action linked = action("JOIN http://Host:8080/#join=12&code=XyZ");
  ASSERT_TRUE(holds<cli::LobbyJoin>(linked));
  EXPECT_EQ(std::get<cli::LobbyJoin>(linked).match, 12);
  EXPECT_EQ(std::get<cli::LobbyJoin>(linked).code, "XyZ");
  const cli::Action watched = action("watch #join=12&code=XyZ");
  ASSERT_TRUE(holds<cli::Watch>(watched));
  EXPECT_EQ(std::get<cli::Watch>(watched).code, "XyZ");
  EXPECT_EQ(std::get<cli::Watch>(action("watch 12 Qq")).code, "Qq");
  EXPECT_TRUE(std::get<cli::RevokeInvite>(action("revoke")).renew);
  EXPECT_FALSE(std::get<cli::RevokeInvite>(action("revoke --none")).renew);
  EXPECT_NE(error_of("join 7 1 a b"), "");
  EXPECT_NE(error_of("join 7 9"), "");  // a seat is 0 to 3
  EXPECT_NE(error_of("revoke now"), "");
  EXPECT_NE(error_of("join http://host/#join=x&code=abc"), "");
  EXPECT_FALSE(cli::parse_join_link("http://host/"));
  EXPECT_FALSE(cli::parse_join_link("#join=7"));
  EXPECT_FALSE(cli::parse_join_link("#join=7&code=a<b"));
  EXPECT_FALSE(cli::parse_join_link("#join=0&code=abc"));
  const auto link = cli::parse_join_link("http://127.0.0.1:8080/#code=Ab-_&join=3");
  ASSERT_TRUE(link);
  EXPECT_EQ(link->match, 3);
  EXPECT_EQ(link->code, "Ab-_");
}

}  // namespace eryantis::cli
