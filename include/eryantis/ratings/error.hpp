#pragma once
// The ratings' refusals: a stable code (UPPER_SNAKE, never renamed) and a sentence.
#include <cstdint>
#include <string>
#include <string_view>

namespace eryantis::ratings {

enum class RatingErrorCode : std::uint8_t {
  BadConfig,        // a configuration number out of range
  BadResult,        // seats, places, teams or ids that do not make a finished match
  OutOfOrder,       // a result not after the previous one in (finished_ms, match) order
  Conflict,         // a match id already applied, with another result
};
// "BAD_CONFIG", "BAD_RESULT", "OUT_OF_ORDER", "CONFLICT".
std::string_view code_name(RatingErrorCode code);

struct RatingError {
  RatingErrorCode code;
  std::string message;
};

}  // namespace eryantis::ratings
