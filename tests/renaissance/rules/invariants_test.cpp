// invariant_violation (section 10) notices each kind of broken state: the property tests rely on
// it, so each of its checks is shown to fire here.
#include <functional>

#include "eryantis/renaissance/rules/random_game.hpp"
#include "scenario.hpp"

namespace eryantis::renaissance {
namespace {

using namespace scenario;

void expect_broken(const std::function<void(State&)>& corrupt, const std::string& words) {
  Match m = started(4, 3);
  ASSERT_EQ(invariant_violation(m.state), "");
  State s = m.state;
  corrupt(s);
  const std::string broken = invariant_violation(s);
  EXPECT_FALSE(broken.empty()) << "wanted \"" << words << "\"";
  EXPECT_NE(broken.find(words), std::string::npos)
      << "wanted \"" << words << "\", got \"" << invariant_violation(s) << "\"";
}

TEST(Invariants, EachCheckFires) {
  expect_broken([](State& s) { s.market.slide = s.market.slide == Marble::Red ? Marble::White : Marble::Red; },
                "marbles");
  expect_broken([](State& s) { s.grid.cards[0][0] = s.grid.cards[0][1]; }, "places");
  expect_broken([](State& s) { std::swap(s.grid.cards[0][0], s.grid.cards[11][0]); }, "wrong deck");
  expect_broken([](State& s) { s.grid.size[3] = 3; }, "above a deck's top");
  expect_broken([](State& s) { s.lorenzo.discarded = 2; }, "outside solo");
  expect_broken([](State& s) { s.boards[0].faith = 25; }, "faith beyond 24");
  expect_broken([](State& s) { s.boards[1].strongbox[2] -= 1; }, "wrapped");
  expect_broken([](State& s) { s.boards[0].depots[0] = Depot{Resource::Coin, 2}; }, "capacity");
  expect_broken([](State& s) { s.boards[0].depots[2] = Depot{std::nullopt, 2}; }, "type and count");
  expect_broken([](State& s) { s.boards[0].depots[1] = Depot{Resource::Coin, 0}; }, "type and count");
  expect_broken(
      [](State& s) {
        s.boards[0].depots[0] = Depot{Resource::Stone, 1};
        s.boards[0].depots[2] = Depot{Resource::Stone, 1};
      },
      "one type");
  expect_broken([](State& s) { give_card(s, 0, 0, 17); }, "gap");
  expect_broken(
      [](State& s) {
        give_card(s, 0, 0, 48);
        s.boards[0].slots[0] = {48, 0, 0};
      },
      "wrong level");
  expect_broken([](State& s) { s.boards[1].dealt[0] = s.boards[2].dealt[0]; }, "two seats");
  expect_broken([](State& s) { s.boards[0].leaders[0].stored = 1; }, "leader");
  expect_broken([](State& s) { std::swap(s.boards[0].leaders[0], s.boards[0].leaders[1]); }, "order");
  expect_broken([](State& s) { s.boards[0].tiles[0] = Tile::FaceUp; }, "report");
  expect_broken([](State& s) { s.boards[0].faith = 9; }, "due report");
  expect_broken([](State& s) { s.current = 7; }, "current seat");
  expect_broken([](State& s) { s.trigger = EndReason::FaithTrack; }, "trigger");
  expect_broken([](State& s) { s.result.winners = 1; }, "result before the end");
  expect_broken([](State& s) { s.lorenzo.cross = 3; }, "Lorenzo outside");
}

TEST(Invariants, SoloTokensAndTheEnd) {
  Match m = started(1, 3);
  State s = m.state;
  s.lorenzo.tokens[0] = s.lorenzo.tokens[1];
  EXPECT_NE(invariant_violation(s).find("T1..T7"), std::string::npos);
  s = m.state;
  set_tokens(s, {7, 1}, {2, 3, 4, 5, 6});
  EXPECT_NE(invariant_violation(s).find("T7"), std::string::npos);
  s = m.state;
  s.phase = Phase::GameOver;
  s.current = kNoSeat;
  s.result.reason = EndReason::BlackCross;
  s.result.lorenzo_won = true;
  s.result.winners = 1;
  EXPECT_NE(invariant_violation(s).find("both or neither"), std::string::npos);
  s.result.winners = 0;
  s.result.scores[0] = 99;
  EXPECT_NE(invariant_violation(s).find("score"), std::string::npos);
}

// A view blanks what its viewer may not see (decks below the top, the token stack, other hands):
// invariant_violation refuses it ("a deck position without a card"), view_violation accepts
// every view of every state of random games, for every seat and a spectator, solo included.
TEST(Invariants, EveryViewPassesTheViewCheck) {
  for (int players : {1, 2, 4}) {
    int views = 0;
    play_random_game(Options{static_cast<std::uint8_t>(players)}, 40 + players,
                     [&](const Event&, const State& s) {
                       for (Seat v = kNoSeat; v < players; ++v) {
                         const State seen = view(s, v).state;
                         ASSERT_EQ(view_violation(seen), "") << players << "p, viewer " << int{v};
                         ++views;
                       }
                     });
    EXPECT_GT(views, 100);
    EXPECT_NE(invariant_violation(view(started(players, 3).state, 0).state), "");
  }
}

// What a view shows must still be whole: its checks fire on a view as on a state.
TEST(Invariants, AViewStillBreaks) {
  const State full = started(4, 3).state;
  auto broken = [&](const std::function<void(State&)>& corrupt) {
    State v = view(full, 1).state;
    corrupt(v);
    return view_violation(v);
  };
  EXPECT_EQ(broken([](State&) {}), "");
  // A deck's top shown twice.
  EXPECT_NE(broken([](State& v) { v.grid.cards[1][v.grid.size[1] - 1] = v.grid.cards[0][v.grid.size[0] - 1]; })
                .find("wrong deck"),
            std::string::npos);
  // A deck's top blanked (only what lies below the top is hidden).
  EXPECT_NE(broken([](State& v) { v.grid.cards[0][v.grid.size[0] - 1] = 0; }).find("without a card"),
            std::string::npos);
  // The viewer's own dealt leaders are shown: one blanked is broken.
  EXPECT_NE(broken([](State& v) { v.boards[1].dealt[0] = 0; }).find("leader"), std::string::npos);
  // Another seat's hidden leader made active.
  EXPECT_NE(broken([](State& v) {
              v.boards[2].leaders[0].id = 0;
              v.boards[2].leaders[0].status = LeaderStatus::Active;
            }).find("hidden leader"),
            std::string::npos);
  EXPECT_NE(broken([](State& v) { v.boards[0].faith = 25; }).find("faith"), std::string::npos);
}

}  // namespace
}  // namespace eryantis::renaissance
