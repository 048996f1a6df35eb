// Hidden information (2.6): what a viewer may see of a state and of an event.
#include "internal.hpp"

namespace eryantis::renaissance {

namespace {

bool sees_hand_of(Seat viewer, Seat seat) {
  return viewer != kNoSeat && viewer == seat;
}

}  // namespace

View view(const State& state, Seat viewer) {
  View v{viewer, state};
  State& s = v.state;
  s.seed = MatchSeed{};  // it would let a client predict every draw
  // Every deck shows its top card and how many cards it holds (decision 36 names it).
  for (int d = 0; d < kDecks; ++d)
    for (int i = 0; i + 1 < s.grid.size[d]; ++i) s.grid.cards[d][i] = 0;
  // The token stack is face down, even for the solo player.
  for (int i = s.lorenzo.revealed; i < kTokens; ++i) s.lorenzo.tokens[i] = 0;
  // Decision 27: other seats' dealt, kept and discarded leaders are hidden; their number and
  // status are not (and active leaders are public).
  for (Seat p = 0; p < s.players(); ++p) {
    if (sees_hand_of(viewer, p)) continue;
    Board& b = s.boards[p];
    b.dealt.fill(0);
    for (Leader& l : b.leaders)
      if (l.status != LeaderStatus::Active) l.id = 0;
    detail::sort_leaders(b);
  }
  return v;
}

Event redact(const Event& event, Seat viewer) {
  Event e = event;
  if (auto* create = std::get_if<CreateMatch>(&e.command)) {
    create->seed = MatchSeed{};
    // Each deck's order below its top (the last card of its 4).
    for (std::size_t i = 0; i < e.cards.size(); ++i)
      if (i % kDeckSize != kDeckSize - 1) e.cards[i] = 0;
    for (std::size_t i = 0; i < e.leaders.size(); ++i)
      if (!sees_hand_of(viewer, static_cast<Seat>(i / kLeadersDealt))) e.leaders[i] = 0;
  }
  for (std::uint8_t& t : e.tokens) t = 0;  // every stack, at setup and after a T7
  if (!sees_hand_of(viewer, e.seat)) {
    if (auto* keep = std::get_if<ChooseLeaders>(&e.command))
      for (std::uint8_t& id : keep->keep) id = 0;
    if (auto* discard = std::get_if<DiscardLeader>(&e.command)) discard->leader = 0;
  }
  return e;
}

}  // namespace eryantis::renaissance
