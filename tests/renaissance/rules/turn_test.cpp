// The reference's worked examples and the turn's remaining details: scoring (5.5), production
// (3.5), Vatican reports in solo (6.4), the setup bonus by position (1.7), white-marble choices
// in a column's order (3.2).
#include <algorithm>

#include "scenario.hpp"

namespace eryantis::renaissance {
namespace {

using namespace scenario;

void top_of_deck(State& s, int card) {
  const DevelopmentCard& c = development_card(card);
  auto& deck = s.grid.cards[deck_index(c.level, c.colour)];
  const int size = s.grid.size[deck_index(c.level, c.colour)];
  std::swap(*std::find(deck.begin(), deck.begin() + size, card), deck[size - 1]);
}

TEST(Turn, TheWorkedScoringExampleScores49) {
  Match m = started(2, 55);
  const Seat p = m.state.current;
  for (int card : {5, 21, 33}) give_card(m.state, p, 0, card);
  give_card(m.state, p, 1, 1);
  for (int card : {13, 29}) give_card(m.state, p, 2, card);
  set_faith(m.state, p, 17);
  m.state.reports = 0b011;
  m.board(p).tiles = {Tile::FaceUp, Tile::FaceUp, Tile::Discarded};
  set_leaders(m.state, p, {5, LeaderStatus::Active}, {6, LeaderStatus::Discarded});
  clear_warehouse(m.state, p);
  set_depot(m.state, p, 1, R::Coin, 2);
  set_depot(m.state, p, 2, R::Stone, 3);
  m.board(p).leaders[0].stored = 2;
  set_strongbox(m.state, p, 3, 2, 1, 1);
  const Score sc = score(m.state, p);
  EXPECT_EQ(sc.cards, 30u);
  EXPECT_EQ(card_count(m.board(p)), 6);
  EXPECT_EQ(sc.track, 9u);
  EXPECT_EQ(sc.tiles, 5u);
  EXPECT_EQ(sc.leaders, 3u);
  EXPECT_EQ(sc.resources_left, 14u);
  EXPECT_EQ(sc.resources, 2u);
  EXPECT_EQ(sc.total, 49u);
}

TEST(Turn, TheWorkedProductionExample) {
  Match m = started(2, 35);
  const Seat p = m.state.current;
  give_card(m.state, p, 0, 9);                                 // D09: 2 servant -> coin, shield, stone
  give_card(m.state, p, 1, card_in_grid(m.state, 1, Colour::Blue));
  give_card(m.state, p, 1, 17);                                // D17: 1 stone -> 2 faith
  set_leaders(m.state, p, {16, LeaderStatus::Active}, {1, LeaderStatus::Hand});
  clear_warehouse(m.state, p);
  set_depot(m.state, p, 1, R::Servant, 2);
  set_depot(m.state, p, 0, R::Stone, 1);
  set_strongbox(m.state, p, 3, 0, 0, 0);
  const int faith = m.board(p).faith;
  Payment pay{};
  pay[index(R::Servant)].depot = 2;
  pay[index(R::Stone)].depot = 1;
  pay[index(R::Coin)].strongbox = 3;
  m.play(p, Produce{BaseProduction{{R::Coin, R::Coin}, R::Servant}, {0, 1}, {{16, R::Shield}}, pay});
  EXPECT_EQ(m.board(p).strongbox, (std::array<std::uint32_t, 4>{1, 1, 2, 1}));
  EXPECT_EQ(warehouse(m.board(p)), Amounts{});
  EXPECT_EQ(m.board(p).faith, faith + 3);
}

TEST(Turn, SoloReportsFlipOnlyThePlayersTileAndTheCrossCanMakeThem) {
  Match m = started(1, 64);
  set_faith(m.state, 0, 5);
  m.state.lorenzo.cross = 6;
  set_tokens(m.state, {}, {5, 1, 2, 3, 4, 6, 7});
  pass(m);
  EXPECT_EQ(m.state.lorenzo.cross, 8);
  EXPECT_EQ(m.state.reports, 0b001);
  EXPECT_EQ(m.board(0).tiles[0], Tile::FaceUp);
  Match k = started(1, 65);
  set_faith(k.state, 0, 4);
  k.state.lorenzo.cross = 6;
  set_tokens(k.state, {}, {6, 1, 2, 3, 4, 5, 7});
  pass(k);
  EXPECT_EQ(k.board(0).tiles[0], Tile::Discarded);
}

TEST(Turn, TheSetupBonusFollowsThePosition) {
  Match m = started(4, 17);
  for (Seat p = 0; p < 4; ++p) {
    const int pos = position_of(m.state, p);
    constexpr std::array<int, 4> resources = {0, 1, 1, 2};
    constexpr std::array<int, 4> faith = {0, 0, 1, 1};
    EXPECT_EQ(total(warehouse(m.board(p))), resources[pos]);
    EXPECT_EQ(m.board(p).faith, faith[pos]);
  }
}

TEST(Turn, WhiteChoicesFollowAColumnTopToBottom) {
  Match m = started(2, 18);
  const Seat p = m.state.current;
  set_leaders(m.state, p, {9, LeaderStatus::Active}, {12, LeaderStatus::Active});  // servant, coin
  clear_warehouse(m.state, p);
  set_market(m.state, marbles("WBGY" "BWGY" "WPPR" "W"));  // column 0: white, blue, white
  m.play(p, TakeFromMarket{Line::Column, 0, {R::Coin, R::Servant},
                           layout({{R::Coin, 1}, {R::Servant, 1}, {R::Shield, 1}})});
  EXPECT_EQ(warehouse(m.board(p)), (Amounts{1, 1, 1, 0}));
}

TEST(Turn, PayingFromALeaderDepot) {
  Match m = started(2, 19);
  const Seat p = m.state.current;
  set_leaders(m.state, p, {7, LeaderStatus::Active}, {1, LeaderStatus::Hand});  // shield depot
  clear_warehouse(m.state, p);
  m.board(p).leaders[0].stored = 2;
  top_of_deck(m.state, 1);  // D01: 2 shields
  Payment pay{};
  pay[index(R::Shield)].leader = 2;
  m.play(p, BuyCard{1, Colour::Green, 0, pay});
  EXPECT_EQ(m.board(p).leaders[0].stored, 0);
  EXPECT_EQ(m.board(p).slots[0][0], 1);
}

TEST(Turn, ARoundGoesClockwiseFromTheInkwell) {
  Match m = started(4, 20);
  const Seat ink = m.state.inkwell;
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(m.state.current, (ink + i) % 4);
    EXPECT_EQ(m.state.turn, static_cast<std::uint32_t>(i + 1));
    pass(m);
  }
}

}  // namespace
}  // namespace eryantis::renaissance
