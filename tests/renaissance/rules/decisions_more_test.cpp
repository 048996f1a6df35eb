// One test per numbered decision of docs/renaissance/rules.md (section 7), decisions 31 and on.
#include <algorithm>

#include "candidates.hpp"
#include "command_key.hpp"
#include "eryantis/renaissance/rules/random_game.hpp"
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
};

const char* const kTray = "WBGY" "PWBG" "YPWR" "W";

Payment price(const State& s, int level, Colour c) {
  const Amounts cost = development_card(card_in_grid(s, level, c)).cost;
  return from_strongbox(cost[0], cost[1], cost[2], cost[3]);
}

// --- 31 --------------------------------------------------------------------------------------

TEST(Decisions, D31_ASoloSeventhCardThatEmptiesItsColourWins) {
  Match m = started(1, 31);
  // Six cards owned; the last purple card left in the grid is a level 3 the player can buy.
  for (int slot = 0; slot < 3; ++slot) {
    give_card(m.state, 0, slot, card_in_grid(m.state, 1, Colour::Green));
    give_card(m.state, 0, slot, card_in_grid(m.state, 2, Colour::Blue));
  }
  while (card_in_grid(m.state, 1, Colour::Purple) > 0) discard_from_grid(m.state, card_in_grid(m.state, 1, Colour::Purple));
  while (card_in_grid(m.state, 2, Colour::Purple) > 0) discard_from_grid(m.state, card_in_grid(m.state, 2, Colour::Purple));
  for (int i = 0; i < 3; ++i) discard_from_grid(m.state, card_in_grid(m.state, 3, Colour::Purple));
  set_strongbox(m.state, 0, 20, 20, 20, 20);
  m.play(0, BuyCard{3, Colour::Purple, 0, price(m.state, 3, Colour::Purple)});
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::SeventhCard);
  EXPECT_EQ(m.state.result.winners, 1);
  EXPECT_FALSE(m.state.result.lorenzo_won);
  // Without the 7th card, taking a colour's last card makes Lorenzo win at once.
  Match k = started(1, 32);
  while (card_in_grid(k.state, 1, Colour::Purple) > 0) discard_from_grid(k.state, card_in_grid(k.state, 1, Colour::Purple));
  while (card_in_grid(k.state, 2, Colour::Purple) > 0) discard_from_grid(k.state, card_in_grid(k.state, 2, Colour::Purple));
  for (int i = 0; i < 3; ++i) discard_from_grid(k.state, card_in_grid(k.state, 3, Colour::Purple));
  give_card(k.state, 0, 0, card_in_grid(k.state, 1, Colour::Green));
  give_card(k.state, 0, 0, card_in_grid(k.state, 2, Colour::Green));
  set_strongbox(k.state, 0, 20, 20, 20, 20);
  k.play(0, BuyCard{3, Colour::Purple, 0, price(k.state, 3, Colour::Purple)});
  EXPECT_EQ(k.state.result.reason, EndReason::ColourGone);
  EXPECT_TRUE(k.state.result.lorenzo_won);
}

// --- 32 --------------------------------------------------------------------------------------

TEST(Decisions, D32_ATokenIsRevealedOnlyByEndTurnNeverAfterTheEnd) {
  Match m = started(1, 33);
  set_tokens(m.state, {}, {5, 1, 2, 3, 4, 6, 7});
  m.play(0, TakeFromMarket{Line::Row, 0, {}, layout_of_board(m.board(0))});
  EXPECT_EQ(m.events.back().token, 0);
  EXPECT_EQ(m.state.lorenzo.revealed, 0);
  m.play(0, EndTurn{});
  EXPECT_EQ(m.events.back().token, 5);
  EXPECT_EQ(m.state.lorenzo.revealed, 1);
  EXPECT_EQ(m.state.lorenzo.last_token, 5);
  // A command that ends the game is never followed by a token.
  Match k = started(1, 34);
  set_faith(k.state, 0, 21);
  k.state.reports = 0b011;
  k.board(0).tiles = {Tile::FaceUp, Tile::FaceUp, Tile::FaceDown};
  give_card(k.state, 0, 0, card_in_grid(k.state, 1, Colour::Blue));
  give_card(k.state, 0, 0, card_in_grid(k.state, 2, Colour::Blue));
  give_card(k.state, 0, 0, 41);  // 1 servant -> 1 coin + 3 faith
  set_strongbox(k.state, 0, 0, 1, 0, 0);
  k.play(0, Produce{std::nullopt, {0}, {}, from_strongbox(0, 1, 0, 0)});
  EXPECT_EQ(k.state.phase, Phase::GameOver);
  EXPECT_EQ(k.state.result.reason, EndReason::FaithTrack);
  EXPECT_EQ(k.state.lorenzo.revealed, 0);
  EXPECT_EQ(k.code(0, EndTurn{}), "GAME_OVER");
}

// --- 33 --------------------------------------------------------------------------------------

