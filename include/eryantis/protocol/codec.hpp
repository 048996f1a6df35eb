#pragma once
// Lines <-> messages. Decoding never throws and never trusts its input; encoding
// produces one line of JSON (no newline: the transport adds it).
#include <cstdint>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "eryantis/protocol/message.hpp"

namespace eryantis::protocol {

// `game` decodes a play's command: the game of the sender's match (the server's
// default game when it is in none, whose commands are then refused anyway).
std::expected<Envelope, ProtocolError> decode_request(std::string_view line,
                                                      const game::Game& game);

// Builds one outgoing JSON object: JsonLine("welcome", id).field("protocol", 1).str().
class JsonLine {
 public:
  // `type` is the message type; `id` the raw JSON id to echo ("" = none).
  JsonLine(std::string_view type, std::string_view id = {});
  // A plain object without a "type" (nested values: seats, results, ...).
  static JsonLine object();
  JsonLine(JsonLine&&) noexcept;
  ~JsonLine();

  JsonLine& field(std::string_view key, std::string_view value);
  JsonLine& field(std::string_view key, const char* value) {
    return field(key, std::string_view(value));
  }
  JsonLine& field(std::string_view key, std::int64_t value);
  JsonLine& field(std::string_view key, int value) {
    return field(key, static_cast<std::int64_t>(value));
  }
  JsonLine& field(std::string_view key, bool value);
  JsonLine& null_field(std::string_view key);
  // `json` must already be valid JSON (an object or array produced by a codec).
  JsonLine& raw_field(std::string_view key, std::string_view json);
  // The finished text. On an rvalue (`std::move(line).str()`, or a temporary) the
  // text is moved out and the line is spent; on an lvalue it is copied.
  std::string str() &;
  std::string str() &&;

 private:
  JsonLine();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Builds a JSON array/object text piece by piece, for raw_field values.
class JsonArray {
 public:
  JsonArray& raw(std::string_view json);
  JsonArray& string(std::string_view s);
  JsonArray& number(std::int64_t n);
  std::string str() const { return "[" + body_ + "]"; }

 private:
  std::string body_;
};

// {"type":"redirect","address":"host:port","web":"ws://host:port/ws"|null,"match":N,
// "reason":"..."} (docs/protocol.md, "Redirect"): match N is served by another node of
// the cluster; `id` echoes the request redirected ("" = none).
std::string encode_redirect(std::string_view id, std::string_view address,
                            const std::optional<std::string>& web, std::int64_t match,
                            std::string_view reason);

// A JSON string literal with escapes ("a\"b").
std::string json_quote(std::string_view s);

}  // namespace eryantis::protocol
