#include "eryantis/net/websocket_session.hpp"

#include <wslay/wslay.h>

#include <algorithm>
#include <cstring>

namespace eryantis::net {

struct WebSocketSession::Callbacks {
  static WebSocketSession& of(void* user_data) {
    return *static_cast<WebSocketSession*>(user_data);
  }

  static const wslay_event_callbacks& get() {
    static const wslay_event_callbacks kCallbacks = {
        // recv: what this read brought, then "would block".
        [](wslay_event_context_ptr context, std::uint8_t* buffer, std::size_t length, int,
           void* user_data) -> ssize_t {
          WebSocketSession& s = of(user_data);
          if (s.input_.empty()) {
            wslay_event_set_error(context, WSLAY_ERR_WOULDBLOCK);
            return -1;
          }
          const std::size_t n = std::min(length, s.input_.size());
          std::memcpy(buffer, s.input_.data(), n);
          s.input_.remove_prefix(n);
          return static_cast<ssize_t>(n);
        },
        // send: into the sink (the connection's queue, where its limits apply).
        [](wslay_event_context_ptr, const std::uint8_t* data, std::size_t length, int,
           void* user_data) -> ssize_t {
          of(user_data).sink_.write(std::string_view(reinterpret_cast<const char*>(data), length));
          return static_cast<ssize_t>(length);
        },
        nullptr,  // genmask: servers do not mask
        nullptr,
        nullptr,
        nullptr,
        [](wslay_event_context_ptr, const wslay_event_on_msg_recv_arg* arg, void* user_data) {
          WebSocketSession& s = of(user_data);
          // Once we refused the connection (a binary message), what the same read
          // brings after it is dropped, as a later read's would be (found by
          // fuzz_ws_frames: the server used to act on those lines).
          if (!s.sink_.open() || s.close_queued_) return;
          if (arg->opcode == WSLAY_TEXT_FRAME) {
            s.sink_.on_text(
                std::string_view(reinterpret_cast<const char*>(arg->msg), arg->msg_length));
          } else if (arg->opcode == WSLAY_BINARY_FRAME) {
            s.queue_close(ws_close::unsupported_data, "binary frames are not part of the protocol");
          }
          // Ping, pong and close are answered by wslay itself.
        },
    };
    return kCallbacks;
  }
};

std::unique_ptr<WebSocketSession> WebSocketSession::create(Sink& sink,
                                                           std::size_t max_message_bytes) {
  auto session = std::make_unique<WebSocketSession>(sink, Key{});
  if (wslay_event_context_server_init(&session->context_, &Callbacks::get(), session.get()) != 0)
    return nullptr;
  wslay_event_config_set_max_recv_msg_length(session->context_, max_message_bytes);
  return session;
}

WebSocketSession::~WebSocketSession() {
  if (context_ != nullptr) wslay_event_context_free(context_);
}

void WebSocketSession::feed(std::string_view bytes) {
  if (refused_ != nullptr) return;  // our close 1002 is queued: nothing more is read
  std::string joined;
  if (!held_.empty()) {
    joined = std::move(held_) + std::string(bytes);
    held_.clear();
    bytes = joined;
  }
  const std::size_t ready = whole_control_payloads(bytes);
  if (refused_ == nullptr) {
    held_.assign(bytes.substr(ready));
  } else {
    held_.clear();
  }
  input_ = bytes.substr(0, ready);
  // A failure needs nothing more here: for its errors wslay queues a close with
  // their code and stops reading.
  static_cast<void>(wslay_event_recv(context_));
  input_ = {};
  if (refused_ != nullptr) {
    // The frames before the bad header were read (a close of wslay's own for one of
    // them comes first and this one is then not sent).
    wslay_event_shutdown_read(context_);
    queue_close(ws_close::protocol_error, refused_);
  }
}

// The header errors wslay's frame layer (1.1.1) would answer with a close
// frame without a status code (the client sees 1005), where RFC 6455 §7.4.1 asks
// for 1002: checked here first, at the same byte as wslay would, so wslay never
// sees them. Returns the reason, or nullptr for a good header so far.
const char* WebSocketSession::refused_header(std::string_view header) {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(header[i]); };
  const bool fin = (byte(0) & 0x80) != 0;
  const std::uint8_t opcode = byte(0) & 0x0F;
  const std::uint8_t length7 = byte(1) & 0x7F;
  if (header.size() == 2) {
    if ((opcode & 0x08) != 0 && (!fin || length7 > 125))
      return "a control frame must be whole and at most 125 bytes";
    if (opcode == 0x8 && length7 == 1) return "a close frame's payload is 0 bytes or at least 2";
    return nullptr;
  }
  std::uint64_t length = 0;
  for (std::size_t i = 2; i < header.size(); ++i) length = (length << 8) | byte(i);
  if (length7 == 126 && length < 126) return "a frame length must use its shortest form";
  if (length7 == 127 && (length >> 63) != 0)
    return "a 64-bit frame length must have its top bit clear";
  if (length7 == 127 && length < (1u << 16)) return "a frame length must use its shortest form";
  return nullptr;
}

