// Masters of Renaissance through the engine's interface alone, as the platform sees it: identity,
// seats, the stage and who acts, outcomes, the error codes, the words; and an arena of the
// engine's computer players (game::choose) over the game's hooks.
#include "eryantis/renaissance/game/game.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>

#include "eryantis/json/json.hpp"

namespace eryantis::game {
namespace {

std::uint64_t test_seed() {
  if (const char* s = std::getenv("ERYANTIS_TEST_SEED")) return std::strtoull(s, nullptr, 10);
  return 20261128;
}

const Game& renaissance() {
  static const auto g = eryantis::renaissance::make_game();
  return *g;
}

State started(int seats, std::uint64_t seed) {
  const Game& g = renaissance();
  auto o = g.options_from_request(seats, nullptr);
  EXPECT_TRUE(o);
  auto e = g.create_match(*o, Seed{seed, ~seed});
  EXPECT_TRUE(e);
  return g.apply(g.empty_state(), *e);
}

// Plays `command` from `seat`, failing the test if it is refused.
State play(const State& s, Seat seat, const Command& c, Authority a = Authority::Player) {
  auto d = renaissance().decide(s, seat, c, a);
  EXPECT_TRUE(d) << d.error().code << ": " << d.error().message;
  return d ? d->next : s;
}

Command words(std::string_view line) {
  auto c = renaissance().command_from_words(line);
  EXPECT_TRUE(c && *c) << line;
  return **c;
}

// Setup done the quick way: every seat keeps the first two leaders listed and the first
// resources listed.
State through_setup(State s) {
  const Game& g = renaissance();
  for (int guard = 0; guard < 16 && g.stage(s) == Stage::Setup; ++guard) {
    const auto to_act = g.to_act(s);
    EXPECT_FALSE(to_act.empty());
    EXPECT_EQ(to_act.front().wait, Wait::Choice);
    const auto legal = g.legal_commands(s, to_act.front().seat);
    s = play(s, to_act.front().seat, legal.front());
  }
  return s;
}

TEST(RenaissanceGame, IdentitySeatsAndOptions) {
  const Game& g = renaissance();
  EXPECT_EQ(g.name(), "renaissance");
  EXPECT_EQ(g.title(), "Masters of Renaissance");
  EXPECT_EQ(g.min_seats(), 1);
  EXPECT_EQ(g.max_seats(), 4);
  EXPECT_FALSE(g.views_are_public());
  EXPECT_EQ(g.options_json(*g.options_from_request(3, nullptr)), R"({"players":3})");
  const auto five = g.options_from_request(5, nullptr);
  ASSERT_FALSE(five);
  EXPECT_EQ(five.error().code, "INVALID_OPTIONS");
}

TEST(RenaissanceGame, StagesWhoActsAndTheRulesCodes) {
  const Game& g = renaissance();
  State s = started(2, test_seed());
  EXPECT_EQ(g.stage(s), Stage::Setup);
  EXPECT_EQ(g.phase_name(s), "setup");
  EXPECT_EQ(g.round(s), 0);
  EXPECT_EQ(g.to_act(s).size(), 2u);  // both choose their leaders at once
  s = through_setup(s);
  EXPECT_EQ(g.stage(s), Stage::Play);
  EXPECT_EQ(g.round(s), 1);
  const auto to_act = g.to_act(s);
  ASSERT_EQ(to_act.size(), 1u);
  EXPECT_EQ(to_act.front().wait, Wait::Turn);
  const Seat me = to_act.front().seat;
  const Seat other = static_cast<Seat>(1 - me);
  // The rules' codes, as rules.md section 9 names them.
  const auto early = g.decide(s, me, words("end"));
  ASSERT_FALSE(early);
  EXPECT_EQ(early.error().code, "MAIN_ACTION_MISSING");
  EXPECT_EQ(g.decide(s, other, words("market row 1")).error().code, "NOT_YOUR_TURN");
  EXPECT_EQ(g.decide(s, me, g.skip_turn()).error().code, "SERVER_ONLY");
  // A turn typed as words: the market without a layout keeps everything when it fits.
  const auto market = g.decide(s, me, words("market row 1"));
  if (market) {
    s = market->next;
    EXPECT_NE(g.describe_event(started(2, test_seed()), market->event, s, Names{"alice", "bob"})
                  .find("from the market"),
              std::string::npos);
  } else {
    EXPECT_EQ(market.error().code, "WAREHOUSE_FULL");
    s = play(s, me, g.legal_commands(s, me).front());
  }
  // The server skips an absent seat's turn; the other seat is to act.
  s = play(s, me, g.skip_turn(), Authority::Server);
  EXPECT_EQ(g.to_act(s).front().seat, other);
  // The board as the terminal shows it, with the summary of what one may do.
  BoardOptions b;
  b.names = {"alice", "bob"};
  b.viewer = other;
  b.compact = true;
  const std::string board = g.render_board(g.view(s, other), b);
  EXPECT_NE(board.find("(you)"), std::string::npos) << board;
  EXPECT_NE(g.legal_summary(s, other).find("take from the market"), std::string::npos);
  EXPECT_EQ(g.legal_summary(s, me), "");
}

TEST(RenaissanceGame, OutcomesRankWinnersFirstAndLorenzoAboveALosingSoloPlayer) {
  const Game& g = renaissance();
  State two = through_setup(started(2, test_seed() + 1));
  const Seat me = g.to_act(two).front().seat;
  const State resigned = play(two, me, g.resign());
  const auto o = g.outcome(resigned);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->reason, "resign");
  ASSERT_EQ(o->winners.size(), 1u);
  EXPECT_NE(o->winners.front(), me);
  EXPECT_EQ(o->places[o->winners.front()], 1);
  EXPECT_EQ(o->places[me], 2);
  EXPECT_FALSE(o->draw);
  EXPECT_EQ(o->details_json.rfind("\"scores\":[", 0), 0u) << o->details_json;
  // Solo: resigning is Lorenzo's win; the player is 2nd.
  State solo = through_setup(started(1, test_seed() + 2));
  const auto lost = g.outcome(play(solo, 0, g.resign()));
  ASSERT_TRUE(lost);
  EXPECT_TRUE(lost->winners.empty());
  EXPECT_EQ(lost->places, std::vector<int>{2});
  EXPECT_NE(lost->details_json.find("\"lorenzo_won\":true"), std::string::npos);
  // An operator's end: nobody wins, nobody is ranked.
  const auto ended = g.outcome(play(two, me, g.end_match(), Authority::Server));
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->reason, "ended");
  EXPECT_TRUE(ended->winners.empty());
  EXPECT_EQ(ended->places, (std::vector<int>{1, 1}));
  // A solo game has nobody to forfeit to (decision 59).
  EXPECT_EQ(g.decide(solo, 0, g.award_forfeit(), Authority::Server).error().code, "WRONG_PHASE");
}

