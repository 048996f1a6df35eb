// Scoring (5.3).
#include "eryantis/renaissance/rules/score.hpp"

namespace eryantis::renaissance {

Score score(const Board& b) {
  Score sc;
  for (const auto& slot : b.slots)
    for (std::uint8_t id : slot)
      if (is_card_id(id)) sc.cards += development_card(id).vp;
  sc.track = static_cast<std::uint32_t>(track_points(b.faith));
  for (int section = 0; section < kSections; ++section)
    if (b.tiles[section] == Tile::FaceUp) sc.tiles += kTileVp[section];
  for (const Leader& l : b.leaders)
    if (l.status == LeaderStatus::Active && is_leader_id(l.id)) sc.leaders += leader_card(l.id).vp;
  sc.resources_left = resource_total(b);
  sc.resources = sc.resources_left / 5;
  sc.total = sc.cards + sc.track + sc.tiles + sc.leaders + sc.resources;
  return sc;
}

}  // namespace eryantis::renaissance
