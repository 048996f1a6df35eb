// Warehouse layouts (3.3, 9.2): legality, contents, the canonical layout of a content and every
// layout of one.
#include <algorithm>

#include "internal.hpp"

namespace eryantis::renaissance::detail {

namespace {

std::string depot_name(int i) {
  return "depot " + std::to_string(i + 1);
}

bool depot_leader_card(int id) {
  return is_leader_id(id) && leader_card(id).kind == LeaderKind::ExtraDepot;
}

}  // namespace

const Leader* depot_leader(const Board& b, Resource r) {
  for (const Leader& l : b.leaders)
    if (l.status == LeaderStatus::Active && depot_leader_card(l.id) &&
        leader_card(l.id).resource == r)
      return &l;
  return nullptr;
}

Leader* depot_leader(Board& b, Resource r) {
  return const_cast<Leader*>(depot_leader(static_cast<const Board&>(b), r));
}

int leader_depot_capacity(const Board& b, Resource r) {
  return depot_leader(b, r) != nullptr ? kLeaderDepotCapacity : 0;
}

bool is_active_depot_leader(const Board& b, int id) {
  return depot_leader_card(id) && leader_active(b, id);
}

std::optional<RuleError> layout_error(const Board& b, const Layout& l) {
  // Rule by rule, not depot by depot (decision 44).
  for (int i = 0; i < kBasicDepots; ++i)
    if (l.depots[i].count > depot_capacity(i))
      return err(RuleCode::DepotOverCapacity,
                 depot_name(i) + " holds at most " + std::to_string(depot_capacity(i)) +
                     " resource(s); put the rest in a larger depot or leave it out.");
  for (int i = 0; i < kBasicDepots; ++i) {
    const Depot& d = l.depots[i];
    if (d.count > 0 && (!d.type || !is_resource(*d.type)))
      return err(RuleCode::DepotNeedsType,
                 depot_name(i) +
                     " holds resources but no resource type; name coin, servant, shield or stone.");
  }
  for (int i = 0; i < kBasicDepots; ++i)
    for (int j = i + 1; j < kBasicDepots; ++j)
      if (l.depots[i].count > 0 && l.depots[j].count > 0 && l.depots[i].type == l.depots[j].type)
        return err(RuleCode::DuplicateDepotType,
                   depot_name(i) + " and " + depot_name(j) + " both hold " +
                       std::string(resource_name(*l.depots[i].type)) +
                       "; two basic depots never hold the same type.");
  for (int id = 1; id <= kLeaders; ++id)
    if (l.leader_depots[id - 1] && !is_active_depot_leader(b, id))
      return err(RuleCode::LeaderDepotNotActive,
                 std::string(leader_name(id)) +
                     " is not one of your active extra-depot leaders; leave it out of the layout.");
  for (int id = 1; id <= kLeaders; ++id)
    if (l.leader_depots[id - 1] && *l.leader_depots[id - 1] > kLeaderDepotCapacity)
      return err(RuleCode::LeaderDepotOverCapacity,
                 "The depot of " + std::string(leader_name(id)) + " holds at most 2.");
  return std::nullopt;
}

Amounts layout_content(const Layout& l) {
  Amounts a{};
  for (const Depot& d : l.depots)
    if (d.count > 0 && d.type && is_resource(*d.type)) a[index(*d.type)] += d.count;
  for (int id = 1; id <= kLeaders; ++id)
    if (l.leader_depots[id - 1] && depot_leader_card(id))
      a[index(leader_card(id).resource)] += *l.leader_depots[id - 1];
  return a;
}

int layout_size(const Layout& l) {
  int n = 0;
  for (const Depot& d : l.depots) n += d.count;
  for (const auto& entry : l.leader_depots) n += entry.value_or(0);
  return n;
}

std::optional<Layout> layout_for(const Board& b, const Amounts& content) {
  Layout l;
  std::array<int, kResourceCount> residual{};
  for (Resource r : kAllResources) {
    const int want = content[index(r)];
    int lead = 0;
    if (const Leader* leader = depot_leader(b, r); leader != nullptr) {
      lead = std::min(want, kLeaderDepotCapacity);
      if (lead > 0) l.leader_depots[leader->id - 1] = static_cast<std::uint8_t>(lead);
    }
    residual[index(r)] = want - lead;
  }
  // Smaller amounts into smaller depots (ties in resource order): succeeds whenever any
  // assignment does (the i-th largest amount fits the i-th largest depot).
  std::array<Resource, kResourceCount> order = kAllResources;
  std::stable_sort(order.begin(), order.end(), [&](Resource x, Resource y) {
    return residual[index(x)] < residual[index(y)];
  });
  std::array<bool, kBasicDepots> used{};
  for (Resource r : order) {
    const int n = residual[index(r)];
    if (n == 0) continue;
    int depot = -1;
    for (int i = 0; i < kBasicDepots && depot < 0; ++i)
      if (!used[i] && depot_capacity(i) >= n) depot = i;
    if (depot < 0) return std::nullopt;
    used[depot] = true;
    l.depots[depot] = Depot{r, static_cast<std::uint8_t>(n)};
  }
  return l;
}

bool fits(const Board& b, const Amounts& content) {
  return layout_for(b, content).has_value();
}

std::vector<Layout> layouts_of(const Board& b, const Amounts& content) {
  std::vector<Layout> out;
  Layout l;
  std::array<int, kResourceCount> residual{};
  // Assign the residual of types r.. to free depots.
  std::array<bool, kBasicDepots> used{};
  auto assign = [&](auto&& self, int r) -> void {
    if (r == kResourceCount) {
      out.push_back(l);
      return;
    }
    const int n = residual[r];
    if (n == 0) {
      self(self, r + 1);
      return;
    }
    for (int i = 0; i < kBasicDepots; ++i) {
      if (used[i] || depot_capacity(i) < n) continue;
      used[i] = true;
      l.depots[i] = Depot{static_cast<Resource>(r), static_cast<std::uint8_t>(n)};
      self(self, r + 1);
      l.depots[i] = Depot{};
      used[i] = false;
    }
  };
  // Choose how much of each type its leader depot holds, then place the rest.
  auto lead = [&](auto&& self, int r) -> void {
    if (r == kResourceCount) {
      assign(assign, 0);
      return;
    }
    const int want = content[r];
    const Leader* leader = depot_leader(b, static_cast<Resource>(r));
    if (leader == nullptr) {
      residual[r] = want;
      self(self, r + 1);
      return;
    }
    for (int x = 0; x <= std::min(want, kLeaderDepotCapacity); ++x) {
      residual[r] = want - x;
      if (x > 0) l.leader_depots[leader->id - 1] = static_cast<std::uint8_t>(x);
      else l.leader_depots[leader->id - 1].reset();
      self(self, r + 1);
    }
    l.leader_depots[leader->id - 1].reset();
  };
  lead(lead, 0);
  return out;
}

Layout spelled(const Board& b, const Layout& l) {
  Layout out = l;
  for (Depot& d : out.depots)
    if (d.count == 0) d.type.reset();
  for (int id = 1; id <= kLeaders; ++id)
    if (out.leader_depots[id - 1] == 0 && is_active_depot_leader(b, id))
      out.leader_depots[id - 1].reset();
  return out;
}

Layout layout_of(const Board& b) {
  Layout l;
  l.depots = b.depots;
  for (const Leader& leader : b.leaders)
    if (leader.status == LeaderStatus::Active && leader.stored > 0 && depot_leader_card(leader.id))
      l.leader_depots[leader.id - 1] = leader.stored;
  return l;
}

void set_layout(Board& b, const Layout& l) {
  for (int i = 0; i < kBasicDepots; ++i) {
    const Depot& d = l.depots[i];
    b.depots[i] = d.count > 0 ? d : Depot{};
  }
  for (Leader& leader : b.leaders)
    if (leader.status == LeaderStatus::Active && depot_leader_card(leader.id))
      leader.stored = l.leader_depots[leader.id - 1].value_or(0);
}

}  // namespace eryantis::renaissance::detail
