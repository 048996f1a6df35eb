#pragma once
// A list of commands as one JSON array, written in one pass: the `legal` lists the
// server sends with every event and state (up to 100+ commands for the seat to act).
#include <span>
#include <string>

#include "eryantis/rules/command.hpp"

namespace eryantis::codec {

// "[" + each command_to_json(c) joined by "," + "]", byte for byte, without a
// string (and its allocation) per command.
std::string commands_to_json(std::span<const rules::Command> commands);

}  // namespace eryantis::codec
