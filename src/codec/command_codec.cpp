// Commands and events in JSON: the commands' field walks run through the JSON
// archives, with the "type" that names the alternative.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "eryantis/codec/codec.hpp"
#include "eryantis/codec/command_list.hpp"
#include "eryantis/codec/json_value.hpp"
#include "json_archive.hpp"

namespace eryantis::codec {

namespace {

using detail::fail;
using detail::JsonIn;
using detail::JsonOut;
using detail::quoted;
using rules::Command;
using rules::fields::Key;
using rules::fields::seat_field;
using rules::fields::walk;

// The "type" names of every alternative, in variant order, taken from command_type()
// so the wire name and the decoder can never disagree.
template <std::size_t... I>
std::array<std::string, sizeof...(I)> command_type_names(std::index_sequence<I...>) {
  return {std::string(rules::command_type(Command(std::in_place_index<I>)))...};
}
const auto& all_command_types() {
  static const auto names =
      command_type_names(std::make_index_sequence<std::variant_size_v<Command>>{});
  return names;
}

template <std::size_t... I>
Command default_command(std::size_t i, std::index_sequence<I...>) {
  Command out;
  // Stops at the alternative whose index is i; the fold's value itself is not needed.
  static_cast<void>(((i == I ? (out.emplace<I>(), true) : false) || ...));
  return out;
}

void write_command(JsonOut& out, const Command& c) {
  out.text("type", rules::command_type(c));
  std::visit([&](const auto& alt) { walk(out, alt); }, c);
}

Command read_command(JsonIn& in) {
  const std::string_view type = in.text("type");
  const auto& names = all_command_types();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] != type) continue;
    Command c = default_command(i, std::make_index_sequence<std::variant_size_v<Command>>{});
    std::visit([&](auto& alt) { walk(in, alt); }, c);
    return c;
  }
  fail("unknown command type " + quoted(type));
}

void write_event(JsonOut& out, const rules::Event& e) {
  out.integer("v", rules::kEventSchemaVersion, 0, 0);
  out.text("type", rules::command_type(e.command));
  seat_field(out, "seat", e.seat);
  out.object("command", [&](JsonOut& o) { write_command(o, e.command); });
  out.array("drawn", e.drawn, [](JsonOut& a, Key k, rules::Color c) { a.enumeration(k, c); });
  out.array("picks", e.picks,
            [](JsonOut& a, Key k, std::uint8_t p) { a.integer(k, p, 0, rules::fields::kMaxU8); });
}

rules::Event read_event(JsonIn& in) {
  const std::int64_t version = in.read_integer("v", std::numeric_limits<std::int64_t>::min(),
                                               std::numeric_limits<std::int64_t>::max());
  if (version > rules::kEventSchemaVersion)
    fail("event schema version " + std::to_string(version) +
         " is newer than this build understands (" + std::to_string(rules::kEventSchemaVersion) +
         "): upgrade the server");
  if (version < rules::kEventSchemaVersion)
    fail("event schema version " + std::to_string(version) +
         " must be upcast before decoding (this build reads version " +
         std::to_string(rules::kEventSchemaVersion) + ")");
  rules::Event e;
  seat_field(in, "seat", e.seat);
  in.object("command", [&](JsonIn& o) { e.command = read_command(o); });
  const std::string_view type = in.text("type");
  if (type != rules::command_type(e.command))
    fail("event type " + quoted(type) + " does not match its command's type " +
         quoted(rules::command_type(e.command)));
  in.array("drawn", e.drawn, [](JsonIn& a, Key k, rules::Color& c) { a.enumeration(k, c); });
  in.array("picks", e.picks,
           [](JsonIn& a, Key k, std::uint8_t& p) { a.integer(k, p, 0, rules::fields::kMaxU8); });
  return e;
}

}  // namespace

std::string command_to_json(const Command& c) {
  return detail::write_json({.sparse_students = true},
                            [&](JsonOut& out) { write_command(out, c); });
}

std::string commands_to_json(std::span<const Command> commands) {
  std::string text;
  // ~40-110 bytes per command (a Jester swap is the longest): one growth at most.
  text.reserve(2 + 64 * commands.size());
  json::StringSink sink{text};
  detail::JsonWriter writer(sink);
  JsonOut out(writer, {.sparse_students = true});
  writer.StartArray();
  for (const Command& c : commands) {
    writer.StartObject();
    write_command(out, c);
    writer.EndObject();
  }
  writer.EndArray();
  sink.finish();
  return text;
}

std::expected<Command, DecodeError> command_from_json(std::string_view json) {
  return detail::read_json_object<Command>(json, "command", "command", read_command);
}

std::expected<Command, DecodeError> command_from_json_value(const rapidjson::Value& value) {
  return detail::decode<Command>("command", [&] {
    if (!value.IsObject()) fail("a command must be a JSON object");
    JsonIn in(value, "");
    return read_command(in);
  });
}

std::string event_to_json(const rules::Event& e) {
  return detail::write_json({.sparse_students = true}, [&](JsonOut& out) { write_event(out, e); });
}

std::expected<rules::Event, DecodeError> event_from_json(std::string_view json) {
  return detail::read_json_object<rules::Event>(json, "event", "event", read_event);
}

}  // namespace eryantis::codec
