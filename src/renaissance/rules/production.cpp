// Production (3.5): the totals of a set of powers. Inputs are paid from what the player owned
// before the action; outputs go to the strongbox; faith moves as one batch.
#include "internal.hpp"

namespace eryantis::renaissance::detail {

ProductionTotals production_totals(const Board& b, const Produce& p) {
  ProductionTotals t;
  if (p.base) {
    for (Resource r : p.base->inputs)
      if (is_resource(r)) t.input[index(r)] += 1;
    if (is_resource(p.base->output)) t.output[index(p.base->output)] += 1;
  }
  for (std::uint8_t slot : p.slots) {
    if (slot >= kSlots) continue;
    const std::uint8_t top = slot_top(b, slot);
    if (!is_card_id(top)) continue;
    const DevelopmentCard& c = development_card(top);
    for (int r = 0; r < kResourceCount; ++r) {
      t.input[r] += c.input[r];
      t.output[r] += c.output[r];
    }
    t.faith += c.faith;
  }
  for (const LeaderProduction& l : p.leaders) {
    if (!is_leader_id(l.leader)) continue;
    // 1 of the leader's resource -> 1 of the player's choice + 1 faith.
    t.input[index(leader_card(l.leader).resource)] += 1;
    if (is_resource(l.output)) t.output[index(l.output)] += 1;
    t.faith += 1;
  }
  return t;
}

}  // namespace eryantis::renaissance::detail
