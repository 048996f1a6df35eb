#pragma once
// JSON (readable: saves, tools, wire) and binary (snapshots) forms of the rules'
// values: states, views, commands and events, each carrying an explicit schema
// version. The fields themselves are listed once, in eryantis/rules/fields.hpp.
// Decoding failures are values, never exceptions escaping to the caller.
// docs/state.md describes the encodings.
#include <expected>
#include <string>
#include <string_view>

#include "eryantis/rules/command.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/event.hpp"
#include "eryantis/rules/state.hpp"

namespace eryantis::codec {

// The state's field set (JSON "schema", the store's snapshot schema column).
inline constexpr int kStateSchemaVersion = 1;

struct DecodeError {
  std::string message;
};

// One-line JSON (no raw newlines), suitable for NDJSON and SQLite payloads.
std::string state_to_json(const rules::State& s);
std::expected<rules::State, DecodeError> state_from_json(std::string_view json);
std::string state_to_binary(const rules::State& s);
std::expected<rules::State, DecodeError> state_from_binary(std::string_view bytes);

std::string view_to_json(const rules::View& v);
// Reads what view_to_json wrote (the state's seed is 0): clients mirror a match with it.
std::expected<rules::View, DecodeError> view_from_json(std::string_view json);

// A command as {"type": "...", ...fields}.
std::string command_to_json(const rules::Command& c);
std::expected<rules::Command, DecodeError> command_from_json(std::string_view json);

// An event as {"v": 1, "type": "...", "seat": n, "command": {...}, "drawn": [...], "picks": [...]}.
std::string event_to_json(const rules::Event& e);
std::expected<rules::Event, DecodeError> event_from_json(std::string_view json);

}  // namespace eryantis::codec
