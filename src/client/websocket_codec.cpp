// WebSocket client framing: our handshake, wslay's frames.
#include "eryantis/client/websocket_codec.hpp"

#include <nettle/base64.h>
#include <nettle/sha1.h>
#include <wslay/wslay.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <random>

namespace eryantis::client {

namespace {

// RFC 6455 §1.3: the accept key is base64(SHA-1(key + this GUID)).
constexpr std::string_view kGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
// The server's answer to the upgrade is a status line and a few headers; a longer
// one is not a WebSocket server.
constexpr std::size_t kMaxHandshakeBytes = 16 * 1024;

std::string base64(const std::uint8_t* data, std::size_t size) {
  std::string out(BASE64_ENCODE_RAW_LENGTH(size), '\0');
  base64_encode_raw(out.data(), size, data);
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// "Connection: keep-alive, Upgrade" names the token "upgrade" (case-insensitive).
bool has_token(std::string_view list, std::string_view token) {
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    if (lower(trim(list.substr(0, comma))) == token) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

std::string host_header(std::string_view host, int port) {
  // Appended piece by piece: g++ 12 warns (-Wrestrict, a false positive) about
  // "[" + std::string(...).
  std::string out;
  const bool v6 = host.find(':') != std::string_view::npos;
  if (v6) out.push_back('[');
  out.append(host);
  if (v6) out.push_back(']');
  out.push_back(':');
  out.append(std::to_string(port));
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------
// Endpoint

std::string Endpoint::str() const {
  return websocket() ? "ws://" + host_header(host, port) + websocket_path : host_header(host, port);
}

std::optional<Endpoint> Endpoint::parse(std::string_view url, std::string& error) {
  Endpoint e;
  bool ws = false;
  if (url.starts_with("ws://")) {
    ws = true;
    url.remove_prefix(5);
  } else if (url.starts_with("tcp://")) {
    url.remove_prefix(6);
  } else if (url.find("://") != std::string_view::npos) {
    error = "only ws:// and tcp:// addresses are supported (wss:// needs a TLS proxy)";
    return std::nullopt;
  }
  std::string_view path;
  if (const std::size_t slash = url.find('/'); slash != std::string_view::npos) {
    if (!ws) {
      error = "a TCP address has no path: host:port";
      return std::nullopt;
    }
    path = url.substr(slash);
    url = url.substr(0, slash);
  }
  std::string_view host;
  std::string_view port;
  if (url.starts_with("[")) {  // [::1]:8080
    const std::size_t close = url.find(']');
    if (close == std::string_view::npos || close + 1 >= url.size() || url[close + 1] != ':') {
      error = "an IPv6 address is written [address]:port";
      return std::nullopt;
    }
    host = url.substr(1, close - 1);
    port = url.substr(close + 2);
  } else {
    const std::size_t colon = url.rfind(':');
    if (colon == std::string_view::npos) {
      error = "the address needs a port: host:port";
      return std::nullopt;
    }
    host = url.substr(0, colon);
    port = url.substr(colon + 1);
  }
  int number = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), number);
  if (host.empty() || ec != std::errc() || end != port.data() + port.size() || number < 1 ||
      number > 65535) {
    error = "the address needs a host and a port between 1 and 65535";
    return std::nullopt;
  }
  e.host = std::string(host);
  e.port = number;
  if (ws) e.websocket_path = path.empty() ? "/ws" : std::string(path);
  return e;
}

// ---------------------------------------------------------------------------
// WebSocketCodec

struct WebSocketCodec::Context {
  wslay_event_context_ptr ptr = nullptr;
  ~Context() {
    if (ptr) wslay_event_context_free(ptr);
  }
};

struct WebSocketCodec::Callbacks {
  static WebSocketCodec& self(void* user_data) { return *static_cast<WebSocketCodec*>(user_data); }

  static ssize_t recv(wslay_event_context_ptr ctx, std::uint8_t* buf, std::size_t len, int,
                      void* user_data) {
    WebSocketCodec& c = self(user_data);
    if (c.incoming_.empty()) {
      wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
      return -1;
    }
    const std::size_t n = std::min(len, c.incoming_.size());
    std::copy_n(c.incoming_.data(), n, buf);
    c.incoming_.remove_prefix(n);
    return static_cast<ssize_t>(n);
  }

  static ssize_t send(wslay_event_context_ptr ctx, const std::uint8_t* data, std::size_t len, int,
                      void* user_data) {
    WebSocketCodec& c = self(user_data);
    if (!c.output_) {  // only take_output() sends
      wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
      return -1;
    }
    c.output_->append(reinterpret_cast<const char*>(data), len);
    return static_cast<ssize_t>(len);
  }

  static int genmask(wslay_event_context_ptr, std::uint8_t* buf, std::size_t len, void* user_data) {
    WebSocketCodec& c = self(user_data);
    for (std::size_t i = 0; i < len; i += 8) {
      const std::uint64_t bits = c.next_mask_bits();
      for (std::size_t j = 0; j < 8 && i + j < len; ++j)
        buf[i + j] = static_cast<std::uint8_t>(bits >> (8 * j));
    }
    return 0;
  }

  static void on_message(wslay_event_context_ptr ctx, const wslay_event_on_msg_recv_arg* arg,
                         void* user_data) {
    WebSocketCodec& c = self(user_data);
    if (!c.sink_ || c.state_ != State::Open) return;
    switch (arg->opcode) {
      case WSLAY_TEXT_FRAME:
        c.sink_->on_message(
            std::string_view(reinterpret_cast<const char*>(arg->msg), arg->msg_length));
        break;
      case WSLAY_BINARY_FRAME:
        // The protocol is text (docs/web.md): close as the server would (1003).
        wslay_event_queue_close(ctx, WSLAY_CODE_UNSUPPORTED_DATA, nullptr, 0);
        c.end(*c.sink_, "the server sent a binary message; the protocol is text");
        break;
      case WSLAY_CONNECTION_CLOSE:
        // wslay has queued our close frame in answer.
        c.end(*c.sink_,
              "the server closed the WebSocket (code " + std::to_string(arg->status_code) + ")");
        break;
      default:  // ping (answered by wslay with a pong) and pong
        break;
    }
  }
};

WebSocketCodec::WebSocketCodec(std::string_view host, int port, std::string_view path,
                               std::size_t max_message_bytes)
    : context_(std::make_unique<Context>()), max_message_bytes_(max_message_bytes) {
  std::random_device kernel;
  mask_state_ = (std::uint64_t{kernel()} << 32) | kernel();
  // The key: 16 random bytes (RFC 6455 §4.1), so a cache cannot answer for the server.
  std::array<std::uint8_t, 16> nonce{};
  for (std::uint8_t& b : nonce) b = static_cast<std::uint8_t>(kernel());
  const std::string key = base64(nonce.data(), nonce.size());
  sha1_ctx sha;
  sha1_init(&sha);
  sha1_update(&sha, key.size(), reinterpret_cast<const std::uint8_t*>(key.data()));
  sha1_update(&sha, kGuid.size(), reinterpret_cast<const std::uint8_t*>(kGuid.data()));
  std::array<std::uint8_t, SHA1_DIGEST_SIZE> digest{};
  sha1_digest(&sha, digest.size(), digest.data());
  expected_accept_ = base64(digest.data(), digest.size());
  request_ = "GET " + std::string(path) + " HTTP/1.1\r\nHost: " + host_header(host, port) +
             "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key +
             "\r\nSec-WebSocket-Version: 13\r\n\r\n";

  static const wslay_event_callbacks kCallbacks = {
      &Callbacks::recv, &Callbacks::send, &Callbacks::genmask,
      nullptr,  // frame-level callbacks: whole messages are enough
      nullptr,          nullptr,          &Callbacks::on_message,
  };
  if (wslay_event_context_client_init(&context_->ptr, &kCallbacks, this) != 0)
    context_->ptr = nullptr;
  else
    wslay_event_config_set_max_recv_msg_length(context_->ptr, max_message_bytes_);
}

WebSocketCodec::~WebSocketCodec() = default;

std::uint64_t WebSocketCodec::next_mask_bits() {
  // splitmix64 (Steele, Lea, Flood 2014).
  std::uint64_t z = (mask_state_ += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

void WebSocketCodec::end(Sink& sink, std::string reason) {
  if (state_ == State::Ended) return;
  state_ = State::Ended;
  sink.on_ended(std::move(reason));
}

std::string WebSocketCodec::check_handshake(std::string_view head) const {
  const std::size_t eol = head.find("\r\n");
  const std::string_view status = head.substr(0, eol);
  if (!status.starts_with("HTTP/1.1 101 ") && status != "HTTP/1.1 101")
    return "the server refused the WebSocket upgrade: " + std::string(status);
  bool upgrade = false;
  bool connection = false;
  bool accepted = false;
  std::string_view rest = head.substr(eol + 2);
  while (!rest.empty()) {
    const std::size_t end = rest.find("\r\n");
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 2);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string name = lower(trim(line.substr(0, colon)));
    const std::string_view value = trim(line.substr(colon + 1));
    if (name == "upgrade") upgrade = lower(value) == "websocket";
    if (name == "connection") connection = has_token(value, "upgrade");
    if (name == "sec-websocket-accept") accepted = value == expected_accept_;
  }
  if (!upgrade || !connection) return "the server's 101 answer does not upgrade to websocket";
  if (!accepted) return "the server's Sec-WebSocket-Accept does not match our key";
  return {};
}

void WebSocketCodec::feed(std::string_view bytes, Sink& sink) {
  if (state_ == State::Ended) return;
  if (!context_->ptr) {
    end(sink, "out of memory for the WebSocket");
    return;
  }
  if (state_ == State::Handshake) {
    const std::size_t before = head_.size();
    head_.append(bytes);
    const std::size_t end_of_head = head_.find("\r\n\r\n");
    if (end_of_head == std::string::npos) {
      if (head_.size() > kMaxHandshakeBytes)
        end(sink, "the server's answer to the upgrade is longer than 16 KiB");
      return;
    }
    if (std::string why = check_handshake(std::string_view(head_).substr(0, end_of_head + 2));
        !why.empty()) {
      end(sink, std::move(why));
      return;
    }
    state_ = State::Open;
    // The frames that came in the same read as the answer's end.
    bytes.remove_prefix(end_of_head + 4 - before);
    head_.clear();
    head_.shrink_to_fit();
  }
  incoming_ = bytes;
  sink_ = &sink;
  const int rc = wslay_event_recv(context_->ptr);
  sink_ = nullptr;
  incoming_ = {};
  if (state_ == State::Ended) return;
  if (rc != 0 || !wslay_event_get_read_enabled(context_->ptr))
    // wslay found a broken frame (masked by the server, a reserved opcode or bit,
    // text that is not UTF-8, a message too long) and queued its close frame.
    end(sink, "the server broke the WebSocket protocol (or sent a message over " +
                  std::to_string(max_message_bytes_) + " bytes)");
}

void WebSocketCodec::queue_text(std::string_view text) {
  if (!context_->ptr || state_ == State::Ended) return;
  const wslay_event_msg msg{WSLAY_TEXT_FRAME, reinterpret_cast<const std::uint8_t*>(text.data()),
                            text.size()};
  wslay_event_queue_msg(context_->ptr, &msg);
}

void WebSocketCodec::queue_ping(std::string_view payload) {
  if (!context_->ptr || state_ == State::Ended) return;
  const wslay_event_msg msg{WSLAY_PING, reinterpret_cast<const std::uint8_t*>(payload.data()),
                            std::min<std::size_t>(payload.size(), 125)};
  wslay_event_queue_msg(context_->ptr, &msg);
}

void WebSocketCodec::queue_close(std::uint16_t code) {
  if (!context_->ptr) return;
  wslay_event_queue_close(context_->ptr, code, nullptr, 0);
}

void WebSocketCodec::take_output(std::string& out) {
  if (!context_->ptr || state_ == State::Handshake) return;
  output_ = &out;
  wslay_event_send(context_->ptr);
  output_ = nullptr;
}

}  // namespace eryantis::client