TEST(Decisions, D33_TheSoloScoreIsReportedWhoeverWins) {
  Match m = started(1, 35);
  give_card(m.state, 0, 0, card_in_grid(m.state, 1, Colour::Green));
  set_strongbox(m.state, 0, 10, 0, 0, 0);
  m.state.lorenzo.cross = 22;
  m.state.reports = 0b011;
  m.board(0).tiles = {Tile::Discarded, Tile::Discarded, Tile::FaceDown};
  set_tokens(m.state, {}, {6, 1, 2, 3, 4, 5, 7});
  pass(m);
  ASSERT_TRUE(m.state.result.lorenzo_won);
  EXPECT_EQ(m.state.result.winners, 0);
  EXPECT_EQ(m.state.result.scores[0], score(m.state, 0).total);
  EXPECT_GT(m.state.result.scores[0], 0u);
}

// --- 34 --------------------------------------------------------------------------------------

TEST(Decisions, D34_ASkippedTurnDoesNothingAndCountsInTheFinalRound) {
  Game g(3, 36);
  const State before = g.m.state;
  g.m.play(g.me, SkipTurn{}, Authority::Server);
  EXPECT_EQ(g.m.state.current, g.next);
  EXPECT_EQ(g.m.state.boards, before.boards);
  EXPECT_EQ(g.m.state.market, before.market);
  // In the final round the skipped turn is that seat's last.
  g.m.state.final_round = true;
  g.m.state.trigger = EndReason::SeventhCard;
  g.m.play(g.m.state.current, SkipTurn{}, Authority::Server);
  ASSERT_EQ(g.m.state.current, last_seat(g.m.state));
  g.m.play(g.m.state.current, SkipTurn{}, Authority::Server);
  EXPECT_EQ(g.m.state.phase, Phase::GameOver);
  // Setup has no default, and a solo game waits.
  Match setup = created(2, 36);
  EXPECT_EQ(setup.code(setup.state.inkwell, SkipTurn{}, Authority::Server), "WRONG_PHASE");
  Match solo = started(1, 36);
  EXPECT_EQ(solo.code(0, SkipTurn{}, Authority::Server), "WRONG_PHASE");
}

// --- 35 --------------------------------------------------------------------------------------

TEST(Decisions, D35_TheSupplyIsUnlimited) {
  Game g;
  set_strongbox(g.m.state, g.me, 40, 0, 0, 0);
  g.m.play(g.me, Produce{BaseProduction{{R::Coin, R::Coin}, R::Stone}, {}, {}, from_strongbox(2, 0, 0, 0)});
  EXPECT_EQ(g.m.board(g.me).strongbox[index(R::Coin)], 38u);
  set_strongbox(g.m.state, g.me, 0, 0, 0, 17);  // more stones than the box's 16
  EXPECT_EQ(invariant_violation(g.m.state), "");
}

// --- 36 --------------------------------------------------------------------------------------

TEST(Decisions, D36_ACommandNamesADeckByLevelAndColour) {
  Game g;
  set_strongbox(g.m.state, g.me, 20, 20, 20, 20);
  for (Colour c : kAllColours) {
    Game h;
    set_strongbox(h.m.state, h.me, 20, 20, 20, 20);
    const int top = card_in_grid(h.m.state, 1, c);
    h.m.play(h.me, BuyCard{1, c, 1, price(h.m.state, 1, c)});
    EXPECT_EQ(h.m.board(h.me).slots[1][0], top);
    EXPECT_EQ(development_card(top).colour, c);
  }
}

// --- 37 --------------------------------------------------------------------------------------

TEST(Decisions, D37_WhiteChoicesExactlyWithTwoWhiteMarbleLeaders) {
  Game g;
  set_leaders(g.m.state, g.me, {9, LeaderStatus::Active}, {10, LeaderStatus::Active});
  clear_warehouse(g.m.state, g.me);
  set_market(g.m.state, marbles("BGYP" "WWBG" "YPWR" "W"));  // row 0: no white marble
  EXPECT_EQ(g.m.code(g.me, TakeFromMarket{Line::Row, 0, {R::Servant}, Layout{}}), "WHITE_CHOICES_COUNT");
  EXPECT_EQ(g.m.code(g.me, TakeFromMarket{Line::Row, 0, {}, Layout{}}), "ACCEPTED");
  EXPECT_EQ(g.m.code(g.me, TakeFromMarket{Line::Row, 1, {R::Servant, R::Servant}, layout({{std::nullopt, 0}, {R::Servant, 2}})}),
            "ACCEPTED");
  Game one;
  set_leaders(one.m.state, one.me, {9, LeaderStatus::Active}, {10, LeaderStatus::Hand});
  set_market(one.m.state, marbles("BGYP" "WWBG" "YPWR" "W"));
  EXPECT_EQ(one.m.code(one.me, TakeFromMarket{Line::Row, 1, {R::Servant, R::Servant}, one.keep()}),
            "WHITE_CHOICES_UNEXPECTED");
}

// --- 38 --------------------------------------------------------------------------------------

