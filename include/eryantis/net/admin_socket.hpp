#pragma once
// The operator's channel: a Unix socket on the loop, created with permissions
// 0600 so only the server's own user (and root) can connect. One request line
// per connection, one reply line, then the server closes it. No protocol
// knowledge: the handler (the main layer) reads the line and answers.
// Bounded: at most max_connections at once (one more gets busy_line and is
// closed), and a connection whose request line has not arrived within
// idle_timeout_ms gets idle_line and is closed. A request being answered (a
// drain, a backup) has no time limit.
#include <cstddef>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "eryantis/net/event_loop.hpp"

namespace eryantis::net {

struct AdminSocketOptions {
  // Connections at once, waiting for their request or for its answer.
  std::size_t max_connections = 16;
  // From the connection to its whole request line.
  std::uint64_t idle_timeout_ms = 10'000;
  // Sent (with '\n') to a connection refused by max_connections; empty = none.
  std::string busy_line;
  // Sent (with '\n') to a connection closed by idle_timeout_ms; empty = none.
  std::string idle_line;
};

class AdminSocket {
 public:
  // Sends `line` (a newline is added) and closes the connection. Safe to call
  // later, from another loop callback, and after the connection or the socket
  // went away (it then does nothing). Call it once.
  using Reply = std::function<void(std::string line)>;
  using Handler = std::function<void(std::string_view request, Reply reply)>;

  // `loop` must outlive the socket. loop.stop() closes it.
  AdminSocket(EventLoop& loop, Handler handler, AdminSocketOptions options = {});
  AdminSocket(const AdminSocket&) = delete;
  AdminSocket& operator=(const AdminSocket&) = delete;
  ~AdminSocket();

  // Creates the socket at `path` (a stale socket file left by a crash is
  // replaced; any other file there is an error) with permissions 0600.
  std::expected<void, std::string> listen(const std::string& path);
  // Stops listening, closes every connection, removes the socket file.
  void close();
  // Connections open now (waiting for a request, being answered, or being told
  // they are refused).
  std::size_t connection_count() const { return connections_.size(); }

  struct Connection;  // defined in the .cpp; public for its libuv callbacks
  struct Listener;
  struct Sweeper;

 private:
  void on_accept();
  void on_request(std::uint64_t id, std::string line);
  void reply(std::uint64_t id, std::string line);
  void drop(std::uint64_t id);
  void sweep();  // closes connections whose request is overdue

  EventLoop& loop_;
  Handler handler_;
  AdminSocketOptions options_;
  EventLoop::StopHook stop_hook_;
  std::unique_ptr<Sweeper> sweeper_;  // runs while connections wait for their request
  std::string path_;
  std::unique_ptr<Listener> listener_;
  std::unordered_map<std::uint64_t, std::unique_ptr<Connection>> connections_;
  std::uint64_t next_id_ = 1;
  // Replies hold a weak reference: once the socket is gone they do nothing.
  std::shared_ptr<AdminSocket*> self_;
};

}  // namespace eryantis::net
