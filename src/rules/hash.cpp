// A stable fingerprint of a state: every field fed explicitly, in a fixed order,
// as integers (never raw memory, so padding and endianness cannot leak in).
#include "eryantis/rules/decider.hpp"

namespace eryantis::rules {

namespace {
class Hasher {
 public:
  void add(std::uint64_t v) {
    h_ ^= v + 0x9e3779b97f4a7c15ULL + (h_ << 6) + (h_ >> 2);
    h_ *= 0xff51afd7ed558ccdULL;
    h_ ^= h_ >> 32;
  }
  void add(const Students& s) {
    std::uint64_t packed = 0;
    for (int i = 0; i < kColorCount; ++i) packed = (packed << 8) | s.count[i];
    add(packed);
  }
  template <class T>
  void add_opt(const std::optional<T>& v) {
    add(v ? static_cast<std::uint64_t>(*v) + 1 : 0);
  }
  std::uint64_t value() const {
    std::uint64_t z = h_;
    z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    return z ^ (z >> 33);
  }

 private:
  std::uint64_t h_ = 0x45525941'4e544953ULL;  // "ERYANTIS"
};
}  // namespace

std::uint64_t hash(const State& s) {
  Hasher h;
  h.add(s.options.players);
  h.add(static_cast<std::uint64_t>(s.options.mode));
  h.add(s.seed);
  h.add(s.events_applied);
  h.add(static_cast<std::uint64_t>(s.phase));
  h.add(s.round);
  for (const SchoolBoard& b : s.boards) {
    h.add(b.entrance);
    h.add(b.dining);
    h.add(b.towers);
    h.add(b.coins);
    h.add(b.hand);
    h.add(b.played);
    h.add(b.discard);
    h.add_opt(b.wizard);
    h.add_opt(b.tower_color);
    h.add(b.holds_towers);
    h.add(b.skipped_planning);
  }
  for (const IslandGroup& g : s.groups) {
    h.add(g.students);
    h.add(g.first_tile);
    h.add(g.tiles);
    h.add_opt(g.tower);
    h.add(g.towers);
    h.add(g.no_entry);
  }
  h.add(s.group_count);
  h.add(s.mother_nature);
  for (const Cloud& c : s.clouds) {
    h.add(c.students);
    h.add(c.taken);
  }
  h.add(s.bag);
  for (Seat p : s.professors) h.add(static_cast<std::uint64_t>(p + 1));
  for (const CharacterCard& c : s.characters) {
    h.add(static_cast<std::uint64_t>(c.id));
    h.add(c.used);
    h.add(c.students);
    h.add(c.no_entry);
  }
  h.add(s.supply);
  h.add(static_cast<std::uint64_t>(s.first_player + 1));
  for (Seat p : s.order) h.add(static_cast<std::uint64_t>(p + 1));
  h.add(s.order_size);
  h.add(s.turn_index);
  h.add(s.last_round);
  h.add(static_cast<std::uint64_t>(s.last_round_reason));
  h.add(s.skip_clouds);
  h.add(s.turn.students_moved);
  h.add(s.turn.mother_nature_moved);
  h.add(s.turn.character_used);
  h.add_opt(s.turn.active);
  h.add_opt(s.turn.excluded_color);
  h.add(static_cast<std::uint64_t>(s.result.reason));
  h.add(s.result.winners);
  return h.value();
}

}  // namespace eryantis::rules
