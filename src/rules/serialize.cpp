// JSON and binary forms of states, commands and events.
//
// Every serialised type is described once, by a `walk(v, value)` function that
// names its fields in order and gives the range each integer may take. The same
// walk drives four visitors:
//   JsonOut  - writes through cereal's JSONOutputArchive (names for enums and colours),
//   JsonIn   - reads a rapidjson DOM, with messages that name the offending field,
//   BinOut   - writes through cereal's PortableBinaryOutputArchive (compact integers),
//   BinIn    - reads it back, checking every value's range.
// So field names, order and bounds live in one place for all four directions.
//
// Decoders never let an exception escape: everything is turned into a DecodeError.
#include "eryantis/rules/serialize.hpp"

#include <array>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <sstream>
#include <streambuf>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

// cereal's json.hpp configures rapidjson (RAPIDJSON_ASSERT throws) before including
// it, so it must come first; rapidjson itself is Debian's copy that cereal uses.
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <cereal/archives/json.hpp>
#include <cereal/archives/portable_binary.hpp>

namespace eryantis::rules {
namespace {

// ---------------------------------------------------------------------------
// Errors

// Thrown inside the codecs, caught at the API boundary and returned as a DecodeError.
struct Fail {
  std::string message;
};

[[noreturn]] void fail(std::string message) {
  throw Fail{std::move(message)};
}

std::string quoted(std::string_view s) {
  std::string out = "\"";
  out += s;
  out += '"';
  return out;
}

// ---------------------------------------------------------------------------
// Enum names

template <class E>
struct EnumInfo;

template <>
struct EnumInfo<Color> {
  static constexpr const char* what = "colour";
  static constexpr int count = kColorCount;
  static std::string_view name(Color c) { return color_name(c); }
};
template <>
struct EnumInfo<TowerColor> {
  static constexpr const char* what = "tower colour";
  static constexpr int count = kTowerColorCount;
  static std::string_view name(TowerColor c) { return tower_color_name(c); }
};
template <>
struct EnumInfo<CharacterId> {
  static constexpr const char* what = "character";
  static constexpr int count = kCharacterCount;
  static std::string_view name(CharacterId c) { return character_name(c); }
};

template <>
struct EnumInfo<Phase> {
  static constexpr const char* what = "phase";
  static constexpr int count = kPhaseCount;
  static std::string_view name(Phase p) { return phase_name(p); }
};
template <>
struct EnumInfo<EndReason> {
  static constexpr const char* what = "end reason";
  static constexpr int count = kEndReasonCount;
  static std::string_view name(EndReason r) { return end_reason_name(r); }
};
template <>
struct EnumInfo<Mode> {
  static constexpr const char* what = "mode";
  static constexpr int count = kModeCount;
  static std::string_view name(Mode m) { return mode_name(m); }
};

template <class E>
std::optional<E> parse_enum(std::string_view text) {
  for (int i = 0; i < EnumInfo<E>::count; ++i) {
    const auto e = static_cast<E>(i);
    if (EnumInfo<E>::name(e) == text) return e;
  }
  return std::nullopt;
}

template <class E>
std::string enum_choices() {
  std::string out;
  for (int i = 0; i < EnumInfo<E>::count; ++i) {
    if (i > 0) out += ", ";
    out += EnumInfo<E>::name(static_cast<E>(i));
  }
  return out;
}

// ---------------------------------------------------------------------------
// Keys: a field name inside an object, or a position inside an array.

struct Key {
  std::string_view name;
  std::size_t index = 0;
  Key(const char* n) : name(n) {}       // NOLINT: implicit on purpose
  Key(std::string_view n) : name(n) {}  // NOLINT
  explicit Key(std::size_t i) : name(), index(i) {}
  bool in_array() const { return name.data() == nullptr; }
};

// Ranges shared by the state and the commands.
inline constexpr std::int64_t kMaxU8 = std::numeric_limits<std::uint8_t>::max();
inline constexpr std::int64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();

template <class T, class U>
concept Is = std::same_as<std::remove_const_t<T>, U>;

// ---------------------------------------------------------------------------
// JsonOut: cereal's JSONOutputArchive, compacted to one line by the caller.

class JsonOut {
 public:
  struct Config {
    bool include_seed = true;      // false for views: the seed is the match's secret
    bool sparse_students = false;  // commands: write only the colours present
  };
  JsonOut(cereal::JSONOutputArchive& ar, Config config) : ar_(ar), config_(config) {}