TEST(Decisions, D38_ALeaderDepotMayShareABasicDepotsType) {
  Game g;
  set_leaders(g.m.state, g.me, {5, LeaderStatus::Active}, {6, LeaderStatus::Active});  // stone, servant
  clear_warehouse(g.m.state, g.me);
  set_depot(g.m.state, g.me, 2, R::Stone, 3);
  set_depot(g.m.state, g.me, 1, R::Servant, 2);
  g.m.play(g.me, ArrangeWarehouse{layout({{R::Stone, 1}, {R::Servant, 1}, {std::nullopt, 0}}, {{5, 2}, {6, 1}})});
  EXPECT_EQ(warehouse(g.m.board(g.me)), (Amounts{0, 2, 0, 3}));
}

// --- 39 --------------------------------------------------------------------------------------

TEST(Decisions, D39_BuyingGoesOnAfterTheSeventhCard) {
  Game g(2, 39);
  for (int slot = 0; slot < 3; ++slot) {
    give_card(g.m.state, g.me, slot, card_in_grid(g.m.state, 1, Colour::Green));
    give_card(g.m.state, g.me, slot, card_in_grid(g.m.state, 2, Colour::Green));
  }
  give_card(g.m.state, g.me, 0, card_in_grid(g.m.state, 3, Colour::Green));
  g.m.state.final_round = true;
  g.m.state.trigger = EndReason::SeventhCard;
  set_strongbox(g.m.state, g.me, 20, 20, 20, 20);
  g.m.play(g.me, BuyCard{3, Colour::Blue, 1, price(g.m.state, 3, Colour::Blue)});
  EXPECT_EQ(card_count(g.m.board(g.me)), 8);
  EXPECT_EQ(g.m.state.trigger, EndReason::SeventhCard);
}

// --- 40 --------------------------------------------------------------------------------------

TEST(Decisions, D40_FaithNeverPays) {
  Game g;
  set_faith(g.m.state, g.me, 6);
  set_strongbox(g.m.state, g.me, 1, 0, 0, 0);
  // A payment has no faith in it; "faith" as a base input is no resource.
  EXPECT_EQ(g.m.code(g.me, Produce{BaseProduction{{R::Coin, kFaithName}, R::Stone}, {}, {},
                                   from_strongbox(1, 0, 0, 0)}),
            "BAD_CHOICE");
  EXPECT_EQ(g.m.board(g.me).faith, 6);
}

// --- 41 --------------------------------------------------------------------------------------

TEST(Decisions, D41_TheRulesSetNoTurnLimit) {
  Game g;
  for (int i = 0; i < 400; ++i) pass(g.m);
  EXPECT_EQ(g.m.state.phase, Phase::Play);
  EXPECT_EQ(g.m.state.turn, 401u);
}

// --- 42 --------------------------------------------------------------------------------------

TEST(Decisions, D42_ANameThatIsNotAResourceGetsTheFieldsCode) {
  Game g;
  set_strongbox(g.m.state, g.me, 2, 0, 0, 0);
  const Resource unknown = static_cast<Resource>(77);
  EXPECT_EQ(g.m.code(g.me, ArrangeWarehouse{layout({{unknown, 1}})}), "DEPOT_NEEDS_TYPE");
  EXPECT_EQ(g.m.code(g.me, Produce{BaseProduction{{R::Coin, R::Coin}, unknown}, {}, {}, from_strongbox(2, 0, 0, 0)}),
            "BAD_CHOICE");
  set_leaders(g.m.state, g.me, {9, LeaderStatus::Active}, {10, LeaderStatus::Active});
  set_market(g.m.state, marbles("WWBG" "YPRB" "GYPW" "W"));
  EXPECT_EQ(g.m.code(g.me, TakeFromMarket{Line::Row, 0, {unknown, R::Shield}, g.keep()}), "WHITE_CHOICE_INVALID");
  EXPECT_EQ(g.m.code(g.me, BuyCard{1, static_cast<Colour>(4), 0, {}}), "MALFORMED");
}

// --- 43 --------------------------------------------------------------------------------------

TEST(Decisions, D43_AProductionSlotOutsideZeroToTwoIsEmpty) {
  Game g;
  for (std::uint8_t slot : {3, 9, 255}) EXPECT_EQ(g.m.code(g.me, Produce{std::nullopt, {slot}, {}, {}}), "SLOT_EMPTY");
}

// --- 44 --------------------------------------------------------------------------------------

TEST(Decisions, D44_LayoutRulesAreCheckedRuleByRule) {
  Game g;
  // Depot 1 has no type (rule 2) and depot 3 is over capacity (rule 1): capacity first.
  EXPECT_EQ(g.m.code(g.me, ArrangeWarehouse{layout({{std::nullopt, 1}, {R::Coin, 1}, {R::Stone, 4}})}),
            "DEPOT_OVER_CAPACITY");
  // Duplicate types (rule 3) and a missing type (rule 2): the type first.
  EXPECT_EQ(g.m.code(g.me, ArrangeWarehouse{layout({{R::Coin, 1}, {R::Coin, 1}, {std::nullopt, 2}})}),
            "DEPOT_NEEDS_TYPE");
  // A leader depot not active (rule 4) and duplicate types: the basic depots first.
  EXPECT_EQ(g.m.code(g.me, ArrangeWarehouse{layout({{R::Coin, 1}, {R::Coin, 1}}, {{5, 1}})}),
            "DUPLICATE_DEPOT_TYPE");
  // Over capacity of an inactive leader's depot: not active first.
  EXPECT_EQ(g.m.code(g.me, ArrangeWarehouse{layout({{R::Coin, 1}}, {{5, 3}})}), "LEADER_DEPOT_NOT_ACTIVE");
}

