// One test per numbered decision of docs/renaissance/rules.md (section 7), decisions 1 to 30.
// Decisions 31 to 60 are in decisions_more_test.cpp.
#include <algorithm>
#include <set>

#include "scenario.hpp"

namespace eryantis::renaissance {
namespace {

using namespace scenario;

struct Game {
  Match m;
  Seat me;
  Seat next;
  explicit Game(int players = 2, std::uint64_t seed = 5) : m(started(players, seed)) {
    me = m.state.current;
    next = static_cast<Seat>((me + 1) % players);
  }
  Layout keep() const { return layout_of_board(m.board(me)); }
  int faith(Seat p) const { return m.board(p).faith; }
};

// Row 0 white, blue, grey, yellow; row 1 purple, white, blue, grey; row 2 yellow, purple, white,
// red; a white marble on the slide.
const char* const kTray = "WBGY" "PWBG" "YPWR" "W";

// --- 1 ---------------------------------------------------------------------------------------

TEST(Decisions, D01_ARowIsPushedFromTheRightAColumnFromTheBottom) {
  Game row;
  set_market(row.m.state, marbles(kTray));
  row.m.play(row.me, TakeFromMarket{Line::Row, 0, {}, row.keep()});
  EXPECT_EQ(row.m.state.market.tray[0], Marble::Blue);
  EXPECT_EQ(row.m.state.market.tray[1], Marble::Grey);
  EXPECT_EQ(row.m.state.market.tray[2], Marble::Yellow);
  EXPECT_EQ(row.m.state.market.tray[3], Marble::White);  // the old slide, in at the right
  EXPECT_EQ(row.m.state.market.slide, Marble::White);    // the old column 0
  Game column;
  set_market(column.m.state, marbles(kTray));
  column.m.play(column.me, TakeFromMarket{Line::Column, 3, {}, column.keep()});
  // Column 3 was yellow, grey, red (top to bottom).
  EXPECT_EQ(column.m.state.market.tray[3], Marble::Grey);
  EXPECT_EQ(column.m.state.market.tray[7], Marble::Red);
  EXPECT_EQ(column.m.state.market.tray[11], Marble::White);  // the old slide, in at the bottom
  EXPECT_EQ(column.m.state.market.slide, Marble::Yellow);    // the old top
}

// --- 2 ---------------------------------------------------------------------------------------

TEST(Decisions, D02_TheLineIsTakenBeforeThePushAndTheSlideNever) {
  Game g;
  clear_warehouse(g.m.state, g.me);
  set_market(g.m.state, marbles("WBGY" "PWBG" "YPWW" "R"));
  const int before = g.faith(g.next);
  // Everything discarded: the push happens all the same.
  g.m.play(g.me, TakeFromMarket{Line::Row, 0, {}, Layout{}});
  EXPECT_EQ(g.faith(g.me), 0);               // the red slide marble was not taken
  EXPECT_EQ(g.faith(g.next), before + 3);    // blue, grey, yellow: the line before the push
  EXPECT_EQ(g.m.state.market.tray[3], Marble::Red);
  EXPECT_EQ(g.m.state.market.slide, Marble::White);
}

// --- 3 ---------------------------------------------------------------------------------------

TEST(Decisions, D03_TheMarketCommandCarriesTheFinalLayout) {
  Game g;
  clear_warehouse(g.m.state, g.me);
  set_market(g.m.state, marbles(kTray));
  const int before = g.faith(g.next);
  g.m.play(g.me, TakeFromMarket{Line::Row, 0, {}, layout({{R::Shield, 1}, {std::nullopt, 0}, {R::Stone, 1}})});
  EXPECT_EQ(g.m.board(g.me).depots[0], (Depot{R::Shield, 1}));
  EXPECT_EQ(g.m.board(g.me).depots[2], (Depot{R::Stone, 1}));
  EXPECT_EQ(g.faith(g.next), before + 1);  // the coin left out is discarded
  EXPECT_TRUE(g.m.state.main_action_done);
}

// --- 4 ---------------------------------------------------------------------------------------

TEST(Decisions, D04_StoredResourcesMayBeDroppedAndCountAsDiscarded) {
  Game g;
  clear_warehouse(g.m.state, g.me);
  set_depot(g.m.state, g.me, 2, R::Coin, 3);
  set_market(g.m.state, marbles(kTray));
  const int before = g.faith(g.next);
  // Row 0 gives a shield, a stone and a coin; keep them and 1 old coin: 3 dropped.
  g.m.play(g.me, TakeFromMarket{Line::Row, 0, {},
                                layout({{R::Shield, 1}, {R::Coin, 2}, {R::Stone, 1}})});
  EXPECT_EQ(warehouse(g.m.board(g.me)), (Amounts{2, 0, 1, 1}));
  EXPECT_EQ(g.faith(g.next), before + 2);  // 3 coins + 1 coin gained, 2 kept
}

// --- 5 ---------------------------------------------------------------------------------------

TEST(Decisions, D05_ResourcesLeaveOnlyByPayingOrAfterTheMarket) {
  Game g;
  clear_warehouse(g.m.state, g.me);
  set_depot(g.m.state, g.me, 2, R::Coin, 3);
  set_strongbox(g.m.state, g.me, 4, 0, 0, 0);
  EXPECT_EQ(g.m.code(g.me, ArrangeWarehouse{layout({{std::nullopt, 0}, {R::Coin, 2}})}),
            "RESOURCES_CHANGED");
  EXPECT_EQ(g.m.code(g.me, ArrangeWarehouse{Layout{}}), "RESOURCES_CHANGED");
  // The strongbox is never part of a layout: its coins do not count towards it.
  EXPECT_EQ(g.m.code(g.me, ArrangeWarehouse{layout({{std::nullopt, 0}, {std::nullopt, 0}, {R::Coin, 3}})}),
            "ACCEPTED");
}

// --- 6 ---------------------------------------------------------------------------------------

TEST(Decisions, D06_RearrangingAnyTimeOfOnesOwnTurnBetweenBasicAndLeaderDepots) {
  Game g;
  set_leaders(g.m.state, g.me, {8, LeaderStatus::Active}, {1, LeaderStatus::Hand});  // coin depot
  clear_warehouse(g.m.state, g.me);
  set_depot(g.m.state, g.me, 2, R::Coin, 3);
  g.m.play(g.me, ArrangeWarehouse{layout({{R::Coin, 1}}, {{8, 2}})});  // before the main action
  EXPECT_EQ(g.m.board(g.me).leaders[0].stored, 2);
  EXPECT_EQ(g.m.code(g.next, ArrangeWarehouse{layout_of_board(g.m.board(g.next))}), "NOT_YOUR_TURN");
  g.m.play(g.me, TakeFromMarket{Line::Row, 0, {}, g.keep()});
  g.m.play(g.me, ArrangeWarehouse{layout({{std::nullopt, 0}, {std::nullopt, 0}, {R::Coin, 3}})});  // after
  EXPECT_EQ(g.m.board(g.me).leaders[0].stored, 0);
  g.m.play(g.me, ArrangeWarehouse{g.keep()});  // any number of times
  Match setup = created(2, 5);
  EXPECT_EQ(setup.code(0, ArrangeWarehouse{}), "WRONG_PHASE");
}

// --- 7 ---------------------------------------------------------------------------------------

TEST(Decisions, D07_WhiteMarblesGiveNothingTheLeadersResourceOrTheNamedOne) {
  const char* two_whites = "WWBG" "YPRB" "GYPW" "W";  // row 0: white, white, blue, grey
  {  // No white-marble leader: nothing.
    Game g;
    clear_warehouse(g.m.state, g.me);
    set_market(g.m.state, marbles(two_whites));
    EXPECT_EQ(g.m.code(g.me, TakeFromMarket{Line::Row, 0, {}, layout({{R::Servant, 1}})}),
              "LAYOUT_NOT_AVAILABLE");
    g.m.play(g.me, TakeFromMarket{Line::Row, 0, {}, layout({{R::Shield, 1}, {R::Stone, 1}})});
  }
  {  // One (L09, servant): every white gives a servant, with no way to refuse it.
    Game g;
    set_leaders(g.m.state, g.me, {9, LeaderStatus::Active}, {1, LeaderStatus::Hand});
    clear_warehouse(g.m.state, g.me);
    set_market(g.m.state, marbles(two_whites));
    const int before = g.faith(g.next);
    g.m.play(g.me, TakeFromMarket{Line::Row, 0, {}, layout({{R::Shield, 1}, {R::Stone, 1}})});
    EXPECT_EQ(g.faith(g.next), before + 2);  // the two servants were discarded
  }
  {  // Two (L09 servant, L10 shield): one name per white marble, in line order.
    Game g;
    set_leaders(g.m.state, g.me, {9, LeaderStatus::Active}, {10, LeaderStatus::Active});
    clear_warehouse(g.m.state, g.me);
    set_market(g.m.state, marbles(two_whites));
    const int before = g.faith(g.next);
    g.m.play(g.me, TakeFromMarket{Line::Row, 0, {R::Shield, R::Servant},
                                  layout({{R::Servant, 1}, {R::Shield, 2}, {R::Stone, 1}})});
    EXPECT_EQ(g.faith(g.next), before);
    EXPECT_EQ(warehouse(g.m.board(g.me)), (Amounts{0, 1, 2, 1}));
  }
  {  // Leaders in hand never count.
    Game g;
    set_leaders(g.m.state, g.me, {9, LeaderStatus::Hand}, {10, LeaderStatus::Hand});
    clear_warehouse(g.m.state, g.me);
    set_market(g.m.state, marbles(two_whites));
    EXPECT_EQ(g.m.code(g.me, TakeFromMarket{Line::Row, 0, {}, layout({{R::Servant, 1}})}),
              "LAYOUT_NOT_AVAILABLE");
  }
}

// --- 8 ---------------------------------------------------------------------------------------

TEST(Decisions, D08_TheRedMarbleIsOneFaithNeedsNoRoomAndIsNeverAResource) {
  Game g;
  set_leaders(g.m.state, g.me, {9, LeaderStatus::Active}, {1, LeaderStatus::Hand});
  // A full warehouse: nothing the line gives fits.
  clear_warehouse(g.m.state, g.me);
  set_depot(g.m.state, g.me, 0, R::Coin, 1);
  set_depot(g.m.state, g.me, 1, R::Servant, 2);
  set_depot(g.m.state, g.me, 2, R::Shield, 3);
  set_market(g.m.state, marbles("RWBG" "YPWB" "GYPW" "W"));  // column 0: red, yellow, grey
  const int mine = g.faith(g.me);
  const int theirs = g.faith(g.next);
  g.m.play(g.me, TakeFromMarket{Line::Column, 0, {}, g.keep()});
  EXPECT_EQ(g.faith(g.me), mine + 1);
  EXPECT_EQ(g.faith(g.next), theirs + 2);  // the coin and the stone; the red was no resource
}

// --- 9 ---------------------------------------------------------------------------------------

TEST(Decisions, D09_TheRedMarblesBatchResolvesBeforeTheDiscards) {
  // Section 4's first example: A 7, B 5, C 4; A takes a column with the red marble and one stone
  // she cannot store.
  Game g(3, 11);
  const Seat a = g.me, b = g.next, c = static_cast<Seat>((g.me + 2) % 3);
  set_faith(g.m.state, a, 7);
  set_faith(g.m.state, b, 5);
  set_faith(g.m.state, c, 4);
  clear_warehouse(g.m.state, a);
  set_depot(g.m.state, a, 0, R::Coin, 1);
  set_depot(g.m.state, a, 1, R::Servant, 2);
  set_depot(g.m.state, a, 2, R::Shield, 3);
  set_market(g.m.state, marbles("RWBY" "GPWB" "WYPG" "W"));  // column 0: red, grey, white
  g.m.play(a, TakeFromMarket{Line::Column, 0, {}, g.keep()});
  EXPECT_EQ(g.faith(a), 8);
  EXPECT_EQ(g.m.board(a).tiles[0], Tile::FaceUp);
  EXPECT_EQ(g.m.board(b).tiles[0], Tile::FaceUp);
  EXPECT_EQ(g.m.board(c).tiles[0], Tile::Discarded);  // 4 when report 1 was made
  EXPECT_EQ(g.faith(b), 6);
  EXPECT_EQ(g.faith(c), 5);  // inside the section now, but the report has happened
}

// --- 10 --------------------------------------------------------------------------------------

TEST(Decisions, D10_AllMarkersOfABatchMoveBeforeAnyReport) {
  // Section 4's second example: A 2, B 7, C 3; A discards 2 resources: B 9, C 5, one report.
  Game g(3, 12);
  const Seat a = g.me, b = g.next, c = static_cast<Seat>((g.me + 2) % 3);
  set_faith(g.m.state, a, 2);
  set_faith(g.m.state, b, 7);
  set_faith(g.m.state, c, 3);
  clear_warehouse(g.m.state, a);
  set_market(g.m.state, marbles("BGWY" "PWBG" "YPWR" "W"));  // row 0: blue, grey, white, yellow
  g.m.play(a, TakeFromMarket{Line::Row, 0, {}, layout({{R::Coin, 1}})});  // shield and stone dropped
  EXPECT_EQ(g.faith(b), 9);
  EXPECT_EQ(g.faith(c), 5);
  EXPECT_EQ(g.m.board(b).tiles[0], Tile::FaceUp);
  EXPECT_EQ(g.m.board(c).tiles[0], Tile::FaceUp);
  EXPECT_EQ(g.m.board(a).tiles[0], Tile::Discarded);
  EXPECT_EQ(g.m.state.reports, 0b001);
}

TEST(Decisions, D10_SeveralReportsDueAfterOneBatchResolveInAscendingOrder) {
  // One discard batch moves the other player from 7 to 16: reports 1 and 2, in that order, with
  // the positions after the batch.
  Game g(2, 13);
  set_faith(g.m.state, g.me, 6);
  set_faith(g.m.state, g.next, 7);
  clear_warehouse(g.m.state, g.me);
  set_depot(g.m.state, g.me, 0, R::Coin, 1);
  set_depot(g.m.state, g.me, 1, R::Servant, 2);
  set_depot(g.m.state, g.me, 2, R::Shield, 3);
  set_market(g.m.state, marbles(kTray));
  g.m.play(g.me, TakeFromMarket{Line::Row, 0, {}, Layout{}});  // 6 stored + 3 gained dropped
  EXPECT_EQ(g.faith(g.next), 16);
  EXPECT_EQ(g.m.state.reports, 0b011);
  EXPECT_EQ(g.m.board(g.me).tiles[0], Tile::FaceUp);
  EXPECT_EQ(g.m.board(g.me).tiles[1], Tile::Discarded);
  EXPECT_EQ(g.m.board(g.next).tiles[0], Tile::FaceUp);
  EXPECT_EQ(g.m.board(g.next).tiles[1], Tile::FaceUp);
}

// --- 11 --------------------------------------------------------------------------------------

// Puts D41 (1 servant -> 1 coin + 3 faith) on top of the seat's slot 0.
void d41_on_top(State& s, Seat p) {
  give_card(s, p, 0, card_in_grid(s, 1, Colour::Blue));
  give_card(s, p, 0, card_in_grid(s, 2, Colour::Blue));
  give_card(s, p, 0, 41);
}

TEST(Decisions, D11_AMarkerStopsOn24) {
  Game g(2, 14);
  set_faith(g.m.state, g.me, 23);
  set_faith(g.m.state, g.next, 0);
  g.m.state.reports = 0b011;
  g.m.board(g.me).tiles = {Tile::FaceUp, Tile::FaceUp, Tile::FaceDown};
  g.m.board(g.next).tiles = {Tile::Discarded, Tile::Discarded, Tile::FaceDown};
  d41_on_top(g.m.state, g.me);
  set_strongbox(g.m.state, g.me, 0, 1, 0, 0);
  g.m.play(g.me, Produce{std::nullopt, {0}, {}, from_strongbox(0, 1, 0, 0)});
  EXPECT_EQ(g.faith(g.me), 24);  // 23 + 3: the rest is lost
  EXPECT_TRUE(g.m.state.final_round);
  EXPECT_EQ(g.m.board(g.me).tiles[2], Tile::FaceUp);
  // The black cross stops on 24 too.
  Match solo = started(1, 14);
  solo.state.lorenzo.cross = 23;
  solo.state.reports = 0b011;
  solo.board(0).tiles = {Tile::Discarded, Tile::Discarded, Tile::FaceDown};
  set_tokens(solo.state, {}, {5, 1, 2, 3, 4, 6, 7});
  pass(solo);
  EXPECT_EQ(solo.state.lorenzo.cross, 24);
  EXPECT_TRUE(solo.state.result.lorenzo_won);
}

// --- 12 --------------------------------------------------------------------------------------

TEST(Decisions, D12_LeaderActionsBeforeAndAfterTheMainActionAtMostTwoPerTurn) {
  Game g;
  set_leaders(g.m.state, g.me, {1, LeaderStatus::Hand}, {2, LeaderStatus::Hand});
  g.m.play(g.me, DiscardLeader{1});  // before
  g.m.play(g.me, TakeFromMarket{Line::Row, 0, {}, g.keep()});
  g.m.play(g.me, DiscardLeader{2});  // after
  EXPECT_EQ(g.m.code(g.me, DiscardLeader{1}), "LEADER_NOT_IN_HAND");  // one action per card
  EXPECT_EQ(g.m.code(g.me, DiscardLeader{2}), "LEADER_NOT_IN_HAND");
  // A discard's faith is a batch: it can make a report.
  Game r;
  set_leaders(r.m.state, r.me, {1, LeaderStatus::Hand}, {2, LeaderStatus::Hand});
  set_faith(r.m.state, r.me, 7);
  r.m.play(r.me, DiscardLeader{2});
  EXPECT_EQ(r.m.state.reports, 0b001);
  EXPECT_EQ(r.m.board(r.me).tiles[0], Tile::FaceUp);
  // In solo it can win the game.
  Match solo = started(1, 3);
  set_leaders(solo.state, 0, {1, LeaderStatus::Hand}, {2, LeaderStatus::Hand});
  set_faith(solo.state, 0, 23);
  solo.state.reports = 0b011;
  solo.board(0).tiles = {Tile::FaceUp, Tile::FaceUp, Tile::FaceDown};
  solo.play(0, DiscardLeader{1});
  EXPECT_EQ(solo.state.phase, Phase::GameOver);
  EXPECT_EQ(solo.state.result.reason, EndReason::FaithTrack);
  EXPECT_EQ(solo.state.result.winners, 1);
}

// --- 13 --------------------------------------------------------------------------------------

TEST(Decisions, D13_ALeaderAffectsOnlyMainActionsCheckedAfterItsActivation) {
  {  // A discount played after buying refunds nothing.
    Game g;
    set_leaders(g.m.state, g.me, {3, LeaderStatus::Hand}, {1, LeaderStatus::Hand});  // stone -1
    give_card(g.m.state, g.me, 0, card_in_grid(g.m.state, 1, Colour::Green));
    give_card(g.m.state, g.me, 1, card_in_grid(g.m.state, 1, Colour::Blue));
    set_strongbox(g.m.state, g.me, 9, 9, 9, 9);
    const int yellow = card_in_grid(g.m.state, 1, Colour::Yellow);
    const Amounts cost = development_card(yellow).cost;
    g.m.play(g.me, BuyCard{1, Colour::Yellow, 2, from_strongbox(cost[0], cost[1], cost[2], cost[3])});
    g.m.play(g.me, ActivateLeader{3});
    EXPECT_EQ(g.m.board(g.me).strongbox[index(R::Stone)], 9u - cost[index(R::Stone)]);
  }
  {  // A depot leader played after the market does not bring discards back.
    Game g;
    set_leaders(g.m.state, g.me, {5, LeaderStatus::Hand}, {1, LeaderStatus::Hand});  // stone depot
    set_strongbox(g.m.state, g.me, 5, 0, 0, 0);
    clear_warehouse(g.m.state, g.me);
    set_depot(g.m.state, g.me, 2, R::Stone, 3);
    set_market(g.m.state, marbles("GGWY" "PWBB" "YPWR" "W"));  // row 0: two stones
    const int before = g.faith(g.next);
    g.m.play(g.me, TakeFromMarket{Line::Row, 0, {}, layout({{R::Coin, 1}, {std::nullopt, 0}, {R::Stone, 3}})});
    EXPECT_EQ(g.faith(g.next), before + 2);
    g.m.play(g.me, ActivateLeader{5});
    EXPECT_EQ(warehouse(g.m.board(g.me)), (Amounts{1, 0, 0, 3}));
  }
  {  // A white-marble leader played after the market converts nothing of it.
    Game g;
    set_leaders(g.m.state, g.me, {12, LeaderStatus::Hand}, {1, LeaderStatus::Hand});  // white: coin
    give_card(g.m.state, g.me, 0, card_in_grid(g.m.state, 1, Colour::Purple));
    give_card(g.m.state, g.me, 1, card_in_grid(g.m.state, 1, Colour::Purple));
    give_card(g.m.state, g.me, 2, card_in_grid(g.m.state, 1, Colour::Green));
    clear_warehouse(g.m.state, g.me);
    set_market(g.m.state, marbles("WWBG" "YPRB" "GYPW" "W"));
    g.m.play(g.me, TakeFromMarket{Line::Row, 0, {}, layout({{R::Shield, 1}, {R::Stone, 1}})});
    g.m.play(g.me, ActivateLeader{12});
    EXPECT_EQ(warehouse(g.m.board(g.me)), (Amounts{0, 0, 1, 1}));
  }
}

// --- 14 --------------------------------------------------------------------------------------

TEST(Decisions, D14_ProductionLeadersNeedExactlyLevelTwoCoveredCardsCount) {
  Game g;
  set_leaders(g.m.state, g.me, {13, LeaderStatus::Hand}, {11, LeaderStatus::Hand});  // yellow L2
  // A yellow level 3 does not count: slot 0 = blue 1, green 2, yellow 3.
  give_card(g.m.state, g.me, 0, card_in_grid(g.m.state, 1, Colour::Blue));
  give_card(g.m.state, g.me, 0, card_in_grid(g.m.state, 2, Colour::Green));
  give_card(g.m.state, g.me, 0, card_in_grid(g.m.state, 3, Colour::Yellow));
  EXPECT_EQ(g.m.code(g.me, ActivateLeader{13}), "REQUIREMENT_NOT_MET");
  // A yellow level 2 bought this turn counts at once, and keeps counting once covered.
  give_card(g.m.state, g.me, 1, card_in_grid(g.m.state, 1, Colour::Blue));
  set_strongbox(g.m.state, g.me, 9, 9, 9, 9);
  const Amounts cost = development_card(card_in_grid(g.m.state, 2, Colour::Yellow)).cost;
  g.m.play(g.me, BuyCard{2, Colour::Yellow, 1, from_strongbox(cost[0], cost[1], cost[2], cost[3])});
  give_card(g.m.state, g.me, 1, card_in_grid(g.m.state, 3, Colour::Blue));  // covers it
  EXPECT_EQ(g.m.code(g.me, ActivateLeader{13}), "ACCEPTED");
  // Any-level flags: L11 needs 2 blue + 1 yellow of any level (blue 1, blue 1... covered too).
  EXPECT_EQ(g.m.code(g.me, ActivateLeader{11}), "ACCEPTED");
}

// --- 15 --------------------------------------------------------------------------------------

TEST(Decisions, D15_ResourceRequirementsCountEveryStoreAndCostNothing) {
  Game g;
  set_leaders(g.m.state, g.me, {5, LeaderStatus::Hand}, {8, LeaderStatus::Active});  // 5 coins; coin depot
  clear_warehouse(g.m.state, g.me);
  set_depot(g.m.state, g.me, 1, R::Coin, 2);
  g.m.board(g.me).leaders[0].stored = 1;  // L08's depot: 1 coin
  set_strongbox(g.m.state, g.me, 2, 0, 0, 0);
  g.m.play(g.me, ActivateLeader{5});
  EXPECT_EQ(resources_owned(g.m.board(g.me))[index(R::Coin)], 5u);  // nothing paid
  // Losing the coins later changes nothing.
  g.m.play(g.me, ArrangeWarehouse{layout({{std::nullopt, 0}, {R::Coin, 2}}, {{8, 1}})});
  set_strongbox(g.m.state, g.me, 0, 0, 0, 0);
  EXPECT_TRUE(leader_active(g.m.board(g.me), 5));
}

// --- 16 --------------------------------------------------------------------------------------

TEST(Decisions, D16_DiscountsApplyAutomaticallyOnlyToNamedResourcesNeverBelowZero) {
  Game g;
  // L04 coin -1 and L01 servant -1; D06 costs 1 coin + 1 servant + 1 shield.
  set_leaders(g.m.state, g.me, {4, LeaderStatus::Active}, {1, LeaderStatus::Active});
  set_strongbox(g.m.state, g.me, 9, 9, 9, 9);
  // Bring D06 to the top of the purple level 1 deck.
  auto& deck = g.m.state.grid.cards[deck_index(1, Colour::Purple)];
  std::swap(*std::find(deck.begin(), deck.end(), 6), deck[3]);
  EXPECT_EQ(g.m.code(g.me, BuyCard{1, Colour::Purple, 0, from_strongbox(1, 1, 1, 0)}), "PAYMENT_MISMATCH");
  g.m.play(g.me, BuyCard{1, Colour::Purple, 0, from_strongbox(0, 0, 1, 0)});
  EXPECT_EQ(g.m.board(g.me).strongbox, (std::array<std::uint32_t, 4>{9, 9, 8, 9}));
  // A cost without the discounted resource is unchanged.
  Game h;
  set_leaders(h.m.state, h.me, {4, LeaderStatus::Active}, {1, LeaderStatus::Hand});
  set_strongbox(h.m.state, h.me, 9, 9, 9, 9);
  auto& green = h.m.state.grid.cards[deck_index(1, Colour::Green)];
  std::swap(*std::find(green.begin(), green.end(), 1), green[3]);  // D01: 2 shields
  h.m.play(h.me, BuyCard{1, Colour::Green, 0, from_strongbox(0, 0, 2, 0)});
}

// --- 17 --------------------------------------------------------------------------------------

TEST(Decisions, D17_ThePlayerSplitsThePaymentBetweenSourcesExactly) {
  for (int split = 0; split < 3; ++split) {
    Game g;
    set_leaders(g.m.state, g.me, {7, LeaderStatus::Active}, {1, LeaderStatus::Hand});  // shield depot
    clear_warehouse(g.m.state, g.me);
    set_depot(g.m.state, g.me, 1, R::Shield, 2);
    g.m.board(g.me).leaders[0].stored = 2;
    set_strongbox(g.m.state, g.me, 0, 0, 2, 0);
    auto& green = g.m.state.grid.cards[deck_index(1, Colour::Green)];
    std::swap(*std::find(green.begin(), green.end(), 1), green[3]);  // D01: 2 shields
    Payment p{};
    p[index(R::Shield)] = split == 0 ? Take{2, 0, 0} : split == 1 ? Take{0, 1, 1} : Take{1, 0, 1};
    g.m.play(g.me, BuyCard{1, Colour::Green, 0, p});
    EXPECT_EQ(resources_owned(g.m.board(g.me))[index(R::Shield)], 4u);
  }
}

// --- 18 --------------------------------------------------------------------------------------

TEST(Decisions, D18_ACardThatFitsNoSlotCannotBeBoughtAndDecksAreNeverRefilled) {
  Game g;
  set_strongbox(g.m.state, g.me, 20, 20, 20, 20);
  EXPECT_EQ(g.m.code(g.me, BuyCard{2, Colour::Blue, 0, {}}), "SLOT_CANNOT_TAKE_CARD");
  // Empty the blue level 3 deck into the other player's slots: it stays empty.
  for (int slot = 0; slot < 3; ++slot) {
    give_card(g.m.state, g.next, slot, card_in_grid(g.m.state, 1, Colour::Green));
    give_card(g.m.state, g.next, slot, card_in_grid(g.m.state, 2, Colour::Green));
    give_card(g.m.state, g.next, slot, card_in_grid(g.m.state, 3, Colour::Blue));
  }
  give_card(g.m.state, g.me, 0, card_in_grid(g.m.state, 1, Colour::Yellow));
  give_card(g.m.state, g.me, 0, card_in_grid(g.m.state, 2, Colour::Yellow));
  give_card(g.m.state, g.me, 0, card_in_grid(g.m.state, 3, Colour::Blue));
  EXPECT_EQ(g.m.state.grid.size[deck_index(3, Colour::Blue)], 0);
  give_card(g.m.state, g.me, 1, card_in_grid(g.m.state, 1, Colour::Yellow));
  give_card(g.m.state, g.me, 1, card_in_grid(g.m.state, 2, Colour::Yellow));
  EXPECT_EQ(g.m.code(g.me, BuyCard{3, Colour::Blue, 1, {}}), "DECK_EMPTY");
  // In multiplayer a colour gone from the grid changes nothing: the game goes on.
  pass(g.m);
  EXPECT_EQ(g.m.state.phase, Phase::Play);
}

// --- 19 --------------------------------------------------------------------------------------

TEST(Decisions, D19_ProductionUsesEachPowerOnceFromStockOwnedBefore) {
  Game g;
  clear_warehouse(g.m.state, g.me);
  set_strongbox(g.m.state, g.me, 2, 0, 0, 0);
  // Base production with equal inputs; its output goes to the strongbox.
  g.m.play(g.me, Produce{BaseProduction{{R::Coin, R::Coin}, R::Stone}, {}, {}, from_strongbox(2, 0, 0, 0)});
  EXPECT_EQ(g.m.board(g.me).strongbox, (std::array<std::uint32_t, 4>{0, 0, 0, 1}));
  // Outputs never pay inputs of the same action: D01 (1 coin -> 1 faith) with base (2 stone ->
  // coin) needs the coin before.
  Game h;
  clear_warehouse(h.m.state, h.me);
  auto& green = h.m.state.grid.cards[deck_index(1, Colour::Green)];
  std::swap(*std::find(green.begin(), green.end(), 1), green[3]);
  give_card(h.m.state, h.me, 0, 1);
  set_strongbox(h.m.state, h.me, 0, 0, 0, 2);
  EXPECT_EQ(h.m.code(h.me, Produce{BaseProduction{{R::Stone, R::Stone}, R::Coin}, {0}, {},
                                   from_strongbox(1, 0, 0, 2)}),
            "PAYMENT_SOURCE_SHORT");
  // A production that yields only faith is legal.
  set_strongbox(h.m.state, h.me, 1, 0, 0, 0);
  const int faith = h.faith(h.me);
  h.m.play(h.me, Produce{std::nullopt, {0}, {}, from_strongbox(1, 0, 0, 0)});
  EXPECT_EQ(h.faith(h.me), faith + 1);
  // "any" is never faith.
  Game k;
  set_strongbox(k.m.state, k.me, 2, 0, 0, 0);
  EXPECT_EQ(k.m.code(k.me, Produce{BaseProduction{{R::Coin, R::Coin}, kFaithName}, {}, {},
                                   from_strongbox(2, 0, 0, 0)}),
            "BAD_CHOICE");
}

// --- 20 --------------------------------------------------------------------------------------

TEST(Decisions, D20_OnlyTheTopCardOfASlotProduces) {
  Game g;
  auto& green1 = g.m.state.grid.cards[deck_index(1, Colour::Green)];
  std::swap(*std::find(green1.begin(), green1.end(), 1), green1[3]);
  give_card(g.m.state, g.me, 0, 1);                                          // D01: 1 coin -> faith
  auto& green2 = g.m.state.grid.cards[deck_index(2, Colour::Green)];
  std::swap(*std::find(green2.begin(), green2.end(), 17), green2[3]);
  give_card(g.m.state, g.me, 0, 17);                                         // D17: 1 stone -> 2 faith
  set_strongbox(g.m.state, g.me, 1, 0, 0, 1);
  EXPECT_EQ(g.m.code(g.me, Produce{std::nullopt, {0}, {}, from_strongbox(1, 0, 0, 0)}), "PAYMENT_MISMATCH");
  const int faith = g.faith(g.me);
  g.m.play(g.me, Produce{std::nullopt, {0}, {}, from_strongbox(0, 0, 0, 1)});
  EXPECT_EQ(g.faith(g.me), faith + 2);
  EXPECT_EQ(score(g.m.state, g.me).cards, 1u + 5u);  // the covered card still scores
}

// --- 21 --------------------------------------------------------------------------------------

TEST(Decisions, D21_LeadersBeforeResourcesEachSeatOnItsOwn) {
  Match m = created(4, 21);
  const Seat fourth = static_cast<Seat>((m.state.inkwell + 3) % 4);
  const Seat first = m.state.inkwell;
  EXPECT_EQ(m.code(fourth, ChooseInitialResources{layout({{std::nullopt, 0}, {R::Coin, 2}})}), "LEADERS_FIRST");
  auto dealt = m.board(fourth).dealt;
  std::sort(dealt.begin(), dealt.end());
  m.play(fourth, ChooseLeaders{{dealt[0], dealt[1]}});  // nobody waits for the inkwell
  // All of them must be placed; leader depots do not exist yet.
  EXPECT_EQ(m.code(fourth, ChooseInitialResources{layout({{R::Coin, 1}})}), "WRONG_RESOURCE_COUNT");
  EXPECT_EQ(m.code(fourth, ChooseInitialResources{layout({{R::Coin, 1}}, {{5, 1}})}), "LEADER_DEPOT_NOT_ACTIVE");
  m.play(fourth, ChooseInitialResources{layout({{R::Coin, 1}, {R::Stone, 1}})});
  EXPECT_EQ(m.board(fourth).faith, 1);
  EXPECT_EQ(m.code(first, ChooseInitialResources{layout({{R::Coin, 1}})}), "LEADERS_FIRST");
  const auto seats = seats_to_act(m.state);
  EXPECT_EQ(std::count(seats.begin(), seats.end(), fourth), 0);
  EXPECT_EQ(seats.size(), 3u);
}

// --- 22 --------------------------------------------------------------------------------------

TEST(Decisions, D22_TheInkwellGoesToARandomSeatAndNeverMoves) {
  std::set<int> holders;
  for (std::uint64_t seed = 1; seed <= 64; ++seed) holders.insert(created(4, seed).state.inkwell);
  EXPECT_EQ(holders.size(), 4u);
  Game g(3, 22);
  const Seat ink = g.m.state.inkwell;
  EXPECT_EQ(position_of(g.m.state, ink), 0);
  EXPECT_EQ(position_of(g.m.state, static_cast<Seat>((ink + 1) % 3)), 1);
  EXPECT_EQ(position_of(g.m.state, static_cast<Seat>((ink + 2) % 3)), 2);
  for (int i = 0; i < 7; ++i) pass(g.m);
  EXPECT_EQ(g.m.state.inkwell, ink);
}

// --- 23 --------------------------------------------------------------------------------------

TEST(Decisions, D23_OneMainActionThenAnExplicitEndOfTurn) {
  Game g;
  EXPECT_EQ(g.m.code(g.me, EndTurn{}), "MAIN_ACTION_MISSING");
  g.m.play(g.me, TakeFromMarket{Line::Row, 1, {}, g.keep()});
  EXPECT_EQ(g.m.code(g.me, TakeFromMarket{Line::Row, 1, {}, g.keep()}), "MAIN_ACTION_DONE");
  EXPECT_EQ(g.m.state.current, g.me);  // the turn waits for end_turn
  g.m.play(g.me, EndTurn{});
  EXPECT_EQ(g.m.state.current, g.next);
  EXPECT_FALSE(g.m.state.main_action_done);
}

// --- 24 --------------------------------------------------------------------------------------

TEST(Decisions, D24_AnyMarkerOn24TriggersTheEndOnceEvenByAnothersDiscards) {
  Game g;
  set_faith(g.m.state, g.next, 23);
  g.m.state.reports = 0b011;
  for (Seat p = 0; p < 2; ++p) g.m.board(p).tiles = {Tile::Discarded, Tile::Discarded, Tile::FaceDown};
  clear_warehouse(g.m.state, g.me);
  set_market(g.m.state, marbles(kTray));
  g.m.play(g.me, TakeFromMarket{Line::Row, 0, {}, layout({{R::Shield, 1}, {R::Coin, 1}})});  // a stone dropped
  EXPECT_EQ(g.faith(g.next), 24);
  EXPECT_TRUE(g.m.state.final_round);
  EXPECT_EQ(g.m.state.trigger, EndReason::FaithTrack);
  EXPECT_EQ(g.m.board(g.next).tiles[2], Tile::FaceUp);  // 24 also makes report 3 due
  // The 7-card count includes covered cards; a second trigger changes nothing.
  for (int slot = 0; slot < 3; ++slot) {
    give_card(g.m.state, g.me, slot, card_in_grid(g.m.state, 1, static_cast<Colour>(slot)));
    give_card(g.m.state, g.me, slot, card_in_grid(g.m.state, 2, static_cast<Colour>(slot)));
  }
  EXPECT_EQ(card_count(g.m.board(g.me)), 6);
  g.m.state.main_action_done = false;
  set_strongbox(g.m.state, g.me, 20, 20, 20, 20);
  const Amounts cost = development_card(card_in_grid(g.m.state, 3, Colour::Green)).cost;
  g.m.play(g.me, BuyCard{3, Colour::Green, 0, from_strongbox(cost[0], cost[1], cost[2], cost[3])});
  EXPECT_EQ(g.m.state.trigger, EndReason::FaithTrack);
}

// --- 25 --------------------------------------------------------------------------------------

TEST(Decisions, D25_TheFinalRoundEndsWithTheSeatBeforeTheInkwell) {
  // The trigger in the inkwell's turn: every other seat plays once more.
  Game g(3, 25);
  const Seat ink = g.m.state.inkwell;
  set_faith(g.m.state, ink, 23);
  g.m.state.reports = 0b011;
  for (Seat p = 0; p < 3; ++p) g.m.board(p).tiles = {Tile::Discarded, Tile::Discarded, Tile::FaceDown};
  set_leaders(g.m.state, ink, {1, LeaderStatus::Hand}, {2, LeaderStatus::Hand});
  g.m.play(ink, DiscardLeader{1});
  EXPECT_TRUE(g.m.state.final_round);
  pass(g.m);
  pass(g.m);
  EXPECT_EQ(g.m.state.phase, Phase::Play);
  EXPECT_EQ(g.m.state.current, last_seat(g.m.state));
  pass(g.m);
  EXPECT_EQ(g.m.state.phase, Phase::GameOver);
  // The trigger in the last seat's own turn: that turn is the last.
  Game h(3, 26);
  pass(h.m);
  pass(h.m);
  const Seat last = h.m.state.current;
  ASSERT_EQ(last, last_seat(h.m.state));
  set_faith(h.m.state, last, 23);
  h.m.state.reports = 0b011;
  for (Seat p = 0; p < 3; ++p) h.m.board(p).tiles = {Tile::Discarded, Tile::Discarded, Tile::FaceDown};
  set_leaders(h.m.state, last, {1, LeaderStatus::Hand}, {2, LeaderStatus::Hand});
  h.m.play(last, DiscardLeader{1});
  EXPECT_EQ(h.m.state.phase, Phase::Play);  // leader actions and the rest of the turn go on
  h.m.play(last, DiscardLeader{2});
  pass(h.m);
  EXPECT_EQ(h.m.state.phase, Phase::GameOver);
  EXPECT_EQ(h.m.state.result.reason, EndReason::FaithTrack);
}

// --- 26 --------------------------------------------------------------------------------------

TEST(Decisions, D26_TiesGoToTheMostResourcesThenAreShared) {
  Game g(3, 27);
  for (Seat p = 0; p < 3; ++p) {
    clear_warehouse(g.m.state, p);
    set_faith(g.m.state, p, 0);
    set_leaders(g.m.state, p, {static_cast<int>(1 + 2 * p), LeaderStatus::Hand},
                {static_cast<int>(2 + 2 * p), LeaderStatus::Hand});
  }
  // Everyone scores 1 point from 5..9 resources; seat A holds 9, B 9, C 5.
  const Seat a = g.me, b = g.next, c = static_cast<Seat>((g.me + 2) % 3);
  set_strongbox(g.m.state, a, 9, 0, 0, 0);
  set_strongbox(g.m.state, b, 0, 9, 0, 0);
  set_strongbox(g.m.state, c, 0, 0, 5, 0);
  g.m.state.final_round = true;
  g.m.state.trigger = EndReason::SeventhCard;
  while (g.m.state.phase != Phase::GameOver) pass(g.m);
  EXPECT_EQ(g.m.state.result.winners, (1 << a) | (1 << b));
  EXPECT_EQ(g.m.state.result.scores[a], 1u);
  EXPECT_EQ(g.m.state.result.scores[c], 1u);
}

// --- 27 --------------------------------------------------------------------------------------

TEST(Decisions, D27_ReturnedAndDiscardedLeadersAreNeverRevealed) {
  Match m = created(2, 28);
  auto dealt = m.board(0).dealt;
  std::sort(dealt.begin(), dealt.end());
  m.play(0, ChooseLeaders{{dealt[0], dealt[1]}});
  const Event& choice = m.events.back();
  EXPECT_EQ(std::get<ChooseLeaders>(redact(choice, 1).command).keep, (std::vector<std::uint8_t>{0, 0}));
  EXPECT_EQ(std::get<ChooseLeaders>(redact(choice, kNoSeat).command).keep, (std::vector<std::uint8_t>{0, 0}));
  EXPECT_EQ(redact(choice, 0), choice);
  const View other = view(m.state, 1);
  EXPECT_EQ(other.state.boards[0].dealt, (std::array<std::uint8_t, 4>{}));
  EXPECT_EQ(other.state.boards[0].leaders[0].id, 0);
  // A leader discarded in play: the others learn only that one was discarded.
  Game g(2, 28);
  const std::uint8_t id = g.m.board(g.me).leaders[1].id;
  g.m.play(g.me, DiscardLeader{id});
  EXPECT_EQ(std::get<DiscardLeader>(redact(g.m.events.back(), g.next).command).leader, 0);
  const View seen = view(g.m.state, g.next);
  int discarded = 0;
  for (const Leader& l : seen.state.boards[g.me].leaders) {
    EXPECT_EQ(l.id, 0);
    discarded += l.status == LeaderStatus::Discarded ? 1 : 0;
  }
  EXPECT_EQ(discarded, 1);
}

// --- 28 --------------------------------------------------------------------------------------

TEST(Decisions, D28_ASectionsFirstSpaceIsInsideAndAReportHappensOnce) {
  Game g(2, 29);
  set_faith(g.m.state, g.next, 5);
  set_faith(g.m.state, g.me, 7);
  set_leaders(g.m.state, g.me, {1, LeaderStatus::Hand}, {2, LeaderStatus::Hand});
  g.m.play(g.me, DiscardLeader{1});
  EXPECT_EQ(g.m.board(g.next).tiles[0], Tile::FaceUp);  // exactly on 5
  // Reaching 8 again later makes no second report and changes no tile.
  set_faith(g.m.state, g.next, 7);
  g.m.play(g.me, DiscardLeader{2});
  EXPECT_EQ(g.m.board(g.next).tiles[0], Tile::FaceUp);
  EXPECT_EQ(g.m.state.reports, 0b001);
}

// --- 29 --------------------------------------------------------------------------------------

TEST(Decisions, D29_SoloDiscardsMoveTheBlackCrossAndCanMakeLorenzoWin) {
  Match m = started(1, 30);
  clear_warehouse(m.state, 0);
  set_market(m.state, marbles(kTray));
  m.play(0, TakeFromMarket{Line::Row, 0, {}, layout({{R::Coin, 1}})});
  EXPECT_EQ(m.state.lorenzo.cross, 2);
  // Mid-turn: the cross reaches 24, the game ends before any token.
  Match k = started(1, 31);
  k.state.lorenzo.cross = 23;
  k.state.reports = 0b011;
  k.board(0).tiles = {Tile::Discarded, Tile::Discarded, Tile::FaceDown};
  clear_warehouse(k.state, 0);
  set_market(k.state, marbles(kTray));
  k.play(0, TakeFromMarket{Line::Row, 0, {}, Layout{}});
  EXPECT_EQ(k.state.phase, Phase::GameOver);
  EXPECT_TRUE(k.state.result.lorenzo_won);
  EXPECT_EQ(k.state.result.reason, EndReason::BlackCross);
  EXPECT_EQ(k.events.back().token, 0);
}

// --- 30 --------------------------------------------------------------------------------------

TEST(Decisions, D30_TokensDiscardTheLowestLevelFirstOneCardAtATime) {
  Match m = started(1, 32);
  // Green level 1 keeps one card: the token takes it and the top green level 2.
  for (int i = 0; i < 3; ++i) discard_from_grid(m.state, card_in_grid(m.state, 1, Colour::Green));
  const int last_level_one = card_in_grid(m.state, 1, Colour::Green);
  const int level_two_top = card_in_grid(m.state, 2, Colour::Green);
  set_tokens(m.state, {}, {1, 2, 3, 4, 5, 6, 7});
  pass(m);
  const Event& e = m.events.back();
  EXPECT_EQ(e.token, 1);
  EXPECT_EQ(m.state.grid.size[deck_index(1, Colour::Green)], 0);
  EXPECT_EQ(m.state.grid.size[deck_index(2, Colour::Green)], 3);
  EXPECT_TRUE((m.state.lorenzo.discarded >> last_level_one) & 1);
  EXPECT_TRUE((m.state.lorenzo.discarded >> level_two_top) & 1);
  ASSERT_EQ(e.revealed.size(), 1u);  // the new green level 2 top
  EXPECT_EQ(e.revealed[0], card_in_grid(m.state, 2, Colour::Green));
  EXPECT_EQ(m.state.phase, Phase::Play);
}

}  // namespace
}  // namespace eryantis::renaissance
