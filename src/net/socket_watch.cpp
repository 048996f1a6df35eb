#include "eryantis/net/socket_watch.hpp"

#include <stdexcept>
#include <string>

#include "uv_handle.hpp"

namespace eryantis::net {

struct SocketWatch::Box {
  uv_poll_t poll{};
  std::function<void(bool)> on_event;
};

SocketWatch::SocketWatch(EventLoop& loop, int fd, std::function<void(bool)> on_event)
    : box_(std::make_unique<Box>()) {
  box_->on_event = std::move(on_event);
  if (const int rc = uv_poll_init(loop.raw(), &box_->poll, fd); rc != 0)
    throw std::runtime_error(std::string("uv_poll_init: ") + uv_strerror(rc));
  box_->poll.data = box_.get();
  const int rc = uv_poll_start(&box_->poll, UV_READABLE, [](uv_poll_t* poll, int status, int) {
    auto* box = static_cast<Box*>(poll->data);
    // Late callbacks do nothing once the handle is closing.
    if (uv_is_closing(detail::as_handle(poll))) return;
    box->on_event(status == 0);
  });
  if (rc != 0) {
    close();
    throw std::runtime_error(std::string("uv_poll_start: ") + uv_strerror(rc));
  }
  // The loop's stop() waits for every handle to close: this one closes then too.
  stop_hook_ = loop.add_stop_hook([this] { close(); });
}

SocketWatch::~SocketWatch() {
  close();
}

void SocketWatch::close() {
  if (!box_) return;
  uv_handle_t* handle = detail::as_handle(&box_->poll);
  detail::close_and_free(std::move(box_), handle);
}

}  // namespace eryantis::net
