// The state's small helpers and the stable names of its enums.
#include <array>

#include "eryantis/renaissance/rules/state.hpp"

namespace eryantis::renaissance {

int position_of(const State& s, Seat seat) {
  return (seat - s.inkwell + s.players()) % s.players();
}

int initial_resources(int position) {
  constexpr std::array<int, kMaxPlayers> resources = {0, 1, 1, 2};
  return position >= 0 && position < kMaxPlayers ? resources[position] : 0;
}

int initial_faith(int position) {
  return position >= 2 ? 1 : 0;
}

Seat last_seat(const State& s) {
  return static_cast<Seat>((s.inkwell + s.players() - 1) % s.players());
}

int card_count(const Board& b) {
  int n = 0;
  for (const auto& slot : b.slots)
    for (std::uint8_t card : slot) n += card != 0 ? 1 : 0;
  return n;
}

std::uint8_t slot_top(const Board& b, int slot) {
  for (int level = kLevels; level >= 1; --level)
    if (b.slots[slot][level - 1] != 0) return b.slots[slot][level - 1];
  return 0;
}

Amounts warehouse(const Board& b) {
  Amounts a{};
  for (const Depot& d : b.depots)
    if (d.count > 0 && d.type && is_resource(*d.type)) a[index(*d.type)] += d.count;
  for (const Leader& l : b.leaders)
    if (l.status == LeaderStatus::Active && l.stored > 0 && is_leader_id(l.id))
      a[index(leader_card(l.id).resource)] += l.stored;
  return a;
}

std::array<std::uint32_t, kResourceCount> resources_owned(const Board& b) {
  const Amounts w = warehouse(b);
  std::array<std::uint32_t, kResourceCount> owned{};
  for (int r = 0; r < kResourceCount; ++r) owned[r] = w[r] + b.strongbox[r];
  return owned;
}

std::uint32_t resource_total(const Board& b) {
  std::uint32_t n = 0;
  for (std::uint32_t x : resources_owned(b)) n += x;
  return n;
}

const Leader* find_leader(const Board& b, int id) {
  for (const Leader& l : b.leaders)
    if (id != 0 && l.id == id) return &l;
  return nullptr;
}

bool leader_active(const Board& b, int id) {
  const Leader* l = find_leader(b, id);
  return l != nullptr && l->status == LeaderStatus::Active;
}

std::string_view phase_name(Phase p) {
  static constexpr std::array<std::string_view, kPhaseCount> names = {"setup", "play", "game_over"};
  const auto i = static_cast<std::size_t>(p);
  return i < names.size() ? names[i] : std::string_view("?");
}

std::string_view end_reason_name(EndReason r) {
  static constexpr std::array<std::string_view, kEndReasonCount> names = {
      "none",    "faith_track", "seventh_card", "black_cross", "colour_gone",
      "forfeit", "resign",      "ended",        "abandoned"};
  const auto i = static_cast<std::size_t>(r);
  return i < names.size() ? names[i] : std::string_view("?");
}

std::string_view leader_status_name(LeaderStatus s) {
  static constexpr std::array<std::string_view, kLeaderStatusCount> names = {"active", "hand",
                                                                             "discarded"};
  const auto i = static_cast<std::size_t>(s);
  return i < names.size() ? names[i] : std::string_view("?");
}

std::string_view tile_name(Tile t) {
  static constexpr std::array<std::string_view, kTileStateCount> names = {"face_down", "face_up",
                                                                          "discarded"};
  const auto i = static_cast<std::size_t>(t);
  return i < names.size() ? names[i] : std::string_view("?");
}

}  // namespace eryantis::renaissance
