#pragma once
// The one list of the fields of every value this game persists: the state, the commands and the
// events' recorded outcomes. Each type is described once, by a `walk(v, value)` that names its
// fields in order and gives the range each integer may take. Everything that has to see every
// field is a visitor over these walks: the hash (src/renaissance/rules/hash.cpp) and, later, the
// JSON and binary codecs. So a new field is serialised, decoded and hashed, or none of them.
// The same design as Eriantys's include/eryantis/rules/fields.hpp.
//
// A visitor V provides, for a key k (a field name, or a position in an array):
//   bool include_seed()                       false where the seed is absent (views)
//   integer(k, x, lo, hi)                     an integer of any width, lo <= x <= hi
//   seed(k, MatchSeed&)                       the match's secret seed
//   boolean(k, b)   enumeration(k, e)         a flag; an enum with a name per value (names.cpp)
//   optional(k, opt, inner)                   inner(v, k, value) when present
//   object(k, body)                           body(v) over a nested record
//   array(k, items, element)                  element(v, Key(i), items[i]) per item (fixed size)
//   list(k, items, element, max)              the same over a std::vector of at most `max` items
//   derived(k, from, compute)                 compute(from), a record the fields already walked
//                                             determine (a board's points): the JSON writer
//                                             writes it, the JSON reader checks it when present;
//                                             the hash and the binary form skip it (not stored)
// Each method takes `T&` (decoders) or `const T&` (encoders, the hash); the walks accept both.
//
// Pure: no library, no I/O.
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include "eryantis/renaissance/rules/command.hpp"
#include "eryantis/renaissance/rules/event.hpp"
#include "eryantis/renaissance/rules/score.hpp"
#include "eryantis/renaissance/rules/state.hpp"

