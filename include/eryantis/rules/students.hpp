#pragma once
// A multiset of students: how many of each colour. Used for the bag, entrances,
// dining rooms, islands, clouds and character cards. Never more than 130 of a kind.
#include <array>
#include <cstdint>

#include "eryantis/rules/color.hpp"

namespace eryantis::rules {

struct Students {
  std::array<std::uint8_t, kColorCount> count{};

  constexpr std::uint8_t operator[](Color c) const { return count[index(c)]; }
  constexpr std::uint8_t& operator[](Color c) { return count[index(c)]; }

  constexpr int total() const {
    int t = 0;
    for (auto n : count) t += n;
    return t;
  }
  constexpr bool empty() const { return total() == 0; }
  // True when every colour of `other` is present here at least as many times.
  constexpr bool contains(const Students& other) const {
    for (int i = 0; i < kColorCount; ++i)
      if (count[i] < other.count[i]) return false;
    return true;
  }
  constexpr void add(const Students& other) {
    for (int i = 0; i < kColorCount; ++i)
      count[i] = static_cast<std::uint8_t>(count[i] + other.count[i]);
  }
  // Precondition: contains(other).
  constexpr void remove(const Students& other) {
    for (int i = 0; i < kColorCount; ++i)
      count[i] = static_cast<std::uint8_t>(count[i] - other.count[i]);
  }
  static constexpr Students one(Color c) {
    Students s;
    s[c] = 1;
    return s;
  }
  friend constexpr bool operator==(const Students&, const Students&) = default;
};

}  // namespace eryantis::rules
