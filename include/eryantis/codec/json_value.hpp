#pragma once
// Work on an already-parsed JSON value, for code that parsed a larger document
// itself (the protocol's "play" request carries its command as a member): the
// command is read once, from the DOM, without going back to text. Needs rapidjson,
// so it is kept apart from the plain API in codec.hpp.
#include <expected>

#include "eryantis/codec/codec.hpp"
#include "eryantis/json/json.hpp"

namespace eryantis::codec {

// The same as command_from_json on the value's text, with the same messages.
std::expected<rules::Command, DecodeError> command_from_json_value(const rapidjson::Value& value);

}  // namespace eryantis::codec
