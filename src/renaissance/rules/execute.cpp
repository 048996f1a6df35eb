// The transitions: what each validated command does to the state. Written once and run by both
// check (recording draws and reveals) and apply (replaying them).
//
// Precondition: the command passed validate() for this state (check ran it, or apply_checked
// did), or the state is a viewer's view and the event was redacted for it (decider.hpp): hidden
// ids are 0 there, and the code below accepts 0 wherever a redacted event may carry one.
#include <algorithm>

#include "eryantis/renaissance/rules/assert.hpp"
#include "internal.hpp"

namespace eryantis::renaissance::detail {

namespace {

void maybe_start(State& s) {
  if (!setup_complete(s)) return;
  s.phase = Phase::Play;  // 2.2 step 6: the inkwell holder's first turn
  s.current = s.inkwell;
  s.turn = 1;
  s.main_action_done = false;
}

// Lorenzo's turn (6.2): the top token is revealed and applied.
void lorenzo_turn(State& s, Drawer& drawer) {
  Lorenzo& l = s.lorenzo;
  RENAISSANCE_ASSERT(l.revealed < kTokens);
  const std::uint8_t t = drawer.reveal_token(l.tokens[l.revealed]);
  l.tokens[l.revealed] = t;
  l.revealed += 1;
  l.last_token = t;
  if (const auto colour = token_discards(t)) {
    // 6.3, decision 30: one card at a time, the top of the lowest-level non-empty deck.
    for (int i = 0; i < 2; ++i) {
      int deck = -1;
      for (int level = 1; level <= kLevels && deck < 0; ++level)
        if (s.grid.size[deck_index(level, *colour)] > 0) deck = deck_index(level, *colour);
      if (deck < 0) break;
      auto& cards = s.grid.cards[deck];
      auto& size = s.grid.size[deck];
      const std::uint8_t card = cards[size - 1];
      cards[size - 1] = 0;
      size -= 1;
      if (card <= kDevelopmentCards) l.discarded |= std::uint64_t{1} << card;
      if (size > 0) cards[size - 1] = drawer.reveal_card(cards[size - 1]);
      // Decision 49: the game ends at once when the colour is gone.
      if (colour_gone(s, *colour)) {
        finish_solo(s, EndReason::ColourGone, true);
        return;
      }
    }
    return;
  }
  move_faith(s, {}, token_cross(t));
  if (s.phase == Phase::GameOver) return;  // decision 48: no reshuffle after the end
  if (t == kReshuffleToken) {
    for (int i = 0; i < kTokens; ++i) l.tokens[i] = static_cast<std::uint8_t>(i + 1);
    drawer.shuffle(l.tokens, kTokens, &Event::tokens);
    l.revealed = 0;
  }
}

struct Executor {
  State& s;
  Seat seat;
  Drawer& drawer;

  Board& board() {
    RENAISSANCE_ASSERT(seat >= 0 && seat < s.players());
    return s.boards[seat];
  }
  // A hand leader with this id, or a hidden one (id 0) when the state is a view.
  Leader& hand_leader(std::uint8_t id) {
    Board& b = board();
    for (Leader& l : b.leaders)
      if (l.status == LeaderStatus::Hand && l.id == id) return l;
    for (Leader& l : b.leaders)
      if (l.status == LeaderStatus::Hand && l.id == 0) return l;
    RENAISSANCE_ASSERT(!"the leader is in the seat's hand");
    return b.leaders[0];
  }

  void operator()(const CreateMatch& c) { setup_match(s, c, drawer); }
  void operator()(const SkipTurn&) { pass_turn(s, drawer); }  // decisions 34 and 50
  void operator()(const AwardForfeit&) { finish_with_winner(s, EndReason::Forfeit, seat); }
  void operator()(const EndMatch&) { finish_nobody(s, EndReason::Ended); }
  void operator()(const AbandonMatch&) { finish_nobody(s, EndReason::Abandoned); }
  void operator()(const Resign&) {
    // Decision 57: the resigner loses at once; the others are ranked as at the end. The result
    // records who resigned, so that the resigner is ranked last.
    if (s.solo())
      finish_solo(s, EndReason::Resign, true);
    else
      finish_ranked(s, EndReason::Resign, static_cast<std::uint8_t>(1u << seat));
    s.result.resigned = static_cast<std::uint8_t>(1u << seat);
  }

