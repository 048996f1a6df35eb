// The canonical spelling of a command (decision 58): what legal_commands lists. Each rewrite
// keeps check's verdict: a payment's split and a layout's arrangement are replaced only when they
// are feasible, by the canonical one of the same totals or content.
#include <algorithm>

#include "internal.hpp"

namespace eryantis::renaissance {

namespace {

Payment canonical_payment(const Board& b, const Payment& p) {
  if (!detail::payment_feasible(b, p)) return p;
  return detail::payment_for(b, detail::payment_totals(p));
}

// A legal layout becomes the canonical layout of its content; an illegal one stays as it is.
Layout by_content(const Board& b, const Layout& l) {
  if (detail::layout_error(b, l)) return l;
  return detail::layout_for(b, detail::layout_content(l)).value_or(l);
}

struct Canonical {
  const Board& b;
  Command operator()(const ChooseLeaders& c) const {
    ChooseLeaders out = c;
    std::sort(out.keep.begin(), out.keep.end());
    return out;
  }
  Command operator()(const ChooseInitialResources& c) const {
    return ChooseInitialResources{by_content(b, c.layout)};
  }
  Command operator()(const TakeFromMarket& c) const {
    TakeFromMarket out = c;
    out.white_choices = detail::sorted_choices(c.white_choices);
    if (out.layout) out.layout = by_content(b, *c.layout);
    return out;
  }
  Command operator()(const BuyCard& c) const {
    BuyCard out = c;
    if (out.payment) out.payment = canonical_payment(b, *c.payment);
    return out;
  }
  Command operator()(const Produce& c) const {
    Produce out = c;
    if (out.base) std::sort(out.base->inputs.begin(), out.base->inputs.end());
    std::sort(out.slots.begin(), out.slots.end());
    std::stable_sort(out.leaders.begin(), out.leaders.end(),
                     [](const LeaderProduction& x, const LeaderProduction& y) {
                       return x.leader < y.leader;
                     });
    if (out.payment) out.payment = canonical_payment(b, *c.payment);
    return out;
  }
  Command operator()(const ArrangeWarehouse& c) const {
    if (detail::layout_error(b, c.layout)) return c;
    return ArrangeWarehouse{detail::spelled(b, c.layout)};
  }
  template <class T>
  Command operator()(const T& c) const {
    return c;
  }
};

}  // namespace

namespace detail {
std::vector<Resource> sorted_choices(std::span<const Resource> choices) {
  std::vector<Resource> out(choices.begin(), choices.end());
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace detail

Command canonical_command(const State& s, Seat seat, const Command& c) {
  if (s.events_applied == 0 || seat < 0 || seat >= s.players()) return c;
  // Decision 62: a layout or payment left out means the canonical one, once check accepts it.
  if (detail::lacks_defaults(c)) {
    if (detail::validate(s, seat, c, Authority::Player)) return c;
    return std::visit(Canonical{s.boards[seat]}, detail::with_defaults(s, seat, c));
  }
  return std::visit(Canonical{s.boards[seat]}, c);
}

}  // namespace eryantis::renaissance
