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
          if (!s.sink_.open()) return;
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
  input_ = bytes;
  // A failure needs nothing more here: for a frame its frame layer refuses (a
  // fragmented or oversized control frame) wslay has queued a close without a
  // status code and stopped reading; for its other errors, a close with its code.
  static_cast<void>(wslay_event_recv(context_));
  input_ = {};
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
  wslay_event_queue_close(context_, code, reinterpret_cast<const std::uint8_t*>(reason.data()),
                          reason.size());
}

bool WebSocketSession::finished() const {
  return wslay_event_get_close_sent(context_) != 0 ||
         (wslay_event_want_read(context_) == 0 && wslay_event_want_write(context_) == 0);
}

}  // namespace eryantis::net
