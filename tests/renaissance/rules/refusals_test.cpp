// One test per refusal reason of section 9 (and the platform's), named after its code: the
// smallest position that earns it, and (where the order of checks matters) what it beats.
#include <algorithm>

#include "scenario.hpp"

namespace eryantis::renaissance {
namespace {

using namespace scenario;

// A 2-player match in play; `me` is to act.
struct Two {
  Match m = started(2, 5);
  Seat me = m.state.current;
  Seat other = static_cast<Seat>(1 - m.state.current);
};

// A 2-player match in setup; `first` holds the inkwell (no resources), `second` gets one.
struct InSetup {
  Match m = created(2, 5);
  Seat first = m.state.inkwell;
  Seat second = static_cast<Seat>(1 - m.state.inkwell);
  ChooseLeaders keep(Seat p) const {
    auto d = m.state.boards[p].dealt;
    std::sort(d.begin(), d.end());
    return ChooseLeaders{{d[0], d[1]}};
  }
};

Layout coin_in_depot(int depot, int count) {
  Layout l;
  l.depots[depot] = Depot{R::Coin, u8(count)};
  return l;
}

// --- 9.1 -------------------------------------------------------------------------------------

TEST(Refusals, game_over) {
  Two t;
  t.m.play(t.me, EndMatch{}, Authority::Server);
  EXPECT_EQ(t.m.code(t.me, EndTurn{}), "GAME_OVER");
  EXPECT_EQ(t.m.code(9, EndTurn{}), "GAME_OVER");  // before not_seated (9.1's order)
  EXPECT_EQ(t.m.code(t.me, Resign{}), "GAME_OVER");
}

TEST(Refusals, not_seated) {
  Two t;
  EXPECT_EQ(t.m.code(2, EndTurn{}), "NOT_SEATED");
  EXPECT_EQ(t.m.code(-1, ChooseLeaders{}), "NOT_SEATED");
}

TEST(Refusals, malformed) {
  Two t;
  EXPECT_EQ(t.m.code(t.me, BuyCard{1, static_cast<Colour>(4), 0, {}}), "MALFORMED");
  TakeFromMarket market;
  market.line = static_cast<Line>(2);
  EXPECT_EQ(t.m.code(t.me, market), "MALFORMED");
  // Before wrong_phase and not_your_turn (9.1's order).
  InSetup s;
  EXPECT_EQ(s.m.code(s.first, BuyCard{1, static_cast<Colour>(9), 0, {}}), "MALFORMED");
  EXPECT_EQ(t.m.code(t.other, BuyCard{1, static_cast<Colour>(9), 0, {}}), "MALFORMED");
}

TEST(Refusals, wrong_phase) {
  InSetup s;
  EXPECT_EQ(s.m.code(s.first, EndTurn{}), "WRONG_PHASE");
  EXPECT_EQ(s.m.code(s.first, Resign{}), "WRONG_PHASE");
  Two t;
  EXPECT_EQ(t.m.code(t.me, ChooseLeaders{{1, 2}}), "WRONG_PHASE");
  EXPECT_EQ(t.m.code(t.other, ChooseInitialResources{}), "WRONG_PHASE");
}

TEST(Refusals, not_your_turn) {
  Two t;
  EXPECT_EQ(t.m.code(t.other, EndTurn{}), "NOT_YOUR_TURN");
  EXPECT_EQ(t.m.code(t.other, ArrangeWarehouse{layout_of_board(t.m.board(t.other))}),
            "NOT_YOUR_TURN");
  EXPECT_EQ(t.m.code(t.other, DiscardLeader{t.m.board(t.other).leaders[0].id}), "NOT_YOUR_TURN");
}

// --- 9.2 -------------------------------------------------------------------------------------

TEST(Refusals, depot_over_capacity) {
  Two t;
  clear_warehouse(t.m.state, t.me);
  set_depot(t.m.state, t.me, 2, R::Coin, 2);
  EXPECT_EQ(t.m.code(t.me, ArrangeWarehouse{coin_in_depot(0, 2)}), "DEPOT_OVER_CAPACITY");
  EXPECT_EQ(t.m.code(t.me, ArrangeWarehouse{coin_in_depot(2, 2)}), "ACCEPTED");
}

TEST(Refusals, depot_needs_type) {
  Two t;
  clear_warehouse(t.m.state, t.me);
  set_depot(t.m.state, t.me, 2, R::Coin, 2);
  Layout l = coin_in_depot(2, 2);
  l.depots[2].type.reset();
  EXPECT_EQ(t.m.code(t.me, ArrangeWarehouse{l}), "DEPOT_NEEDS_TYPE");
  l.depots[2].type = kFaithName;  // decision 42
  EXPECT_EQ(t.m.code(t.me, ArrangeWarehouse{l}), "DEPOT_NEEDS_TYPE");
}

TEST(Refusals, duplicate_depot_type) {
  Two t;
  clear_warehouse(t.m.state, t.me);
  set_depot(t.m.state, t.me, 2, R::Coin, 2);
  EXPECT_EQ(t.m.code(t.me, ArrangeWarehouse{layout({{R::Coin, 1}, {R::Coin, 1}, {std::nullopt, 0}})}),
            "DUPLICATE_DEPOT_TYPE");
}

TEST(Refusals, leader_depot_not_active) {
  Two t;
  set_leaders(t.m.state, t.me, {5, LeaderStatus::Hand}, {6, LeaderStatus::Hand});
  Layout l = layout_of_board(t.m.board(t.me));
  l.leader_depots[5 - 1] = 0;  // in hand: not active, even with 0 (decision 46)
  EXPECT_EQ(t.m.code(t.me, ArrangeWarehouse{l}), "LEADER_DEPOT_NOT_ACTIVE");
}

TEST(Refusals, leader_depot_over_capacity) {
  Two t;
  set_leaders(t.m.state, t.me, {5, LeaderStatus::Active}, {6, LeaderStatus::Hand});
  clear_warehouse(t.m.state, t.me);
  set_depot(t.m.state, t.me, 2, R::Stone, 3);
  EXPECT_EQ(t.m.code(t.me, ArrangeWarehouse{layout({{std::nullopt, 0}, {std::nullopt, 0},
                                                    {std::nullopt, 0}},
                                                   {{5, 3}})}),
            "LEADER_DEPOT_OVER_CAPACITY");
  EXPECT_EQ(t.m.code(t.me, ArrangeWarehouse{layout({{R::Stone, 1}, {std::nullopt, 0},
                                                    {std::nullopt, 0}},
                                                   {{5, 2}})}),
            "ACCEPTED");
}

// --- 9.3 -------------------------------------------------------------------------------------

TEST(Refusals, leaders_already_chosen) {
  InSetup s;
  s.m.play(s.first, s.keep(s.first));
  EXPECT_EQ(s.m.code(s.first, s.keep(s.first)), "LEADERS_ALREADY_CHOSEN");
}

TEST(Refusals, wrong_leader_count) {
  InSetup s;
  const auto d = s.m.state.boards[s.first].dealt;
  EXPECT_EQ(s.m.code(s.first, ChooseLeaders{{d[0]}}), "WRONG_LEADER_COUNT");
  EXPECT_EQ(s.m.code(s.first, ChooseLeaders{{d[0], d[1], d[2]}}), "WRONG_LEADER_COUNT");
  EXPECT_EQ(s.m.code(s.first, ChooseLeaders{}), "WRONG_LEADER_COUNT");
}

TEST(Refusals, duplicate_leader) {
  InSetup s;
  const auto d = s.m.state.boards[s.first].dealt;
  EXPECT_EQ(s.m.code(s.first, ChooseLeaders{{d[1], d[1]}}), "DUPLICATE_LEADER");
}

TEST(Refusals, leader_not_dealt) {
  InSetup s;
  const auto mine = s.m.state.boards[s.first].dealt;
  const auto theirs = s.m.state.boards[s.second].dealt;
  EXPECT_EQ(s.m.code(s.first, ChooseLeaders{{mine[0], theirs[0]}}), "LEADER_NOT_DEALT");
  EXPECT_EQ(s.m.code(s.first, ChooseLeaders{{mine[0], 17}}), "LEADER_NOT_DEALT");
  EXPECT_EQ(s.m.code(s.first, ChooseLeaders{{0, mine[0]}}), "LEADER_NOT_DEALT");
}

TEST(Refusals, leaders_first) {
  InSetup s;
  EXPECT_EQ(s.m.code(s.second, ChooseInitialResources{coin_in_depot(0, 1)}), "LEADERS_FIRST");
}

TEST(Refusals, resources_already_chosen) {
  InSetup s;
  s.m.play(s.second, s.keep(s.second));
  s.m.play(s.second, ChooseInitialResources{coin_in_depot(0, 1)});
  EXPECT_EQ(s.m.code(s.second, ChooseInitialResources{coin_in_depot(0, 1)}),
            "RESOURCES_ALREADY_CHOSEN");
}

TEST(Refusals, no_initial_resources) {
  InSetup s;
  s.m.play(s.first, s.keep(s.first));
  EXPECT_EQ(s.m.code(s.first, ChooseInitialResources{coin_in_depot(0, 1)}), "NO_INITIAL_RESOURCES");
  Match solo = created(1, 5);
  auto d = solo.state.boards[0].dealt;
  solo.play(0, ChooseLeaders{{std::min(d[0], d[1]), std::max(d[0], d[1])}});
  EXPECT_EQ(solo.state.phase, Phase::Play);  // the solo player has no resource step
}

TEST(Refusals, wrong_resource_count) {
  InSetup s;
  s.m.play(s.second, s.keep(s.second));
  EXPECT_EQ(s.m.code(s.second, ChooseInitialResources{}), "WRONG_RESOURCE_COUNT");
  EXPECT_EQ(s.m.code(s.second, ChooseInitialResources{coin_in_depot(1, 2)}), "WRONG_RESOURCE_COUNT");
  // Before the layout's own codes: 5 in depot 1 is a wrong count first.
  EXPECT_EQ(s.m.code(s.second, ChooseInitialResources{coin_in_depot(0, 5)}), "WRONG_RESOURCE_COUNT");
}

// --- 9.4 -------------------------------------------------------------------------------------

TEST(Refusals, main_action_done) {
  Two t;
  TakeFromMarket market{Line::Row, 0, {}, layout_of_board(t.m.board(t.me))};
  t.m.play(t.me, market);
  EXPECT_EQ(t.m.code(t.me, market), "MAIN_ACTION_DONE");
  EXPECT_EQ(t.m.code(t.me, BuyCard{1, Colour::Green, 0, {}}), "MAIN_ACTION_DONE");
  EXPECT_EQ(t.m.code(t.me, Produce{}), "MAIN_ACTION_DONE");
}

TEST(Refusals, bad_line_index) {
  Two t;
  const Layout l = layout_of_board(t.m.board(t.me));
  EXPECT_EQ(t.m.code(t.me, TakeFromMarket{Line::Row, 3, {}, l}), "BAD_LINE_INDEX");
  EXPECT_EQ(t.m.code(t.me, TakeFromMarket{Line::Column, 4, {}, l}), "BAD_LINE_INDEX");
  EXPECT_EQ(t.m.code(t.me, TakeFromMarket{Line::Column, 3, {}, l}), "ACCEPTED");
}

TEST(Refusals, white_choices_unexpected) {
  Two t;
  set_leaders(t.m.state, t.me, {9, LeaderStatus::Active}, {10, LeaderStatus::Hand});
  EXPECT_EQ(t.m.code(t.me, TakeFromMarket{Line::Row, 0, {R::Servant},
                                          layout_of_board(t.m.board(t.me))}),
            "WHITE_CHOICES_UNEXPECTED");
}

// Two white-marble leaders (servant, shield) and a row 0 with two white marbles.
Two two_white_leaders() {
  Two t;
  set_leaders(t.m.state, t.me, {9, LeaderStatus::Active}, {10, LeaderStatus::Active});
  set_market(t.m.state, marbles("WWBG" "YPRB" "GYPW" "W"));
  return t;
}

TEST(Refusals, white_choices_count) {
  Two t = two_white_leaders();
  const Layout l = layout_of_board(t.m.board(t.me));
  EXPECT_EQ(t.m.code(t.me, TakeFromMarket{Line::Row, 0, {}, l}), "WHITE_CHOICES_COUNT");
  EXPECT_EQ(t.m.code(t.me, TakeFromMarket{Line::Row, 0, {R::Servant}, l}), "WHITE_CHOICES_COUNT");
  EXPECT_EQ(t.m.code(t.me, TakeFromMarket{Line::Row, 0, {R::Servant, R::Shield}, l}), "ACCEPTED");
}

TEST(Refusals, white_choice_invalid) {
  Two t = two_white_leaders();
  const Layout l = layout_of_board(t.m.board(t.me));
  EXPECT_EQ(t.m.code(t.me, TakeFromMarket{Line::Row, 0, {R::Servant, R::Coin}, l}),
            "WHITE_CHOICE_INVALID");
  EXPECT_EQ(t.m.code(t.me, TakeFromMarket{Line::Row, 0, {kFaithName, R::Shield}, l}),
            "WHITE_CHOICE_INVALID");
}

TEST(Refusals, layout_not_available) {
  Two t;
  clear_warehouse(t.m.state, t.me);
  set_market(t.m.state, marbles("WWBG" "YPRB" "GYPW" "W"));
  // Row 0 gives a shield and a stone: two shields are not available.
  EXPECT_EQ(t.m.code(t.me, TakeFromMarket{Line::Row, 0, {}, layout({{R::Stone, 1}, {R::Shield, 2}})}),
            "LAYOUT_NOT_AVAILABLE");
  EXPECT_EQ(t.m.code(t.me, TakeFromMarket{Line::Row, 0, {}, layout({{R::Stone, 1}, {R::Shield, 1}})}),
            "ACCEPTED");
}

TEST(Refusals, warehouse_full) {
  Two t;
  clear_warehouse(t.m.state, t.me);
  set_depot(t.m.state, t.me, 2, R::Stone, 3);
  set_market(t.m.state, marbles("GGBY" "YPRB" "PWWW" "W"));
  // Row 0 gives two more stones: without a layout everything is kept, and it does not fit.
  EXPECT_EQ(t.m.code(t.me, TakeFromMarket{Line::Row, 0, {}, std::nullopt}), "WAREHOUSE_FULL");
  EXPECT_EQ(t.m.code(t.me, TakeFromMarket{Line::Row, 2, {}, std::nullopt}), "ACCEPTED");
}

TEST(Refusals, bad_level) {
  Two t;
  EXPECT_EQ(t.m.code(t.me, BuyCard{0, Colour::Green, 0, {}}), "BAD_LEVEL");
  EXPECT_EQ(t.m.code(t.me, BuyCard{4, Colour::Green, 0, {}}), "BAD_LEVEL");
}

TEST(Refusals, bad_slot) {
  Two t;
  EXPECT_EQ(t.m.code(t.me, BuyCard{1, Colour::Green, 3, {}}), "BAD_SLOT");
}

TEST(Refusals, deck_empty) {
  Two t;
  // Every green level 1 card goes to the other player's slots... one per slot: 3, the 4th to a
  // level-2-free slot is impossible, so empty the deck through both players' slots.
  for (int i = 0; i < 3; ++i) give_card(t.m.state, t.other, i, card_in_grid(t.m.state, 1, Colour::Green));
  give_card(t.m.state, t.me, 2, card_in_grid(t.m.state, 1, Colour::Green));
  EXPECT_EQ(t.m.code(t.me, BuyCard{1, Colour::Green, 0, {}}), "DECK_EMPTY");
}

TEST(Refusals, slot_cannot_take_card) {
  Two t;
  give_card(t.m.state, t.me, 0, card_in_grid(t.m.state, 1, Colour::Blue));
  EXPECT_EQ(t.m.code(t.me, BuyCard{1, Colour::Green, 0, {}}), "SLOT_CANNOT_TAKE_CARD");
  EXPECT_EQ(t.m.code(t.me, BuyCard{2, Colour::Green, 1, {}}), "SLOT_CANNOT_TAKE_CARD");
  EXPECT_EQ(t.m.code(t.me, BuyCard{3, Colour::Green, 0, {}}), "SLOT_CANNOT_TAKE_CARD");
}

TEST(Refusals, payment_mismatch) {
  Two t;
  set_strongbox(t.m.state, t.me, 9, 9, 9, 9);
  const DevelopmentCard& top = development_card(card_in_grid(t.m.state, 1, Colour::Green));
  Payment p = from_strongbox(top.cost[0], top.cost[1], top.cost[2], top.cost[3]);
  EXPECT_EQ(t.m.code(t.me, BuyCard{1, Colour::Green, 0, p}), "ACCEPTED");
  p[2].strongbox += 1;  // an overpayment (decision 17)
  EXPECT_EQ(t.m.code(t.me, BuyCard{1, Colour::Green, 0, p}), "PAYMENT_MISMATCH");
  EXPECT_EQ(t.m.code(t.me, BuyCard{1, Colour::Green, 0, Payment{}}), "PAYMENT_MISMATCH");
}

TEST(Refusals, payment_source_short) {
  Two t;
  give_card(t.m.state, t.me, 0, card_in_grid(t.m.state, 1, Colour::Blue));
  clear_warehouse(t.m.state, t.me);
  set_depot(t.m.state, t.me, 0, R::Shield, 1);
  set_strongbox(t.m.state, t.me, 9, 9, 9, 9);
  // Every green level 2 card costs 3 or more shields.
  const DevelopmentCard& top = development_card(card_in_grid(t.m.state, 2, Colour::Green));
  const int shields = top.cost[index(R::Shield)];
  ASSERT_GE(shields, 3);
  Payment p{};
  for (Resource r : {R::Coin, R::Servant, R::Stone}) p[index(r)].strongbox = top.cost[index(r)];
  p[index(R::Shield)] = Take{1, 0, u8(shields - 1)};
  EXPECT_EQ(t.m.code(t.me, BuyCard{2, Colour::Green, 0, p}), "ACCEPTED");
  p[index(R::Shield)] = Take{2, 0, u8(shields - 2)};  // the depot holds one
  EXPECT_EQ(t.m.code(t.me, BuyCard{2, Colour::Green, 0, p}), "PAYMENT_SOURCE_SHORT");
  p[index(R::Shield)] = Take{0, 1, u8(shields - 1)};  // no leader depot at all
  EXPECT_EQ(t.m.code(t.me, BuyCard{2, Colour::Green, 0, p}), "PAYMENT_SOURCE_SHORT");
  set_strongbox(t.m.state, t.me, 9, 9, 1, 9);
  p[index(R::Shield)] = Take{0, 0, u8(shields)};
  EXPECT_EQ(t.m.code(t.me, BuyCard{2, Colour::Green, 0, p}), "PAYMENT_SOURCE_SHORT");
}

TEST(Refusals, nothing_selected) {
  Two t;
  EXPECT_EQ(t.m.code(t.me, Produce{}), "NOTHING_SELECTED");
}

TEST(Refusals, duplicate_power) {
  Two t;
  give_card(t.m.state, t.me, 0, card_in_grid(t.m.state, 1, Colour::Blue));
  EXPECT_EQ(t.m.code(t.me, Produce{std::nullopt, {0, 0}, {}, {}}), "DUPLICATE_POWER");
  set_leaders(t.m.state, t.me, {13, LeaderStatus::Active}, {14, LeaderStatus::Hand});
  EXPECT_EQ(t.m.code(t.me, Produce{std::nullopt, {}, {{13, R::Coin}, {13, R::Stone}}, {}}),
            "DUPLICATE_POWER");
  // Before slot_empty: a bad slot listed twice is a duplicate first.
  EXPECT_EQ(t.m.code(t.me, Produce{std::nullopt, {7, 7}, {}, {}}), "DUPLICATE_POWER");
}

TEST(Refusals, slot_empty) {
  Two t;
  EXPECT_EQ(t.m.code(t.me, Produce{std::nullopt, {1}, {}, {}}), "SLOT_EMPTY");
  EXPECT_EQ(t.m.code(t.me, Produce{std::nullopt, {3}, {}, {}}), "SLOT_EMPTY");  // decision 43
}

TEST(Refusals, not_production_leader) {
  Two t;
  set_leaders(t.m.state, t.me, {13, LeaderStatus::Hand}, {5, LeaderStatus::Active});
  EXPECT_EQ(t.m.code(t.me, Produce{std::nullopt, {}, {{13, R::Coin}}, {}}), "NOT_PRODUCTION_LEADER");
  EXPECT_EQ(t.m.code(t.me, Produce{std::nullopt, {}, {{5, R::Coin}}, {}}), "NOT_PRODUCTION_LEADER");
  EXPECT_EQ(t.m.code(t.me, Produce{std::nullopt, {}, {{0, R::Coin}}, {}}), "NOT_PRODUCTION_LEADER");
}

TEST(Refusals, bad_choice) {
  Two t;
  set_strongbox(t.m.state, t.me, 5, 5, 5, 5);
  EXPECT_EQ(t.m.code(t.me, Produce{BaseProduction{{R::Coin, kFaithName}, R::Coin}, {}, {},
                                   from_strongbox(1, 0, 0, 0)}),
            "BAD_CHOICE");
  EXPECT_EQ(t.m.code(t.me, Produce{BaseProduction{{R::Coin, R::Coin}, kFaithName}, {}, {},
                                   from_strongbox(2, 0, 0, 0)}),
            "BAD_CHOICE");
  set_leaders(t.m.state, t.me, {13, LeaderStatus::Active}, {14, LeaderStatus::Hand});
  EXPECT_EQ(t.m.code(t.me, Produce{std::nullopt, {}, {{13, static_cast<Resource>(9)}},
                                   from_strongbox(0, 0, 1, 0)}),
            "BAD_CHOICE");
}

TEST(Refusals, leader_not_in_hand) {
  Two t;
  set_leaders(t.m.state, t.me, {13, LeaderStatus::Active}, {14, LeaderStatus::Discarded});
  EXPECT_EQ(t.m.code(t.me, ActivateLeader{13}), "LEADER_NOT_IN_HAND");
  EXPECT_EQ(t.m.code(t.me, DiscardLeader{13}), "LEADER_NOT_IN_HAND");  // active: never discarded
  EXPECT_EQ(t.m.code(t.me, DiscardLeader{14}), "LEADER_NOT_IN_HAND");
  EXPECT_EQ(t.m.code(t.me, ActivateLeader{t.m.board(t.other).leaders[0].id}), "LEADER_NOT_IN_HAND");
  EXPECT_EQ(t.m.code(t.me, ActivateLeader{0}), "LEADER_NOT_IN_HAND");
  EXPECT_EQ(t.m.code(t.me, ActivateLeader{40}), "LEADER_NOT_IN_HAND");
}

TEST(Refusals, requirement_not_met) {
  Two t;
  set_leaders(t.m.state, t.me, {5, LeaderStatus::Hand}, {14, LeaderStatus::Hand});
  set_strongbox(t.m.state, t.me, 3, 0, 0, 0);
  clear_warehouse(t.m.state, t.me);
  set_depot(t.m.state, t.me, 1, R::Coin, 1);
  EXPECT_EQ(t.m.code(t.me, ActivateLeader{5}), "REQUIREMENT_NOT_MET");  // 4 coins of 5
  EXPECT_EQ(t.m.code(t.me, ActivateLeader{14}), "REQUIREMENT_NOT_MET");
}

TEST(Refusals, resources_changed) {
  Two t;
  clear_warehouse(t.m.state, t.me);
  set_depot(t.m.state, t.me, 1, R::Coin, 2);
  EXPECT_EQ(t.m.code(t.me, ArrangeWarehouse{coin_in_depot(2, 1)}), "RESOURCES_CHANGED");
  EXPECT_EQ(t.m.code(t.me, ArrangeWarehouse{coin_in_depot(2, 3)}), "RESOURCES_CHANGED");
  EXPECT_EQ(t.m.code(t.me, ArrangeWarehouse{coin_in_depot(2, 2)}), "ACCEPTED");
}

TEST(Refusals, main_action_missing) {
  Two t;
  EXPECT_EQ(t.m.code(t.me, EndTurn{}), "MAIN_ACTION_MISSING");
}

// --- the platform's --------------------------------------------------------------------------

TEST(Refusals, server_only) {
  Two t;
  EXPECT_EQ(t.m.code(t.me, SkipTurn{}), "SERVER_ONLY");
  EXPECT_EQ(t.m.code(t.me, AwardForfeit{}), "SERVER_ONLY");
  EXPECT_EQ(t.m.code(t.me, EndMatch{}), "SERVER_ONLY");
  EXPECT_EQ(t.m.code(t.me, CreateMatch{Options{2}, {}}), "SERVER_ONLY");
}

TEST(Refusals, match_already_created) {
  Two t;
  EXPECT_EQ(t.m.code(kNoSeat, CreateMatch{Options{2}, {}}, Authority::Server), "MATCH_ALREADY_CREATED");
}

TEST(Refusals, invalid_options) {
  for (int players : {0, 5, 200}) {
    auto e = create_match(Options{u8(players)}, 1);
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().code, RuleCode::InvalidOptions);
  }
  // Nothing but create_match on an empty state.
  EXPECT_EQ(check(State{}, 0, EndTurn{}).error().code, RuleCode::WrongPhase);
}

TEST(Refusals, inconsistent_event) {
  Two t;
  TakeFromMarket market{Line::Row, 0, {}, layout_of_board(t.m.board(t.me))};
  auto e = check(t.m.state, t.me, market);
  ASSERT_TRUE(e.has_value());
  Event tampered = *e;
  tampered.revealed.push_back(3);  // a reveal the command never made
  EXPECT_EQ(apply_checked(t.m.state, tampered).error().code, RuleCode::InconsistentEvent);
}

}  // namespace
}  // namespace eryantis::renaissance