  bool include_seed() const { return config_.include_seed; }

  template <std::integral T>
  void integer(Key k, const T& x, std::int64_t /*lo*/, std::int64_t /*hi*/) {
    name(k);
    ar_.saveValue(static_cast<std::int64_t>(x));
  }
  // 64-bit values are written as decimal strings: JSON readers in other languages
  // often hold numbers as doubles and would lose the low bits.
  void u64_string(Key k, const std::uint64_t& x) {
    name(k);
    ar_.saveValue(std::to_string(x));
  }
  void boolean(Key k, const bool& b) {
    name(k);
    ar_.saveValue(b);
  }
  template <class E>
  void enumeration(Key k, const E& e) {
    name(k);
    ar_.saveValue(std::string(EnumInfo<E>::name(e)));
  }
  void students(Key k, const Students& s) {
    object(k, [&](JsonOut& o) {
      for (Color c : kAllColors)
        if (!config_.sparse_students || s[c] != 0) o.integer(color_name(c), s[c], 0, 0);
    });
  }
  template <class T, class F>
  void optional(Key k, const std::optional<T>& x, F&& inner) {
    if (x) {
      inner(*this, k, *x);
    } else {
      name(k);
      ar_.saveValue(nullptr);
    }
  }
  template <class F>
  void object(Key k, F&& body) {
    start(k);
    body(*this);
    ar_.finishNode();
  }
  template <class C, class F>
  void array(Key k, const C& items, F&& element) {
    start(k);
    ar_.makeArray();
    for (std::size_t i = 0; i < items.size(); ++i) element(*this, Key(i), items[i]);
    ar_.finishNode();
  }
  // A value given directly (the "type" of commands, the "schema" of states).
  void text(Key k, std::string_view s) {
    name(k);
    ar_.saveValue(std::string(s));
  }

 private:
  void name(Key k) {
    // cereal keeps the pointer until writeName, which we call right away.
    name_buffer_.assign(k.name.data() == nullptr ? "" : k.name);
    ar_.setNextName(k.in_array() ? nullptr : name_buffer_.c_str());
    ar_.writeName();
  }
  void start(Key k) {
    name_buffer_.assign(k.name.data() == nullptr ? "" : k.name);
    ar_.setNextName(k.in_array() ? nullptr : name_buffer_.c_str());
    ar_.startNode();
  }

  cereal::JSONOutputArchive& ar_;
  Config config_;
  std::string name_buffer_;
};

// cereal's writer always pretty-prints. Drop every whitespace character outside
// strings (inside strings control characters are escaped, so raw newlines and
// the indentation after them are only formatting).
std::string compact_json(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  bool in_string = false;
  bool escaped = false;
  for (char ch : in) {
    if (in_string) {
      out += ch;
      if (escaped) {
        escaped = false;
      } else if (ch == '\\') {
        escaped = true;
      } else if (ch == '"') {
        in_string = false;
      }
    } else if (ch == '"') {
      in_string = true;
      out += ch;
    } else if (ch != ' ' && ch != '\n' && ch != '\r' && ch != '\t') {
      out += ch;
    }
  }
  return out;
}

template <class F>
std::string write_json(JsonOut::Config config, F&& body) {
  std::ostringstream os;
  {
    cereal::JSONOutputArchive ar(os, cereal::JSONOutputArchive::Options::NoIndent());
    JsonOut out(ar, config);
    body(out);
  }  // the archive closes the root object when destroyed
  return compact_json(os.str());
}

// ---------------------------------------------------------------------------
// JsonIn: reads a rapidjson value, checking every type and range.

class JsonIn {
 public:
  // `node` is the object (or array) whose members are read; `path` names it in messages.
  JsonIn(const rapidjson::Value& node, std::string path, bool with_seed = true)
      : node_(node), path_(std::move(path)), with_seed_(with_seed) {}

