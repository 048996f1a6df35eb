#include "eryantis/renaissance/rules/rule_error.hpp"

#include <array>

namespace eryantis::renaissance {

std::string_view rule_code_name(RuleCode code) {
  static constexpr std::array<std::string_view, kRuleCodeCount> names = {
      "GAME_OVER",
      "NOT_SEATED",
      "MALFORMED",
      "WRONG_PHASE",
      "NOT_YOUR_TURN",
      "DEPOT_OVER_CAPACITY",
      "DEPOT_NEEDS_TYPE",
      "DUPLICATE_DEPOT_TYPE",
      "LEADER_DEPOT_NOT_ACTIVE",
      "LEADER_DEPOT_OVER_CAPACITY",
      "LEADERS_ALREADY_CHOSEN",
      "WRONG_LEADER_COUNT",
      "DUPLICATE_LEADER",
      "LEADER_NOT_DEALT",
      "LEADERS_FIRST",
      "RESOURCES_ALREADY_CHOSEN",
      "NO_INITIAL_RESOURCES",
      "WRONG_RESOURCE_COUNT",
      "MAIN_ACTION_DONE",
      "BAD_LINE_INDEX",
      "WHITE_CHOICES_UNEXPECTED",
      "WHITE_CHOICES_COUNT",
      "WHITE_CHOICE_INVALID",
      "LAYOUT_NOT_AVAILABLE",
      "WAREHOUSE_FULL",
      "BAD_LEVEL",
      "BAD_SLOT",
      "DECK_EMPTY",
      "SLOT_CANNOT_TAKE_CARD",
      "PAYMENT_MISMATCH",
      "PAYMENT_SOURCE_SHORT",
      "NOTHING_SELECTED",
      "DUPLICATE_POWER",
      "SLOT_EMPTY",
      "NOT_PRODUCTION_LEADER",
      "BAD_CHOICE",
      "LEADER_NOT_IN_HAND",
      "REQUIREMENT_NOT_MET",
      "RESOURCES_CHANGED",
      "MAIN_ACTION_MISSING",
      "SERVER_ONLY",
      "MATCH_ALREADY_CREATED",
      "INVALID_OPTIONS",
      "INCONSISTENT_EVENT",
  };
  const auto i = static_cast<std::size_t>(code);
  return i < names.size() ? names[i] : std::string_view("UNKNOWN");
}

}  // namespace eryantis::renaissance