  void operator()(const ChooseLeaders& c) {
    Board& b = board();
    for (int i = 0; i < kLeadersKept; ++i)
      b.leaders[i] = Leader{i < static_cast<int>(c.keep.size()) ? c.keep[i] : std::uint8_t{0},
                            LeaderStatus::Hand, 0};
    sort_leaders(b);
    b.leaders_chosen = true;
    maybe_start(s);
  }
  void operator()(const ChooseInitialResources& c) {
    set_layout(board(), c.layout);
    board().resources_chosen = true;
    move_player(s, seat, initial_faith(position_of(s, seat)));  // 2.2 step 5
    maybe_start(s);
  }

  void operator()(const TakeFromMarket& c) {
    Board& b = board();
    RENAISSANCE_ASSERT(c.index < (c.line == Line::Row ? kRows : kColumns));
    // Decision 2: the line as it was before the push.
    const LineMarbles line = line_marbles(s.market, c.line, c.index);
    const Gain gain = gain_of(b, line, c.white_choices);
    const int before = total(warehouse(b)) + total(gain.resources);
    push(s.market, c.line, c.index);
    // Decisions 3 and 4: the final layout; whatever it leaves out is discarded. check() filled
    // in a layout left out (decision 62).
    RENAISSANCE_ASSERT(c.layout.has_value());
    set_layout(b, c.layout.value_or(Layout{}));
    const int discarded = before - total(warehouse(b));
    s.main_action_done = true;
    // Decision 9: the red marble's batch first, then the discards' batch.
    move_player(s, seat, gain.faith);
    if (s.phase == Phase::GameOver) return;  // 6.5: the steps after the deciding one are skipped
    move_others(s, seat, discarded);
  }

  void operator()(const BuyCard& c) {
    Board& b = board();
    RENAISSANCE_ASSERT(c.level >= 1 && c.level <= kLevels && is_colour(c.colour) && c.slot < kSlots);
    const int d = deck_index(c.level, c.colour);
    auto& cards = s.grid.cards[d];
    auto& size = s.grid.size[d];
    RENAISSANCE_ASSERT(size > 0);
    const std::uint8_t card = cards[size - 1];
    RENAISSANCE_ASSERT(c.payment.has_value());  // check() filled it in (decision 62)
    pay(b, c.payment.value_or(Payment{}));
    cards[size - 1] = 0;
    size -= 1;
    if (size > 0) cards[size - 1] = drawer.reveal_card(cards[size - 1]);  // 3.4 step 5
    b.slots[c.slot][c.level - 1] = card;
    s.main_action_done = true;
    after_purchase(s, seat, c.colour);
  }

  void operator()(const Produce& c) {
    Board& b = board();
    const ProductionTotals t = production_totals(b, c);
    RENAISSANCE_ASSERT(c.payment.has_value());  // check() filled it in (decision 62)
    pay(b, c.payment.value_or(Payment{}));
    for (int r = 0; r < kResourceCount; ++r) b.strongbox[r] += t.output[r];
    s.main_action_done = true;
    move_player(s, seat, t.faith);  // one batch (3.5 step 3)
  }

  void operator()(const ActivateLeader& c) {
    Leader& l = hand_leader(c.leader);
    l = Leader{c.leader, LeaderStatus::Active, 0};
    sort_leaders(board());
  }
  void operator()(const DiscardLeader& c) {
    Leader& l = hand_leader(c.leader);
    l.status = LeaderStatus::Discarded;
    sort_leaders(board());
    move_player(s, seat, 1);  // decision 12: a batch of its own
  }
  void operator()(const ArrangeWarehouse& c) { set_layout(board(), c.layout); }
  void operator()(const EndTurn&) { pass_turn(s, drawer); }
};

}  // namespace

void pass_turn(State& s, Drawer& drawer) {
  if (s.solo()) {
    lorenzo_turn(s, drawer);  // decision 32
    if (s.phase == Phase::GameOver) return;
    s.main_action_done = false;
    s.turn += 1;
    return;
  }
  // 5.2, decision 25: the round ends with the seat before the inkwell.
  if (s.final_round && s.current == last_seat(s)) {
    finish_multiplayer(s);
    return;
  }
  s.current = static_cast<Seat>((s.current + 1) % s.players());
  s.main_action_done = false;
  s.turn += 1;
}

bool draws_or_reveals(const State& s, const Command& c) {
  return std::holds_alternative<CreateMatch>(c) || std::holds_alternative<BuyCard>(c) ||
         (s.solo() && std::holds_alternative<EndTurn>(c));
}

void execute(State& s, Seat seat, const Command& c, Drawer& drawer) {
  // Every command but create_match is made by (or for) a seat of the match.
  RENAISSANCE_ASSERT(std::holds_alternative<CreateMatch>(c) || (seat >= 0 && seat < s.players()));
  std::visit(Executor{s, seat, drawer}, c);
  s.events_applied += 1;
}

}  // namespace eryantis::renaissance::detail