// Decision 57: whoever resigns is last, whatever its score; the others are ranked among themselves.
TEST(RenaissanceGame, AResignerIsLastEvenWhenItLeads) {
  const Game& g = renaissance();
  State s = through_setup(started(3, test_seed() + 4));
  const Seat resigner = g.to_act(s).front().seat;
  // The resigner holds 50 coins in its strongbox: 10 points, far ahead of the others.
  json::LineDocument line;
  auto& doc = line.doc();
  doc.Parse(g.state_to_json(s).c_str());
  doc["boards"][resigner]["strongbox"]["coin"].SetUint(50);
  // Of the others, the next seat holds 5 (1 point): it wins, the third is second.
  doc["boards"][(resigner + 1) % 3]["strongbox"]["coin"].SetUint(5);
  // The points are derived: left out, the reader derives them from the edited boards.
  for (auto& board : doc["boards"].GetArray()) board.RemoveMember("points");
  rapidjson::StringBuffer text;
  rapidjson::Writer<rapidjson::StringBuffer> writer(text);
  doc.Accept(writer);
  auto rich = g.state_from_json(text.GetString());
  ASSERT_TRUE(rich) << rich.error().message;
  const auto o = g.outcome(play(*rich, resigner, g.resign()));
  ASSERT_TRUE(o);
  EXPECT_EQ(o->reason, "resign");
  EXPECT_EQ(o->places[resigner], 3) << o->details_json;

  for (Seat p = 0; p < 3; ++p) {
    if (p != resigner) {
      EXPECT_LE(o->places[p], 2);
    }
  }
}

TEST(RenaissanceGame, ViewsAndEventsHideHandsFromOthers) {
  const Game& g = renaissance();
  State s = started(2, test_seed() + 3);
  const auto keep = g.legal_commands(s, 0).front();
  auto d = g.decide(s, 0, keep);
  ASSERT_TRUE(d);
  const std::string mine = g.event_to_json(g.event_for(d->event, 0));
  const std::string theirs = g.event_to_json(g.event_for(d->event, 1));
  EXPECT_EQ(mine, g.event_to_json(d->event));
  EXPECT_NE(theirs, mine);
  EXPECT_NE(theirs.find(R"("keep":[0,0])"), std::string::npos) << theirs;
  EXPECT_EQ(g.view_to_json(g.view(d->next, 1), 1).find("\"seed\""), std::string::npos);
}

// The engine's players over this game's hooks: strong (ISMCTS) against another level, 2 players,
// seats alternating. Figures, not timings, are asserted; the CPU time is printed.
struct ArenaResult {
  int games = 0;
  int strong_wins = 0;
};

