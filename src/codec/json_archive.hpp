#pragma once
// The JSON archives: two visitors over the field walks (eryantis/rules/fields.hpp).
//   JsonOut - writes compact JSON with rapidjson's Writer (names for enums and colours),
//   JsonIn  - reads a rapidjson DOM, with messages that name the offending field.
// Failures are thrown as Fail (failure.hpp) and caught at the API boundary.
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "enum_names.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/rules/fields.hpp"
#include "failure.hpp"
#include "read_optional.hpp"
#include "seed_text.hpp"

namespace eryantis::codec::detail {

using rules::fields::Key;
using json::LineDocument;
using json::PooledDocument;
using json::StringSink;

// ---------------------------------------------------------------------------
// JsonOut: writes compact JSON in one pass, straight into a std::string.
// (It used to go through cereal's JSONOutputArchive, which always pretty-prints,
// and a compaction pass: ~2x the work, an ostringstream and two copies. The
// bytes are the same: rapidjson's Writer is what cereal's PrettyWriter extends.)

using JsonWriter = rapidjson::Writer<StringSink>;

class JsonOut {
 public:
  struct Config {
    bool include_seed = true;      // false for views: the seed is the match's secret
    bool sparse_students = false;  // commands: write only the colours present
  };
  JsonOut(JsonWriter& w, Config config) : w_(w), config_(config) {}

  bool include_seed() const { return config_.include_seed; }

  template <std::integral T>
  void integer(Key k, const T& x, std::int64_t /*lo*/, std::int64_t /*hi*/) {
    name(k);
    w_.Int64(static_cast<std::int64_t>(x));
  }
  // Seeds are written as decimal strings: JSON readers in other languages often
  // hold numbers as doubles and would lose the low bits.
  void seed(Key k, const rules::MatchSeed& s) {
    name(k);
    string(seed_to_decimal(s));
  }
  void boolean(Key k, const bool& b) {
    name(k);
    w_.Bool(b);
  }
  template <class E>
  void enumeration(Key k, const E& e) {
    name(k);
    string(EnumInfo<E>::name(e));
  }
  void students(Key k, const rules::Students& s) {
    object(k, [&](JsonOut& o) {
      for (rules::Color c : rules::kAllColors)
        if (!config_.sparse_students || s[c] != 0) o.integer(rules::color_name(c), s[c], 0, 0);
    });
  }
  template <class T, class F>
  void optional(Key k, const std::optional<T>& x, F&& inner) {
    if (x) {
      inner(*this, k, *x);
    } else {
      name(k);
      w_.Null();
    }
  }
  template <class F>
  void object(Key k, F&& body) {
    name(k);
    w_.StartObject();
    body(*this);
    w_.EndObject();
  }
  template <class C, class F>
  void array(Key k, const C& items, F&& element) {
    name(k);
    w_.StartArray();
    for (std::size_t i = 0; i < items.size(); ++i) element(*this, Key(i), items[i]);
    w_.EndArray();
  }
  // A value given directly (the "type" of commands, the "schema" of states).
  void text(Key k, std::string_view s) {
    name(k);
    string(s);
  }

 private:
  void name(Key k) {
    if (k.in_array()) return;
    w_.Key(k.name.data() == nullptr ? "" : k.name.data(),
           static_cast<rapidjson::SizeType>(k.name.size()));
  }
  void string(std::string_view s) {
    w_.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  }

  JsonWriter& w_;
  Config config_;
};

// One JSON object, `body` writing its members. `expected_bytes` is reserved at
// once: growing by doubling leaves a trail of freed 512 B..4 KiB blocks per
// state, and the heap keeps them (a view is up to ~3.7 KiB, an event ~200 B).
template <class F>
std::string write_json(JsonOut::Config config, F&& body, std::size_t expected_bytes = 256) {
  std::string text;
  text.reserve(expected_bytes);
  StringSink sink{text};
  JsonWriter writer(sink);
  writer.StartObject();
  JsonOut out(writer, config);
  body(out);
  writer.EndObject();
  sink.finish();
  return text;
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
  // Accepts a decimal string (what we write) or a JSON number below 2^64.
  void seed(Key k, rules::MatchSeed& x) {
    const rapidjson::Value& v = get(k);
    if (v.IsUint64()) {
      x = rules::MatchSeed{v.GetUint64(), 0};
      return;
    }
    if (!v.IsString()) fail("field " + quoted(describe(k)) + " must be a string of decimal digits");
    const std::string_view s(v.GetString(), v.GetStringLength());
    const std::optional<rules::MatchSeed> parsed = seed_from_decimal(s);
    if (!parsed)
      fail("field " + quoted(describe(k)) +
           " must be a string of decimal digits (an unsigned 128-bit integer), got " + quoted(s));
    x = *parsed;
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
  void students(Key k, rules::Students& s) {
    const rapidjson::Value& v = get(k);
    if (!v.IsObject())
      fail("field " + quoted(describe(k)) +
           " must be an object of colour counts, like {\"red\": 1, \"blue\": 2}");
    JsonIn sub(v, describe(k));
    for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
      const std::string_view colour(it->name.GetString(), it->name.GetStringLength());
      if (!parse_enum<rules::Color>(colour))
        fail("field " + quoted(describe(k)) + ": unknown colour " + quoted(colour) +
             " (expected one of " + enum_choices<rules::Color>() + ")");
    }
    s = rules::Students{};
    for (rules::Color c : rules::kAllColors)
      if (sub.find(rules::color_name(c)) != nullptr)
        sub.integer(rules::color_name(c), s[c], 0, rules::kTotalStudents);
  }
  template <class T, class F>
  void optional(Key k, std::optional<T>& x, F&& inner) {
    read_optional(*this, !get(k).IsNull(), k, x, std::forward<F>(inner));
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

// Parses one JSON object (nothing before or after it) into `doc`; `what` names it in messages.
void parse_object(PooledDocument& doc, std::string_view json, const char* what);

// Parses `json` as one `object` and reads it with `read(JsonIn&)`; every failure
// becomes a DecodeError (`what` names the input in the messages of library errors).
template <class T, class Read>
std::expected<T, DecodeError> read_json_object(std::string_view json, const char* what,
                                               const char* object, Read&& read) {
  return decode<T>(what, [&] {
    LineDocument line;
    PooledDocument& doc = line.doc();
    parse_object(doc, json, object);
    JsonIn in(doc, "");
    return read(in);
  });
}

}  // namespace eryantis::codec::detail
