// Every command a seat may send now, each once in its canonical spelling (decision 58). check()
// accepts a command exactly when its canonical_command is listed here: the property tests hold
// the two to that at every state of thousands of random games, so bots, fuzzers and client hints
// can rely on it. The one exception is `resign`: always accepted once play started and never
// listed, so nothing that picks from this list resigns by chance (decision 57).
#include <algorithm>
#include <utility>
#include <vector>

#include "internal.hpp"

namespace eryantis::renaissance {

namespace {

using detail::layout_for;

// All: legal_commands. Search: search_commands (hooks.hpp), the few worth a computer's search.
enum class Listing { All, Search };

// Every content of the warehouse that is at most `avail` of each type and fits a legal layout,
// in its canonical layout: out(content, layout), contents in lexicographic order.
template <class F>
void each_content(const Board& b, const Amounts& avail, F&& out) {
  Amounts k{};
  auto rec = [&](auto&& self, int r) -> void {
    if (r == kResourceCount) {
      if (auto l = layout_for(b, k)) out(k, *l);
      return;
    }
    const int most = std::min<int>(avail[r], depot_capacity(kBasicDepots - 1) +
                                                 detail::leader_depot_capacity(b, static_cast<Resource>(r)));
    for (int n = 0; n <= most; ++n) {
      k[r] = static_cast<std::uint8_t>(n);
      self(self, r + 1);
    }
    k[r] = 0;
  };
  rec(rec, 0);
}

// The content keeping the most of `avail` that fits a legal layout, in its canonical layout (the
// first such in each_content's order among equals): totals are tried from the largest down, so
// the usual full-warehouse case asks layout_for a few times instead of hundreds.
std::optional<Layout> fullest_content(const Board& b, const Amounts& avail) {
  std::array<int, kResourceCount> most{};
  int top = 0;
  for (int r = 0; r < kResourceCount; ++r) {
    most[r] = std::min<int>(avail[r], depot_capacity(kBasicDepots - 1) +
                                          detail::leader_depot_capacity(b, static_cast<Resource>(r)));
    top += most[r];
  }
  for (int goal = top; goal >= 0; --goal) {
    Amounts k{};
    std::optional<Layout> found;
    auto rec = [&](auto&& self, int r, int left) -> void {
      if (found) return;
      if (r == kResourceCount) {
        if (left == 0) found = layout_for(b, k);
        return;
      }
      int rest = 0;  // the most the later types can still hold
      for (int q = r + 1; q < kResourceCount; ++q) rest += most[q];
      for (int n = std::max(0, left - rest); n <= std::min(most[r], left) && !found; ++n) {
        k[r] = static_cast<std::uint8_t>(n);
        self(self, r + 1, left - n);
      }
      k[r] = 0;
    };
    rec(rec, 0, goal);
    if (found) return found;
  }
  return std::nullopt;
}

// `passes` (Search only) gets the lines that would give nothing at all (only white marbles and
// no white-marble leader): see search_commands.
void market_commands(const Board& b, const Market& market, Listing listing,
                     std::vector<Command>& out, std::vector<Command>* passes = nullptr) {
  const auto whites = detail::white_resources(b);
  const Amounts have = warehouse(b);
  // All: the warehouse contents that fit depend on the board alone, not on the line. They are
  // found once, up to the most any line makes available, and each line keeps those within its
  // own (in the same order, so the list is what each_content per line gives): 7 lines asked
  // layout_for up to 7 times as often.
  struct Offer {
    Line line;
    std::uint8_t index;
    std::vector<Resource> choices;
    Amounts avail;
  };
  std::vector<Offer> offers;
  for (int kind = 0; kind < kLineKinds; ++kind) {
    const Line line = static_cast<Line>(kind);
    const int lines = line == Line::Row ? kRows : kColumns;
    for (int i = 0; i < lines; ++i) {
      const detail::LineMarbles marbles = detail::line_marbles(market, line, i);
      const int w = detail::whites_in(marbles);
      // With two white-marble leaders, one list per number of whites given to the first
      // resource, sorted (decision 58); otherwise no list.
      std::vector<std::vector<Resource>> choice_lists;
      if (whites.size() == 2) {
        for (int first = w; first >= 0; --first) {
          std::vector<Resource> choices(static_cast<std::size_t>(first), whites[0]);
          choices.insert(choices.end(), static_cast<std::size_t>(w - first), whites[1]);
          choice_lists.push_back(std::move(choices));
        }
      } else {
        choice_lists.emplace_back();
      }
      for (const auto& choices : choice_lists) {
        const detail::Gain gain = detail::gain_of(b, marbles, choices);
        Amounts avail{};
        for (int r = 0; r < kResourceCount; ++r)
          avail[r] = static_cast<std::uint8_t>(have[r] + gain.resources[r]);
        if (listing == Listing::Search) {
          const bool nothing = gain.faith == 0 && total(gain.resources) == 0;
          if (auto layout = fullest_content(b, avail))
            (nothing && passes ? *passes : out)
                .push_back(TakeFromMarket{line, static_cast<std::uint8_t>(i), choices, *layout});
          continue;
        }
        offers.push_back(Offer{line, static_cast<std::uint8_t>(i), choices, avail});
      }
    }
  }
  if (offers.empty()) return;
  Amounts most{};
  for (const Offer& o : offers)
    for (int r = 0; r < kResourceCount; ++r) most[r] = std::max(most[r], o.avail[r]);
  std::vector<std::pair<Amounts, Layout>> fitting;
  each_content(b, most, [&](const Amounts& k, const Layout& l) { fitting.emplace_back(k, l); });
  for (const Offer& o : offers)
    for (const auto& [k, layout] : fitting) {
      bool within = true;
      for (int r = 0; r < kResourceCount; ++r) within = within && k[r] <= o.avail[r];
      if (within) out.push_back(TakeFromMarket{o.line, o.index, o.choices, layout});
    }
}

void buy_commands(const State& s, const Board& b, std::vector<Command>& out) {
  for (int level = 1; level <= kLevels; ++level)
    for (Colour colour : kAllColours) {
      const std::uint8_t top = s.grid.top(deck_index(level, colour));
      if (!is_card_id(top)) continue;
      const Amounts cost = detail::cost_for(b, top);
      if (!detail::affordable(b, cost)) continue;
      for (int slot = 0; slot < kSlots; ++slot)
        if (detail::slot_accepts(b, slot, level))
          out.push_back(BuyCard{static_cast<std::uint8_t>(level), colour,
                                static_cast<std::uint8_t>(slot), detail::payment_for(b, cost)});
    }
}

void produce_commands(const Board& b, Listing listing, std::vector<Command>& out) {
  std::vector<std::uint8_t> slots;
  for (int slot = 0; slot < kSlots; ++slot)
    if (slot_top(b, slot) != 0) slots.push_back(static_cast<std::uint8_t>(slot));
  const auto leaders = detail::production_leaders(b);
  // The base production's choices: input pairs sorted (decision 58), any output.
  std::vector<std::optional<BaseProduction>> bases{std::nullopt};
  for (int a = 0; a < kResourceCount; ++a)
    for (int c = a; c < kResourceCount; ++c)
      for (Resource o : kAllResources)
        bases.push_back(BaseProduction{{static_cast<Resource>(a), static_cast<Resource>(c)}, o});

  for (unsigned smask = 0; smask < (1u << slots.size()); ++smask) {
    std::vector<std::uint8_t> chosen;
    Amounts fixed{};
    for (std::size_t i = 0; i < slots.size(); ++i)
      if (smask & (1u << i)) {
        chosen.push_back(slots[i]);
        const DevelopmentCard& c = development_card(slot_top(b, slots[i]));
        for (int r = 0; r < kResourceCount; ++r) fixed[r] += c.input[r];
      }
    for (unsigned lmask = 0; lmask < (1u << leaders.size()); ++lmask) {
      std::vector<std::uint8_t> used;
      Amounts with_leaders = fixed;
      for (std::size_t i = 0; i < leaders.size(); ++i)
        if (lmask & (1u << i)) {
          used.push_back(leaders[i]);
          with_leaders[index(leader_card(leaders[i]).resource)] += 1;
        }
      std::array<bool, kResourceCount> output_listed{};  // Search: per base output, one pair
      for (const auto& base : bases) {
        if (!base && chosen.empty() && used.empty()) continue;
        if (listing == Listing::Search && base && output_listed[index(base->output)]) continue;
        Amounts input = with_leaders;
        if (base)
          for (Resource r : base->inputs) input[index(r)] += 1;
        if (!detail::affordable(b, input)) continue;
        if (listing == Listing::Search && base) output_listed[index(base->output)] = true;
        const Payment payment = detail::payment_for(b, input);
        // Every output choice of the leaders used (4 each).
        std::vector<LeaderProduction> productions(used.size());
        for (std::size_t i = 0; i < used.size(); ++i) productions[i].leader = used[i];
        auto outputs = [&](auto&& self, std::size_t i) -> void {
          if (i == used.size()) {
            out.push_back(Produce{base, chosen, productions, payment});
            return;
          }
          for (Resource o : kAllResources) {
            productions[i].output = o;
            self(self, i + 1);
            if (listing == Listing::Search) break;  // the first output stands for all four
          }
        };
        outputs(outputs, 0);
      }
    }
  }
}

std::vector<Command> list_commands(const State& s, Seat seat, Listing listing) {
  std::vector<Command> out;
  if (s.events_applied == 0 || seat < 0 || seat >= s.players()) return out;
  const Board& b = s.boards[seat];
  switch (s.phase) {
    case Phase::Setup: {
      if (!b.leaders_chosen) {
        for (int i = 0; i < kLeadersDealt; ++i)
          for (int j = i + 1; j < kLeadersDealt; ++j)
            out.push_back(ChooseLeaders{{std::min(b.dealt[i], b.dealt[j]),
                                         std::max(b.dealt[i], b.dealt[j])}});
        break;
      }
      const int allowance = initial_resources(position_of(s, seat));
      if (allowance == 0 || b.resources_chosen) break;
      Amounts all{};
      all.fill(static_cast<std::uint8_t>(allowance));
      each_content(b, all, [&](const Amounts&, const Layout& layout) {
        if (total(detail::layout_content(layout)) == allowance)
          out.push_back(ChooseInitialResources{layout});
      });
      break;
    }
    case Phase::Play: {
      if (s.current != seat) break;
      if (!s.main_action_done) {
        std::vector<Command> passes;
        market_commands(b, s.market, listing, out, &passes);
        buy_commands(s, b, out);
        produce_commands(b, listing, out);
        // A line of white marbles alone changes nothing but the tray, and taking a column of
        // three whites with a white slide marble leaves even the tray as it was: two computers
        // could take it turn after turn for ever. So the search takes one only when it is the
        // only main action there is.
        if (out.empty() && !passes.empty()) out.push_back(std::move(passes.front()));
      } else {
        out.push_back(EndTurn{});
      }
      for (const Leader& l : b.leaders)
        if (l.status == LeaderStatus::Hand && is_leader_id(l.id) &&
            detail::requirement_met(b, l.id))
          out.push_back(ActivateLeader{l.id});
      for (const Leader& l : b.leaders)
        if (l.status == LeaderStatus::Hand && is_leader_id(l.id)) out.push_back(DiscardLeader{l.id});
      if (listing == Listing::All)
        for (const Layout& layout : detail::layouts_of(b, warehouse(b)))
          out.push_back(ArrangeWarehouse{layout});
      break;
    }
    case Phase::GameOver:
      break;
  }
  return out;
}

}  // namespace

std::vector<Command> legal_commands(const State& s, Seat seat) {
  return list_commands(s, seat, Listing::All);
}

std::vector<Command> search_commands(const State& s, Seat seat) {
  return list_commands(s, seat, Listing::Search);
}

}  // namespace eryantis::renaissance