ArenaResult arena(Level opponent, int games, std::uint32_t playouts) {
  const Game& g = renaissance();
  const std::uint64_t seed = test_seed();
  std::cout << "seed " << seed << " (ERYANTIS_TEST_SEED): strong at " << playouts
            << " playouts against " << level_name(opponent) << ", " << games << " games\n";
  if (std::ifstream cpu("/proc/cpuinfo"); cpu)
    for (std::string line; std::getline(cpu, line);)
      if (line.rfind("model name", 0) == 0) {
        std::cout << line << "\n";
        break;
      }
  ArenaResult result{games, 0};
  int strong_decisions = 0;
  double strong_cpu = 0;
  for (int i = 0; i < games; ++i) {
    const Seat strong = static_cast<Seat>(i % 2);
    State s = started(2, seed + 100 + i);
    int steps = 0;
    for (; steps < 3000 && g.stage(s) != Stage::Over; ++steps) {
      const Seat seat = g.to_act(s).front().seat;
      const Level level = seat == strong ? Level::Strong : opponent;
      const std::clock_t start = std::clock();
      auto choice = g.choose(g.view(s, seat), seat, level, Budget{playouts, nullptr}, seed + i);
      if (seat == strong) {
        strong_cpu += static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
        ++strong_decisions;
      }
      EXPECT_TRUE(choice);
      if (!choice) return result;
      s = play(s, seat, choice->command);
    }
    const auto o = g.outcome(s);
    EXPECT_TRUE(o) << "game " << i << " did not end in " << steps << " commands";
    if (!o) return result;
    const bool won = std::find(o->winners.begin(), o->winners.end(), strong) != o->winners.end();
    result.strong_wins += won;
    std::cout << "game " << i << ": strong as seat " << int{strong} << " " << (won ? "won" : "lost")
              << " (" << o->reason << ", " << o->details_json << ", " << g.round(s) << " rounds)\n";
  }
  std::cout << "strong won " << result.strong_wins << " of " << games << "; "
            << (strong_decisions ? 1000 * strong_cpu / strong_decisions : 0)
            << " ms CPU per strong decision over " << strong_decisions << " decisions\n";
  return result;
}

int arena_games() {
  return std::getenv("ERYANTIS_SANITIZER_RUN") ? 1 : 6;
}

TEST(RenaissanceArena, StrongBeatsRandomAtTwoPlayers) {
  const ArenaResult r = arena(Level::Random, arena_games(), 300);
  EXPECT_GE(r.strong_wins * 4, r.games * 3);  // at least 75 %
}

// Greedy (one ply over the same evaluation) is a much closer opponent: at 300 playouts strong won
// 25 of 42 games over seeds 20261128, 7, 99 and 1 to 4 (60 %, 6 games each, 1 to 6 of 6), and 12
// of 18 at 1,000 playouts. Six games cannot show 70 %; this holds that strong is not the weaker.
TEST(RenaissanceArena, StrongHoldsItsOwnAgainstGreedyAtTwoPlayers) {
  const ArenaResult r = arena(Level::Greedy, arena_games(), 300);
  EXPECT_GE(r.strong_wins * 3, r.games);  // at least a third
}

// Solo: how often each level beats Lorenzo. With one seat there is no other side to measure a
// position against: the engine's search used to score every solo position 0.5, so greedy and
// strong played at random and none of the three levels won a game; it now scores a lone side by
// its own evaluation (include/eryantis/game/search.hpp, advantages).
TEST(RenaissanceArena, SoloAgainstLorenzo) {
  const Game& g = renaissance();
  const std::uint64_t seed = test_seed();
  const int games = std::getenv("ERYANTIS_SANITIZER_RUN") ? 1 : 6;
  std::array<int, 3> wins{};
  for (Level level : {Level::Random, Level::Greedy, Level::Strong}) {
    for (int i = 0; i < games; ++i) {
      State s = started(1, seed + 200 + i);
      for (int steps = 0; steps < 3000 && g.stage(s) != Stage::Over; ++steps) {
        auto choice = g.choose(g.view(s, 0), 0, level, Budget{300, nullptr}, seed + i);
        ASSERT_TRUE(choice);
        s = play(s, 0, choice->command);
      }
      const auto o = g.outcome(s);
      ASSERT_TRUE(o);
      wins[static_cast<int>(level)] += !o->winners.empty();
    }
    std::cout << level_name(level) << " beat Lorenzo in " << wins[static_cast<int>(level)] << " of "
              << games << " solo games\n";
  }
  EXPECT_GT(wins[static_cast<int>(Level::Strong)], wins[static_cast<int>(Level::Random)]);
  EXPECT_GE(wins[static_cast<int>(Level::Strong)] * 2, games);  // at least half
}

}  // namespace
}  // namespace eryantis::game
