#pragma once
// rapidjson's declarations (rapidjson::Value, ...) without its definitions, in the
// project's configuration: for headers that name a JSON value in a signature.
#include "eryantis/json/config.hpp"

#include <rapidjson/fwd.h>

namespace eryantis::json {
// A parsed JSON value (a member of a document the caller parsed).
using Value = rapidjson::Value;
}  // namespace eryantis::json