// wslay (1.1.1) checks that a close frame's reason is UTF-8 from the third byte
// of every piece of it that a read brings, not from the third byte of the
// payload: a reason split across reads escaped the check and was echoed back in
// our close frame (found by fuzz_ws_frames). So a control frame's payload (at
// most 125 bytes) goes to wslay in one piece; headers and data go as they come,
// so that wslay refuses a bad header as soon as it sees it.
std::size_t WebSocketSession::whole_control_payloads(std::string_view bytes) {
  constexpr std::uint64_t kMaxControlPayload = 125;  // RFC 6455 §5.5
  std::size_t at = 0;
  while (at < bytes.size()) {
    const std::size_t left = bytes.size() - at;
    if (payload_left_ > 0) {
      const std::size_t take =
          static_cast<std::size_t>(std::min<std::uint64_t>(payload_left_, left));
      payload_left_ -= take;
      at += take;
      continue;
    }
    if (control_left_ > 0) {
      if (left < control_left_) return at;  // held until the rest comes
      at += static_cast<std::size_t>(control_left_);
      control_left_ = 0;
      continue;
    }
    // A frame header, byte by byte: 2 bytes, 2 or 8 more for a long length, 4
    // for the mask.
    header_ += bytes[at++];
    if (header_.size() < 2) continue;
    const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(header_[i]); };
    const std::uint8_t length7 = byte(1) & 0x7F;
    const std::size_t extra = length7 == 126 ? 2 : length7 == 127 ? 8 : 0;
    if (header_.size() == 2 || header_.size() == 2 + extra) {
      if (const char* why = refused_header(header_); why != nullptr) {
        refused_ = why;
        return at - 1;  // wslay gets what came before, never this header whole
      }
    }
    if (header_.size() < 2 + extra + ((byte(1) & 0x80) != 0 ? 4 : 0)) continue;
    std::uint64_t length = length7;
    if (extra > 0) {
      length = 0;
      for (std::size_t i = 0; i < extra; ++i) length = (length << 8) | byte(2 + i);
    }
    const bool control = (byte(0) & 0x08) != 0;
    // A control frame longer than 125 bytes is refused by wslay, which stops reading.
    if (control && length <= kMaxControlPayload) {
      control_left_ = length;
    } else {
      payload_left_ = length;
    }
    header_.clear();
  }
  return at;
}

bool WebSocketSession::send() {
  return wslay_event_send(context_) == 0;
}

bool WebSocketSession::queue_text(std::string_view text) {
  wslay_event_msg message{WSLAY_TEXT_FRAME, reinterpret_cast<const std::uint8_t*>(text.data()),
                          text.size()};
  return wslay_event_queue_msg(context_, &message) == 0;
}

void WebSocketSession::queue_close(std::uint16_t code, std::string_view reason) {
  close_queued_ = true;
  wslay_event_queue_close(context_, code, reinterpret_cast<const std::uint8_t*>(reason.data()),
                          reason.size());
}

bool WebSocketSession::finished() const {
  return wslay_event_get_close_sent(context_) != 0 ||
         (wslay_event_want_read(context_) == 0 && wslay_event_want_write(context_) == 0);
}

}  // namespace eryantis::net