  // A view's state has no seed: it is read as 0.
  bool include_seed() const { return with_seed_; }

  template <std::integral T>
  void integer(Key k, T& x, std::int64_t lo, std::int64_t hi) {
    x = static_cast<T>(read_integer(k, lo, hi));
  }
  // Accepts a decimal string (what we write) or a JSON number.
  void u64_string(Key k, std::uint64_t& x) {
    const rapidjson::Value& v = get(k);
    if (v.IsUint64()) {
      x = v.GetUint64();
      return;
    }
    if (!v.IsString()) fail("field " + quoted(describe(k)) + " must be a string of decimal digits");
    const std::string_view s(v.GetString(), v.GetStringLength());
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
    if (s.empty() || s.front() < '0' || s.front() > '9' || ec != std::errc() ||
        end != s.data() + s.size())
      fail("field " + quoted(describe(k)) +
           " must be a string of decimal digits (an unsigned 64-bit integer), got " + quoted(s));
  }
  void boolean(Key k, bool& b) {
    const rapidjson::Value& v = get(k);
    if (!v.IsBool()) fail("field " + quoted(describe(k)) + " must be true or false");
    b = v.GetBool();
  }
  template <class E>
  void enumeration(Key k, E& e) {
    const rapidjson::Value& v = get(k);
    if (!v.IsString())
      fail("field " + quoted(describe(k)) + " must be a string (one of " + enum_choices<E>() + ")");
    const std::string_view s(v.GetString(), v.GetStringLength());
    const std::optional<E> parsed = parse_enum<E>(s);
    if (!parsed)
      fail("field " + quoted(describe(k)) + ": unknown " + EnumInfo<E>::what + " " + quoted(s) +
           " (expected one of " + enum_choices<E>() + ")");
    e = *parsed;
  }
  // An object of colour names to counts; missing colours are 0, unknown ones an error.
  void students(Key k, Students& s) {
    const rapidjson::Value& v = get(k);
    if (!v.IsObject())
      fail("field " + quoted(describe(k)) +
           " must be an object of colour counts, like {\"red\": 1, \"blue\": 2}");
    JsonIn sub(v, describe(k));
    for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
      const std::string_view colour(it->name.GetString(), it->name.GetStringLength());
      if (!parse_enum<Color>(colour))
        fail("field " + quoted(describe(k)) + ": unknown colour " + quoted(colour) +
             " (expected one of " + enum_choices<Color>() + ")");
    }
    s = Students{};
    for (Color c : kAllColors)
      if (sub.find(color_name(c)) != nullptr) sub.integer(color_name(c), s[c], 0, kTotalStudents);
  }
  template <class T, class F>
  void optional(Key k, std::optional<T>& x, F&& inner) {
    if (get(k).IsNull()) {
      x.reset();
      return;
    }
    T value{};
    inner(*this, k, value);
    x = value;
  }
  template <class F>
  void object(Key k, F&& body) {
    const rapidjson::Value& v = get(k);
    if (!v.IsObject()) fail("field " + quoted(describe(k)) + " must be an object");
    JsonIn sub(v, describe(k));
    body(sub);
  }
  template <class T, std::size_t N, class F>
  void array(Key k, std::array<T, N>& items, F&& element) {
    const rapidjson::Value& v = get(k);
    if (!v.IsArray() || v.Size() != N)
      fail("field " + quoted(describe(k)) + " must be an array of " + std::to_string(N) +
           " elements");
    JsonIn sub(v, describe(k));
    for (std::size_t i = 0; i < N; ++i) element(sub, Key(i), items[i]);
  }
  template <class T, class F>
  void array(Key k, std::vector<T>& items, F&& element) {
    const rapidjson::Value& v = get(k);
    if (!v.IsArray()) fail("field " + quoted(describe(k)) + " must be an array");
    JsonIn sub(v, describe(k));
    items.assign(v.Size(), T{});
    for (std::size_t i = 0; i < items.size(); ++i) element(sub, Key(i), items[i]);
  }
  std::string_view text(Key k) {
    const rapidjson::Value& v = get(k);
    if (!v.IsString()) fail("field " + quoted(describe(k)) + " must be a string");
    return {v.GetString(), v.GetStringLength()};
  }
  std::int64_t read_integer(Key k, std::int64_t lo, std::int64_t hi) {
    const rapidjson::Value& v = get(k);
    if (!v.IsNumber()) fail("field " + quoted(describe(k)) + " must be an integer");
    if (v.IsInt64()) {
      const std::int64_t n = v.GetInt64();
      if (n >= lo && n <= hi) return n;
      fail("field " + quoted(describe(k)) + " must be an integer from " + std::to_string(lo) +
           " to " + std::to_string(hi) + ", got " + std::to_string(n));
    }
    if (v.IsUint64())
      fail("field " + quoted(describe(k)) + " must be an integer from " + std::to_string(lo) +
           " to " + std::to_string(hi) + ", got " + std::to_string(v.GetUint64()));
    fail("field " + quoted(describe(k)) + " must be an integer");
  }

