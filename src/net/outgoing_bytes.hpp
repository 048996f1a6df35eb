#pragma once
// A connection's outgoing bytes, as TcpServer and HttpServer handle them: how
// many it holds unsent (what its budget limits), and the write pass that sends
// what it queued. Internal to the net library.
#include <uv.h>

#include <cstddef>
#include <string>

namespace eryantis::net {

// What a connection would hold unsent once `adding` more bytes are queued: its
// own queue, what libuv has not written yet of the write in flight, and `adding`.
std::size_t unsent_after(const std::string& pending, uv_stream_t* stream, std::size_t adding);

enum class WriteStart {
  done,       // the socket took everything: `out` may be cleared now
  in_flight,  // the rest goes by uv_write: `out` stays untouched until `on_done`
  failed,     // the connection is broken (`error` says why)
};
struct WriteResult {
  WriteStart state;
  int error = 0;  // a libuv error code when failed
};

// Writes `out`: what the socket takes at once (most writes fit its buffer: no
// request, no callback), the rest through uv_write with `request` and `on_done`.
WriteResult start_write(uv_stream_t* stream, uv_write_t* request, std::string& out,
                        uv_write_cb on_done);

}  // namespace eryantis::net
