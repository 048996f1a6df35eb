#pragma once
// The one list of the fields of every value the rules persist: the state and the
// commands. Each type is described once, by a `walk(v, value)` that names its
// fields in order and gives the range each integer may take. Everything that has
// to see every field is a visitor over these walks: the hash (src/rules/hash.cpp)
// and the JSON and binary archives (src/codec/). So a new field is serialised,
// decoded and hashed, or none of them — never some.
//
// A visitor V provides, for a key k (a field name, or a position in an array):
//   bool include_seed()                       false where the seed is absent (views)
//   integer(k, x, lo, hi)                     an integer of any width, lo <= x <= hi
//   seed(k, MatchSeed&)                       the match's secret seed
//   boolean(k, b)   enumeration(k, e)         a flag; an enum with a name per value
//   students(k, Students&)                    counts per colour
//   optional(k, opt, inner)                   inner(v, k, value) when present
//   object(k, body)                           body(v) over a nested record
//   array(k, items, element)                  element(v, Key(i), items[i]) per item
// Each method takes `T&` (decoders) or `const T&` (encoders, the hash); the walks
// accept both through the `Is` concept.
//
// Pure: no library, no I/O. docs/state.md describes the same fields for people.
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include "eryantis/rules/assistant.hpp"
#include "eryantis/rules/command.hpp"
#include "eryantis/rules/state.hpp"

