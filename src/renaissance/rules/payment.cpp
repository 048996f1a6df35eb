// Payments (3.4 step 4, 3.5 step 1, decision 17): the player names, per type, how much comes from
// the basic depot of that type, the leader depot of that type and the strongbox.
#include <algorithm>

#include "internal.hpp"

namespace eryantis::renaissance::detail {

namespace {

int depot_holding(const Board& b, Resource r) {
  for (const Depot& d : b.depots)
    if (d.count > 0 && d.type == r) return d.count;
  return 0;
}

int leader_holding(const Board& b, Resource r) {
  const Leader* l = depot_leader(b, r);
  return l != nullptr ? l->stored : 0;
}

}  // namespace

Amounts payment_totals(const Payment& p) {
  Amounts a{};
  for (int r = 0; r < kResourceCount; ++r)
    a[r] = static_cast<std::uint8_t>(std::min(p[r].total(), 255));
  return a;
}

bool payment_feasible(const Board& b, const Payment& p) {
  for (Resource r : kAllResources) {
    const Take& t = p[index(r)];
    if (t.depot > depot_holding(b, r) || t.leader > leader_holding(b, r) ||
        t.strongbox > b.strongbox[index(r)])
      return false;
  }
  return true;
}

std::optional<RuleError> payment_error(const Board& b, const Amounts& due, const Payment& p) {
  for (Resource r : kAllResources)
    if (p[index(r)].total() != due[index(r)])
      return err(RuleCode::PaymentMismatch,
                 "The price includes " + std::to_string(due[index(r)]) + " " +
                     std::string(resource_name(r)) + " and your payment names " +
                     std::to_string(p[index(r)].total()) +
                     "; pay exactly the price, split as you like between your depot, leader "
                     "depot and strongbox.");
  for (Resource r : kAllResources) {
    const Take& t = p[index(r)];
    const std::string name(resource_name(r));
    if (t.depot > depot_holding(b, r))
      return err(RuleCode::PaymentSourceShort,
                 "Your basic depots hold " + std::to_string(depot_holding(b, r)) + " " + name +
                     " and the payment takes " + std::to_string(t.depot) +
                     " from there; take the rest from another source.");
    if (t.leader > leader_holding(b, r))
      return err(RuleCode::PaymentSourceShort,
                 "Your leader depots hold " + std::to_string(leader_holding(b, r)) + " " + name +
                     " and the payment takes " + std::to_string(t.leader) +
                     " from there; take the rest from another source.");
    if (t.strongbox > b.strongbox[index(r)])
      return err(RuleCode::PaymentSourceShort,
                 "Your strongbox holds " + std::to_string(b.strongbox[index(r)]) + " " + name +
                     " and the payment takes " + std::to_string(t.strongbox) +
                     " from there; take the rest from another source.");
  }
  return std::nullopt;
}

std::optional<RuleError> payment_error(const Board& b, const Amounts& due,
                                       const std::optional<Payment>& p) {
  if (p) return payment_error(b, due, *p);
  const auto owned = resources_owned(b);
  for (Resource r : kAllResources)
    if (owned[index(r)] < due[index(r)])
      return err(RuleCode::PaymentSourceShort,
                 "The price includes " + std::to_string(due[index(r)]) + " " +
                     std::string(resource_name(r)) + " and you own " +
                     std::to_string(owned[index(r)]) +
                     " in your depots, leader depots and strongbox; gather more first.");
  return std::nullopt;
}

bool affordable(const Board& b, const Amounts& due) {
  const auto owned = resources_owned(b);
  for (int r = 0; r < kResourceCount; ++r)
    if (owned[r] < due[r]) return false;
  return true;
}

Payment payment_for(const Board& b, const Amounts& due) {
  Payment p{};
  for (Resource r : kAllResources) {
    int left = due[index(r)];
    Take& t = p[index(r)];
    t.depot = static_cast<std::uint8_t>(std::min(left, depot_holding(b, r)));
    left -= t.depot;
    t.leader = static_cast<std::uint8_t>(std::min(left, leader_holding(b, r)));
    left -= t.leader;
    t.strongbox = static_cast<std::uint8_t>(left);
  }
  return p;
}

void pay(Board& b, const Payment& p) {
  for (Resource r : kAllResources) {
    const Take& t = p[index(r)];
    if (t.depot > 0)
      for (Depot& d : b.depots)
        if (d.count > 0 && d.type == r) {
          d.count = static_cast<std::uint8_t>(d.count - std::min<int>(t.depot, d.count));
          if (d.count == 0) d.type.reset();
        }
    if (t.leader > 0)
      if (Leader* l = depot_leader(b, r); l != nullptr)
        l->stored = static_cast<std::uint8_t>(l->stored - std::min<int>(t.leader, l->stored));
    b.strongbox[index(r)] -= std::min<std::uint32_t>(t.strongbox, b.strongbox[index(r)]);
  }
}

}  // namespace eryantis::renaissance::detail
