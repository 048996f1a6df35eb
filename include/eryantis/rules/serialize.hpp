#pragma once
// JSON (readable: saves, tools, wire) and binary (snapshots) forms of states,
// commands and events, both carrying an explicit schema version. Decoding
// failures are values, never exceptions escaping to the caller.
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

#include "eryantis/rules/command.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/event.hpp"
#include "eryantis/rules/state.hpp"

namespace eryantis::rules {

inline constexpr int kStateSchemaVersion = 1;

struct DecodeError {
  std::string message;
};

// One-line JSON (no raw newlines), suitable for NDJSON and SQLite payloads.
std::string state_to_json(const State& s);
std::expected<State, DecodeError> state_from_json(std::string_view json);
std::string state_to_binary(const State& s);
std::expected<State, DecodeError> state_from_binary(std::string_view bytes);

std::string view_to_json(const View& v);
// Reads what view_to_json wrote (the state's seed is 0): clients mirror a match with it.
std::expected<View, DecodeError> view_from_json(std::string_view json);

// A command as {"type": "...", ...fields}.
std::string command_to_json(const Command& c);
std::expected<Command, DecodeError> command_from_json(std::string_view json);

// An event as {"v": 1, "type": "...", "seat": n, "command": {...}, "drawn": [...], "picks": [...]}.
std::string event_to_json(const Event& e);
std::expected<Event, DecodeError> event_from_json(std::string_view json);

}  // namespace eryantis::rules
