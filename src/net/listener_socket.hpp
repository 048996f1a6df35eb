#pragma once
// A listening TCP socket on the caller's loop, as TcpServer and HttpServer open
// it: the host parsed as IPv4 or IPv6, bound, listening with the system's
// backlog, and the port it got (port 0 picks a free one). Destroying it closes
// the handle (freed in its close callback); no callback runs after that.
// Internal to the net library.
#include <uv.h>

#include <expected>
#include <functional>
#include <memory>
#include <string>

namespace eryantis::net {

class ListenerSocket {
 public:
  // Runs for each connection waiting to be accepted; status < 0: accepting failed.
  using OnConnection = std::function<void(int status)>;

  // Errors read "listen: bad port 70000", "listen: bad address 'x': ...",
  // "listen: cannot create a TCP handle: ..." or "listen on host:port: <libuv's error>".
  static std::expected<std::unique_ptr<ListenerSocket>, std::string> open(
      uv_loop_t* loop, const std::string& host, int port, OnConnection on_connection);
  struct Key {  // only open() makes listeners (they must be listening)
   private:
    friend class ListenerSocket;
    Key() = default;
  };
  struct Handle;
  ListenerSocket(std::unique_ptr<Handle> handle, int port, Key);
  ListenerSocket(const ListenerSocket&) = delete;
  ListenerSocket& operator=(const ListenerSocket&) = delete;
  ~ListenerSocket();

  int port() const { return port_; }
  // What uv_accept accepts from.
  uv_stream_t* stream();

 private:
  std::unique_ptr<Handle> handle_;
  int port_ = 0;
};

}  // namespace eryantis::net
