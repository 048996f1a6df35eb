#pragma once
// Watches a socket someone else owns (a libpq connection's) for reading: a
// uv_poll_t, closed when the watch is destroyed or the loop stops. Destroy the
// watch before closing the socket: libuv must not poll a closed descriptor.
#include <functional>
#include <memory>

#include "eryantis/net/event_loop.hpp"

namespace eryantis::net {

class SocketWatch {
 public:
  // `on_event(true)` when `fd` is readable, `on_event(false)` when polling it
  // failed (the socket is gone). Throws std::runtime_error if libuv refuses `fd`.
  SocketWatch(EventLoop& loop, int fd, std::function<void(bool readable)> on_event);
  SocketWatch(const SocketWatch&) = delete;
  SocketWatch& operator=(const SocketWatch&) = delete;
  ~SocketWatch();

 private:
  struct Box;
  void close();
  std::unique_ptr<Box> box_;  // null once closed
  EventLoop::StopHook stop_hook_;
};

}  // namespace eryantis::net
