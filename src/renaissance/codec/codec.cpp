// The JSON and binary codecs: the field-walk visitors (json_writer.hpp, json_reader.hpp,
// binary.hpp) run over the rules' walks (fields.hpp), plus the envelopes: a command's "type", an
// event's "v", "type", "seat" and "command", a state's "schema", a view's "viewer".
#include "eryantis/renaissance/codec/codec.hpp"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "binary.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/json/value.hpp"
#include "json_reader.hpp"
#include "json_writer.hpp"

namespace eryantis::renaissance::codec {

namespace {

using detail::JsonReader;
using detail::JsonWriter;
using detail::Writer;

CodecError error(std::string message) {
  return CodecError{std::move(message)};
}

template <class Body>
std::string write(Body body, std::size_t reserve = 256) {
  std::string out;
  out.reserve(reserve);
  json::StringSink sink(out);
  Writer w(sink);
  body(w);
  sink.finish();
  return out;
}

// Parses `text` and reads it with `read` (rapidjson's assertions throw: caught here).
template <class T, class F>
Decoded<T> parse(std::string_view text, F read) {
  json::LineDocument line;
  auto& doc = line.doc();
  try {
    if (doc.Parse(text.data(), text.size()).HasParseError())
      return std::unexpected(error(std::string("not JSON: ") +
                                   rapidjson::GetParseError_En(doc.GetParseError()) +
                                   " at offset " + std::to_string(doc.GetErrorOffset())));
    return read(static_cast<const json::Value&>(doc));
  } catch (const json::JsonAssertion&) {
    return std::unexpected(error("not the expected JSON"));
  }
}

// --- commands -----------------------------------------------------------------------------------

void write_command(Writer& w, const Command& c) {
  w.StartObject();
  JsonWriter out(w, true);
  out.key("type");
  out.string(command_type(c));
  std::visit([&](const auto& alternative) { fields::walk(out, alternative); }, c);
  w.EndObject();
}

// The market commands of a legal list, written fast. A list holds one command per (line, white
// choices, final layout): 166 for one turn of a random 2-player game, ~180 bytes each. Each
// line's opening is written once, and each layout by hand rather than by the field walk. The
// lists were 15 % of a Renaissance server's CPU under load (issue 25); BM_RenaissanceLegalJson
// against BM_RenaissanceLegalJsonOneByOne measures the gain. The bytes are write_command's:
// the layout is the command's last field (fields.hpp), and codec_test compares the two ways on
// every list of random games and on a list of every kind of layout.
class MarketTexts {
 public:
  void put(json::StringSink& sink, const TakeFromMarket& take) {
    if (!opening_ || opening_->line != take.line || opening_->index != take.index ||
        opening_->white_choices != take.white_choices) {
      TakeFromMarket bare = take;
      bare.layout.reset();
      opening_ = std::move(bare);
      opening_text_ = write([&](Writer& w) { write_command(w, *opening_); });
      opening_text_.pop_back();  // the closing brace: the layout comes before it
      opening_text_ += ",\"layout\":{\"depots\":[";
    }
    // The layout into a buffer first (at most 3 x 27 + 16 x 10 + 24 bytes): one append.
    char text[320];
    char* at = text;
    const auto put = [&](std::string_view piece) {
      std::memcpy(at, piece.data(), piece.size());
      at += piece.size();
    };
    const auto number = [&](unsigned n) { at = std::to_chars(at, at + 3, n).ptr; };
    const Layout& l = *take.layout;
    for (std::size_t d = 0; d < l.depots.size(); ++d) {
      if (d > 0) *at++ = ',';
      if (const auto& type = l.depots[d].type) {
        put("{\"type\":\"");
        put(detail::name_of(*type));
        put("\",\"count\":");
      } else {
        put("{\"count\":");
      }
      number(l.depots[d].count);
      *at++ = '}';
    }
    put("],\"leader_depots\":{");
    bool first = true;
    for (int id = 1; id <= kLeaders; ++id) {
      const auto& held = l.leader_depots[static_cast<std::size_t>(id - 1)];
      if (!held) continue;
      if (!first) *at++ = ',';
      first = false;
      *at++ = '"';
      put(fields::leader_key(id));
      put("\":");
      number(*held);
    }
    put("}}}");
    sink.reserve(opening_text_.size() + static_cast<std::size_t>(at - text));
    sink.append(opening_text_);
    sink.append(std::string_view(text, static_cast<std::size_t>(at - text)));
  }

