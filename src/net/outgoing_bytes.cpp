#include "outgoing_bytes.hpp"

#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <array>

namespace eryantis::net {

std::size_t unsent_after(const std::string& pending, uv_stream_t* stream, std::size_t adding) {
  return pending.size() + uv_stream_get_write_queue_size(stream) + adding;
}

WriteResult start_write(uv_stream_t* stream, uv_write_t* request, std::string& out,
                        uv_write_cb on_done) {
  uv_buf_t buffer = uv_buf_init(out.data(), static_cast<unsigned int>(out.size()));
  int written = uv_try_write(stream, &buffer, 1);
  if (written == UV_EAGAIN) written = 0;
  if (written < 0) return {WriteStart::failed, written};
  if (static_cast<std::size_t>(written) == out.size()) return {WriteStart::done};
  buffer = uv_buf_init(out.data() + written, static_cast<unsigned int>(out.size() - written));
  if (const int rc = uv_write(request, stream, &buffer, 1, on_done); rc < 0)
    return {WriteStart::failed, rc};
  return {WriteStart::in_flight};
}

bool peer_has_everything(const uv_tcp_t* tcp) {
  uv_os_fd_t fd = -1;
  if (uv_fileno(reinterpret_cast<const uv_handle_t*>(tcp), &fd) != 0) return false;
  int unacknowledged = 0;
  return ::ioctl(fd, SIOCOUTQ, &unacknowledged) == 0 && unacknowledged == 0;
}

void discard_unread(const uv_tcp_t* tcp) {
  uv_os_fd_t fd = -1;
  if (uv_fileno(reinterpret_cast<const uv_handle_t*>(tcp), &fd) != 0) return;
  std::array<char, 64 * 1024> scratch;
  for (int i = 0; i < 16; ++i)
    if (::recv(fd, scratch.data(), scratch.size(), MSG_DONTWAIT) <= 0) return;
}

}  // namespace eryantis::net