namespace eryantis::rules::fields {

// A field name inside an object, or a position inside an array.
struct Key {
  std::string_view name;
  std::size_t index = 0;
  Key(const char* n) : name(n) {}       // NOLINT: implicit on purpose
  Key(std::string_view n) : name(n) {}  // NOLINT
  explicit Key(std::size_t i) : index(i) {}
  bool in_array() const { return name.data() == nullptr; }
};

// Ranges shared by the state and the commands.
inline constexpr std::int64_t kMaxU8 = std::numeric_limits<std::uint8_t>::max();
inline constexpr std::int64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();

// T is U or const U: one walk serves readers and writers.
template <class T, class U>
concept Is = std::same_as<std::remove_const_t<T>, U>;
// T is one of the Us (or const).
template <class T, class... Us>
concept OneOf = (Is<T, Us> || ...);

// The `inner` of an optional enum field.
inline constexpr auto an_enum = [](auto& v, Key k, auto& e) { v.enumeration(k, e); };

// ---------------------------------------------------------------------------
// The state's records.

template <class V>
void walk(V& v, Is<SchoolBoard> auto& b) {
  v.students("entrance", b.entrance);
  v.students("dining", b.dining);
  v.integer("towers", b.towers, 0, kMaxU8);
  v.integer("coins", b.coins, 0, kMaxU8);
  v.integer("hand", b.hand, 0, kFullHand);
  v.integer("played", b.played, 0, kAssistantCount);
  v.integer("discard", b.discard, 0, kAssistantCount);
  v.optional("wizard", b.wizard, [](auto& o, Key k, auto& w) { o.integer(k, w, 0, 3); });
  v.optional("tower_color", b.tower_color, an_enum);
  v.boolean("holds_towers", b.holds_towers);
  v.boolean("skipped_planning", b.skipped_planning);
}

template <class V>
void walk(V& v, Is<IslandGroup> auto& g) {
  v.students("students", g.students);
  v.integer("first_tile", g.first_tile, 0, kIslandTiles - 1);
  v.integer("tiles", g.tiles, 0, kIslandTiles);
  v.optional("tower", g.tower, an_enum);
  v.integer("towers", g.towers, 0, kIslandTiles);
  v.integer("no_entry", g.no_entry, 0, kMaxU8);
}

template <class V>
void walk(V& v, Is<Cloud> auto& c) {
  v.students("students", c.students);
  v.boolean("taken", c.taken);
}

template <class V>
void walk(V& v, Is<CharacterCard> auto& c) {
  v.enumeration("id", c.id);
  v.boolean("used", c.used);
  v.students("students", c.students);
  v.integer("no_entry", c.no_entry, 0, kMaxU8);
}

template <class V>
void walk(V& v, Is<TurnState> auto& t) {
  v.integer("students_moved", t.students_moved, 0, kMaxU8);
  v.boolean("mother_nature_moved", t.mother_nature_moved);
  v.boolean("character_used", t.character_used);
  v.optional("active", t.active, an_enum);
  v.optional("excluded_color", t.excluded_color, an_enum);
}

template <class V>
void walk(V& v, Is<Result> auto& r) {
  v.enumeration("reason", r.reason);
  v.integer("winners", r.winners, 0, (1 << kMaxPlayers) - 1);
}

// An array of records, each element an object.
template <class V, class C>
void records(V& v, Key k, C& items) {
  v.array(k, items,
          [](auto& a, Key i, auto& item) { a.object(i, [&](auto& o) { walk(o, item); }); });
}

// A seat, or kNoSeat (-1).
template <class V>
void seat_field(V& v, Key k, auto& seat) {
  v.integer(k, seat, kNoSeat, kMaxPlayers - 1);
}

// ---------------------------------------------------------------------------
// The state, field by field (the state's "schema" is the codec's, not a field).

template <class V>
void walk(V& v, Is<State> auto& s) {
  v.object("options", [&](auto& o) {
    o.integer("players", s.options.players, 2, kMaxPlayers);
    o.enumeration("mode", s.options.mode);
  });
  if (v.include_seed()) v.seed("seed", s.seed);
  v.integer("events_applied", s.events_applied, 0, kMaxU32);
  v.enumeration("phase", s.phase);
  v.integer("round", s.round, 0, kMaxU8);
  records(v, "boards", s.boards);
  records(v, "groups", s.groups);
  v.integer("group_count", s.group_count, 1, kIslandTiles);
  v.integer("mother_nature", s.mother_nature, 0, kIslandTiles - 1);
  records(v, "clouds", s.clouds);
  v.students("bag", s.bag);
  v.object("professors", [&](auto& o) {
    for (Color c : kAllColors) seat_field(o, color_name(c), s.professors[index(c)]);
  });
  records(v, "characters", s.characters);
  v.integer("supply", s.supply, 0, kMaxU8);
  seat_field(v, "first_player", s.first_player);
  v.array("order", s.order, [](auto& a, Key k, auto& seat) { seat_field(a, k, seat); });
  v.integer("order_size", s.order_size, 0, kMaxPlayers);
  v.integer("turn_index", s.turn_index, 0, kMaxPlayers);
  v.boolean("last_round", s.last_round);
  v.enumeration("last_round_reason", s.last_round_reason);
  v.boolean("skip_clouds", s.skip_clouds);
  v.object("turn", [&](auto& o) { walk(o, s.turn); });
  v.object("result", [&](auto& o) { walk(o, s.result); });
}

// ---------------------------------------------------------------------------
// Commands, field by field (the "type" that names the alternative is the codec's).

template <class V>
void walk(V& v, Is<CreateMatch> auto& c) {
  v.integer("players", c.options.players, 0, kMaxU8);  // the rules check 2..4
  v.enumeration("mode", c.options.mode);
  v.seed("seed", c.seed);
}
template <class V>
void walk(V& v, Is<ChooseWizard> auto& c) {
  v.integer("wizard", c.wizard, 0, 3);
}
template <class V>
void walk(V& v, Is<PlayAssistant> auto& c) {
  v.integer("value", c.value, 0, kMaxU8);
}
template <class V>
void walk(V& v, Is<MoveMotherNature> auto& c) {
  v.integer("steps", c.steps, 0, kMaxU8);
}
template <class V>
void walk(V& v, Is<ChooseCloud> auto& c) {
  v.integer("cloud", c.cloud, 0, kMaxU8);
}
// Commands whose fields are a colour (of a student or of towers), an island, or
// both: each type is named once, with the fields it has.
template <class V>
void walk(V& v,
          OneOf<ChooseTowerColor, MoveToDining, UseMushroomHunter, UsePrincess, UseThief> auto& c) {
  v.enumeration("color", c.color);
}
template <class V>
void walk(V& v, OneOf<UseHerald, UseGrandmaHerbs> auto& c) {
  v.integer("island", c.island, 0, kMaxU8);
}
template <class V>
void walk(V& v, OneOf<MoveToIsland, UseMonk> auto& c) {
  v.enumeration("color", c.color);
  v.integer("island", c.island, 0, kMaxU8);
}
template <class V>
void walk(V& v, Is<UseJester> auto& c) {
  v.students("from_card", c.from_card);
  v.students("from_entrance", c.from_entrance);
}
template <class V>
void walk(V& v, Is<UseMinstrel> auto& c) {
  v.students("from_entrance", c.from_entrance);
  v.students("from_dining", c.from_dining);
}
// Commands without parameters (skip_turn, use_farmer, ...).
template <class V, class T>
requires std::is_empty_v<std::remove_const_t<T>>
void walk(V&, T&) {}

}  // namespace eryantis::rules::fields