// --- 45 --------------------------------------------------------------------------------------

TEST(Decisions, D45_AnEmptyDepotMayCarryATypeThatIsIgnored) {
  Game g;
  clear_warehouse(g.m.state, g.me);
  set_depot(g.m.state, g.me, 2, R::Coin, 2);
  g.m.play(g.me, ArrangeWarehouse{layout({{R::Coin, 0}, {kFaithName, 0}, {R::Coin, 2}})});
  EXPECT_EQ(g.m.board(g.me).depots[0], Depot{});
  EXPECT_EQ(g.m.board(g.me).depots[1], Depot{});
}

// --- 46 --------------------------------------------------------------------------------------

TEST(Decisions, D46_AnActiveDepotLeaderLeftOutHoldsZero) {
  Game g;
  set_leaders(g.m.state, g.me, {5, LeaderStatus::Active}, {6, LeaderStatus::Hand});
  clear_warehouse(g.m.state, g.me);
  g.m.board(g.me).leaders[0].stored = 2;
  EXPECT_EQ(g.m.code(g.me, ArrangeWarehouse{Layout{}}), "RESOURCES_CHANGED");
  EXPECT_EQ(g.m.code(g.me, ArrangeWarehouse{layout({{std::nullopt, 0}, {R::Stone, 2}})}), "ACCEPTED");
  EXPECT_EQ(g.m.code(g.me, ArrangeWarehouse{layout({{std::nullopt, 0}, {R::Stone, 2}}, {{6, 0}})}),
            "LEADER_DEPOT_NOT_ACTIVE");  // in hand, even with 0
  const int before = g.m.board(g.next).faith;
  g.m.play(g.me, TakeFromMarket{Line::Row, 0, {}, Layout{}});  // the market discards what it held
  EXPECT_GE(g.m.board(g.next).faith, before + 2);
  EXPECT_EQ(g.m.board(g.me).leaders[0].stored, 0);
}

// --- 47 --------------------------------------------------------------------------------------

TEST(Decisions, D47_NoWhiteChoicesWithoutTwoWhiteMarbleLeaders) {
  Game g;
  set_market(g.m.state, marbles("BGYP" "WWBG" "YPWR" "W"));  // row 0 has no white marble
  TakeFromMarket take{Line::Row, 0, {}, g.keep()};
  EXPECT_EQ(g.m.code(g.me, take), "ACCEPTED");  // absent = empty
  take.white_choices = {R::Coin};
  EXPECT_EQ(g.m.code(g.me, take), "WHITE_CHOICES_UNEXPECTED");
}

// --- 48 --------------------------------------------------------------------------------------

TEST(Decisions, D48_AWinningT7IsNotFollowedByAReshuffle) {
  Match m = started(1, 48);
  m.state.lorenzo.cross = 23;
  m.state.reports = 0b011;
  m.board(0).tiles = {Tile::Discarded, Tile::Discarded, Tile::FaceDown};
  set_tokens(m.state, {1}, {7, 2, 3, 4, 5, 6});
  pass(m);
  EXPECT_TRUE(m.state.result.lorenzo_won);
  EXPECT_EQ(m.events.back().token, 7);
  EXPECT_TRUE(m.events.back().tokens.empty());
  EXPECT_EQ(m.state.lorenzo.revealed, 2);
  // Otherwise a T7 reshuffles all 7 into a new stack, recorded in the event.
  Match k = started(1, 49);
  set_tokens(k.state, {1, 2}, {7, 3, 4, 5, 6});
  pass(k);
  EXPECT_EQ(k.events.back().tokens.size(), 7u);
  EXPECT_EQ(k.state.lorenzo.revealed, 0);
  EXPECT_EQ(k.state.lorenzo.cross, 1);
}

// --- 49 --------------------------------------------------------------------------------------

TEST(Decisions, D49_ATokenThatEmptiesAColourWithItsFirstCardEndsTheGame) {
  Match m = started(1, 50);
  for (int level = 1; level <= 3; ++level)
    while (m.state.grid.size[deck_index(level, Colour::Yellow)] > (level == 3 ? 1 : 0))
      discard_from_grid(m.state, card_in_grid(m.state, level, Colour::Yellow));
  set_tokens(m.state, {}, {3, 1, 2, 4, 5, 6, 7});
  pass(m);
  EXPECT_EQ(m.state.phase, Phase::GameOver);
  EXPECT_EQ(m.state.result.reason, EndReason::ColourGone);
  EXPECT_TRUE(m.state.result.lorenzo_won);
  EXPECT_EQ(m.events.back().token, 3);
  EXPECT_EQ(m.state.lorenzo.revealed, 1);
  EXPECT_EQ(m.state.lorenzo.last_token, 3);
}

