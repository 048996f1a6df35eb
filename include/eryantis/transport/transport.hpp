#pragma once
// The seam between the server's logic and the network (Redis ae style: I/O
// separated from logic). A target of its own (eryantis_transport) below both: the
// server layer knows only these interfaces, the net layer implements Transport and
// calls ConnectionEvents, and neither includes the other.
#include <cstdint>
#include <string>
#include <string_view>

namespace eryantis::transport {

using ConnectionId = std::uint64_t;

// Implemented by the transport (net layer, or a fake in tests).
class Transport {
 public:
  virtual ~Transport() = default;
  // Queues one message; the transport appends the '\n'. A connection whose
  // outgoing queue exceeds its bound is closed by the transport.
  virtual void send(ConnectionId id, std::string line) = 0;
  // Flushes what is queued, then closes.
  virtual void close(ConnectionId id) = 0;
};

// Implemented by the server; called by the transport on its loop thread.
class ConnectionEvents {
 public:
  virtual ~ConnectionEvents() = default;
  virtual void on_open(ConnectionId id, std::string_view peer) = 0;
  // Right after on_open: the connection came with a session secret it did not send
  // as a message (a browser's HttpOnly cookie on the WebSocket upgrade). The server
  // logs it in as a `login` with that session would, and never sends it the secret.
  virtual void on_session_cookie(ConnectionId /*id*/, std::string /*secret*/) {}
  // One complete line, without its '\n' (and without a trailing '\r').
  virtual void on_line(ConnectionId id, std::string_view line) = 0;
  // The client sent more than the maximum line length without a newline; the
  // rest of that line is discarded by the transport.
  virtual void on_line_too_long(ConnectionId id) = 0;
  virtual void on_closed(ConnectionId id) = 0;
};

}  // namespace eryantis::transport