  // The member named `name`, or nullptr.
  const rapidjson::Value* find(std::string_view name) const {
    if (!node_.IsObject()) return nullptr;
    for (auto it = node_.MemberBegin(); it != node_.MemberEnd(); ++it)
      if (std::string_view(it->name.GetString(), it->name.GetStringLength()) == name)
        return &it->value;
    return nullptr;
  }
  std::string describe(Key k) const {
    if (k.in_array()) return path_ + "[" + std::to_string(k.index) + "]";
    if (path_.empty()) return std::string(k.name);
    return path_ + "." + std::string(k.name);
  }

 private:
  const rapidjson::Value& get(Key k) const {
    if (k.in_array()) {
      if (!node_.IsArray() || k.index >= node_.Size())
        fail("field " + quoted(describe(k)) + " is missing");
      return node_[static_cast<rapidjson::SizeType>(k.index)];
    }
    const rapidjson::Value* v = find(k.name);
    if (v == nullptr) fail("field " + quoted(describe(k)) + " is missing");
    return *v;
  }

  const rapidjson::Value& node_;
  std::string path_;
  bool with_seed_ = true;
};

// Parses one JSON object (nothing before or after it).
void parse_object(rapidjson::Document& doc, std::string_view json, const char* what) {
  doc.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(json.data(),
                                                                                    json.size());
  if (doc.HasParseError())
    fail(std::string("invalid JSON for ") + what + " at offset " +
         std::to_string(doc.GetErrorOffset()) + ": " +
         rapidjson::GetParseError_En(doc.GetParseError()));
  if (!doc.IsObject()) fail(std::string("a ") + what + " must be a JSON object");
}

// ---------------------------------------------------------------------------
// Binary: cereal's portable binary archive (fixed little-endian layout),
// every value as its own width, booleans and enums as one byte.

class BinOut {
 public:
  explicit BinOut(cereal::PortableBinaryOutputArchive& ar) : ar_(ar) {}

  bool include_seed() const { return true; }

