// A stable fingerprint of a state: one more visitor over the state's field walk (fields.hpp), so
// no field can be stored but left out of the hash. Every field is fed as an integer, in walk
// order (never raw memory, so padding and endianness cannot leak in). The values are pinned by
// tests/renaissance/rules/golden_test.cpp: the feeding rules below must never change.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "eryantis/renaissance/rules/decider.hpp"
#include "eryantis/renaissance/rules/fields.hpp"

namespace eryantis::renaissance {

namespace {

using fields::Key;

class Hasher {
 public:
  bool include_seed() const { return true; }

  // Integers whose range starts below zero (seats) are shifted up so the smallest is 0.
  template <std::integral T>
  void integer(Key, const T& x, std::int64_t lo, std::int64_t) {
    add(static_cast<std::uint64_t>(static_cast<std::int64_t>(x) - std::min<std::int64_t>(lo, 0)));
  }
  void seed(Key, const MatchSeed& s) {
    add(s.lo);
    add(s.hi);
  }
  void boolean(Key, const bool& b) { add(b ? 1 : 0); }
  template <class E>
  void enumeration(Key, const E& e) {
    add(static_cast<std::uint64_t>(e));
  }
  // Absent is 0; a present value is fed plus one, so it differs from absent.
  template <class T, class F>
  void optional(Key k, const std::optional<T>& x, F&& inner) {
    if (!x) {
      add(0);
      return;
    }
    bias_ = 1;
    inner(*this, k, *x);
    bias_ = 0;
  }
  template <class F>
  void object(Key, F&& body) {
    body(*this);
  }
  template <class C, class F>
  void array(Key, const C& items, F&& element) {
    for (std::size_t i = 0; i < items.size(); ++i) element(*this, Key(i), items[i]);
  }
  template <class T, class F>
  void list(Key, const std::vector<T>& items, F&& element, std::size_t) {
    add(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) element(*this, Key(i), items[i]);
  }
  void derived(Key, const auto&, auto&&) {}  // determined by the fields already fed

  std::uint64_t value() const {
    std::uint64_t z = h_;
    z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    return z ^ (z >> 33);
  }

 private:
  void add(std::uint64_t v) {
    v += bias_;
    h_ ^= v + 0x9e3779b97f4a7c15ULL + (h_ << 6) + (h_ >> 2);
    h_ *= 0xff51afd7ed558ccdULL;
    h_ ^= h_ >> 32;
  }

  std::uint64_t h_ = 0x52454e41'49535341ULL;  // "RENAISSA"
  std::uint64_t bias_ = 0;
};

}  // namespace

std::uint64_t hash(const State& s) {
  Hasher h;
  fields::walk(h, s);
  return h.value();
}

}  // namespace eryantis::renaissance
