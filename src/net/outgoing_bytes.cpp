#include "outgoing_bytes.hpp"

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

}  // namespace eryantis::net
