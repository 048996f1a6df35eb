#pragma once
// The wire names of every enumeration the field walk meets, both ways. The names are the rules'
// (resource_name, colour_name, ...): stable snake_case, never renamed.
#include <cstdint>
#include <optional>
#include <string_view>

#include "eryantis/renaissance/rules/cards.hpp"
#include "eryantis/renaissance/rules/command.hpp"
#include "eryantis/renaissance/rules/state.hpp"

namespace eryantis::renaissance::codec::detail {

// How many values an enumeration has and the name of each.
template <class E>
struct Enum;
template <>
struct Enum<Resource> {
  static constexpr int kCount = kResourceCount;
  static std::string_view name(Resource r) { return resource_name(r); }
};
template <>
struct Enum<Colour> {
  static constexpr int kCount = kColourCount;
  static std::string_view name(Colour c) { return colour_name(c); }
};
template <>
struct Enum<Marble> {
  static constexpr int kCount = kMarbleKinds;
  static std::string_view name(Marble m) { return marble_name(m); }
};
template <>
struct Enum<Line> {
  static constexpr int kCount = kLineKinds;
  static std::string_view name(Line l) { return line_name(l); }
};
template <>
struct Enum<Phase> {
  static constexpr int kCount = kPhaseCount;
  static std::string_view name(Phase p) { return phase_name(p); }
};
template <>
struct Enum<EndReason> {
  static constexpr int kCount = kEndReasonCount;
  static std::string_view name(EndReason r) { return end_reason_name(r); }
};
template <>
struct Enum<LeaderStatus> {
  static constexpr int kCount = kLeaderStatusCount;
  static std::string_view name(LeaderStatus s) { return leader_status_name(s); }
};
template <>
struct Enum<Tile> {
  static constexpr int kCount = kTileStateCount;
  static std::string_view name(Tile t) { return tile_name(t); }
};

// In a command a resource field holds whatever the client named (decision 42): "faith" is
// kFaithName (4) and any other unknown name is 5; both are written back as "faith" and "?".
inline constexpr auto kUnknownName = static_cast<Resource>(5);

template <class E>
std::string_view name_of(E e) {
  if constexpr (std::is_same_v<E, Resource>) {
    if (e == kFaithName) return "faith";
    if (!is_resource(e)) return "?";
  }
  return Enum<E>::name(e);
}

// The value named `text`; `in_command` lets a resource field take any name (decision 42).
template <class E>
std::optional<E> from_name(std::string_view text, bool in_command) {
  for (int i = 0; i < Enum<E>::kCount; ++i) {
    const auto e = static_cast<E>(i);
    if (Enum<E>::name(e) == text) return e;
  }
  if constexpr (std::is_same_v<E, Resource>) {
    if (in_command) return text == "faith" ? kFaithName : kUnknownName;
  }
  return std::nullopt;
}

// "coin, servant, shield or stone": what a field may hold, for error messages.
template <class E>
std::string expected_names() {
  std::string out;
  for (int i = 0; i < Enum<E>::kCount; ++i) {
    if (i > 0) out += i + 1 == Enum<E>::kCount ? " or " : ", ";
    out += Enum<E>::name(static_cast<E>(i));
  }
  return out;
}

}  // namespace eryantis::renaissance::codec::detail
