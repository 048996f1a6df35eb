#pragma once
// Why a command was refused: a stable machine code and a sentence for people that says what to
// do instead. The codes are section 9's, in upper case ("main_action_done" is MAIN_ACTION_DONE).
#include <cstdint>
#include <string>
#include <string_view>

namespace eryantis::renaissance {

enum class RuleCode : std::uint8_t {
  // --- 9.1, common to every command, in the order they are checked ---
  GameOver,
  NotSeated,
  Malformed,
  WrongPhase,
  NotYourTurn,
  // --- 9.2, layouts ---
  DepotOverCapacity,
  DepotNeedsType,
  DuplicateDepotType,
  LeaderDepotNotActive,
  LeaderDepotOverCapacity,
  // --- 9.3, setup ---
  LeadersAlreadyChosen,
  WrongLeaderCount,
  DuplicateLeader,
  LeaderNotDealt,
  LeadersFirst,
  ResourcesAlreadyChosen,
  NoInitialResources,
  WrongResourceCount,
  // --- 9.4, turn ---
  MainActionDone,
  BadLineIndex,
  WhiteChoicesUnexpected,
  WhiteChoicesCount,
  WhiteChoiceInvalid,
  LayoutNotAvailable,
  WarehouseFull,  // a market command without a layout whose whole line does not fit (decision 62)
  BadLevel,
  BadSlot,
  DeckEmpty,
  SlotCannotTakeCard,
  PaymentMismatch,
  PaymentSourceShort,
  NothingSelected,
  DuplicatePower,
  SlotEmpty,
  NotProductionLeader,
  BadChoice,
  LeaderNotInHand,
  RequirementNotMet,
  ResourcesChanged,
  MainActionMissing,
  // --- the platform's ---
  ServerOnly,           // a player sent a command only the server may issue
  MatchAlreadyCreated,  // create_match on a created match
  InvalidOptions,       // players not 1..4
  InconsistentEvent,    // a stored event whose recorded draws or reveals do not fit the state
};
inline constexpr int kRuleCodeCount = static_cast<int>(RuleCode::InconsistentEvent) + 1;

// "NOT_YOUR_TURN", "MAIN_ACTION_DONE", ...: stable, never renamed.
std::string_view rule_code_name(RuleCode code);

struct RuleError {
  RuleCode code;
  std::string message;
  friend bool operator==(const RuleError&, const RuleError&) = default;
};

}  // namespace eryantis::renaissance
