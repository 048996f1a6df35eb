#include "candidates.hpp"

#include <algorithm>

namespace eryantis::renaissance::testing {

namespace {

using Rng = std::mt19937_64;

int below(Rng& rng, int n) {
  return static_cast<int>(rng() % static_cast<std::uint64_t>(n));
}
bool one_in(Rng& rng, int n) {
  return below(rng, n) == 0;
}
std::uint8_t u8(int v) {
  return static_cast<std::uint8_t>(v);
}

// Mostly a resource; sometimes "faith" (4) or an unknown name (9).
Resource any_name(Rng& rng) {
  const int r = below(rng, 12);
  return r < 10 ? static_cast<Resource>(r % 4) : r == 10 ? kFaithName : static_cast<Resource>(9);
}

Layout random_layout(Rng& rng) {
  Layout l;
  for (int i = 0; i < kBasicDepots; ++i) {
    const int count = one_in(rng, 3) ? 0 : below(rng, i + 2 + (one_in(rng, 6) ? 2 : 0));
    l.depots[i].count = u8(count);
    if (count > 0 || one_in(rng, 4)) l.depots[i].type = any_name(rng);
  }
  if (one_in(rng, 4)) l.leader_depots[below(rng, kLeaders)] = u8(below(rng, 4));
  return l;
}

Layout mutate_layout(const Layout& original, Rng& rng) {
  Layout l = original;
  switch (below(rng, 9)) {
    case 0:
      std::swap(l.depots[below(rng, 3)], l.depots[below(rng, 3)]);
      break;
    case 1: {  // a unit from one depot to another of the same type or an empty one
      const int a = below(rng, 3), b = below(rng, 3);
      if (l.depots[a].count > 0 && a != b && (l.depots[b].count == 0 || l.depots[b].type == l.depots[a].type)) {
        l.depots[b].type = l.depots[a].type;
        l.depots[b].count += 1;
        l.depots[a].count -= 1;
      }
      break;
    }
    case 2: {
      Depot& d = l.depots[below(rng, 3)];
      d.count = u8(std::max(0, d.count + (one_in(rng, 2) ? 1 : -1)));
      if (d.count > 0 && !d.type) d.type = any_name(rng);
      break;
    }
    case 3:  // a type on an empty depot (decision 45)
      for (Depot& d : l.depots)
        if (d.count == 0) {
          d.type = any_name(rng);
          break;
        }
      break;
    case 4: {  // a zero entry, or one removed (decision 46)
      const int id = 5 + below(rng, 4);
      if (l.leader_depots[id - 1]) l.leader_depots[id - 1].reset();
      else l.leader_depots[id - 1] = 0;
      break;
    }
    case 5: {  // a unit between a basic depot and a leader depot of its type
      const int id = 5 + below(rng, 4);
      const Resource r = leader_card(id).resource;
      for (Depot& d : l.depots)
        if (d.count > 0 && d.type == r) {
          if (one_in(rng, 2) && l.leader_depots[id - 1].value_or(0) > 0) {
            l.leader_depots[id - 1] = u8(*l.leader_depots[id - 1] - 1);
            d.count += 1;
          } else {
            l.leader_depots[id - 1] = u8(l.leader_depots[id - 1].value_or(0) + 1);
            d.count -= 1;
            if (d.count == 0 && one_in(rng, 2)) d.type.reset();
          }
          break;
        }
      break;
    }
    case 6:
      l.depots[below(rng, 3)].type = any_name(rng);
      break;
    case 7:
      l.leader_depots[below(rng, kLeaders)] = u8(below(rng, 3));
      break;
    default:
      return random_layout(rng);
  }
  return l;
}

// Another split of the same totals, or a slightly different payment.
Payment mutate_payment(const Payment& original, Rng& rng) {
  Payment p = original;
  Take& t = p[below(rng, kResourceCount)];
  const int n = t.total();
  switch (below(rng, 4)) {
    case 0:
    case 1: {
      const int d = below(rng, n + 1);
      const int l = below(rng, n - d + 1);
      t = Take{u8(d), u8(l), u8(n - d - l)};
      break;
    }
    case 2:
      t.strongbox += 1;
      break;
    default:
      if (t.depot > 0) {
        t.depot -= 1;
        t.strongbox += 1;
      } else if (t.strongbox > 0) {
        t.strongbox -= 1;
        t.depot += 1;
      }
  }
  return p;
}

Payment random_payment(Rng& rng) {
  Payment p{};
  for (Take& t : p)
    if (one_in(rng, 2)) t = Take{u8(below(rng, 3)), u8(below(rng, 2)), u8(below(rng, 4))};
  return p;
}

Command mutate(const Command& c, Rng& rng) {
  return std::visit(
      [&](auto x) -> Command {
        using T = decltype(x);
        if constexpr (std::is_same_v<T, ChooseLeaders>) {
          switch (below(rng, 4)) {
            case 0:
              std::reverse(x.keep.begin(), x.keep.end());
              break;
            case 1:
              if (!x.keep.empty()) x.keep[below(rng, static_cast<int>(x.keep.size()))] = u8(below(rng, 18));
              break;
            case 2:
              x.keep.push_back(u8(below(rng, 17)));
              break;
            default:
              if (!x.keep.empty()) x.keep.pop_back();
          }
        } else if constexpr (std::is_same_v<T, ChooseInitialResources> ||
                             std::is_same_v<T, ArrangeWarehouse>) {
          x.layout = mutate_layout(x.layout, rng);
        } else if constexpr (std::is_same_v<T, TakeFromMarket>) {
          switch (below(rng, 7)) {
            case 0:
            case 1:
              if (x.layout) x.layout = mutate_layout(*x.layout, rng);
              break;
            case 6:  // keep everything (decision 62)
              x.layout.reset();
              break;
            case 2:
              std::reverse(x.white_choices.begin(), x.white_choices.end());
              break;
            case 3:
              if (!x.white_choices.empty())
                x.white_choices[below(rng, static_cast<int>(x.white_choices.size()))] = any_name(rng);
              else
                x.white_choices.push_back(any_name(rng));
              break;
            case 4:
              x.index = u8(below(rng, 5));
              break;
            default:
              x.line = static_cast<Line>(below(rng, 3));
          }
        } else if constexpr (std::is_same_v<T, BuyCard>) {
          switch (below(rng, 6)) {
            case 0:
            case 1:
              if (x.payment) x.payment = mutate_payment(*x.payment, rng);
              break;
            case 5:  // warehouse first (decision 62)
              x.payment.reset();
              break;
            case 2:
              x.slot = u8(below(rng, 4));
              break;
            case 3:
              x.level = u8(below(rng, 5));
              break;
            default:
              x.colour = static_cast<Colour>(below(rng, 5));
          }
        } else if constexpr (std::is_same_v<T, Produce>) {
          switch (below(rng, 8)) {
            case 0:
            case 1:
              if (x.payment) x.payment = mutate_payment(*x.payment, rng);
              break;
            case 7:  // warehouse first (decision 62)
              x.payment.reset();
              break;
            case 2:
              std::shuffle(x.slots.begin(), x.slots.end(), rng);
              std::shuffle(x.leaders.begin(), x.leaders.end(), rng);
              if (x.base) std::swap(x.base->inputs[0], x.base->inputs[1]);
              break;
            case 3:
              if (x.base) x.base->output = any_name(rng);
              else if (!x.leaders.empty()) x.leaders[0].output = any_name(rng);
              break;
            case 4:
              x.slots.push_back(u8(below(rng, 5)));
              break;
            case 5:
              if (!x.slots.empty()) x.slots.pop_back();
              else x.base.reset();
              break;
            default:
              x.leaders.push_back(LeaderProduction{u8(below(rng, 18)), any_name(rng)});
          }
        } else if constexpr (std::is_same_v<T, ActivateLeader> || std::is_same_v<T, DiscardLeader>) {
          x.leader = u8(below(rng, 18));
        }
        return x;
      },
      c);
}

}  // namespace

Command random_command(Rng& rng) {
  switch (below(rng, 11)) {
    case 0: {
      ChooseLeaders c;
      const int n = below(rng, 4);
      for (int i = 0; i < n; ++i) c.keep.push_back(u8(below(rng, 18)));
      return c;
    }
    case 1:
      return ChooseInitialResources{random_layout(rng)};
    case 2: {
      TakeFromMarket c;
      c.line = static_cast<Line>(below(rng, 2));
      c.index = u8(below(rng, 5));
      const int n = one_in(rng, 3) ? below(rng, 4) : 0;
      for (int i = 0; i < n; ++i) c.white_choices.push_back(any_name(rng));
      if (!one_in(rng, 4)) c.layout = random_layout(rng);
      return c;
    }
    case 3: {
      BuyCard c{u8(below(rng, 5)), static_cast<Colour>(below(rng, 4)), u8(below(rng, 4)), {}};
      if (!one_in(rng, 4)) c.payment = random_payment(rng);
      return c;
    }
    case 4: {
      Produce c;
      if (one_in(rng, 2)) c.base = BaseProduction{{any_name(rng), any_name(rng)}, any_name(rng)};
      const int n = below(rng, 3);
      for (int i = 0; i < n; ++i) c.slots.push_back(u8(below(rng, 4)));
      if (one_in(rng, 4)) c.leaders.push_back(LeaderProduction{u8(13 + below(rng, 5)), any_name(rng)});
      if (!one_in(rng, 4)) c.payment = random_payment(rng);
      return c;
    }
    case 5:
      return ActivateLeader{u8(below(rng, 18))};
    case 6:
      return DiscardLeader{u8(below(rng, 18))};
    case 7:
      return ArrangeWarehouse{random_layout(rng)};
    case 8:
      return EndTurn{};
    case 9:
      return SkipTurn{};
    default:
      return AwardForfeit{};
  }
}

std::vector<Command> candidates(const State& s, Seat seat, const std::vector<Command>& legal,
                                Rng& rng, int count) {
  (void)s;
  (void)seat;
  std::vector<Command> out;
  out.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    if (!legal.empty() && !one_in(rng, 4)) {
      Command c = legal[rng() % legal.size()];
      const int rounds = 1 + below(rng, 2);
      for (int k = 0; k < rounds; ++k) c = mutate(c, rng);
      out.push_back(std::move(c));
    } else {
      out.push_back(random_command(rng));
    }
  }
  return out;
}

}  // namespace eryantis::renaissance::testing
