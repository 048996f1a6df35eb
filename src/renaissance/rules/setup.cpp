// Setting up a match (section 2): the grid, the market, the leaders dealt, the inkwell, the solo
// token stack. Every draw goes through the drawer, so create_match's event records them all.
#include "internal.hpp"

namespace eryantis::renaissance::detail {

void setup_match(State& s, const CreateMatch& create, Drawer& drawer) {
  s = State{};
  s.options = create.options;
  s.seed = create.seed;
  s.phase = Phase::Setup;

  // 2.1 step 2: each (level, colour) deck shuffled on its own; its cards in id order first.
  for (int d = 0; d < kDecks; ++d) {
    auto& deck = s.grid.cards[d];
    int n = 0;
    for (int id = 1; id <= kDevelopmentCards; ++id) {
      const DevelopmentCard& c = development_card(id);
      if (deck_index(c.level, c.colour) == d) deck[n++] = static_cast<std::uint8_t>(id);
    }
    drawer.shuffle(deck, kDeckSize, &Event::cards);
    s.grid.size[d] = kDeckSize;
  }

  // 2.1 step 3: the 13 marbles in a uniformly random order; 12 fill the tray row by row.
  std::array<Marble, kMarbles> marbles{};
  int m = 0;
  for (int kind = 0; kind < kMarbleKinds; ++kind)
    for (int i = 0; i < kMarbleCounts[kind]; ++i) marbles[m++] = static_cast<Marble>(kind);
  drawer.shuffle_marbles(marbles);
  for (int i = 0; i < kRows * kColumns; ++i) s.market.tray[i] = marbles[i];
  s.market.slide = marbles[kMarbles - 1];

  // 2.2 step 3: 4 leaders to each seat from the shuffled deck; the rest leave the game.
  std::array<std::uint8_t, kLeaders> deck{};
  for (int i = 0; i < kLeaders; ++i) deck[i] = static_cast<std::uint8_t>(i + 1);
  const int players = s.players();
  drawer.shuffle(deck, static_cast<std::size_t>(players * kLeadersDealt), &Event::leaders);
  for (Seat p = 0; p < players; ++p)
    for (int i = 0; i < kLeadersDealt; ++i) s.boards[p].dealt[i] = deck[p * kLeadersDealt + i];

  // 2.2 step 1: the inkwell at random (decision 22); solo: the player (2.4).
  s.inkwell = s.solo() ? Seat{0} : drawer.draw_inkwell(players);

  // 2.4 step 5: the 7 solo tokens in a face-down stack.
  if (s.solo()) {
    for (int i = 0; i < kTokens; ++i) s.lorenzo.tokens[i] = static_cast<std::uint8_t>(i + 1);
    drawer.shuffle(s.lorenzo.tokens, kTokens, &Event::tokens);
  }
}

bool setup_pending(const State& s, Seat seat) {
  const Board& b = s.boards[seat];
  if (!b.leaders_chosen) return true;
  return initial_resources(position_of(s, seat)) > 0 && !b.resources_chosen;
}

bool setup_complete(const State& s) {
  for (Seat p = 0; p < s.players(); ++p)
    if (setup_pending(s, p)) return false;
  return true;
}

}  // namespace eryantis::renaissance::detail
