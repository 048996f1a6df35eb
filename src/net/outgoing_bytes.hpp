#pragma once
// A connection's outgoing bytes, as TcpServer and HttpServer handle them: how
// many it holds unsent (what its budget limits), the write pass that sends what
// it queued, and when a closing connection's socket may go. Internal to the net
// library.
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

// For a connection whose writes are done and whose sending side is shut down:
// whether the peer has acknowledged every byte we sent, our FIN included (Linux's
// SIOCOUTQ is 0). Its socket may then be closed at once without losing anything
// of ours: before, a close with unread input would send a reset that discards
// what is still in flight (why a closing connection otherwise lingers until the
// peer's EOF). False when it cannot be told.
bool peer_has_everything(const uv_tcp_t* tcp);

// Reads and drops what the peer sent and nobody read (at most 1 MiB), so that the
// close that follows is an orderly one rather than a reset.
void discard_unread(const uv_tcp_t* tcp);

}  // namespace eryantis::net
