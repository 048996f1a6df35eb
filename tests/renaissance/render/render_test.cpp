// Masters of Renaissance in words: the sentences, the board, help and the terminal client's words.
#include "eryantis/renaissance/render/render.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "eryantis/renaissance/rules/random_game.hpp"
#include "scenario.hpp"

namespace eryantis::renaissance::render {
namespace {

using namespace scenario;

std::uint64_t test_seed() {
  if (const char* s = std::getenv("ERYANTIS_TEST_SEED")) return std::strtoull(s, nullptr, 10);
  return 20261128;
}

const Names kNames = {"alice", "bob", "carol", "dave"};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(Sentences, TheMarketSaysWhatWasTakenAndDiscarded) {
  Match m = started(2, 3);
  const Seat me = m.state.current;
  clear_warehouse(m.state, me);
  // Row 2 (index 1): yellow, red, white, yellow: 2 coins and 1 faith; no white-marble leader.
  set_market(m.state, marbles("BGWB" "YRWY" "PGWP" "W"));
  const State before = m.state;
  m.play(me, TakeFromMarket{Line::Row, 1, {}, std::nullopt});
  Names names = kNames;
  names[me] = "alice";
  EXPECT_EQ(describe_event(before, m.events.back(), m.state, names),
            "alice took the 2nd row from the market: 2 coins, 1 faith");
  // Keeping only one of two coins discards the other: everyone else moves.
  Match d = started(2, 3);
  clear_warehouse(d.state, me);
  set_market(d.state, marbles("BGWB" "YRWY" "PGWP" "W"));
  const State b2 = d.state;
  d.play(me, TakeFromMarket{Line::Row, 1, {}, layout({{R::Coin, 1}, {std::nullopt, 0}, {std::nullopt, 0}})});
  EXPECT_EQ(describe_event(b2, d.events.back(), d.state, names),
            "alice took the 2nd row from the market: 2 coins, 1 faith, and discarded 1 coin "
            "(everyone else +1 faith)");
}

TEST(Sentences, AVaticanReportSaysWhoseTileTurns) {
  Match m = started(2, 3);
  const Seat me = m.state.current;
  clear_warehouse(m.state, me);
  set_faith(m.state, me, 7);
  set_market(m.state, marbles("BGWB" "YRWY" "PGWP" "W"));
  const State before = m.state;
  m.play(me, TakeFromMarket{Line::Row, 1, {}, std::nullopt});  // the red marble: space 8
  Names names = kNames;
  names[me] = "alice";
  EXPECT_EQ(describe_event(before, m.events.back(), m.state, names),
            "alice took the 2nd row from the market: 2 coins, 1 faith; Vatican report 1: favour "
            "tile face up for alice");
}

TEST(Sentences, LorenzosTokenFollowsTheSoloTurn) {
  Match m = started(1, 8);
  set_tokens(m.state, {}, {5, 1, 2, 3, 4, 6, 7});
  set_market(m.state, marbles("BGWB" "YRWY" "PGWP" "W"));
  m.play(0, TakeFromMarket{Line::Row, 1, {}, std::nullopt});
  const State before = m.state;
  m.play(0, EndTurn{});
  EXPECT_EQ(describe_event(before, m.events.back(), m.state, kNames),
            "alice ended the turn; Lorenzo revealed T5: the black cross moves 2 (black cross 2)");
  // Solo discards move the black cross (decision 29).
  Match d = started(1, 8);
  set_market(d.state, marbles("BGWB" "YRWY" "PGWP" "W"));
  const State b2 = d.state;
  d.play(0, TakeFromMarket{Line::Row, 1, {}, layout({{std::nullopt, 0}, {std::nullopt, 0}, {std::nullopt, 0}})});
  EXPECT_EQ(describe_event(b2, d.events.back(), d.state, kNames),
            "alice took the 2nd row from the market: 2 coins, 1 faith, and discarded 2 coins (the "
            "black cross +2)");
}

TEST(Sentences, PurchasesProductionAndTheEnd) {
  Match m = started(2, 4);
  const Seat me = m.state.current;
  const Seat other = static_cast<Seat>(1 - me);
  set_strongbox(m.state, me, 9, 9, 9, 9);
  const int card = card_in_grid(m.state, 1, Colour::Green);
  State before = m.state;
  m.play(me, BuyCard{1, Colour::Green, 2, std::nullopt});
  const std::string bought = describe_event(before, m.events.back(), m.state, kNames);
  char id[16];  // room for any int (-Wformat-truncation)
  std::snprintf(id, sizeof id, "D%02d", card);
  EXPECT_EQ(bought.rfind(std::string(kNames[me]) + " bought " + id + " (level 1 green, ", 0), 0u) << bought;
  EXPECT_NE(bought.find("into slot 3 for "), std::string::npos) << bought;
  before = m.state;
  m.play(me, EndTurn{});
  EXPECT_EQ(describe_event(before, m.events.back(), m.state, kNames), kNames[me] + " ended the turn");
  set_strongbox(m.state, other, 2, 0, 0, 0);
  before = m.state;
  m.play(other, Produce{BaseProduction{{R::Coin, R::Coin}, R::Stone}, {}, {}, std::nullopt});
  EXPECT_EQ(describe_event(before, m.events.back(), m.state, kNames),
            kNames[other] + " produced 1 stone for 2 coins");
  before = m.state;
  m.play(other, Resign{});
  const std::string resigned = describe_event(before, m.events.back(), m.state, kNames);
  EXPECT_EQ(resigned.rfind(kNames[other] + " resigned; game over (resign): " + kNames[me] + " wins (", 0), 0u)
      << resigned;
}

TEST(Sentences, NoSentenceNamesAHiddenLeader) {
  Match m = created(2, 5);
  for (Seat p = 0; p < 2; ++p) {
    auto dealt = m.state.boards[p].dealt;
    const State before = m.state;
    m.play(p, ChooseLeaders{{dealt[0], dealt[1]}});
    EXPECT_EQ(describe_event(before, m.events.back(), m.state, kNames), kNames[p] + " kept 2 leaders");
  }
}

TEST(Sentences, EveryEventOfRandomGamesIsSaid) {
  const std::uint64_t seed = test_seed();
  std::cout << "seed " << seed << " (ERYANTIS_TEST_SEED)\n";
  for (int players = 1; players <= 4; ++players) {
    State before;
    play_random_game(Options{static_cast<std::uint8_t>(players)}, seed + players,
                     [&](const Event& e, const State& after) {
                       const std::string text = describe_event(before, e, after, kNames);
                       // A viewer's client says its redacted event over its views the same way:
                       // the sentences name nothing hidden.
                       for (Seat v = kNoSeat; v < players; ++v)
                         EXPECT_EQ(describe_event(view(before, v).state, redact(e, v),
                                                  view(after, v).state, kNames),
                                   text);
                       EXPECT_FALSE(text.empty());
                       EXPECT_EQ(text.find('\n'), std::string::npos) << text;
                       // Only an activated leader (public from then on) is named.
                       if (!std::holds_alternative<ActivateLeader>(e.command)) {
                         for (int id = 1; id <= kLeaders; ++id)
                           EXPECT_EQ(text.find(leader_name(id)), std::string::npos) << text;
                       }
                       before = after;
                     },
                     3000, RandomPolicy::Purposeful);
  }
}

TEST(Board, TwoPlayersFitTheTerminalEveryTurn) {
  const std::uint64_t seed = test_seed();
  std::cout << "seed " << seed << " (ERYANTIS_TEST_SEED)\n";
  std::size_t widest = 0, longest = 0;
  for (int g = 0; g < 10; ++g)
    play_random_game(Options{2}, seed + g,
                     [&](const Event&, const State& s) {
                       for (Seat viewer = kNoSeat; viewer < 2; ++viewer) {
                         BoardOptions o{kNames, false, viewer, true, {}};
                         const auto lines = lines_of(render_board(s, o));
                         longest = std::max(longest, lines.size());
                         for (const std::string& l : lines) {
                           EXPECT_LE(l.size(), 80u) << l;
                           widest = std::max(widest, l.size());
                         }
                       }
                     },
                     3000, RandomPolicy::Purposeful);
  std::cout << "widest line " << widest << ", most lines " << longest << "\n";
  EXPECT_LE(widest, 80u);
  EXPECT_LE(longest, 22u);
}

TEST(Board, FourPlayersFitAHundredColumnsInFull) {
  const std::uint64_t seed = test_seed();
  std::size_t widest = 0;
  for (int g = 0; g < 5; ++g)
    play_random_game(Options{4}, seed + g,
                     [&](const Event&, const State& s) {
                       for (const std::string& l : lines_of(render_board(s, BoardOptions{kNames, false, 2, false, {}}))) {
                         EXPECT_LE(l.size(), 100u) << l;
                         widest = std::max(widest, l.size());
                       }
                     },
                     3000, RandomPolicy::Purposeful);
  std::cout << "widest line " << widest << "\n";
}

TEST(Board, TheViewerComesFirstAndHiddenLeadersStayHidden) {
  Match m = started(2, 6);
  const State seen = view(m.state, 1).state;
  const std::string board = render_board(seen, BoardOptions{kNames, false, 1, true, {}});
  std::cout << board;  // what the terminal client shows
  const auto lines = lines_of(board);
  ASSERT_GT(lines.size(), 10u);
  EXPECT_EQ(lines[10].rfind("bob (you)", 0), 0u) << board;
  EXPECT_NE(board.find("? (hand)"), std::string::npos) << board;  // alice's leaders
  EXPECT_NE(board.find("market  1 2 3 4"), std::string::npos);
  // Colours are ANSI escapes only when asked for.
  EXPECT_EQ(board.find('\x1b'), std::string::npos);
  EXPECT_NE(render_board(seen, BoardOptions{kNames, true, 1, true, {}}).find("\x1b[31mR"), std::string::npos);
  // Solo: Lorenzo's line.
  Match solo = started(1, 6);
  EXPECT_NE(render_board(solo.state, BoardOptions{kNames, false, 0, true, {}}).find("Lorenzo: black cross 0/24"),
            std::string::npos);
}

TEST(Words, EveryLegalCommandOfRandomGamesTypesBack) {
  const std::uint64_t seed = test_seed();
  std::cout << "seed " << seed << " (ERYANTIS_TEST_SEED)\n";
  int checked = 0;
  for (int players = 1; players <= 4; ++players)
    for (int g = 0; g < 3; ++g)
      play_random_game(Options{static_cast<std::uint8_t>(players)}, seed + 10 * players + g,
                       [&](const Event&, const State& s) {
                         for (Seat p = 0; p < s.players(); ++p) {
                           for (const Command& c : legal_commands(s, p)) {
                             ++checked;
                             const std::string words = command_words(c);
                             const auto back = command_from_words(words);
                             ASSERT_TRUE(back) << words << ": " << back.error();
                             ASSERT_TRUE(back->has_value()) << words;
                             ASSERT_EQ(**back, c) << words;
                           }
                           EXPECT_EQ(legal_summary(s, p).empty(), legal_commands(s, p).empty());
                         }
                       },
                       3000, RandomPolicy::Purposeful);
  std::cout << checked << " legal commands typed back\n";
  EXPECT_GT(checked, 10000);
}

TEST(Words, ShortFormsAndMistakes) {
  auto typed = [](std::string_view line) {
    auto c = command_from_words(line);
    EXPECT_TRUE(c && c->has_value()) << line << ": " << (c ? std::string() : c.error());
    return c && *c ? **c : Command{};
  };
  EXPECT_EQ(typed("market row 2"), Command{(TakeFromMarket{Line::Row, 1, {}, std::nullopt})});
  EXPECT_EQ(typed("Market Column 4 white coin shield"),
            Command{(TakeFromMarket{Line::Column, 3, {R::Coin, R::Shield}, std::nullopt})});
  EXPECT_EQ(typed("buy 2 purple slot 1"), Command{(BuyCard{2, Colour::Purple, 0, std::nullopt})});
  EXPECT_EQ(typed("buy 1 green slot 3 pay shield:1/0/1"),
            Command{(BuyCard{1, Colour::Green, 2, Payment{Take{}, Take{}, Take{1, 0, 1}, Take{}}})});
  EXPECT_EQ(typed("produce base coin coin stone slot 2 leader L13 servant"),
            Command{(Produce{BaseProduction{{R::Coin, R::Coin}, R::Stone}, {1}, {LeaderProduction{13, R::Servant}}, std::nullopt})});
  EXPECT_EQ(typed("resources coin shield"),
            Command{ChooseInitialResources{layout({{R::Coin, 1}, {R::Shield, 1}, {std::nullopt, 0}})}});
  EXPECT_EQ(typed("resources coins coins"),
            Command{ChooseInitialResources{layout({{std::nullopt, 0}, {R::Coin, 2}, {std::nullopt, 0}})}});
  EXPECT_EQ(typed("arrange - coin:2 stone:3 L05:2"),
            Command{ArrangeWarehouse{layout({{std::nullopt, 0}, {R::Coin, 2}, {R::Stone, 3}}, {{5, 2}})}});
  EXPECT_EQ(typed("leaders L3 14"), Command{(ChooseLeaders{{3, 14}})});
  EXPECT_EQ(typed("activate l07"), Command{ActivateLeader{7}});
  EXPECT_EQ(typed("end"), Command{EndTurn{}});
  EXPECT_EQ(typed("resign"), Command{Resign{}});
  // Not this game's words: the client's own.
  EXPECT_EQ(command_from_words("lobby"), (std::expected<std::optional<Command>, std::string>{std::nullopt}));
  EXPECT_EQ(command_from_words("market diagonal 1").error(),
            "type market row 1..3 or market column 1..4, then optionally white coin ... (two "
            "white-marble leaders) and layout ...");
  EXPECT_EQ(command_from_words("buy 2 pink slot 1").error(),
            "type buy, a level 1..3, a colour and a slot: buy 2 purple slot 1 (then optionally pay ...)");
  EXPECT_FALSE(command_from_words("arrange coin:9 -"));
  EXPECT_FALSE(command_from_words("resources coin coin coin coin"));  // does not fit
}

TEST(Words, TabCompletesFromTheLegalCommands) {
  Match m = started(2, 7);
  const Seat me = m.state.current;
  const auto legal = legal_commands(m.state, me);
  EXPECT_EQ(complete_words("", "ma", legal), (std::vector<std::string>{"market"}));
  EXPECT_EQ(complete_words("", "", legal).size(), 10u);
  EXPECT_EQ(complete_words("market", "", legal), (std::vector<std::string>{"column", "row"}));
  EXPECT_EQ(complete_words("market row", "", legal), (std::vector<std::string>{"1", "2", "3"}));
  const auto after_line = complete_words("market row 1", "", legal);
  EXPECT_NE(std::find(after_line.begin(), after_line.end(), "layout"), after_line.end());
  const auto end = complete_words("", "e", legal);
  EXPECT_EQ(end, (std::vector<std::string>{"end"}));
  EXPECT_TRUE(complete_words("buy 9", "", legal).empty());
}

TEST(Help, EveryTopicAndEveryLeaderKindHasHelp) {
  const auto topics = help_topics();
  for (const std::string& t : topics) {
    const auto text = help(t);
    ASSERT_TRUE(text) << t;
    EXPECT_FALSE(text->empty());
  }
  for (int k = 0; k < kLeaderKindCount; ++k)
    EXPECT_TRUE(help(leader_kind_name(static_cast<LeaderKind>(k)))) << k;
  for (std::string_view verb : {"market", "buy", "produce", "activate", "discard", "arrange", "end", "resign"})
    EXPECT_TRUE(help(verb)) << verb;
  EXPECT_EQ(*help("L05"), "L05 (extra depot: stone, 3 VP)\nrequires 5 coin (depots, leader depots and "
                          "strongbox together)\nSee: help extra_depot\n");
  EXPECT_EQ(*help("D17"), "D17 (level 2 green, 5 VP)\ncosts 4 shields; produces 2 faith from 1 stone\n");
  EXPECT_EQ(*help("d05"), "D05 (level 1 green, 2 VP)\ncosts 1 servant, 1 shield, 1 stone; produces 1 servant from 1 stone\n");
  EXPECT_NE(help("")->find("market"), std::string::npos);
  EXPECT_FALSE(help("chess"));
  EXPECT_FALSE(help("L17"));
}

}  // namespace
}  // namespace eryantis::renaissance::render
