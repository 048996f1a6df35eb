#include "listener_socket.hpp"

#include <sys/socket.h>

#include "uv_handle.hpp"

namespace eryantis::net {

using detail::as_handle;
using detail::as_stream;
using detail::close_and_free;

struct ListenerSocket::Handle {
  uv_tcp_t tcp{};              // tcp.data points back to this Handle
  OnConnection on_connection;  // empty once closing, so late callbacks do nothing
};

std::expected<std::unique_ptr<ListenerSocket>, std::string> ListenerSocket::open(
    uv_loop_t* loop, const std::string& host, int port, OnConnection on_connection) {
  if (port < 0 || port > 65535) return std::unexpected("listen: bad port " + std::to_string(port));
  sockaddr_storage address{};
  const bool ipv6 = host.find(':') != std::string::npos;
  int rc = ipv6 ? uv_ip6_addr(host.c_str(), port, reinterpret_cast<sockaddr_in6*>(&address))
                : uv_ip4_addr(host.c_str(), port, reinterpret_cast<sockaddr_in*>(&address));
  if (rc < 0) return std::unexpected("listen: bad address '" + host + "': " + uv_strerror(rc));

  auto handle = std::make_unique<Handle>();
  rc = uv_tcp_init(loop, &handle->tcp);
  if (rc < 0)
    return std::unexpected("listen: cannot create a TCP handle: " + std::string(uv_strerror(rc)));
  handle->tcp.data = handle.get();
  handle->on_connection = std::move(on_connection);
  rc = uv_tcp_bind(&handle->tcp, reinterpret_cast<const sockaddr*>(&address), 0);
  // On Unix a bind error such as EADDRINUSE may only show up in uv_listen.
  if (rc == 0) {
    rc = uv_listen(as_stream(&handle->tcp), SOMAXCONN, [](uv_stream_t* stream, int status) {
      auto* owner = static_cast<Handle*>(stream->data);
      if (owner->on_connection) owner->on_connection(status);
    });
  }
  int length = sizeof address;
  if (rc == 0)
    rc = uv_tcp_getsockname(&handle->tcp, reinterpret_cast<sockaddr*>(&address), &length);
  if (rc < 0) {
    uv_handle_t* raw = as_handle(&handle->tcp);
    close_and_free(std::move(handle), raw);
    return std::unexpected("listen on " + host + ":" + std::to_string(port) + ": " +
                           uv_strerror(rc));
  }
  const int bound = address.ss_family == AF_INET6
                        ? ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port)
                        : ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
  return std::make_unique<ListenerSocket>(std::move(handle), bound, Key{});
}

ListenerSocket::ListenerSocket(std::unique_ptr<Handle> handle, int port, Key)
    : handle_(std::move(handle)), port_(port) {}

ListenerSocket::~ListenerSocket() {
  handle_->on_connection = nullptr;
  uv_handle_t* raw = as_handle(&handle_->tcp);
  close_and_free(std::move(handle_), raw);
}

uv_stream_t* ListenerSocket::stream() {
  return as_stream(&handle_->tcp);
}

}  // namespace eryantis::net
