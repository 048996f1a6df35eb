// Fields a client may leave out (decision 62): a market command's layout (keep everything) and a
// payment (warehouse first). check() fills them in before it records the event, so stored events,
// replays and viewers' folds only ever see explicit commands.
#include "eryantis/renaissance/rules/assert.hpp"
#include "internal.hpp"

namespace eryantis::renaissance::detail {

Amounts price_of(const State& s, Seat seat, const Command& c) {
  const Board& b = s.boards[seat];
  if (const auto* buy = std::get_if<BuyCard>(&c))
    return cost_for(b, s.grid.top(deck_index(buy->level, buy->colour)));
  if (const auto* produce = std::get_if<Produce>(&c)) return production_totals(b, *produce).input;
  return Amounts{};
}

bool lacks_defaults(const Command& c) {
  if (const auto* market = std::get_if<TakeFromMarket>(&c)) return !market->layout;
  if (const auto* buy = std::get_if<BuyCard>(&c)) return !buy->payment;
  if (const auto* produce = std::get_if<Produce>(&c)) return !produce->payment;
  return false;
}

Command with_defaults(const State& s, Seat seat, const Command& c) {
  if (const auto* market = std::get_if<TakeFromMarket>(&c); market != nullptr && !market->layout) {
    TakeFromMarket out = *market;
    out.layout = market_layout(s.boards[seat], s.market, *market);
    RENAISSANCE_ASSERT(out.layout.has_value());  // validate() refused it otherwise
    return out;
  }
  if (const auto* buy = std::get_if<BuyCard>(&c); buy != nullptr && !buy->payment) {
    BuyCard out = *buy;
    out.payment = payment_for(s.boards[seat], price_of(s, seat, c));
    return out;
  }
  if (const auto* produce = std::get_if<Produce>(&c); produce != nullptr && !produce->payment) {
    Produce out = *produce;
    out.payment = payment_for(s.boards[seat], price_of(s, seat, c));
    return out;
  }
  return c;
}

}  // namespace eryantis::renaissance::detail
