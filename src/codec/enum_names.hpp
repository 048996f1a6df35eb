#pragma once
// The names of the rules' enums as the encodings write them ("red", "expert",
// "game_over", ...), with what each is called in error messages.
#include <optional>
#include <string>
#include <string_view>

#include "eryantis/rules/character.hpp"
#include "eryantis/rules/color.hpp"
#include "eryantis/rules/options.hpp"
#include "eryantis/rules/state.hpp"
#include "eryantis/rules/tower.hpp"

namespace eryantis::codec::detail {

// For an enum E: `what` it is called in messages, its `count` of values (0..count-1)
// and the `name` of each.
template <class E, int Count, std::string_view (*Name)(E)>
struct EnumTable {
  static constexpr int count = Count;
  static std::string_view name(E e) { return Name(e); }
};

template <class E>
struct EnumInfo;
template <>
struct EnumInfo<rules::Color> : EnumTable<rules::Color, rules::kColorCount, rules::color_name> {
  static constexpr const char* what = "colour";
};
template <>
struct EnumInfo<rules::TowerColor>
    : EnumTable<rules::TowerColor, rules::kTowerColorCount, rules::tower_color_name> {
  static constexpr const char* what = "tower colour";
};
template <>
struct EnumInfo<rules::CharacterId>
    : EnumTable<rules::CharacterId, rules::kCharacterCount, rules::character_name> {
  static constexpr const char* what = "character";
};
template <>
struct EnumInfo<rules::Phase> : EnumTable<rules::Phase, rules::kPhaseCount, rules::phase_name> {
  static constexpr const char* what = "phase";
};
template <>
struct EnumInfo<rules::EndReason>
    : EnumTable<rules::EndReason, rules::kEndReasonCount, rules::end_reason_name> {
  static constexpr const char* what = "end reason";
};
template <>
struct EnumInfo<rules::Mode> : EnumTable<rules::Mode, rules::kModeCount, rules::mode_name> {
  static constexpr const char* what = "mode";
};

template <class E>
std::optional<E> parse_enum(std::string_view text) {
  for (int i = 0; i < EnumInfo<E>::count; ++i) {
    const auto e = static_cast<E>(i);
    if (EnumInfo<E>::name(e) == text) return e;
  }
  return std::nullopt;
}

// "yellow, blue, green, red, pink": the choices, for error messages.
template <class E>
std::string enum_choices() {
  std::string out;
  for (int i = 0; i < EnumInfo<E>::count; ++i) {
    if (i > 0) out += ", ";
    out += EnumInfo<E>::name(static_cast<E>(i));
  }
  return out;
}

}  // namespace eryantis::codec::detail