// --- 50 --------------------------------------------------------------------------------------

TEST(Decisions, D50_SkipTurnIsTheServersFromTheActiveSeatAtAnyPointOfItsTurn) {
  Game g;
  g.m.play(g.me, TakeFromMarket{Line::Row, 0, {}, g.keep()});
  EXPECT_EQ(g.m.code(g.next, SkipTurn{}, Authority::Server), "NOT_YOUR_TURN");
  EXPECT_EQ(g.m.code(g.me, SkipTurn{}), "SERVER_ONLY");
  for (const Command& c : legal_commands(g.m.state, g.me)) EXPECT_FALSE(std::holds_alternative<SkipTurn>(c));
  const State before = g.m.state;
  g.m.play(g.me, SkipTurn{}, Authority::Server);  // after its main action: what it did stays
  EXPECT_EQ(g.m.state.market, before.market);
  EXPECT_EQ(g.m.state.current, g.next);
}

// --- 51 --------------------------------------------------------------------------------------

TEST(Decisions, D51_RearrangingToTheSameLayoutChangesNothing) {
  Game g;
  const State before = g.m.state;
  g.m.play(g.me, ArrangeWarehouse{g.keep()});
  State after = g.m.state;
  after.events_applied -= 1;
  EXPECT_EQ(after, before);
}

// --- 52 --------------------------------------------------------------------------------------

TEST(Decisions, D52_OptionalFieldsMayBeLeftOut) {
  // white_choices and leader-depot entries left out are empty / zero; every other field is
  // required (the codecs refuse a command without one as MALFORMED: the rules never see it).
  Game g;
  set_leaders(g.m.state, g.me, {5, LeaderStatus::Active}, {6, LeaderStatus::Hand});
  TakeFromMarket take;
  take.line = Line::Column;
  take.index = 2;
  take.layout = g.keep();
  EXPECT_EQ(g.m.code(g.me, take), "ACCEPTED");
  const auto legal = legal_commands(g.m.state, g.me);
  const Command canon = canonical_command(g.m.state, g.me, take);
  EXPECT_NE(std::find(legal.begin(), legal.end(), canon), legal.end());
}

// --- 53 --------------------------------------------------------------------------------------

TEST(Decisions, D53_TheMarketUsesTheLeaderDepotsActiveWhenItIsChecked) {
  Game g;
  set_leaders(g.m.state, g.me, {5, LeaderStatus::Hand}, {1, LeaderStatus::Hand});  // stone depot
  clear_warehouse(g.m.state, g.me);
  set_depot(g.m.state, g.me, 2, R::Shield, 3);
  set_strongbox(g.m.state, g.me, 5, 0, 0, 0);
  set_market(g.m.state, marbles("GGWY" "PWBB" "YPWR" "W"));  // row 0: two stones
  const Layout with_depot = layout({{R::Coin, 1}, {std::nullopt, 0}, {R::Shield, 3}}, {{5, 2}});
  EXPECT_EQ(g.m.code(g.me, TakeFromMarket{Line::Row, 0, {}, with_depot}), "LEADER_DEPOT_NOT_ACTIVE");
  g.m.play(g.me, ActivateLeader{5});  // earlier in the same turn: it counts
  g.m.play(g.me, TakeFromMarket{Line::Row, 0, {}, with_depot});
  EXPECT_EQ(warehouse(g.m.board(g.me)), (Amounts{1, 0, 3, 2}));
}

// --- 54 --------------------------------------------------------------------------------------

TEST(Decisions, D54_ABadLevelIsReportedBeforeABadSlot) {
  Game g;
  EXPECT_EQ(g.m.code(g.me, BuyCard{9, Colour::Green, 9, {}}), "BAD_LEVEL");
}

// --- 55 --------------------------------------------------------------------------------------

TEST(Decisions, D55_TheSeventhCardTriggersTheEndOnce) {
  Game g(2, 55);
  for (int slot = 0; slot < 3; ++slot) {
    give_card(g.m.state, g.me, slot, card_in_grid(g.m.state, 1, Colour::Purple));
    give_card(g.m.state, g.me, slot, card_in_grid(g.m.state, 2, Colour::Purple));
  }
  set_strongbox(g.m.state, g.me, 30, 30, 30, 30);
  g.m.play(g.me, BuyCard{3, Colour::Green, 0, price(g.m.state, 3, Colour::Green)});
  EXPECT_TRUE(g.m.state.final_round);
  EXPECT_EQ(g.m.state.trigger, EndReason::SeventhCard);
  pass(g.m);
  if (g.m.state.phase == Phase::Play) {
    // The other seat (before the inkwell) plays its last turn: an 8th card changes nothing.
    const Seat p = g.m.state.current;
    set_strongbox(g.m.state, p, 30, 30, 30, 30);
    g.m.play(p, BuyCard{1, Colour::Yellow, 0, price(g.m.state, 1, Colour::Yellow)});
    pass(g.m);
  }
  EXPECT_EQ(g.m.state.phase, Phase::GameOver);
  EXPECT_EQ(g.m.state.result.reason, EndReason::SeventhCard);
}

