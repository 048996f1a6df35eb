// Leaders' abilities and requirements (1.4, 3.6) and the slots' stacking rule (3.4 step 3).
#include <algorithm>

#include "internal.hpp"

namespace eryantis::renaissance::detail {

namespace {

bool active_of_kind(const Leader& l, LeaderKind kind) {
  return l.status == LeaderStatus::Active && is_leader_id(l.id) && leader_card(l.id).kind == kind;
}

}  // namespace

Amounts discount(const Board& b) {
  Amounts a{};
  for (const Leader& l : b.leaders)
    if (active_of_kind(l, LeaderKind::Discount)) a[index(leader_card(l.id).resource)] += 1;
  return a;
}

Amounts cost_for(const Board& b, int card_id) {
  Amounts cost = development_card(card_id).cost;
  const Amounts off = discount(b);
  // Only where the cost names the resource, never below 0 (decision 16).
  for (int r = 0; r < kResourceCount; ++r)
    cost[r] = static_cast<std::uint8_t>(std::max(0, cost[r] - off[r]));
  return cost;
}

AtMostTwo<Resource> white_resources(const Board& b) {
  AtMostTwo<Resource> out;
  for (const Leader& l : b.leaders)
    if (active_of_kind(l, LeaderKind::WhiteMarble)) out.push_back(leader_card(l.id).resource);
  if (out.size() == 2 && out.items[1] < out.items[0]) std::swap(out.items[0], out.items[1]);
  return out;
}

bool requirement_met(const Board& b, int leader_id) {
  const LeaderCard& card = leader_card(leader_id);
  // Every card owned counts, covered ones included (decision 14).
  std::array<int, kColourCount> any_level{};
  std::array<int, kColourCount> level_two{};
  for (const auto& slot : b.slots)
    for (int level = 1; level <= kLevels; ++level)
      if (const std::uint8_t id = slot[level - 1]; id != 0) {
        const DevelopmentCard& c = development_card(id);
        any_level[index(c.colour)] += 1;
        if (c.level == 2) level_two[index(c.colour)] += 1;
      }
  for (int c = 0; c < kColourCount; ++c)
    if (any_level[c] < card.cards[c]) return false;
  if (card.level_two && level_two[index(*card.level_two)] == 0) return false;
  if (card.resources_needed > 0 &&
      resources_owned(b)[index(card.requirement_resource)] < card.resources_needed)
    return false;
  return true;
}

void sort_leaders(Board& b) {
  std::sort(b.leaders.begin(), b.leaders.end(), [](const Leader& x, const Leader& y) {
    if (x.status != y.status) return x.status < y.status;
    return x.id < y.id;
  });
}

bool slot_accepts(const Board& b, int slot, int level) {
  const auto& stack = b.slots[slot];
  if (level == 1) return stack[0] == 0;
  // Level L onto a top of level L - 1 (a full slot takes nothing).
  return stack[level - 2] != 0 && stack[level - 1] == 0;
}

AtMostTwo<std::uint8_t> production_leaders(const Board& b) {
  AtMostTwo<std::uint8_t> out;
  for (const Leader& l : b.leaders)
    if (active_of_kind(l, LeaderKind::Production)) out.push_back(l.id);
  if (out.size() == 2 && out.items[1] < out.items[0]) std::swap(out.items[0], out.items[1]);
  return out;
}

}  // namespace eryantis::renaissance::detail
