#pragma once
// Why a command was refused: a stable machine code and a sentence for people
// that says what to do instead.
#include <cstdint>
#include <string>
#include <string_view>

namespace eryantis::rules {

enum class RuleCode : std::uint8_t {
  InvalidCommand,  // malformed parameters (out-of-range value, empty swap, ...)
  ServerOnly,      // a player sent a command only the server may issue
  MatchAlreadyCreated,
  InvalidOptions,
  InvalidSeat,
  MatchOver,
  WrongPhase,
  NotYourTurn,
  WizardTaken,
  WizardAlreadyChosen,
  TowerColorTaken,
  TowerColorAlreadyChosen,
  TowerColorNotAvailable,
  AssistantNotInHand,
  AssistantAlreadyPlayed,
  StudentNotInEntrance,
  DiningTableFull,
  NoStudentMovesLeft,
  StudentsNotMoved,
  MotherNatureAlreadyMoved,
  MotherNatureNotMoved,
  MotherNatureMustMove,
  MotherNatureTooFar,
  NoSuchIsland,
  NoSuchCloud,
  CloudUnavailable,
  CloudsSkipped,
  NotExpertMode,
  CharacterNotInPlay,
  NotEnoughCoins,
  CharacterAlreadyUsedThisTurn,
  StudentNotOnCard,
  NoEntryTilesExhausted,
  InvalidSwap,
  StudentNotInDining,
  InconsistentEvent,  // a stored event whose recorded draws do not fit the state
  AbsentThisRound,    // skipped in planning: the action turn can only be skipped (decision 23)
  // A new code goes before this line, and kRuleCodeCount names the last one.
};
inline constexpr int kRuleCodeCount = static_cast<int>(RuleCode::AbsentThisRound) + 1;

// "NOT_YOUR_TURN", "DINING_TABLE_FULL", ...: stable, never renamed.
std::string_view rule_code_name(RuleCode code);

struct RuleError {
  RuleCode code;
  std::string message;
  friend bool operator==(const RuleError&, const RuleError&) = default;
};

}  // namespace eryantis::rules
