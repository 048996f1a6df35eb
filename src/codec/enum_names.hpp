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

template <class E>
struct EnumInfo;

template <>
struct EnumInfo<rules::Color> {
  static constexpr const char* what = "colour";
  static constexpr int count = rules::kColorCount;
  static std::string_view name(rules::Color c) { return rules::color_name(c); }
};
template <>
struct EnumInfo<rules::TowerColor> {
  static constexpr const char* what = "tower colour";
  static constexpr int count = rules::kTowerColorCount;
  static std::string_view name(rules::TowerColor c) { return rules::tower_color_name(c); }
};
template <>
struct EnumInfo<rules::CharacterId> {
  static constexpr const char* what = "character";
  static constexpr int count = rules::kCharacterCount;
  static std::string_view name(rules::CharacterId c) { return rules::character_name(c); }
};
template <>
struct EnumInfo<rules::Phase> {
  static constexpr const char* what = "phase";
  static constexpr int count = rules::kPhaseCount;
  static std::string_view name(rules::Phase p) { return rules::phase_name(p); }
};
template <>
struct EnumInfo<rules::EndReason> {
  static constexpr const char* what = "end reason";
  static constexpr int count = rules::kEndReasonCount;
  static std::string_view name(rules::EndReason r) { return rules::end_reason_name(r); }
};
template <>
struct EnumInfo<rules::Mode> {
  static constexpr const char* what = "mode";
  static constexpr int count = rules::kModeCount;
  static std::string_view name(rules::Mode m) { return rules::mode_name(m); }
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
