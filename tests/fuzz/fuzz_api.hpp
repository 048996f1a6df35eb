#pragma once
// The only project calls the fuzz targets make, one line each: when a function
// moves (as serialisation did from rules:: to codec::), this file is the one place to
// rename it. Every target reaches the project through these names.
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/client/client_protocol.hpp"
#include "eryantis/client/match_mirror.hpp"
#include "eryantis/codec/codec.hpp"
#include "eryantis/main/config_file.hpp"
#include "eryantis/net/http_request_parser.hpp"
#include "eryantis/net/line_splitter.hpp"
#include "eryantis/net/static_files.hpp"
#include "eryantis/net/websocket_handshake.hpp"
#include "eryantis/net/websocket_session.hpp"
#include "eryantis/eriantys/game/game.hpp"
#include "eryantis/game/registry.hpp"
#include "eryantis/protocol/codec.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/invariants.hpp"
#include "eryantis/rules/random_game.hpp"

namespace eryantis::fuzz {

// The games a client's mirror knows here: Eriantys alone, as a client of a server
// that plays only it (a state message without `game` is its default game's).
inline const game::Registry& client_games() {
  static const game::Registry games = [] {
    game::Registry r;
    r.add(eriantys::make_game());
    return r;
  }();
  return games;
}

// Decoders under test.
// A play's command is read by Eriantys, as for a player in one of its matches.
inline auto decode_request(std::string_view line) {
  static const auto reader = eriantys::make_game();
  return protocol::decode_request(line, *reader);
}
inline auto decode_command(std::string_view json) {
  return codec::command_from_json(json);
}
inline auto decode_event(std::string_view json) {
  return codec::event_from_json(json);
}
inline auto decode_state_json(std::string_view json) {
  return codec::state_from_json(json);
}
inline auto decode_state_binary(std::string_view bytes) {
  return codec::state_from_binary(bytes);
}
inline auto decode_view(std::string_view json) {
  return codec::view_from_json(json);
}
inline auto parse_config(std::string_view toml) {
  return app::parse_config(toml, "fuzz.toml");
}
inline auto parse_server_line(std::string_view line) {
  return client::parse_server_message(line);
}

// The web listener's input path, socket aside (net::HttpServer feeds the same objects).
using HttpRequestParser = net::HttpRequestParser;
using WebSocketSession = net::WebSocketSession;
inline auto decode_request_path(std::string_view path) {
  return net::decode_request_path(path);
}
inline auto check_upgrade_request(const net::HttpRequest& request) {
  return net::check_upgrade_request(request);
}
inline auto websocket_accept(std::string_view key) {
  return net::websocket_accept(key);
}

// Encoders, for the round-trip checks and the seed corpus.
inline std::string encode_command(const rules::Command& c) {
  return codec::command_to_json(c);
}
inline std::string encode_event(const rules::Event& e) {
  return codec::event_to_json(e);
}
inline std::string encode_state_json(const rules::State& s) {
  return codec::state_to_json(s);
}
inline std::string encode_state_binary(const rules::State& s) {
  return codec::state_to_binary(s);
}
inline std::string encode_view(const rules::View& v) {
  return codec::view_to_json(v);
}

}  // namespace eryantis::fuzz
