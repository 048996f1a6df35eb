// A static evaluation of a position (hooks.hpp). The weights are rough and documented here, not
// tuned: a point now is worth 1; things likely to become points are worth part of one.
#include <algorithm>

#include "eryantis/renaissance/rules/hooks.hpp"
#include "eryantis/renaissance/rules/score.hpp"
#include "internal.hpp"

namespace eryantis::renaissance {

namespace {

constexpr double kWinValue = 1000.0;

// How good a board looks, from what everybody may see (hand leaders count by number only for
// other seats).
double board_value(const State& s, Seat p, Seat viewer) {
  const Board& b = s.boards[p];
  const Score sc = score(s, p);
  double v = sc.total;
  v += 0.15 * static_cast<double>(sc.resources_left % 5);  // towards the next resource point
  v += 0.25 * static_cast<double>(std::min<std::uint32_t>(sc.resources_left, 30));  // buying power
  // Faith: towards the next printed space, and face-down tiles of sections already reached.
  v += 0.3 * b.faith;
  for (int section = 0; section < kSections; ++section)
    if (b.tiles[section] == Tile::FaceDown && b.faith >= kSectionStart[section])
      v += 0.7 * kTileVp[section];
  // Cards: production power and the way to the 7th.
  v += 1.0 * card_count(b);
  for (int slot = 0; slot < kSlots; ++slot)
    if (const std::uint8_t top = slot_top(b, slot); top != 0) v += 0.5 * development_card(top).level;
  // Leaders in hand: half their points when playable now, a fifth otherwise (3.5 on average when
  // the viewer cannot see them).
  for (const Leader& l : b.leaders) {
    if (l.status != LeaderStatus::Hand || !b.leaders_chosen) continue;
    if (p == viewer && is_leader_id(l.id))
      v += (detail::requirement_met(b, l.id) ? 0.5 : 0.2) * leader_card(l.id).vp;
    else
      v += 0.3 * 3.5;
  }
  return v;
}

// Lorenzo's progress towards his two ways to win.
double lorenzo_threat(const State& s) {
  double threat = 0.8 * s.lorenzo.cross;
  for (Colour c : kAllColours) {
    int left = 0;
    for (int level = 1; level <= kLevels; ++level) left += s.grid.size[deck_index(level, c)];
    threat = std::max(threat, threat + (left <= 4 ? 4.0 * (5 - left) : 0.0));
  }
  return threat;
}

}  // namespace

double evaluate(const State& s, Seat seat) {
  if (seat < 0 || seat >= s.players()) return 0.0;
  const double own = score(s, seat).total;
  if (s.phase == Phase::GameOver) {
    const bool won = (s.result.winners >> seat) & 1;
    const bool shared = won && (s.result.winners & ~(1u << seat)) != 0;
    return (won ? (shared ? kWinValue / 2 : kWinValue) : -kWinValue) + own;
  }
  const double mine = board_value(s, seat, seat);
  if (s.solo()) return mine - lorenzo_threat(s);
  double best_other = 0.0;
  bool any = false;
  for (Seat p = 0; p < s.players(); ++p) {
    if (p == seat) continue;
    const double v = board_value(s, p, seat);
    best_other = any ? std::max(best_other, v) : v;
    any = true;
  }
  return mine - best_other;
}

}  // namespace eryantis::renaissance
