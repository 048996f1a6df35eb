#pragma once
// Writes a value's JSON by walking its fields (fields.hpp): keys are the walk's names, enums
// their wire names, the seed a decimal string, an absent optional no key at all (null inside an
// array). In sparse mode (an event's recorded outcomes) empty lists and integers at their lowest
// value are left out too.
#include <algorithm>
#include <cassert>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "eryantis/json/json.hpp"
#include "eryantis/renaissance/rules/fields.hpp"
#include "names.hpp"
#include "seed_text.hpp"

namespace eryantis::renaissance::codec::detail {

// A compact JSON writer for what the walks write: objects, arrays, integers, booleans, null and
// strings that need no escaping (the walk's keys, the enumerations' wire names, the seed's
// digits). It writes exactly the bytes rapidjson's Writer writes for them (codec_test compares
// every value of random games against rapidjson's re-serialisation), without rapidjson's
// per-value bookkeeping: a separator is due unless the level is new or a key was just written.
// The legal lists written this way were the largest cost of a Renaissance server under load
// (17 % of its CPU with rapidjson's Writer, issue 25).
class Writer {
 public:
  explicit Writer(json::StringSink& out) : out_(out) {}

  void StartObject() { open('{'); }
  void EndObject() { close('}'); }
  void StartArray() { open('['); }
  void EndArray() { close(']'); }
  void Key(std::string_view k) {
    plain_string(k);
    out_.Put(':');
    after_key_ = true;
  }
  void Int(int v) { number(v); }
  void Int64(std::int64_t v) { number(v); }
  void Uint(unsigned v) { number(v); }
  void Uint64(std::uint64_t v) { number(v); }
  void Bool(bool b) {
    separate();
    out_.append(b ? std::string_view("true") : std::string_view("false"));
  }
  void Null() {
    separate();
    out_.append("null");
  }
  void plain_string(std::string_view s) {
    assert(std::all_of(s.begin(), s.end(), [](char c) {
      return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x80 &&
             c != '"' && c != '\\';
    }));
    separate();
    out_.reserve(s.size() + 2);
    out_.put_unchecked('"');
    out_.append(s);
    out_.put_unchecked('"');
  }

 private:
  template <class T>
  void number(T v) {
    separate();
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
    out_.append(std::string_view(digits, static_cast<std::size_t>(end - digits)));
  }
  // Before a value or a key: a comma unless it opens its level or follows its key.
  void separate() {
    if (after_key_) after_key_ = false;
    else if (!first_) out_.Put(',');
    first_ = false;
  }
  void open(char c) {
    separate();
    out_.Put(c);
    first_ = true;
  }
  // A closed object or array was a value of the level around it: that level is not new.
  void close(char c) {
    out_.Put(c);
    first_ = false;
    after_key_ = false;
  }

  json::StringSink& out_;
  bool first_ = true;
  bool after_key_ = false;
};

class JsonWriter {
 public:
  JsonWriter(Writer& w, bool with_seed, bool sparse = false)
      : w_(w), with_seed_(with_seed), sparse_(sparse) {}

  bool include_seed() const { return with_seed_; }

  template <std::integral T>
  void integer(fields::Key k, const T& x, std::int64_t lo, std::int64_t) {
    if (sparse_ && static_cast<std::int64_t>(x) == lo) return;
    key(k);
    if constexpr (std::is_signed_v<T>)
      w_.Int64(x);
    else
      w_.Uint64(x);
  }
  void seed(fields::Key k, const MatchSeed& s) {
    key(k);
    string(seed_to_decimal(s));
  }
  void boolean(fields::Key k, const bool& b) {
    key(k);
    w_.Bool(b);
  }
  template <class E>
  void enumeration(fields::Key k, const E& e) {
    key(k);
    string(name_of(e));
  }
  template <class T, class F>
  void optional(fields::Key k, const std::optional<T>& x, F&& inner) {
    if constexpr (std::is_same_v<T, Payment>) {
      // A payment names only what is taken: {"coin":{"depot":1,"strongbox":2}} (9.2: absent = 0).
      if (x) write_payment(k, *x);
      return;
    }
    if (x) {
      inner(*this, k, *x);
    } else if (k.in_array()) {
      w_.Null();
    }
  }
  template <class F>
  void object(fields::Key k, F&& body) {
    key(k);
    w_.StartObject();
    const bool sparse = sparse_;
    body(*this);
    sparse_ = sparse;
    w_.EndObject();
  }
  template <class C, class F>
  void array(fields::Key k, const C& items, F&& element) {
    key(k);
    w_.StartArray();
    for (std::size_t i = 0; i < items.size(); ++i) element(*this, fields::Key(i), items[i]);
    w_.EndArray();
  }
  template <class T, class F>
  void list(fields::Key k, const std::vector<T>& items, F&& element, std::size_t) {
    if (sparse_ && items.empty()) return;
    // Inside a list every element is written, whatever its value.
    const bool sparse = sparse_;
    sparse_ = false;
    key(k);
    w_.StartArray();
    for (std::size_t i = 0; i < items.size(); ++i) element(*this, fields::Key(i), items[i]);
    w_.EndArray();
    sparse_ = sparse;
  }

  // Computed now from the value being written (a view's board from the view: the same points,
  // since they count nothing hidden).
  template <class T, class F>
  void derived(fields::Key k, const T& from, F&& compute) {
    const auto value = compute(from);
    object(k, [&](auto& o) { fields::walk(o, value); });
  }

  void write_payment(fields::Key k, const Payment& p) {
    key(k);
    w_.StartObject();
    for (Resource r : kAllResources) {
      const Take& t = p[index(r)];
      if (t.total() == 0) continue;
      key(resource_name(r));
      w_.StartObject();
      for (auto [name, n] : {std::pair<const char*, int>{"depot", t.depot},
                             {"leader", t.leader},
                             {"strongbox", t.strongbox}})
        if (n != 0) {
          key(name);
          w_.Uint(static_cast<unsigned>(n));
        }
      w_.EndObject();
    }
    w_.EndObject();
  }

  // Keys are the walk's names and strings are wire names or digits: none needs escaping.
  void key(fields::Key k) {
    if (!k.in_array()) w_.Key(k.name);
  }
  void string(std::string_view s) { w_.plain_string(s); }

 private:
  Writer& w_;
  bool with_seed_;
  bool sparse_;
};

}  // namespace eryantis::renaissance::codec::detail
