#pragma once
// An island group: one or more adjacent island tiles merged by equal towers.
// A single unmerged island is a group of one tile. Groups are kept in circle
// order; tiles keep their ids 0..11 forever, so "island 7" always means the same
// tile, and a group is named by any of its tiles.
#include <cstdint>
#include <optional>

#include "eryantis/rules/students.hpp"
#include "eryantis/rules/tower.hpp"

namespace eryantis::rules {

inline constexpr int kIslandTiles = 12;

struct IslandGroup {
  Students students;
  std::uint8_t first_tile = 0;  // clockwise-first tile of the group
  std::uint8_t tiles = 1;       // number of tiles merged into it
  std::optional<TowerColor> tower;
  std::uint8_t towers = 0;    // == tiles once owned, except after a tower shortage (decision 24)
  std::uint8_t no_entry = 0;  // No-Entry tiles lying here (they stack, decision 8)

  bool has_tile(int tile) const {
    return ((tile - first_tile + kIslandTiles) % kIslandTiles) < tiles;
  }
  friend bool operator==(const IslandGroup&, const IslandGroup&) = default;
};

}  // namespace eryantis::rules