// --- 56 --------------------------------------------------------------------------------------

TEST(Decisions, D56_EveryTurnCommandIsWrongPhaseDuringSetup) {
  Match m = created(3, 56);
  std::mt19937_64 rng(56);
  for (Seat p = 0; p < 3; ++p)
    for (int i = 0; i < 200; ++i) {
      const Command c = testing::random_command(rng);
      if (!is_turn_command(c)) continue;
      const std::string code = m.code(p, c);
      EXPECT_TRUE(code == "WRONG_PHASE" || code == "MALFORMED") << testing::command_key(c);
    }
}

// --- 57 --------------------------------------------------------------------------------------

TEST(Decisions, D57_ResigningLosesAtOnceTheOthersAreRanked) {
  // 3 players: the resigner loses whatever its score, the others are ranked as at the end.
  Game g(3, 57);
  const Seat quitter = g.next;  // not its turn: resigning is always possible
  set_strongbox(g.m.state, quitter, 50, 0, 0, 0);
  set_strongbox(g.m.state, g.me, 10, 0, 0, 0);
  g.m.play(quitter, Resign{});
  EXPECT_EQ(g.m.state.phase, Phase::GameOver);
  EXPECT_EQ(g.m.state.result.reason, EndReason::Resign);
  EXPECT_EQ(g.m.state.result.winners, 1 << g.me);
  EXPECT_EQ(g.m.state.result.scores[quitter], 10u);  // reported all the same
  EXPECT_EQ(g.m.state.result.resigned, 1 << quitter);  // so the platform ranks it last
  // Solo: Lorenzo wins.
  Match solo = started(1, 57);
  solo.play(0, Resign{});
  EXPECT_TRUE(solo.state.result.lorenzo_won);
  EXPECT_EQ(solo.state.result.reason, EndReason::Resign);
  EXPECT_EQ(solo.state.result.resigned, 1);
  // Never during setup, never listed.
  Match setup = created(2, 57);
  EXPECT_EQ(setup.code(0, Resign{}), "WRONG_PHASE");
  Game h(2, 58);
  for (Seat p = 0; p < 2; ++p)
    for (const Command& c : legal_commands(h.m.state, p)) EXPECT_FALSE(std::holds_alternative<Resign>(c));
}

// --- 58 --------------------------------------------------------------------------------------

TEST(Decisions, D58_LegalCommandsListEachMoveOnceInItsCanonicalSpelling) {
  Game g;
  set_leaders(g.m.state, g.me, {7, LeaderStatus::Active}, {13, LeaderStatus::Active});  // shield depot; shield -> any
  clear_warehouse(g.m.state, g.me);
  set_depot(g.m.state, g.me, 1, R::Shield, 1);
  g.m.board(g.me).leaders[0].stored = 1;
  set_strongbox(g.m.state, g.me, 3, 0, 3, 0);
  auto& green = g.m.state.grid.cards[deck_index(1, Colour::Green)];
  std::swap(*std::find(green.begin(), green.end(), 1), green[3]);  // D01: 2 shields
  const auto legal = legal_commands(g.m.state, g.me);
  // A purchase is listed once, paid from the basic depot, then the leader depot, then the
  // strongbox; every other split is accepted and canonicalises to it.
  int d01 = 0;
  for (const Command& c : legal)
    if (const auto* b = std::get_if<BuyCard>(&c); b && b->level == 1 && b->colour == Colour::Green && b->slot == 0) {
      ++d01;
      ASSERT_TRUE(b->payment.has_value());  // listed commands name every field
      EXPECT_EQ((*b->payment)[index(R::Shield)], (Take{1, 1, 0}));
    }
  EXPECT_EQ(d01, 1);
  Payment from_box{};
  from_box[index(R::Shield)] = Take{0, 0, 2};
  const BuyCard other{1, Colour::Green, 0, from_box};
  EXPECT_EQ(g.m.code(g.me, other), "ACCEPTED");
  EXPECT_EQ(std::find(legal.begin(), legal.end(), Command{other}), legal.end());
  EXPECT_NE(std::find(legal.begin(), legal.end(), canonical_command(g.m.state, g.me, other)), legal.end());
  // Base production inputs come sorted; the reversed spelling is accepted and canonicalises.
  const Produce reversed{BaseProduction{{R::Shield, R::Coin}, R::Stone}, {}, {}, from_strongbox(1, 0, 1, 0)};
  EXPECT_EQ(g.m.code(g.me, reversed), "ACCEPTED");
  EXPECT_EQ(std::find(legal.begin(), legal.end(), Command{reversed}), legal.end());
  const Command canon = canonical_command(g.m.state, g.me, reversed);
  EXPECT_EQ(std::get<Produce>(canon).base->inputs, (std::array<Resource, 2>{R::Coin, R::Shield}));
  EXPECT_NE(std::find(legal.begin(), legal.end(), canon), legal.end());
  // The market lists one layout per kept content; arrange_warehouse lists every layout.
  int arrangements = 0;
  for (const Command& c : legal) arrangements += std::holds_alternative<ArrangeWarehouse>(c) ? 1 : 0;
  // 2 shields: both in depot 2 or 3, one in the leader depot and one in depot 1, 2 or 3, or both
  // in the leader depot.
  EXPECT_EQ(arrangements, 2 + 3 + 1);
  // No duplicate anywhere.
  std::set<std::string> keys;
  for (const Command& c : legal) EXPECT_TRUE(keys.insert(testing::command_key(c)).second);
}

