#pragma once
// The opening handshake of RFC 6455 §4.2, server side: whether a parsed request
// asks for a WebSocket in a form this server accepts, and the accept key of the
// 101 answer. The origin check belongs to the server (it knows the allowed list).
#include <string>
#include <string_view>

#include "eryantis/net/http_message.hpp"

namespace eryantis::net {

enum class UpgradeCheck {
  ok,
  not_websocket,  // not a GET with Upgrade: websocket, Connection: upgrade and a key: 400
  bad_version,    // Sec-WebSocket-Version is not 13: 426
};

// ok implies a valid Sec-WebSocket-Key header (24 base64 characters of 16 bytes).
UpgradeCheck check_upgrade_request(const HttpRequest& request);

// Sec-WebSocket-Accept for a client's key (§1.3): base64(SHA-1(key + GUID)).
std::string websocket_accept(std::string_view key);

}  // namespace eryantis::net