namespace eryantis::renaissance::fields {

// A field name inside an object, or a position inside an array.
struct Key {
  std::string_view name;
  std::size_t index = 0;
  Key(const char* n) : name(n) {}       // NOLINT: implicit on purpose
  Key(std::string_view n) : name(n) {}  // NOLINT
  explicit Key(std::size_t i) : index(i) {}
  bool in_array() const { return name.data() == nullptr; }
};

inline constexpr std::int64_t kMaxU8 = std::numeric_limits<std::uint8_t>::max();
inline constexpr std::int64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::int64_t kMaxU64 = std::numeric_limits<std::int64_t>::max();
// Longest list a command or event may hold (the codecs refuse longer ones as malformed).
inline constexpr std::size_t kMaxList = 64;

// "L01".."L16": the keys of a layout's leader depots.
inline std::string_view leader_key(int id) {
  return leader_name(id);
}

// T is U or const U: one walk serves readers and writers.
template <class T, class U>
concept Is = std::same_as<std::remove_const_t<T>, U>;
template <class T, class... Us>
concept OneOf = (Is<T, Us> || ...);

inline constexpr auto an_enum = [](auto& v, Key k, auto& e) { v.enumeration(k, e); };
inline constexpr auto a_byte = [](auto& v, Key k, auto& x) { v.integer(k, x, 0, kMaxU8); };

template <class V>
void seat_field(V& v, Key k, auto& seat) {
  v.integer(k, seat, kNoSeat, kMaxPlayers - 1);
}

// Counts per resource, as an object keyed by resource name.
template <class V, class C>
void per_resource(V& v, Key k, C& counts, std::int64_t hi) {
  v.object(k, [&](auto& o) {
    for (Resource r : kAllResources) o.integer(resource_name(r), counts[index(r)], 0, hi);
  });
}

// ---------------------------------------------------------------------------
// The state's records.

template <class V>
void walk(V& v, Is<Depot> auto& d) {
  v.optional("type", d.type, an_enum);
  v.integer("count", d.count, 0, kMaxU8);
}

template <class V>
void walk(V& v, Is<Leader> auto& l) {
  v.integer("id", l.id, 0, kLeaders);
  v.enumeration("status", l.status);
  v.integer("stored", l.stored, 0, kLeaderDepotCapacity);
}

// A board's points (5.3), derived: the words of protocol.md 4. resources_left is the tie-break,
// not points: it is not walked.
template <class V>
void walk(V& v, Is<Score> auto& sc) {
  v.integer("total", sc.total, 0, kMaxU32);
  v.integer("cards", sc.cards, 0, kMaxU32);
  v.integer("track", sc.track, 0, kMaxU32);
  v.integer("tiles", sc.tiles, 0, kMaxU32);
  v.integer("leaders", sc.leaders, 0, kMaxU32);
  v.integer("resources", sc.resources, 0, kMaxU32);
}
inline constexpr auto board_points = [](const Board& b) { return score(b); };

// Every record walked through records() below, declared before it (name lookup).
template <class V>
void walk(V& v, Is<Board> auto& b);

template <class V, class C>
void records(V& v, Key k, C& items) {
  v.array(k, items,
          [](auto& a, Key i, auto& item) { a.object(i, [&](auto& o) { walk(o, item); }); });
}

template <class V>
void walk(V& v, Is<Board> auto& b) {
  records(v, "depots", b.depots);
  per_resource(v, "strongbox", b.strongbox, kMaxU32);
  v.array("slots", b.slots, [](auto& a, Key k, auto& slot) {
    a.array(k, slot, [](auto& c, Key i, auto& card) { c.integer(i, card, 0, kDevelopmentCards); });
  });
  v.array("dealt", b.dealt, [](auto& a, Key k, auto& id) { a.integer(k, id, 0, kLeaders); });
  records(v, "leaders", b.leaders);
  v.integer("faith", b.faith, 0, kTrackEnd);
  v.array("tiles", b.tiles, an_enum);
  v.boolean("leaders_chosen", b.leaders_chosen);
  v.boolean("resources_chosen", b.resources_chosen);
  v.derived("points", b, board_points);  // last: from every field above
}

template <class V>
void walk(V& v, Is<Market> auto& m) {
  v.array("tray", m.tray, an_enum);
  v.enumeration("slide", m.slide);
}

template <class V>
void walk(V& v, Is<Grid> auto& g) {
  v.array("cards", g.cards, [](auto& a, Key k, auto& deck) {
    a.array(k, deck, [](auto& c, Key i, auto& card) { c.integer(i, card, 0, kDevelopmentCards); });
  });
  v.array("size", g.size, [](auto& a, Key k, auto& n) { a.integer(k, n, 0, kDeckSize); });
}

template <class V>
void walk(V& v, Is<Lorenzo> auto& l) {
  v.integer("cross", l.cross, 0, kTrackEnd);
  v.array("tokens", l.tokens, [](auto& a, Key k, auto& t) { a.integer(k, t, 0, kTokens); });
  v.integer("revealed", l.revealed, 0, kTokens);
  v.integer("last_token", l.last_token, 0, kTokens);
  v.integer("discarded", l.discarded, 0, kMaxU64);  // bit id: the cards tokens removed
}

template <class V>
void walk(V& v, Is<Result> auto& r) {
  v.enumeration("reason", r.reason);
  v.integer("winners", r.winners, 0, (1 << kMaxPlayers) - 1);
  v.boolean("lorenzo_won", r.lorenzo_won);
  v.array("scores", r.scores, [](auto& a, Key k, auto& n) { a.integer(k, n, 0, kMaxU32); });
  v.integer("resigned", r.resigned, 0, (1 << kMaxPlayers) - 1);
}

// ---------------------------------------------------------------------------
// The state, field by field.

template <class V>
void walk(V& v, Is<State> auto& s) {
  v.object("options", [&](auto& o) { o.integer("players", s.options.players, 1, kMaxPlayers); });
  if (v.include_seed()) v.seed("seed", s.seed);
  v.integer("events_applied", s.events_applied, 0, kMaxU32);
  v.enumeration("phase", s.phase);
  v.object("market", [&](auto& o) { walk(o, s.market); });
  v.object("grid", [&](auto& o) { walk(o, s.grid); });
  records(v, "boards", s.boards);
  v.object("lorenzo", [&](auto& o) { walk(o, s.lorenzo); });
  seat_field(v, "inkwell", s.inkwell);
  seat_field(v, "current", s.current);
  v.integer("turn", s.turn, 0, kMaxU32);
  v.boolean("main_action_done", s.main_action_done);
  v.integer("reports", s.reports, 0, (1 << kSections) - 1);
  v.boolean("final_round", s.final_round);
  v.enumeration("trigger", s.trigger);
  v.object("result", [&](auto& o) { walk(o, s.result); });
}

// ---------------------------------------------------------------------------
// Commands, field by field (the "type" that names the alternative is the codec's).

template <class V>
void walk(V& v, Is<Layout> auto& l) {
  records(v, "depots", l.depots);
  v.object("leader_depots", [&](auto& o) {
    for (int id = 1; id <= kLeaders; ++id) o.optional(leader_key(id), l.leader_depots[id - 1], a_byte);
  });
}

template <class V>
void walk(V& v, Is<Take> auto& t) {
  v.integer("depot", t.depot, 0, kMaxU8);
  v.integer("leader", t.leader, 0, kMaxU8);
  v.integer("strongbox", t.strongbox, 0, kMaxU8);
}

// A payment, per resource type; absent = warehouse first (decision 62).
template <class V>
void payment_field(V& v, Key k, auto& p) {
  v.optional(k, p, [](auto& w, Key key, auto& payment) {
    w.object(key, [&](auto& o) {
      for (Resource r : kAllResources)
        o.object(resource_name(r), [&](auto& t) { walk(t, payment[index(r)]); });
    });
  });
}
inline constexpr auto a_layout = [](auto& v, Key k, auto& l) {
  v.object(k, [&](auto& o) { walk(o, l); });
};

template <class V>
void walk(V& v, Is<CreateMatch> auto& c) {
  v.integer("players", c.options.players, 0, kMaxU8);  // the rules check 1..4
  v.seed("seed", c.seed);
}
template <class V>
void walk(V& v, Is<ChooseLeaders> auto& c) {
  v.list("keep", c.keep, a_byte, kMaxList);
}
template <class V>
void walk(V& v, OneOf<ChooseInitialResources, ArrangeWarehouse> auto& c) {
  v.object("layout", [&](auto& o) { walk(o, c.layout); });
}
template <class V>
void walk(V& v, Is<TakeFromMarket> auto& c) {
  v.enumeration("line", c.line);
  v.integer("index", c.index, 0, kMaxU8);
  v.list("white_choices", c.white_choices, an_enum, kMaxList);
  v.optional("layout", c.layout, a_layout);  // absent = keep everything (decision 62)
}
template <class V>
void walk(V& v, Is<BuyCard> auto& c) {
  v.integer("level", c.level, 0, kMaxU8);
  v.enumeration("colour", c.colour);
  v.integer("slot", c.slot, 0, kMaxU8);
  payment_field(v, "payment", c.payment);
}
template <class V>
void walk(V& v, Is<BaseProduction> auto& b) {
  v.array("inputs", b.inputs, an_enum);
  v.enumeration("output", b.output);
}
template <class V>
void walk(V& v, Is<LeaderProduction> auto& l) {
  v.integer("leader", l.leader, 0, kMaxU8);
  v.enumeration("output", l.output);
}
template <class V>
void walk(V& v, Is<Produce> auto& c) {
  v.optional("base", c.base,
             [](auto& o, Key k, auto& b) { o.object(k, [&](auto& w) { walk(w, b); }); });
  v.list("slots", c.slots, a_byte, kMaxList);
  v.list(
      "leaders", c.leaders,
      [](auto& a, Key i, auto& l) { a.object(i, [&](auto& o) { walk(o, l); }); }, kMaxList);
  payment_field(v, "payment", c.payment);
}
template <class V>
void walk(V& v, OneOf<ActivateLeader, DiscardLeader> auto& c) {
  v.integer("leader", c.leader, 0, kMaxU8);
}
// Commands without parameters (skip_turn, end_turn, resign, ...).
template <class V, class T>
requires std::is_empty_v<std::remove_const_t<T>>
void walk(V&, T&) {}

// ---------------------------------------------------------------------------
// An event's recorded outcomes (its seat and command are the codec's: the command by its type).

template <class V>
void walk_outcomes(V& v, Is<Event> auto& e) {
  v.list("cards", e.cards, [](auto& a, Key k, auto& id) { a.integer(k, id, 0, kDevelopmentCards); },
         kDevelopmentCards);
  v.list("marbles", e.marbles, an_enum, kMarbles);
  v.list("leaders", e.leaders, [](auto& a, Key k, auto& id) { a.integer(k, id, 0, kLeaders); },
         kLeaders);
  seat_field(v, "inkwell", e.inkwell);
  v.list("tokens", e.tokens, [](auto& a, Key k, auto& t) { a.integer(k, t, 0, kTokens); }, kTokens);
  v.integer("token", e.token, 0, kTokens);
  v.list("revealed", e.revealed,
         [](auto& a, Key k, auto& id) { a.integer(k, id, 0, kDevelopmentCards); }, kMaxList);
}

}  // namespace eryantis::renaissance::fields