  template <std::integral T>
  void integer(Key, const T& x, std::int64_t, std::int64_t) {
    ar_(x);
  }
  void u64_string(Key, const std::uint64_t& x) { ar_(x); }
  void boolean(Key, const bool& b) { ar_(static_cast<std::uint8_t>(b ? 1 : 0)); }
  template <class E>
  void enumeration(Key, const E& e) {
    ar_(static_cast<std::uint8_t>(e));
  }
  void students(Key, const Students& s) {
    for (std::uint8_t n : s.count) ar_(n);
  }
  template <class T, class F>
  void optional(Key k, const std::optional<T>& x, F&& inner) {
    ar_(static_cast<std::uint8_t>(x ? 1 : 0));
    if (x) inner(*this, k, *x);
  }
  template <class F>
  void object(Key, F&& body) {
    body(*this);
  }
  template <class T, std::size_t N, class F>
  void array(Key, const std::array<T, N>& items, F&& element) {
    for (std::size_t i = 0; i < N; ++i) element(*this, Key(i), items[i]);
  }

 private:
  cereal::PortableBinaryOutputArchive& ar_;
};

class BinIn {
 public:
  explicit BinIn(cereal::PortableBinaryInputArchive& ar) : ar_(ar) {}

  bool include_seed() const { return true; }

  template <std::integral T>
  void integer(Key k, T& x, std::int64_t lo, std::int64_t hi) {
    T raw{};
    ar_(raw);
    const auto n = static_cast<std::int64_t>(raw);
    if (n < lo || n > hi)
      fail("binary state: " + quoted(k.name) + " is " + std::to_string(n) + ", outside " +
           std::to_string(lo) + ".." + std::to_string(hi));
    x = raw;
  }
  void u64_string(Key, std::uint64_t& x) { ar_(x); }
  void boolean(Key k, bool& b) { b = flag(k); }
  template <class E>
  void enumeration(Key k, E& e) {
    std::uint8_t raw = 0;
    ar_(raw);
    if (raw >= EnumInfo<E>::count)
      fail("binary state: " + quoted(k.name) + " holds " + std::to_string(raw) + ", not a valid " +
           EnumInfo<E>::what);
    e = static_cast<E>(raw);
  }
  void students(Key k, Students& s) {
    for (std::uint8_t& n : s.count) integer(k, n, 0, kTotalStudents);
  }
  template <class T, class F>
  void optional(Key k, std::optional<T>& x, F&& inner) {
    if (!flag(k)) {
      x.reset();
      return;
    }
    T value{};
    inner(*this, k, value);
    x = value;
  }
  template <class F>
  void object(Key, F&& body) {
    body(*this);
  }
  template <class T, std::size_t N, class F>
  void array(Key, std::array<T, N>& items, F&& element) {
    for (std::size_t i = 0; i < N; ++i) element(*this, Key(i), items[i]);
  }

 private:
  bool flag(Key k) {
    std::uint8_t raw = 0;
    ar_(raw);
    if (raw > 1)
      fail("binary state: " + quoted(k.name) + " holds " + std::to_string(raw) + ", not a boolean");
    return raw == 1;
  }

  cereal::PortableBinaryInputArchive& ar_;
};

// A read-only streambuf over existing bytes (no copy).
class MemoryBuf : public std::streambuf {
 public:
  explicit MemoryBuf(std::string_view bytes) {
    // std::streambuf wants char*, but nothing is ever written through it.
    char* p = const_cast<char*>(bytes.data());
    setg(p, p, p + bytes.size());
  }
  std::size_t remaining() const { return static_cast<std::size_t>(egptr() - gptr()); }
};

// ---------------------------------------------------------------------------
// The state, field by field (docs/state.md describes the same thing for people).

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
  v.optional("tower_color", b.tower_color, [](auto& o, Key k, auto& c) { o.enumeration(k, c); });
  v.boolean("holds_towers", b.holds_towers);
  v.boolean("skipped_planning", b.skipped_planning);
}

