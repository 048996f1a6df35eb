#pragma once
// A line-oriented libuv client for many connections on one loop (bots, the
// terminal client), over either transport of the server: TCP, where lines are
// split with net::LineSplitter, or a WebSocket (one line per text message,
// client::WebSocketCodec). What send() queues is written once per loop iteration
// per connection (batched). Loop thread only.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "eryantis/client/websocket_codec.hpp"
#include "eryantis/net/event_loop.hpp"

namespace eryantis::client {

class ConnectionPool;

class LineConnection {
 public:
  class Handler {
   public:
    virtual ~Handler() = default;
    // Over a WebSocket: once the server accepted the upgrade.
    virtual void on_connected() = 0;
    // One line without '\n' (and without a trailing '\r'), or one WebSocket text
    // message; valid during the call.
    virtual void on_line(std::string_view line) = 0;
    // The connection failed or the peer closed it (never for our own close()).
    // Called from a loop callback, never from inside send()/connect()/close().
    virtual void on_closed(std::string_view reason) = 0;
  };

  // Open: connected (for a WebSocket, the upgrade accepted).
  enum class Status : std::uint8_t { Idle, Connecting, Open };

  // `pool` and `handler` must outlive the connection. The handler may call
  // send(), close() and connect() from its callbacks, but must not destroy the
  // connection there.
  LineConnection(ConnectionPool& pool, Handler& handler);
  LineConnection(const LineConnection&) = delete;
  LineConnection& operator=(const LineConnection&) = delete;
  ~LineConnection();  // close() without callbacks

  // `host`: an IPv4/IPv6 literal or "localhost". Closes any current socket first.
  void connect(const std::string& host, int port);
  // TCP lines or a WebSocket, as `endpoint` says.
  void connect(const Endpoint& endpoint);
  // Queues `line` + '\n', or a text message (ignored unless Open or Connecting:
  // sent once connected).
  void send(std::string_view line);
  // Closes at once (queued bytes are dropped); no on_closed. An open WebSocket is
  // sent a close frame (1000) first if the socket takes it without waiting.
  void close();

  Status status() const;
  std::uint64_t bytes_in() const { return bytes_in_; }
  std::uint64_t bytes_out() const { return bytes_out_; }

  struct Socket;  // the libuv part; public for the .cpp's callbacks

 private:
  friend class ConnectionPool;
  void flush();
  void lost(std::string reason);  // the socket failed: close it, then tell the handler

  ConnectionPool& pool_;
  Handler& handler_;
  Socket* socket_ = nullptr;  // owned until closed; then freed by its close callback
  std::string out_;           // queued, not yet handed to libuv
  bool dirty_ = false;        // in the pool's flush list
  std::uint64_t bytes_in_ = 0;
  std::uint64_t bytes_out_ = 0;
};

// Owns what the connections of one loop share: the flush of queued writes at the
// end of each loop iteration and the read buffer. loop.stop() closes every
// connection of the pool (without callbacks).
class ConnectionPool {
 public:
  explicit ConnectionPool(net::EventLoop& loop, std::size_t max_line_bytes = 4 * 1024 * 1024);
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;
  ~ConnectionPool();

  net::EventLoop& loop() { return loop_; }
  std::size_t max_line_bytes() const { return max_line_bytes_; }
  // Writes everything queued now (normally done at the end of the iteration).
  void flush_all();

  struct Flusher;  // uv_check + uv_prepare; public for the .cpp's callbacks

 private:
  friend class LineConnection;
  void mark_dirty(LineConnection& c);
  void forget(LineConnection& c);
  void close_all();

  net::EventLoop& loop_;
  std::size_t max_line_bytes_;
  Flusher* flusher_ = nullptr;  // freed by its close callbacks
  std::vector<LineConnection*> dirty_;
  std::unordered_set<LineConnection*> all_;
  net::EventLoop::StopHook stop_hook_;
};

}  // namespace eryantis::client
