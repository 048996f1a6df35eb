#include "eryantis/net/websocket_handshake.hpp"

#include <nettle/base64.h>
#include <nettle/sha1.h>

#include <cctype>
#include <cstdint>

namespace eryantis::net {

namespace {

// RFC 6455 §1.3: the accept key is SHA-1(key + this GUID), base64.
constexpr std::string_view kWebSocketGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Whether a comma-separated header value lists `token` (case-insensitive).
bool has_token(const std::string* value, std::string_view token) {
  if (value == nullptr) return false;
  const std::string text = lower(*value);
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view item(text.data() + pos, end - pos);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item == token) return true;
    pos = end + 1;
  }
  return false;
}

// A client's key is 16 random bytes in base64 (RFC 6455 §4.1): 24 characters.
bool valid_websocket_key(const std::string& key) {
  if (key.size() != 24) return false;
  base64_decode_ctx ctx;
  base64_decode_init(&ctx);
  std::uint8_t bytes[24];
  std::size_t length = sizeof bytes;
  return base64_decode_update(&ctx, &length, bytes, key.size(), key.c_str()) == 1 &&
         base64_decode_final(&ctx) == 1 && length == 16;
}

}  // namespace

UpgradeCheck check_upgrade_request(const HttpRequest& request) {
  const std::string* key = request.header("sec-websocket-key");
  if (request.method != "GET" || !has_token(request.header("upgrade"), "websocket") ||
      !has_token(request.header("connection"), "upgrade") || key == nullptr ||
      !valid_websocket_key(*key)) {
    return UpgradeCheck::not_websocket;
  }
  const std::string* version = request.header("sec-websocket-version");
  if (version == nullptr || *version != "13") return UpgradeCheck::bad_version;
  return UpgradeCheck::ok;
}

std::string websocket_accept(std::string_view key) {
  sha1_ctx sha;
  sha1_init(&sha);
  sha1_update(&sha, key.size(), reinterpret_cast<const std::uint8_t*>(key.data()));
  sha1_update(&sha, kWebSocketGuid.size(),
              reinterpret_cast<const std::uint8_t*>(kWebSocketGuid.data()));
  std::uint8_t digest[SHA1_DIGEST_SIZE];
  sha1_digest(&sha, sizeof digest, digest);
  std::string encoded(BASE64_ENCODE_RAW_LENGTH(SHA1_DIGEST_SIZE), '\0');
  base64_encode_raw(encoded.data(), sizeof digest, digest);
  return encoded;
}

}  // namespace eryantis::net