 private:
  std::optional<TakeFromMarket> opening_;
  std::string opening_text_;
};

// A default command of the type named `type`.
template <std::size_t I = 0>
std::optional<Command> blank_command(std::string_view type) {
  if constexpr (I < std::variant_size_v<Command>) {
    Command c{std::in_place_index<I>};
    if (command_type(c) == type) return c;
    return blank_command<I + 1>(type);
  } else {
    return std::nullopt;
  }
}

Decoded<Command> read_command(const json::Value& v) {
  if (!v.IsObject()) return std::unexpected(error("a command is a JSON object"));
  const json::Value* type = json::present_member(v, "type");
  if (!type || !type->IsString())
    return std::unexpected(error("a command has a \"type\" string (\"take_from_market\", ...)"));
  const std::string_view name(type->GetString(), type->GetStringLength());
  std::optional<Command> c = blank_command(name);
  if (!c) return std::unexpected(error("unknown command type \"" + std::string(name) + "\""));
  JsonReader in(v, true, true);
  std::visit([&](auto& alternative) { fields::walk(in, alternative); }, *c);
  in.finish_object("", {"type"});
  if (!in.ok()) return std::unexpected(error(std::string(name) + ": " + in.error()));
  return std::move(*c);
}

// --- states -------------------------------------------------------------------------------------

void write_state(Writer& w, const State& s, bool with_seed) {
  w.StartObject();
  JsonWriter out(w, with_seed);
  out.key("schema");
  w.Int(kStateSchema);
  fields::walk(out, s);
  w.EndObject();
}

Decoded<State> read_state(const json::Value& v, bool with_seed) {
  if (!v.IsObject()) return std::unexpected(error("a state is a JSON object"));
  const json::Value* schema = json::present_member(v, "schema");
  if (!schema || !schema->IsInt())
    return std::unexpected(error("a state has its \"schema\" (" + std::to_string(kStateSchema) + ")"));
  if (schema->GetInt() != kStateSchema)
    return std::unexpected(error("state schema " + std::to_string(schema->GetInt()) +
                                 " is not this build's (" + std::to_string(kStateSchema) +
                                 "): rebuild the state from the match's events"));
  State s;
  JsonReader in(v, with_seed, false);
  fields::walk(in, s);
  in.finish_object("", {"schema"});
  if (!in.ok()) return std::unexpected(error(in.error()));
  return s;
}

}  // namespace

std::string command_to_json(const Command& c) {
  return write([&](Writer& w) { write_command(w, c); });
}

std::string commands_to_json(std::span<const Command> cs) {
  std::string out;
  out.reserve(64 + 160 * cs.size());
  json::StringSink sink(out);
  sink.Put('[');
  MarketTexts market;
  for (std::size_t i = 0; i < cs.size(); ++i) {
    if (i > 0) sink.Put(',');
    if (const auto* take = std::get_if<TakeFromMarket>(&cs[i]); take != nullptr && take->layout) {
      market.put(sink, *take);
      continue;
    }
    Writer w(sink);
    write_command(w, cs[i]);
  }
  sink.Put(']');
  sink.finish();
  return out;
}

Decoded<Command> command_from_json(const json::Value& value) {
  try {
    return read_command(value);
  } catch (const json::JsonAssertion&) {
    return std::unexpected(error("not the expected JSON"));
  }
}

Decoded<Command> command_from_json(std::string_view text) {
  return parse<Command>(text, read_command);
}

std::string event_to_json(const Event& e) {
  return write([&](Writer& w) {
    w.StartObject();
    JsonWriter out(w, true);
    out.key("v");
    w.Int(kEventSchema);
    out.key("type");
    out.string(command_type(e.command));
    out.key("seat");
    w.Int(e.seat);
    out.key("command");
    write_command(w, e.command);
    JsonWriter outcomes(w, true, true);
    fields::walk_outcomes(outcomes, e);
    w.EndObject();
  });
}

Decoded<Event> event_from_json(std::string_view text) {
  return parse<Event>(text, [](const json::Value& v) -> Decoded<Event> {
    if (!v.IsObject()) return std::unexpected(error("an event is a JSON object"));
    const json::Value* version = json::present_member(v, "v");
    if (!version || !version->IsInt())
      return std::unexpected(error("an event has its schema version \"v\""));
    if (version->GetInt() > kEventSchema)
      return std::unexpected(error("event schema version " + std::to_string(version->GetInt()) +
                                   " is newer than this build understands"));
    if (version->GetInt() < kEventSchema)
      return std::unexpected(error("event schema version " + std::to_string(version->GetInt()) +
                                   " must be upcast first"));
    const json::Value* seat = json::present_member(v, "seat");
    if (!seat || !seat->IsInt() || seat->GetInt() < kNoSeat || seat->GetInt() >= kMaxPlayers)
      return std::unexpected(error("seat: an integer -1..3"));
    const json::Value* command = json::present_member(v, "command");
    if (!command) return std::unexpected(error("an event has its \"command\""));
    auto c = read_command(*command);
    if (!c) return std::unexpected(error("command: " + c.error().message));
    const json::Value* type = json::present_member(v, "type");
    if (!type || !type->IsString() || std::string_view(type->GetString()) != command_type(*c))
      return std::unexpected(error("type: the command's type"));
    Event e;
    e.seat = static_cast<Seat>(seat->GetInt());
    e.command = std::move(*c);
    JsonReader in(v, true, false, true);
    fields::walk_outcomes(in, e);
    in.finish_object("", {"v", "type", "seat", "command"});
    if (!in.ok()) return std::unexpected(error(in.error()));
    return e;
  });
}

std::string state_to_json(const State& s) {
  return write([&](Writer& w) { write_state(w, s, true); }, 4096);
}

Decoded<State> state_from_json(std::string_view text) {
  return parse<State>(text, [](const json::Value& v) { return read_state(v, true); });
}

std::string state_to_binary(const State& s) {
  std::string out;
  out.reserve(512);
  out.push_back(static_cast<char>(kBinarySchema));
  detail::BinaryWriter w(out);
  fields::walk(w, s);
  return out;
}

Decoded<State> state_from_binary(std::string_view bytes) {
  detail::BinaryReader in(bytes);
  const int schema = in.byte();
  if (schema != kBinarySchema)
    return std::unexpected(error("binary state schema " + std::to_string(schema) +
                                 " is not this build's (" + std::to_string(kBinarySchema) + ")"));
  State s;
  fields::walk(in, s);
  if (!in.ok()) return std::unexpected(error(in.error()));
  if (!in.at_end()) return std::unexpected(error("bytes after the binary state"));
  return s;
}

std::string view_to_json(const View& v) {
  return write(
      [&](Writer& w) {
        w.StartObject();
        w.Key("viewer");
        w.Int(v.viewer);
        w.Key("state");
        write_state(w, v.state, false);
        w.EndObject();
      },
      4096);
}

Decoded<View> view_from_json(std::string_view text) {
  return parse<View>(text, [](const json::Value& v) -> Decoded<View> {
    if (!v.IsObject()) return std::unexpected(error("a view is a JSON object"));
    const json::Value* viewer = json::present_member(v, "viewer");
    if (!viewer || !viewer->IsInt() || viewer->GetInt() < kNoSeat ||
        viewer->GetInt() >= kMaxPlayers)
      return std::unexpected(error("viewer: an integer -1..3"));
    const json::Value* state = json::present_member(v, "state");
    if (!state) return std::unexpected(error("a view has its \"state\""));
    if (v.MemberCount() != 2) return std::unexpected(error("a view has viewer and state only"));
    auto s = read_state(*state, false);
    if (!s) return std::unexpected(error("state: " + s.error().message));
    return View{static_cast<Seat>(viewer->GetInt()), std::move(*s)};
  });
}

std::string options_to_json(const Options& o) {
  return "{\"players\":" + std::to_string(o.players) + "}";
}

Decoded<Options> options_from_json(std::string_view text) {
  return parse<Options>(text, [](const json::Value& v) -> Decoded<Options> {
    if (!v.IsObject()) return std::unexpected(error("options are a JSON object"));
    const json::Value* players = json::present_member(v, "players");
    if (!players || !players->IsInt() || players->GetInt() < 1 || players->GetInt() > kMaxPlayers)
      return std::unexpected(error("players: an integer 1..4"));
    if (v.MemberCount() != 1) return std::unexpected(error("options hold players only"));
    return Options{static_cast<std::uint8_t>(players->GetInt())};
  });
}

Decoded<Options> options_from_request(int players, const json::Value* options) {
  if (players < 1 || players > kMaxPlayers)
    return std::unexpected(error("Masters of Renaissance is for 1 to 4 players (1: solo against "
                                 "Lorenzo), not " + std::to_string(players)));
  if (options) {
    if (!options->IsObject()) return std::unexpected(error("options: a JSON object"));
    if (options->MemberCount() > 0)
      return std::unexpected(error("unknown option \"" +
                                   std::string(options->MemberBegin()->name.GetString()) +
                                   "\" (Masters of Renaissance has no options)"));
  }
  return Options{static_cast<std::uint8_t>(players)};
}

}  // namespace eryantis::renaissance::codec
