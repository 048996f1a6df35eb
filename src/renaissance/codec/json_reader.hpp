#pragma once
// Reads a value back from its JSON by walking its fields (fields.hpp), the inverse of
// JsonWriter. Total: the first problem stops the reading and is reported with the path of its
// field ("boards[1].depots[0].count: an integer 0..255"). Strict: an object holding a member the
// walk does not name is refused (a misspelt optional field would otherwise be silently absent).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/json/json.hpp"
#include "eryantis/renaissance/rules/fields.hpp"
#include "names.hpp"
#include "seed_text.hpp"

namespace eryantis::renaissance::codec::detail {

class JsonReader {
 public:
  // `in_command`: resource fields take any name (decision 42) and `white_choices` may be left
  // out (decision 52). `sparse`: absent lists are empty and absent integers their lowest value.
  JsonReader(const json::Value& object, bool with_seed, bool in_command, bool sparse = false)
      : with_seed_(with_seed), in_command_(in_command), sparse_(sparse) {
    frames_.push_back(Frame{&object, {}, {}});
  }

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  void fail(std::string path, std::string what) {
    if (error_.empty()) error_ = (path.empty() ? std::string() : path + ": ") + what;
  }
  // Refuses members of the current object the walk did not read (`also`: names read elsewhere).
  void finish_object(std::string_view path, std::initializer_list<std::string_view> also = {}) {
    const json::Value& v = *frames_.back().value;
    if (!ok() || !v.IsObject()) return;
    for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
      const std::string_view name(it->name.GetString(), it->name.GetStringLength());
      bool known = false;
      for (std::string_view seen : frames_.back().read) known = known || seen == name;
      for (std::string_view seen : also) known = known || seen == name;
      if (!known) {
        fail(std::string(path), "unknown field \"" + std::string(name) + "\"");
        return;
      }
    }
  }

  bool include_seed() const { return with_seed_; }

  template <std::integral T>
  void integer(fields::Key k, T& x, std::int64_t lo, std::int64_t hi) {
    const json::Value* v = find(k);
    if (!ok()) return;
    if (!v) {
      if (sparse_) {
        x = static_cast<T>(lo);
        return;
      }
      return missing(k);
    }
    if (!v->IsInt64() || v->GetInt64() < lo || v->GetInt64() > hi)
      return fail(path(k), "an integer " + std::to_string(lo) + ".." + std::to_string(hi));
    x = static_cast<T>(v->GetInt64());
  }
  void seed(fields::Key k, MatchSeed& s) {
    const json::Value* v = find(k);
    if (!ok()) return;
    if (!v) return missing(k);
    std::optional<MatchSeed> read;
    if (v->IsString()) read = seed_from_decimal(std::string_view(v->GetString(), v->GetStringLength()));
    if (!read) return fail(path(k), "a decimal string 0..2^128-1");
    s = *read;
  }
  void boolean(fields::Key k, bool& b) {
    const json::Value* v = find(k);
    if (!ok()) return;
    if (!v) return missing(k);
    if (!v->IsBool()) return fail(path(k), "true or false");
    b = v->GetBool();
  }
  template <class E>
  void enumeration(fields::Key k, E& e) {
    const json::Value* v = find(k);
    if (!ok()) return;
    if (!v) return missing(k);
    std::optional<E> read;
    if (v->IsString()) read = from_name<E>(std::string_view(v->GetString(), v->GetStringLength()), in_command_);
    if (!read) return fail(path(k), "one of " + expected_names<E>());
    e = *read;
  }
  template <class T, class F>
  void optional(fields::Key k, std::optional<T>& x, F&& inner) {
    const json::Value* v = find(k);
    if (!ok()) return;
    if (!v || v->IsNull()) {
      x.reset();
      return;
    }
    x.emplace();
    // A payment names only what is taken (9.2): an absent type or source is 0.
    const bool sparse = sparse_;
    if constexpr (std::is_same_v<T, Payment>) sparse_ = true;
    inner(*this, k, *x);
    sparse_ = sparse;
  }
  template <class F>
  void object(fields::Key k, F&& body) {
    const json::Value* v = find(k);
    if (!ok()) return;
    if (!v && sparse_) return;  // every field at its default
    // A layout's leader depots may be left out whole, as each of its entries may (decision 46).
    if (!v && in_command_ && k.name == "leader_depots") return;
    if (!v) return missing(k);
    if (!v->IsObject()) return fail(path(k), "an object");
    enter(k, v);
    body(*this);
    finish_object(here());
    leave();
  }
  template <class C, class F>
  void array(fields::Key k, C& items, F&& element) {
    const json::Value* v = find(k);
    if (!ok()) return;
    if (!v) return missing(k);
    if (!v->IsArray() || v->Size() != items.size())
      return fail(path(k), "an array of " + std::to_string(items.size()));
    enter(k, v);
    for (std::size_t i = 0; i < items.size() && ok(); ++i) element(*this, fields::Key(i), items[i]);
    leave();
  }
  template <class T, class F>
  void list(fields::Key k, std::vector<T>& items, F&& element, std::size_t max) {
    const json::Value* v = find(k);
    if (!ok()) return;
    items.clear();
    if (!v) {
      // Decision 52: white_choices may be left out; an event's empty outcomes are.
      if (sparse_ || (in_command_ && k.name == "white_choices")) return;
      return missing(k);
    }
    if (!v->IsArray() || v->Size() > max)
      return fail(path(k), "an array of at most " + std::to_string(max));
    items.resize(v->Size());
    enter(k, v);
    for (std::size_t i = 0; i < items.size() && ok(); ++i) element(*this, fields::Key(i), items[i]);
    leave();
  }

