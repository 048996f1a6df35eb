#pragma once
// The operator's channel: a Unix socket on the loop, created with permissions
// 0600 so only the server's own user (and root) can connect. One request line
// per connection, one reply line, then the server closes it. No protocol
// knowledge: the handler (the main layer) reads the line and answers.
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "eryantis/net/event_loop.hpp"

namespace eryantis::net {

class AdminSocket {
 public:
  // Sends `line` (a newline is added) and closes the connection. Safe to call
  // later, from another loop callback, and after the connection or the socket
  // went away (it then does nothing). Call it once.
  using Reply = std::function<void(std::string line)>;
  using Handler = std::function<void(std::string_view request, Reply reply)>;

  // `loop` must outlive the socket. loop.stop() closes it.
  AdminSocket(EventLoop& loop, Handler handler);
  AdminSocket(const AdminSocket&) = delete;
  AdminSocket& operator=(const AdminSocket&) = delete;
  ~AdminSocket();

  // Creates the socket at `path` (a stale socket file left by a crash is
  // replaced; any other file there is an error) with permissions 0600.
  std::expected<void, std::string> listen(const std::string& path);
  // Stops listening, closes every connection, removes the socket file.
  void close();

  struct Connection;  // defined in the .cpp; public for its libuv callbacks
  struct Listener;

 private:
  void on_accept();
  void on_request(std::uint64_t id, std::string line);
  void reply(std::uint64_t id, std::string line);
  void drop(std::uint64_t id);

  EventLoop& loop_;
  Handler handler_;
  EventLoop::StopHook stop_hook_;
  std::string path_;
  std::unique_ptr<Listener> listener_;
  std::unordered_map<std::uint64_t, std::unique_ptr<Connection>> connections_;
  std::uint64_t next_id_ = 1;
  // Replies hold a weak reference: once the socket is gone they do nothing.
  std::shared_ptr<AdminSocket*> self_;
};

}  // namespace eryantis::net