template <class V>
void walk(V& v, Is<IslandGroup> auto& g) {
  v.students("students", g.students);
  v.integer("first_tile", g.first_tile, 0, kIslandTiles - 1);
  v.integer("tiles", g.tiles, 0, kIslandTiles);
  v.optional("tower", g.tower, [](auto& o, Key k, auto& c) { o.enumeration(k, c); });
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
  v.optional("active", t.active, [](auto& o, Key k, auto& c) { o.enumeration(k, c); });
  v.optional("excluded_color", t.excluded_color,
             [](auto& o, Key k, auto& c) { o.enumeration(k, c); });
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

template <class V>
void seat_field(V& v, Key k, auto& seat) {
  v.integer(k, seat, kNoSeat, kMaxPlayers - 1);
}

template <class V>
void walk(V& v, Is<State> auto& s) {
  v.object("options", [&](auto& o) {
    o.integer("players", s.options.players, 2, kMaxPlayers);
    o.enumeration("mode", s.options.mode);
  });
  if (v.include_seed()) v.u64_string("seed", s.seed);
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

// Checks between fields, after a decode.
void check_decoded_state(const State& s) {
  if (s.mother_nature >= s.group_count)
    fail("mother_nature (" + std::to_string(s.mother_nature) + ") must be below group_count (" +
         std::to_string(s.group_count) + ")");
}

// ---------------------------------------------------------------------------
// Commands, field by field.

template <class V>
void walk(V& v, Is<CreateMatch> auto& c) {
  v.integer("players", c.options.players, 0, kMaxU8);  // the rules check 2..4
  v.enumeration("mode", c.options.mode);
  v.u64_string("seed", c.seed);
}
template <class V>
void walk(V& v, Is<ChooseWizard> auto& c) {
  v.integer("wizard", c.wizard, 0, 3);
}
template <class V>
void walk(V& v, Is<ChooseTowerColor> auto& c) {
  v.enumeration("color", c.color);
}
template <class V>
void walk(V& v, Is<PlayAssistant> auto& c) {
  v.integer("value", c.value, 0, kMaxU8);
}
template <class V>
void walk(V& v, Is<MoveToDining> auto& c) {
  v.enumeration("color", c.color);
}
template <class V>
void walk(V& v, Is<MoveToIsland> auto& c) {
  v.enumeration("color", c.color);
  v.integer("island", c.island, 0, kMaxU8);
}
template <class V>
void walk(V& v, Is<MoveMotherNature> auto& c) {
  v.integer("steps", c.steps, 0, kMaxU8);
}
template <class V>
void walk(V& v, Is<ChooseCloud> auto& c) {
  v.integer("cloud", c.cloud, 0, kMaxU8);
}
template <class V>
void walk(V& v, Is<UseMonk> auto& c) {
  v.enumeration("color", c.color);
  v.integer("island", c.island, 0, kMaxU8);
}
template <class V>
void walk(V& v, Is<UseHerald> auto& c) {
  v.integer("island", c.island, 0, kMaxU8);
}
template <class V>
void walk(V& v, Is<UseGrandmaHerbs> auto& c) {
  v.integer("island", c.island, 0, kMaxU8);
}
template <class V>
void walk(V& v, Is<UseJester> auto& c) {
  v.students("from_card", c.from_card);
  v.students("from_entrance", c.from_entrance);
}
template <class V>
void walk(V& v, Is<UseMushroomHunter> auto& c) {
  v.enumeration("color", c.color);
}
template <class V>
void walk(V& v, Is<UseMinstrel> auto& c) {
  v.students("from_entrance", c.from_entrance);
  v.students("from_dining", c.from_dining);
}
template <class V>
void walk(V& v, Is<UsePrincess> auto& c) {
  v.enumeration("color", c.color);
}
template <class V>
void walk(V& v, Is<UseThief> auto& c) {
  v.enumeration("color", c.color);
}
// Commands without parameters (skip_turn, use_farmer, ...).
template <class V, class T>
requires std::is_empty_v<T>
void walk(V&, T&) {}

// The "type" names of every alternative, in variant order, taken from command_type()
// so the wire name and the decoder can never disagree.
template <std::size_t... I>
std::array<std::string, sizeof...(I)> command_type_names(std::index_sequence<I...>) {
  return {std::string(command_type(Command(std::in_place_index<I>)))...};
}
const auto& all_command_types() {
  static const auto names =
      command_type_names(std::make_index_sequence<std::variant_size_v<Command>>{});
  return names;
}

template <std::size_t... I>
Command default_command(std::size_t i, std::index_sequence<I...>) {
  Command out;
  ((i == I ? (out.emplace<I>(), true) : false) || ...);
  return out;
}

void write_command(JsonOut& out, const Command& c) {
  out.text("type", command_type(c));
  std::visit([&](const auto& alt) { walk(out, alt); }, c);
}

Command read_command(JsonIn& in) {
  const std::string_view type = in.text("type");
  const auto& names = all_command_types();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] != type) continue;
    Command c = default_command(i, std::make_index_sequence<std::variant_size_v<Command>>{});
    std::visit([&](auto& alt) { walk(in, alt); }, c);
    return c;
  }
  fail("unknown command type " + quoted(type));
}

