#pragma once
// Small helpers over an already-parsed JSON value, for code that parsed a larger
// document itself (the protocol's requests carry a game's command or options as a
// member): read once, from the DOM, without going back to text.
#include <string>

#include "eryantis/json/json.hpp"

namespace eryantis::json {

// The compact JSON text of a value (no spaces, no newline).
std::string text(const rapidjson::Value& value);

// The member `key` of an object, or nullptr when it is absent or null (the
// protocol treats both alike).
const rapidjson::Value* present_member(const rapidjson::Value& object, const char* key);

}  // namespace eryantis::json
