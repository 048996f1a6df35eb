// A full state consistent with one seat's view (hooks.hpp): what a computer player samples
// before it searches.
#include <algorithm>
#include <vector>

#include "eryantis/renaissance/rules/hooks.hpp"
#include "internal.hpp"

namespace eryantis::renaissance {

namespace {

template <class T>
void shuffle(std::vector<T>& items, Prng& prng) {
  for (std::size_t i = items.size(); i > 1; --i)
    std::swap(items[i - 1], items[prng.below(static_cast<std::uint32_t>(i))]);
}

}  // namespace

State determinise(const View& seen, Seat seat, std::uint64_t rng_seed) {
  (void)seat;  // what is hidden is read from the view itself: every 0 where an id belongs
  State s = seen.state;
  if (s.events_applied == 0) return s;
  Prng prng(rng_seed, 0x64657465726d696eULL);  // "determin"
  s.seed = MatchSeed{prng.next(), prng.next()};

  // Decks: the cards of each deck nobody has seen, shuffled under its top.
  std::array<bool, kDevelopmentCards + 1> known{};
  for (const auto& deck : s.grid.cards)
    for (std::uint8_t id : deck) known[std::min<int>(id, kDevelopmentCards)] = true;
  for (Seat p = 0; p < s.players(); ++p)
    for (const auto& slot : s.boards[p].slots)
      for (std::uint8_t id : slot) known[std::min<int>(id, kDevelopmentCards)] = true;
  for (int id = 1; id <= kDevelopmentCards; ++id)
    if ((s.lorenzo.discarded >> id) & 1) known[id] = true;
  for (int d = 0; d < kDecks; ++d) {
    std::vector<std::uint8_t> missing;
    for (int id = 1; id <= kDevelopmentCards; ++id) {
      const DevelopmentCard& c = development_card(id);
      if (!known[id] && deck_index(c.level, c.colour) == d) missing.push_back(static_cast<std::uint8_t>(id));
    }
    shuffle(missing, prng);
    std::size_t next = 0;
    for (int i = 0; i < s.grid.size[d] && next < missing.size(); ++i)
      if (s.grid.cards[d][i] == 0) s.grid.cards[d][i] = missing[next++];
  }

  // Leaders: every hidden one drawn from the leaders this view never shows.
  std::array<bool, kLeaders + 1> shown{};
  for (Seat p = 0; p < s.players(); ++p) {
    for (std::uint8_t id : s.boards[p].dealt) shown[std::min<int>(id, kLeaders)] = true;
    for (const Leader& l : s.boards[p].leaders) shown[std::min<int>(l.id, kLeaders)] = true;
  }
  std::vector<std::uint8_t> pool;
  for (int id = 1; id <= kLeaders; ++id)
    if (!shown[id]) pool.push_back(static_cast<std::uint8_t>(id));
  shuffle(pool, prng);
  for (Seat p = 0; p < s.players(); ++p) {
    Board& b = s.boards[p];
    if (b.dealt[0] != 0) continue;  // a hand the viewer sees
    // Dealt: the seat's active leaders and fresh ones from the pool, in a random order.
    std::vector<std::uint8_t> dealt;
    for (const Leader& l : b.leaders)
      if (l.id != 0) dealt.push_back(l.id);
    std::vector<std::uint8_t> fresh;
    while (dealt.size() + fresh.size() < kLeadersDealt && !pool.empty()) {
      fresh.push_back(pool.back());
      pool.pop_back();
    }
    // Kept but hidden: some of the fresh ones.
    std::size_t next = 0;
    if (b.leaders_chosen)
      for (Leader& l : b.leaders)
        if (l.id == 0 && next < fresh.size()) l.id = fresh[next++];
    dealt.insert(dealt.end(), fresh.begin(), fresh.end());
    shuffle(dealt, prng);
    for (std::size_t i = 0; i < dealt.size() && i < b.dealt.size(); ++i) b.dealt[i] = dealt[i];
    detail::sort_leaders(b);
  }

  // Tokens: the stack is whatever was not revealed since the last shuffle.
  if (s.solo()) {
    Lorenzo& l = s.lorenzo;
    std::vector<std::uint8_t> stack;
    for (int t = 1; t <= kTokens; ++t)
      if (std::find(l.tokens.begin(), l.tokens.begin() + l.revealed, t) ==
          l.tokens.begin() + l.revealed)
        stack.push_back(static_cast<std::uint8_t>(t));
    shuffle(stack, prng);
    for (std::size_t i = 0; i < stack.size() && l.revealed + i < kTokens; ++i)
      l.tokens[l.revealed + i] = stack[i];
  }
  return s;
}

}  // namespace eryantis::renaissance