  // Optional (a state written before the field existed, or edited by hand, reads as it is); when
  // present, every part must be what the fields already read give, or the value is refused
  // naming both (a file whose fields disagree is damaged: nothing says which one is right).
  template <class T, class F>
  void derived(fields::Key k, const T& from, F&& compute) {
    const json::Value* v = find(k);
    if (!ok() || !v) return;
    const auto want = compute(from);
    auto got = want;  // parts the walk does not name stay equal
    object(k, [&](auto& o) { fields::walk(o, got); });
    if (ok() && got != want)
      fail(path(k), "derived from the other fields: " + describe(want) + " (read: " + describe(got) +
                        "; leave it out to have it derived)");
  }

  // The path of the current object ("boards[1].depots[0]").
  std::string here() const {
    std::string out;
    for (std::size_t i = 1; i < frames_.size(); ++i) out += frames_[i].name;
    if (!out.empty() && out[0] == '.') out.erase(0, 1);
    return out;
  }

 private:
  // "total 49, cards 30, ...": a record of integers, in walk order.
  struct Describer {
    std::string text;
    template <std::integral T>
    void integer(fields::Key k, const T& x, std::int64_t, std::int64_t) {
      text += (text.empty() ? "" : ", ") + std::string(k.name) + " " + std::to_string(x);
    }
  };
  template <class T>
  static std::string describe(const T& value) {
    Describer d;
    fields::walk(d, value);
    return d.text;
  }

  struct Frame {
    const json::Value* value;
    std::vector<std::string_view> read;  // members read so far (objects)
    std::string name;                    // ".key" or "[i]"
  };
  static std::string piece(fields::Key k) {
    return k.in_array() ? "[" + std::to_string(k.index) + "]" : "." + std::string(k.name);
  }
  std::string path(fields::Key k) const {
    std::string out = here() + piece(k);
    if (!out.empty() && out[0] == '.') out.erase(0, 1);
    return out;
  }
  void missing(fields::Key k) { fail(path(k), "missing"); }
  const json::Value* find(fields::Key k) {
    Frame& f = frames_.back();
    const json::Value& v = *f.value;
    if (k.in_array()) return v.IsArray() && k.index < v.Size() ? &v[static_cast<rapidjson::SizeType>(k.index)] : nullptr;
    if (!v.IsObject()) return nullptr;
    f.read.push_back(k.name);
    const auto it = v.FindMember(rapidjson::Value(rapidjson::StringRef(k.name.data(), static_cast<rapidjson::SizeType>(k.name.size()))));
    return it == v.MemberEnd() ? nullptr : &it->value;
  }
  void enter(fields::Key k, const json::Value* v) { frames_.push_back(Frame{v, {}, piece(k)}); }
  void leave() { frames_.pop_back(); }

  std::vector<Frame> frames_;
  std::string error_;
  bool with_seed_;
  bool in_command_;
  bool sparse_;
};

}  // namespace eryantis::renaissance::codec::detail
