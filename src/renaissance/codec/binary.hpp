#pragma once
// The binary form of a state (snapshots): every field in walk order (fields.hpp), each integer
// as the LEB128 of its distance from the field's lowest value, a flag byte before an optional,
// a length before a list, the seed as 16 little-endian bytes. No names: the walk is the schema,
// and kBinarySchema changes with it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/renaissance/rules/fields.hpp"
#include "names.hpp"

namespace eryantis::renaissance::codec::detail {

class BinaryWriter {
 public:
  explicit BinaryWriter(std::string& out) : out_(out) {}
  bool include_seed() const { return true; }
  template <std::integral T>
  void integer(fields::Key, const T& x, std::int64_t lo, std::int64_t) {
    varint(static_cast<std::uint64_t>(static_cast<std::int64_t>(x) - lo));
  }
  void seed(fields::Key, const MatchSeed& s) {
    word(s.lo);
    word(s.hi);
  }
  void boolean(fields::Key, const bool& b) { out_.push_back(b ? 1 : 0); }
  template <class E>
  void enumeration(fields::Key, const E& e) {
    out_.push_back(static_cast<char>(static_cast<std::uint8_t>(e)));
  }
  template <class T, class F>
  void optional(fields::Key k, const std::optional<T>& x, F&& inner) {
    out_.push_back(x ? 1 : 0);
    if (x) inner(*this, k, *x);
  }
  template <class F>
  void object(fields::Key, F&& body) {
    body(*this);
  }
  template <class C, class F>
  void array(fields::Key, const C& items, F&& element) {
    for (std::size_t i = 0; i < items.size(); ++i) element(*this, fields::Key(i), items[i]);
  }
  template <class T, class F>
  void list(fields::Key, const std::vector<T>& items, F&& element, std::size_t) {
    varint(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) element(*this, fields::Key(i), items[i]);
  }
  void derived(fields::Key, const auto&, auto&&) {}  // not stored: the reader derives it again

 private:
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void word(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  std::string& out_;
};

class BinaryReader {
 public:
  explicit BinaryReader(std::string_view in) : in_(in) {}
  bool ok() const { return error_.empty(); }
  bool at_end() const { return pos_ == in_.size(); }
  const std::string& error() const { return error_; }
  bool include_seed() const { return true; }

  template <std::integral T>
  void integer(fields::Key k, T& x, std::int64_t lo, std::int64_t hi) {
    const std::optional<std::uint64_t> v = varint();
    if (!v) return;
    if (*v > static_cast<std::uint64_t>(hi - lo)) return fail(k, "out of range");
    x = static_cast<T>(static_cast<std::int64_t>(*v) + lo);
  }
  void seed(fields::Key, MatchSeed& s) {
    s.lo = word();
    s.hi = word();
  }
  void boolean(fields::Key k, bool& b) {
    const int v = byte();
    if (v > 1) return fail(k, "not a flag");
    b = v == 1;
  }
  template <class E>
  void enumeration(fields::Key k, E& e) {
    const int v = byte();
    if (v < 0) return;
    if (v >= Enum<E>::kCount) return fail(k, "not a value of its enumeration");
    e = static_cast<E>(v);
  }
  template <class T, class F>
  void optional(fields::Key k, std::optional<T>& x, F&& inner) {
    const int flag = byte();
    if (flag > 1) return fail(k, "not a flag");
    if (flag != 1) {
      x.reset();
      return;
    }
    x.emplace();
    inner(*this, k, *x);
  }
  template <class F>
  void object(fields::Key, F&& body) {
    if (ok()) body(*this);
  }
  template <class C, class F>
  void array(fields::Key, C& items, F&& element) {
    for (std::size_t i = 0; i < items.size() && ok(); ++i) element(*this, fields::Key(i), items[i]);
  }
  template <class T, class F>
  void list(fields::Key k, std::vector<T>& items, F&& element, std::size_t max) {
    const std::optional<std::uint64_t> n = varint();
    if (!n) return;
    if (*n > max) return fail(k, "a list too long");
    items.assign(static_cast<std::size_t>(*n), T{});
    for (std::size_t i = 0; i < items.size() && ok(); ++i) element(*this, fields::Key(i), items[i]);
  }
  void derived(fields::Key, const auto&, auto&&) {}  // not stored

  int byte() {
    if (!ok()) return -1;
    if (pos_ >= in_.size()) {
      error_ = "the binary state ends early";
      return -1;
    }
    return static_cast<std::uint8_t>(in_[pos_++]);
  }

 private:
  void fail(fields::Key k, const char* what) {
    if (error_.empty())
      error_ = "binary state at byte " + std::to_string(pos_) + " (" +
               (k.in_array() ? "[" + std::to_string(k.index) + "]" : std::string(k.name)) + "): " + what;
  }
  std::optional<std::uint64_t> varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const int b = byte();
      if (b < 0) return std::nullopt;
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return v;
    }
    error_ = "a varint longer than 64 bits";
    return std::nullopt;
  }
  std::uint64_t word() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
      const int b = byte();
      if (b < 0) return 0;
      v |= static_cast<std::uint64_t>(b) << (8 * i);
    }
    return v;
  }
  std::string_view in_;
  std::size_t pos_ = 0;
  std::string error_;
};

}  // namespace eryantis::renaissance::codec::detail
