#pragma once
// Assistant cards: value 1..10 is turn priority (lower first); Mother Nature may
// move up to ceil(value / 2) steps.
#include <cstdint>

namespace eryantis::rules {

inline constexpr int kAssistantCount = 10;
inline constexpr std::uint16_t kFullHand = (1u << kAssistantCount) - 1;

constexpr int mother_nature_steps(int value) {
  return (value + 1) / 2;
}
constexpr std::uint16_t assistant_bit(int value) {
  return static_cast<std::uint16_t>(1u << (value - 1));
}

}  // namespace eryantis::rules