// --- 59 --------------------------------------------------------------------------------------

TEST(Decisions, D59_ThePlatformsCommandsForfeitAndEnd) {
  Game g(3, 59);
  const Seat winner = g.next;
  set_strongbox(g.m.state, g.me, 50, 0, 0, 0);
  g.m.play(winner, AwardForfeit{}, Authority::Server);
  EXPECT_EQ(g.m.state.result.reason, EndReason::Forfeit);
  EXPECT_EQ(g.m.state.result.winners, 1 << winner);  // whatever the scores
  EXPECT_EQ(g.m.state.result.scores[g.me], 10u);
  Match setup = created(2, 59);
  EXPECT_EQ(setup.code(0, AwardForfeit{}, Authority::Server), "WRONG_PHASE");
  setup.play(0, EndMatch{}, Authority::Server);  // any phase
  EXPECT_EQ(setup.state.phase, Phase::GameOver);
  EXPECT_EQ(setup.state.result.reason, EndReason::Ended);
  EXPECT_EQ(setup.state.result.winners, 0);
  Match solo = started(1, 59);
  EXPECT_EQ(solo.code(0, AwardForfeit{}, Authority::Server), "WRONG_PHASE");
  solo.play(0, EndMatch{}, Authority::Server);
  EXPECT_FALSE(solo.state.result.lorenzo_won);
  EXPECT_EQ(solo.state.result.winners, 0);
}

// --- 60 --------------------------------------------------------------------------------------

TEST(Decisions, D60_HiddenInformationStaysHiddenAfterTheEndAndFromTheSoloPlayer) {
  Match solo = started(1, 60);
  const View own = view(solo.state, 0);
  for (int i = solo.state.lorenzo.revealed; i < kTokens; ++i) EXPECT_EQ(own.state.lorenzo.tokens[i], 0);
  for (int d = 0; d < kDecks; ++d) EXPECT_EQ(own.state.grid.cards[d][0], 0);
  const auto game = play_random_game(Options{3}, 60);
  ASSERT_EQ(game.state.phase, Phase::GameOver);
  for (Seat v = 0; v < 3; ++v) {
    const View seen = view(game.state, v);
    for (Seat p = 0; p < 3; ++p) {
      if (p == v) continue;
      EXPECT_EQ(seen.state.boards[p].dealt, (std::array<std::uint8_t, 4>{}));
      for (const Leader& l : seen.state.boards[p].leaders) {
        if (l.status != LeaderStatus::Active) {
          EXPECT_EQ(l.id, 0);
        }
      }
    }
  }
}

// --- 61 --------------------------------------------------------------------------------------

TEST(Decisions, D61_AbandonMatchEndsAGameBeingPlayedAndNobodyWins) {
  Game g(3, 61);
  set_strongbox(g.m.state, g.me, 50, 0, 0, 0);
  EXPECT_EQ(g.m.code(g.me, AbandonMatch{}), "SERVER_ONLY");
  g.m.play(g.next, AbandonMatch{}, Authority::Server);  // any seat, its turn or not
  EXPECT_EQ(g.m.state.phase, Phase::GameOver);
  EXPECT_EQ(g.m.state.result.reason, EndReason::Abandoned);
  EXPECT_EQ(end_reason_name(g.m.state.result.reason), "abandoned");
  EXPECT_EQ(g.m.state.result.winners, 0);  // whatever the scores, which are reported
  EXPECT_EQ(g.m.state.result.scores[g.me], 10u);
  EXPECT_EQ(g.m.code(g.me, AbandonMatch{}, Authority::Server), "GAME_OVER");
  // A match still in setup is the platform's lobby: it is abandoned without an event.
  Match setup = created(2, 61);
  EXPECT_EQ(setup.code(0, AbandonMatch{}, Authority::Server), "WRONG_PHASE");
  Match solo = started(1, 61);
  solo.play(0, AbandonMatch{}, Authority::Server);
  EXPECT_FALSE(solo.state.result.lorenzo_won);
  EXPECT_EQ(solo.state.result.winners, 0);
  EXPECT_TRUE(is_server_command(AbandonMatch{}));
  EXPECT_EQ(command_type(AbandonMatch{}), "abandon_match");
}

