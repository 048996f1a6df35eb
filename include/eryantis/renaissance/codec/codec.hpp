#pragma once
// The codecs of Masters of Renaissance: JSON for commands, events, states, options and per-seat
// views (saves, the wire, tools), and a compact binary form of the state (snapshots). Every
// encoder and decoder is a visitor over the rules' one list of fields
// (eryantis/renaissance/rules/fields.hpp), so a field is encoded, decoded and hashed, or none of
// them. docs/renaissance/protocol.md documents every field.
//
// Decoding is total: any text gives a value or a CodecError whose message names the field
// ("boards[1].depots[0].count: an integer 0..255"); nothing asserts. A command decodes to what
// the client named (a count above a capacity, a resource name that is not one of the four):
// check() refuses it with its code (decision 42); what cannot be said in the rules' types (a
// missing field, a wrong JSON type, an unknown command, colour or field) is the codec's refusal.
#include <expected>
#include <span>
#include <string>
#include <string_view>

#include "eryantis/json/fwd.hpp"
#include "eryantis/renaissance/rules/command.hpp"
#include "eryantis/renaissance/rules/decider.hpp"
#include "eryantis/renaissance/rules/event.hpp"
#include "eryantis/renaissance/rules/state.hpp"

namespace eryantis::renaissance::codec {

// Schema versions. A command has none of its own (the message or event that carries it has).
inline constexpr int kEventSchema = kEventSchemaVersion;  // an event's "v"
// 2: the result records who resigned (decision 57). A snapshot of another schema is ignored and
// the state rebuilt from the match's events.
inline constexpr int kStateSchema = 2;                    // a state's "schema" (JSON and views)
inline constexpr int kBinarySchema = 2;                   // the binary state's leading byte

struct CodecError {
  std::string message;
  friend bool operator==(const CodecError&, const CodecError&) = default;
};
template <class T>
using Decoded = std::expected<T, CodecError>;

// --- commands: {"type":"buy_card","level":1,...} ---------------------------------------------
std::string command_to_json(const Command& c);
// "[" + each command's JSON joined by "," + "]".
std::string commands_to_json(std::span<const Command> cs);
Decoded<Command> command_from_json(std::string_view text);
Decoded<Command> command_from_json(const json::Value& value);

// --- events: {"v":1,"type":...,"seat":0,"command":{...},"cards":[...],...} -------------------
// The recorded outcomes are written only when they hold something (empty lists, an inkwell of -1
// and a token of 0 are left out) and read back as such when absent.
std::string event_to_json(const Event& e);
Decoded<Event> event_from_json(std::string_view text);

// --- states ----------------------------------------------------------------------------------
std::string state_to_json(const State& s);  // {"schema":1,"options":{...},"seed":"...",...}
Decoded<State> state_from_json(std::string_view text);
// Binary: kBinarySchema, then every field in walk order (integers as LEB128 of their distance
// from the field's lowest value). About 300 bytes for a 4-player state.
std::string state_to_binary(const State& s);
Decoded<State> state_from_binary(std::string_view bytes);

// --- views: {"viewer":0,"state":{...the state without "seed"...}} -----------------------------
std::string view_to_json(const View& v);
Decoded<View> view_from_json(std::string_view text);

// --- options: {"players":2} --------------------------------------------------------------------
std::string options_to_json(const Options& o);
Decoded<Options> options_from_json(std::string_view text);
// The options of a new match of `players` seats from a create_match request's "options" member
// (nullptr when absent). This game has no options of its own: any member is refused by name.
Decoded<Options> options_from_request(int players, const json::Value* options);

}  // namespace eryantis::renaissance::codec
