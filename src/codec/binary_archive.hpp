#pragma once
// The binary archives (snapshots): two visitors over the field walks
// (eryantis/rules/fields.hpp) through cereal's portable binary archive, a fixed
// little-endian layout with every value at its own width, booleans and enums as
// one byte. Only records and fixed-size arrays: the state has nothing else.
//   BinOut - writes,
//   BinIn  - reads back, checking every value's range.
#include <cereal/archives/portable_binary.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <streambuf>
#include <string>
#include <string_view>
#include <utility>

#include "enum_names.hpp"
#include "eryantis/rules/fields.hpp"
#include "failure.hpp"
#include "read_optional.hpp"

namespace eryantis::codec::detail {

using rules::fields::Key;

class BinOut {
 public:
  // `wide_seed`: the seed takes two words (lo, hi), as binary version 2 says.
  BinOut(cereal::PortableBinaryOutputArchive& ar, bool wide_seed)
      : ar_(ar), wide_seed_(wide_seed) {}

  bool include_seed() const { return true; }

  template <std::integral T>
  void integer(Key, const T& x, std::int64_t, std::int64_t) {
    ar_(x);
  }
  void seed(Key, const rules::MatchSeed& s) {
    ar_(s.lo);
    if (wide_seed_) ar_(s.hi);
  }
  void boolean(Key, const bool& b) { ar_(static_cast<std::uint8_t>(b ? 1 : 0)); }
  template <class E>
  void enumeration(Key, const E& e) {
    ar_(static_cast<std::uint8_t>(e));
  }
  void students(Key, const rules::Students& s) {
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
  bool wide_seed_ = false;
};

class BinIn {
 public:
  BinIn(cereal::PortableBinaryInputArchive& ar, bool wide_seed) : ar_(ar), wide_seed_(wide_seed) {}

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
  void seed(Key, rules::MatchSeed& s) {
    s = rules::MatchSeed{};
    ar_(s.lo);
    if (wide_seed_) ar_(s.hi);
  }
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
  void students(Key k, rules::Students& s) {
    for (std::uint8_t& n : s.count) integer(k, n, 0, rules::kTotalStudents);
  }
  template <class T, class F>
  void optional(Key k, std::optional<T>& x, F&& inner) {
    read_optional(*this, flag(k), k, x, std::forward<F>(inner));
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
  bool wide_seed_ = false;
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

}  // namespace eryantis::codec::detail