// --- 62 --------------------------------------------------------------------------------------

TEST(Decisions, D62_ALayoutOrAPaymentLeftOutIsTheCanonicalOneAndTheEventRecordsIt) {
  // The market without a layout keeps everything, in the canonical layout, when it fits.
  Game g(2, 62);
  clear_warehouse(g.m.state, g.me);
  set_depot(g.m.state, g.me, 0, R::Coin, 1);
  set_market(g.m.state, marbles("BGYR" "PWBG" "YPWW" "W"));  // row 0: shield, stone, coin, faith
  TakeFromMarket keep_all{Line::Row, 0, {}, std::nullopt};
  const auto decided = decide(g.m.state, g.me, keep_all);
  ASSERT_TRUE(decided.has_value());
  const auto& recorded = std::get<TakeFromMarket>(decided->event.command);
  ASSERT_TRUE(recorded.layout.has_value());
  // Smaller amounts into smaller depots, ties in resource order (decision 58).
  EXPECT_EQ(*recorded.layout, layout({{R::Shield, 1}, {R::Stone, 1}, {R::Coin, 2}}));
  const auto legal = legal_commands(g.m.state, g.me);
  EXPECT_NE(std::find(legal.begin(), legal.end(), Command{recorded}), legal.end());
  EXPECT_EQ(canonical_command(g.m.state, g.me, keep_all), Command{recorded});
  g.m.play(g.me, keep_all);
  EXPECT_EQ(warehouse(g.m.board(g.me)), (Amounts{2, 0, 1, 1}));
  EXPECT_EQ(g.m.board(g.next).faith, 0);  // nothing discarded
  // When not everything fits: WAREHOUSE_FULL, and naming the layout is accepted.
  Game full(2, 62);
  clear_warehouse(full.m.state, full.me);
  set_depot(full.m.state, full.me, 0, R::Coin, 1);
  set_depot(full.m.state, full.me, 1, R::Servant, 2);
  set_depot(full.m.state, full.me, 2, R::Stone, 3);
  set_market(full.m.state, marbles("BGYR" "PWBG" "YPWW" "W"));
  EXPECT_EQ(full.m.code(full.me, keep_all), "WAREHOUSE_FULL");
  EXPECT_EQ(full.m.code(full.me, TakeFromMarket{Line::Row, 0, {}, full.keep()}), "ACCEPTED");
  // A purchase without a payment pays warehouse first: the basic depot, then the strongbox.
  Game buy(2, 63);
  clear_warehouse(buy.m.state, buy.me);
  set_depot(buy.m.state, buy.me, 1, R::Shield, 1);
  set_strongbox(buy.m.state, buy.me, 0, 0, 5, 0);
  auto& green = buy.m.state.grid.cards[deck_index(1, Colour::Green)];
  std::swap(*std::find(green.begin(), green.end(), 1), green[3]);  // D01: 2 shields
  const BuyCard auto_pay{1, Colour::Green, 0, std::nullopt};
  const auto bought = decide(buy.m.state, buy.me, auto_pay);
  ASSERT_TRUE(bought.has_value());
  const auto& paid = std::get<BuyCard>(bought->event.command).payment;
  ASSERT_TRUE(paid.has_value());
  EXPECT_EQ((*paid)[index(R::Shield)], (Take{1, 0, 1}));
  EXPECT_EQ(canonical_command(buy.m.state, buy.me, auto_pay), bought->event.command);
  buy.m.play(buy.me, auto_pay);
  // Production without a payment; more than the player owns is PAYMENT_SOURCE_SHORT.
  Game produce(2, 64);
  clear_warehouse(produce.m.state, produce.me);
  set_strongbox(produce.m.state, produce.me, 1, 0, 0, 0);
  EXPECT_EQ(produce.m.code(produce.me, Produce{BaseProduction{{R::Coin, R::Coin}, R::Stone}, {}, {}, std::nullopt}),
            "PAYMENT_SOURCE_SHORT");
  const Produce one_coin{BaseProduction{{R::Coin, R::Coin}, R::Stone}, {}, {}, std::nullopt};
  set_strongbox(produce.m.state, produce.me, 2, 0, 0, 0);
  produce.m.play(produce.me, one_coin);
  EXPECT_EQ(produce.m.board(produce.me).strongbox, (std::array<std::uint32_t, 4>{0, 0, 0, 1}));
  // A stored event always names them: one without is inconsistent.
  Game stored(2, 65);
  const auto e = check(stored.m.state, stored.me, TakeFromMarket{Line::Row, 0, {}, Layout{}});
  ASSERT_TRUE(e.has_value());
  Event lacking = *e;
  std::get<TakeFromMarket>(lacking.command).layout.reset();
  const auto replayed = apply_checked(stored.m.state, lacking);
  ASSERT_FALSE(replayed.has_value());
  EXPECT_EQ(replayed.error().code, RuleCode::InconsistentEvent);
}

}  // namespace
}  // namespace eryantis::renaissance