// ---------------------------------------------------------------------------
// Events.

void write_event(JsonOut& out, const Event& e) {
  out.integer("v", kEventSchemaVersion, 0, 0);
  out.text("type", command_type(e.command));
  seat_field(out, "seat", e.seat);
  out.object("command", [&](JsonOut& o) { write_command(o, e.command); });
  out.array("drawn", e.drawn, [](JsonOut& a, Key k, Color c) { a.enumeration(k, c); });
  out.array("picks", e.picks,
            [](JsonOut& a, Key k, std::uint8_t p) { a.integer(k, p, 0, kMaxU8); });
}

Event read_event(JsonIn& in) {
  const std::int64_t version = in.read_integer("v", std::numeric_limits<std::int64_t>::min(),
                                               std::numeric_limits<std::int64_t>::max());
  if (version > kEventSchemaVersion)
    fail("event schema version " + std::to_string(version) +
         " is newer than this build understands (" + std::to_string(kEventSchemaVersion) +
         "): upgrade the server");
  if (version < kEventSchemaVersion)
    fail("event schema version " + std::to_string(version) +
         " must be upcast before decoding (this build reads version " +
         std::to_string(kEventSchemaVersion) + ")");
  Event e;
  seat_field(in, "seat", e.seat);
  in.object("command", [&](JsonIn& o) { e.command = read_command(o); });
  const std::string_view type = in.text("type");
  if (type != command_type(e.command))
    fail("event type " + quoted(type) + " does not match its command's type " +
         quoted(command_type(e.command)));
  in.array("drawn", e.drawn, [](JsonIn& a, Key k, Color& c) { a.enumeration(k, c); });
  in.array("picks", e.picks, [](JsonIn& a, Key k, std::uint8_t& p) { a.integer(k, p, 0, kMaxU8); });
  return e;
}

// ---------------------------------------------------------------------------
// The API boundary: every failure becomes a DecodeError.

template <class T, class F>
std::expected<T, DecodeError> decode(const char* what, F&& body) {
  try {
    return body();
  } catch (const Fail& f) {
    return std::unexpected(DecodeError{f.message});
  } catch (const cereal::Exception& e) {
    return std::unexpected(
        DecodeError{std::string(what) + " is truncated or corrupt: " + e.what()});
  } catch (const std::exception& e) {
    return std::unexpected(DecodeError{std::string("cannot decode ") + what + ": " + e.what()});
  }
}

}  // namespace

std::string state_to_json(const State& s) {
  return write_json({}, [&](JsonOut& out) {
    out.integer("schema", kStateSchemaVersion, 0, 0);
    walk(out, s);
  });
}

