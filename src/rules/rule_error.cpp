#include "eryantis/rules/rule_error.hpp"

namespace eryantis::rules {

std::string_view rule_code_name(RuleCode code) {
  switch (code) {
    case RuleCode::InvalidCommand:
      return "INVALID_COMMAND";
    case RuleCode::ServerOnly:
      return "SERVER_ONLY";
    case RuleCode::MatchAlreadyCreated:
      return "MATCH_ALREADY_CREATED";
    case RuleCode::InvalidOptions:
      return "INVALID_OPTIONS";
    case RuleCode::InvalidSeat:
      return "INVALID_SEAT";
    case RuleCode::MatchOver:
      return "MATCH_OVER";
    case RuleCode::WrongPhase:
      return "WRONG_PHASE";
    case RuleCode::NotYourTurn:
      return "NOT_YOUR_TURN";
    case RuleCode::WizardTaken:
      return "WIZARD_TAKEN";
    case RuleCode::WizardAlreadyChosen:
      return "WIZARD_ALREADY_CHOSEN";
    case RuleCode::TowerColorTaken:
      return "TOWER_COLOR_TAKEN";
    case RuleCode::TowerColorAlreadyChosen:
      return "TOWER_COLOR_ALREADY_CHOSEN";
    case RuleCode::TowerColorNotAvailable:
      return "TOWER_COLOR_NOT_AVAILABLE";
    case RuleCode::AssistantNotInHand:
      return "ASSISTANT_NOT_IN_HAND";
    case RuleCode::AssistantAlreadyPlayed:
      return "ASSISTANT_ALREADY_PLAYED";
    case RuleCode::StudentNotInEntrance:
      return "STUDENT_NOT_IN_ENTRANCE";
    case RuleCode::DiningTableFull:
      return "DINING_TABLE_FULL";
    case RuleCode::NoStudentMovesLeft:
      return "NO_STUDENT_MOVES_LEFT";
    case RuleCode::StudentsNotMoved:
      return "STUDENTS_NOT_MOVED";
    case RuleCode::MotherNatureAlreadyMoved:
      return "MOTHER_NATURE_ALREADY_MOVED";
    case RuleCode::MotherNatureNotMoved:
      return "MOTHER_NATURE_NOT_MOVED";
    case RuleCode::MotherNatureMustMove:
      return "MOTHER_NATURE_MUST_MOVE";
    case RuleCode::MotherNatureTooFar:
      return "MOTHER_NATURE_TOO_FAR";
    case RuleCode::NoSuchIsland:
      return "NO_SUCH_ISLAND";
    case RuleCode::NoSuchCloud:
      return "NO_SUCH_CLOUD";
    case RuleCode::CloudUnavailable:
      return "CLOUD_UNAVAILABLE";
    case RuleCode::CloudsSkipped:
      return "CLOUDS_SKIPPED";
    case RuleCode::NotExpertMode:
      return "NOT_EXPERT_MODE";
    case RuleCode::CharacterNotInPlay:
      return "CHARACTER_NOT_IN_PLAY";
    case RuleCode::NotEnoughCoins:
      return "NOT_ENOUGH_COINS";
    case RuleCode::CharacterAlreadyUsedThisTurn:
      return "CHARACTER_ALREADY_USED_THIS_TURN";
    case RuleCode::StudentNotOnCard:
      return "STUDENT_NOT_ON_CARD";
    case RuleCode::NoEntryTilesExhausted:
      return "NO_ENTRY_TILES_EXHAUSTED";
    case RuleCode::InvalidSwap:
      return "INVALID_SWAP";
    case RuleCode::StudentNotInDining:
      return "STUDENT_NOT_IN_DINING";
    case RuleCode::InconsistentEvent:
      return "INCONSISTENT_EVENT";
    case RuleCode::AbsentThisRound:
      return "ABSENT_THIS_ROUND";
  }
  return "UNKNOWN";
}

}  // namespace eryantis::rules