std::expected<State, DecodeError> state_from_json(std::string_view json) {
  return decode<State>("state JSON", [&] {
    rapidjson::Document doc;
    parse_object(doc, json, "state");
    JsonIn in(doc, "");
    const std::int64_t schema = in.read_integer("schema", std::numeric_limits<std::int64_t>::min(),
                                                std::numeric_limits<std::int64_t>::max());
    if (schema != kStateSchemaVersion)
      fail("state schema version " + std::to_string(schema) +
           " is not supported (this build reads version " + std::to_string(kStateSchemaVersion) +
           ")");
    State s;
    walk(in, s);
    check_decoded_state(s);
    return s;
  });
}

std::string state_to_binary(const State& s) {
  std::ostringstream os;
  {
    cereal::PortableBinaryOutputArchive ar(os);
    ar(static_cast<std::uint32_t>(kStateSchemaVersion));
    BinOut out(ar);
    walk(out, s);
  }
  return std::move(os).str();
}

std::expected<State, DecodeError> state_from_binary(std::string_view bytes) {
  return decode<State>("binary state", [&] {
    // cereal's first byte says whether the writer was little-endian (1) or not (0).
    if (bytes.empty() || static_cast<unsigned char>(bytes.front()) > 1)
      fail("not a binary state (bad header byte)");
    MemoryBuf buf(bytes);
    std::istream is(&buf);
    cereal::PortableBinaryInputArchive ar(is);
    std::uint32_t schema = 0;
    ar(schema);
    if (schema != kStateSchemaVersion)
      fail("binary state schema version " + std::to_string(schema) +
           " is not supported (this build reads version " + std::to_string(kStateSchemaVersion) +
           ")");
    State s;
    BinIn in(ar);
    walk(in, s);
    if (buf.remaining() != 0)
      fail("binary state has " + std::to_string(buf.remaining()) + " unexpected trailing bytes");
    check_decoded_state(s);
    return s;
  });
}

std::string view_to_json(const View& v) {
  return write_json({.include_seed = false}, [&](JsonOut& out) {
    seat_field(out, "viewer", v.viewer);
    out.object("state", [&](JsonOut& o) {
      o.integer("schema", kStateSchemaVersion, 0, 0);
      walk(o, v.state);
    });
  });
}

std::expected<View, DecodeError> view_from_json(std::string_view json) {
  return decode<View>("view JSON", [&] {
    rapidjson::Document doc;
    parse_object(doc, json, "view");
    JsonIn in(doc, "");
    View v;
    v.viewer = static_cast<Seat>(in.read_integer("viewer", kNoSeat, kMaxPlayers - 1));
    auto it = doc.FindMember("state");
    if (it == doc.MemberEnd() || !it->value.IsObject()) fail("field \"state\" must be an object");
    JsonIn st(it->value, "state", /*with_seed=*/false);
    const std::int64_t schema = st.read_integer("schema", std::numeric_limits<std::int64_t>::min(),
                                                std::numeric_limits<std::int64_t>::max());
    if (schema != kStateSchemaVersion)
      fail("state schema version " + std::to_string(schema) +
           " is not supported (this build reads version " + std::to_string(kStateSchemaVersion) +
           ")");
    walk(st, v.state);
    check_decoded_state(v.state);
    return v;
  });
}

std::string command_to_json(const Command& c) {
  return write_json({.sparse_students = true}, [&](JsonOut& out) { write_command(out, c); });
}

std::expected<Command, DecodeError> command_from_json(std::string_view json) {
  return decode<Command>("command", [&] {
    rapidjson::Document doc;
    parse_object(doc, json, "command");
    JsonIn in(doc, "");
    return read_command(in);
  });
}

std::string event_to_json(const Event& e) {
  return write_json({.sparse_students = true}, [&](JsonOut& out) { write_event(out, e); });
}

std::expected<Event, DecodeError> event_from_json(std::string_view json) {
  return decode<Event>("event", [&] {
    rapidjson::Document doc;
    parse_object(doc, json, "event");
    JsonIn in(doc, "");
    return read_event(in);
  });
}

}  // namespace eryantis::rules
