// libuv client connections, TCP lines or a WebSocket. Each socket lives in a heap box that libuv
// owns from uv_close() until its close callback; the LineConnection only points at the box while it
// is current, so a reconnect or a close never waits for libuv.
#include "eryantis/client/connection.hpp"

#include <uv.h>

#include <algorithm>
#include <array>
#include <memory>

#include "eryantis/net/line_splitter.hpp"

namespace eryantis::client {

struct LineConnection::Socket final : net::LineSplitter::Sink, WebSocketCodec::Sink {
  explicit Socket(std::size_t max_line_bytes) : splitter(max_line_bytes) {}

  void on_line(std::string_view line) override {
    if (owner) owner->handler_.on_line(line);
  }
  void on_too_long() override {
    if (owner) owner->lost("the server sent a line longer than the limit");
  }
  void on_message(std::string_view text) override {
    // The first message may come in the same read as the 101.
    if (!owner || !announce_open()) return;
    owner->handler_.on_line(text);
  }
  void on_ended(std::string reason) override {
    if (owner) owner->lost(std::move(reason));
  }

  // Bytes of a WebSocket connection: the upgrade's answer, then frames.
  void read_websocket(std::string_view bytes) {
    websocket->feed(bytes, *this);
    if (!owner || (websocket->open() && !announce_open())) return;
    owner->pool_.mark_dirty(*owner);  // pongs, the close answer, messages queued meanwhile
  }
  // The upgrade is done: the handler hears of it once. False when the handler let go
  // of this socket from on_connected (closed or reconnected).
  bool announce_open() {
    if (upgraded) return true;
    upgraded = true;
    LineConnection* o = owner;
    o->handler_.on_connected();
    return o->socket_ == this;
  }

  uv_tcp_t tcp{};
  uv_connect_t connect_req{};
  uv_write_t write_req{};
  LineConnection* owner = nullptr;  // null once the connection let go of this socket
  net::LineSplitter splitter;
  std::unique_ptr<WebSocketCodec> websocket;  // null: TCP lines
  bool upgraded = false;                      // the WebSocket's handshake is done
  std::string writing;                        // handed to uv_write
  bool write_pending = false;
  bool connected = false;
  int failed = 0;           // a synchronous connect error, reported from the next flush
  bool initialized = true;  // uv_tcp_init succeeded
};

struct ConnectionPool::Flusher {
  uv_check_t check{};
  uv_prepare_t prepare{};
  ConnectionPool* pool = nullptr;  // null once the pool is gone
  int open_handles = 0;
};

namespace {

uv_stream_t* stream_of(LineConnection::Socket* s) {
  return reinterpret_cast<uv_stream_t*>(&s->tcp);
}

void close_socket(LineConnection::Socket* s) {
  s->owner = nullptr;
  if (!s->initialized) {
    delete s;
    return;
  }
  auto* handle = reinterpret_cast<uv_handle_t*>(&s->tcp);
  if (uv_is_closing(handle)) return;
  uv_close(handle, [](uv_handle_t* h) { delete static_cast<LineConnection::Socket*>(h->data); });
}

void on_alloc(uv_handle_t*, std::size_t, uv_buf_t* buf) {
  // Reads are consumed at once (split into lines, partial lines copied), so one
  // buffer per thread serves every connection.
  thread_local std::array<char, 64 * 1024> buffer;
  *buf = uv_buf_init(buffer.data(), static_cast<unsigned>(buffer.size()));
}

}  // namespace

LineConnection::LineConnection(ConnectionPool& pool, Handler& handler)
    : pool_(pool), handler_(handler) {
  pool_.all_.insert(this);
}

LineConnection::~LineConnection() {
  close();
  pool_.forget(*this);
}

LineConnection::Status LineConnection::status() const {
  if (!socket_) return Status::Idle;
  const bool open = socket_->connected && (!socket_->websocket || socket_->upgraded);
  return open ? Status::Open : Status::Connecting;
}

void LineConnection::connect(const std::string& host, int port) {
  connect(Endpoint{host, port, {}});
}

void LineConnection::connect(const Endpoint& endpoint) {
  close();
  const std::string& host = endpoint.host;
  const int port = endpoint.port;
  auto* s = new Socket(pool_.max_line_bytes());
  if (endpoint.websocket()) {
    s->websocket = std::make_unique<WebSocketCodec>(host, port, endpoint.websocket_path,
                                                    pool_.max_line_bytes());
    out_ = s->websocket->handshake_request();  // the first bytes on the socket
  }
  s->owner = this;
  s->tcp.data = s;
  s->connect_req.data = s;
  s->write_req.data = s;
  socket_ = s;
  if (const int rc = uv_tcp_init(pool_.loop().raw(), &s->tcp); rc < 0) {
    s->initialized = false;  // nothing for libuv to close
    s->failed = rc;          // reported from a loop callback like every other failure
    pool_.mark_dirty(*this);
    return;
  }
  uv_tcp_nodelay(&s->tcp, 1);
  sockaddr_storage addr{};
  const std::string literal = host == "localhost" ? "127.0.0.1" : host;
  int rc = uv_ip4_addr(literal.c_str(), port, reinterpret_cast<sockaddr_in*>(&addr));
  if (rc < 0) rc = uv_ip6_addr(literal.c_str(), port, reinterpret_cast<sockaddr_in6*>(&addr));
  if (rc == 0)
    rc = uv_tcp_connect(
        &s->connect_req, &s->tcp, reinterpret_cast<const sockaddr*>(&addr),
        [](uv_connect_t* req, int status) {
          auto* s = static_cast<Socket*>(req->data);
          if (!s->owner) return;
          if (status < 0) {
            s->owner->lost(std::string("cannot connect: ") + uv_strerror(status));
            return;
          }
          s->connected = true;
          uv_read_start(stream_of(s), on_alloc,
                        [](uv_stream_t* stream, ssize_t n, const uv_buf_t* buf) {
                          auto* s = static_cast<Socket*>(stream->data);
                          if (!s->owner) return;
                          if (n > 0) {
                            s->owner->bytes_in_ += static_cast<std::uint64_t>(n);
                            const std::string_view bytes(buf->base, static_cast<std::size_t>(n));
                            if (s->websocket)
                              s->read_websocket(bytes);
                            else
                              s->splitter.feed(bytes, *s);
                          } else if (n < 0) {
                            s->owner->lost(n == UV_EOF ? "the server closed the connection"
                                                       : std::string("read failed: ") +
                                                             uv_strerror(static_cast<int>(n)));
                          }
                        });
          LineConnection* owner = s->owner;
          if (!s->websocket) owner->handler_.on_connected();  // a WebSocket: after the 101
          if (owner->socket_ == s && !owner->out_.empty()) owner->pool_.mark_dirty(*owner);
        });
  if (rc < 0) {
    s->failed = rc;
    pool_.mark_dirty(*this);
  }
}

void LineConnection::send(std::string_view line) {
  if (!socket_) return;
  if (socket_->websocket) {
    socket_->websocket->queue_text(line);
  } else {
    out_.append(line);
    out_.push_back('\n');
  }
  if (socket_->connected) pool_.mark_dirty(*this);
}

void LineConnection::close() {
  out_.clear();
  if (!socket_) return;
  if (socket_->websocket && socket_->websocket->open() && socket_->connected &&
      !socket_->write_pending) {
    // Say goodbye (RFC 6455 §7.1.2) without waiting: 6 bytes a socket always takes.
    std::string bye;
    socket_->websocket->queue_close();
    socket_->websocket->take_output(bye);
    uv_buf_t buf = uv_buf_init(bye.data(), static_cast<unsigned>(bye.size()));
    uv_try_write(stream_of(socket_), &buf, 1);
  }
  close_socket(socket_);
  socket_ = nullptr;
}

void LineConnection::lost(std::string reason) {
  close();
  handler_.on_closed(reason);
}

void LineConnection::flush() {
  Socket* s = socket_;
  if (!s) return;
  if (s->failed) {
    lost(std::string("cannot connect: ") + uv_strerror(s->failed));
    return;
  }
  if (!s->connected || s->write_pending) return;
  if (s->websocket) s->websocket->take_output(out_);
  if (out_.empty()) return;
  s->writing.swap(out_);
  out_.clear();
  bytes_out_ += s->writing.size();
  uv_buf_t buf = uv_buf_init(s->writing.data(), static_cast<unsigned>(s->writing.size()));
  const int n = uv_try_write(stream_of(s), &buf, 1);
  if (n == static_cast<int>(s->writing.size())) {
    s->writing.clear();
    return;
  }
  if (n < 0 && n != UV_EAGAIN) {
    lost(std::string("write failed: ") + uv_strerror(n));
    return;
  }
  if (n > 0) s->writing.erase(0, static_cast<std::size_t>(n));
  buf = uv_buf_init(s->writing.data(), static_cast<unsigned>(s->writing.size()));
  s->write_pending = true;
  const int rc = uv_write(&s->write_req, stream_of(s), &buf, 1, [](uv_write_t* req, int status) {
    auto* s = static_cast<Socket*>(req->data);
    s->write_pending = false;
    s->writing.clear();
    if (!s->owner) return;
    if (status < 0) {
      s->owner->lost(std::string("write failed: ") + uv_strerror(status));
      return;
    }
    if (!s->owner->out_.empty()) s->owner->pool_.mark_dirty(*s->owner);
  });
  if (rc < 0) {
    s->write_pending = false;
    lost(std::string("write failed: ") + uv_strerror(rc));
  }
}

// ---------------------------------------------------------------------------

ConnectionPool::ConnectionPool(net::EventLoop& loop, std::size_t max_line_bytes)
    : loop_(loop), max_line_bytes_(max_line_bytes) {
  flusher_ = new Flusher;
  flusher_->pool = this;
  uv_check_init(loop_.raw(), &flusher_->check);
  uv_prepare_init(loop_.raw(), &flusher_->prepare);
  flusher_->check.data = flusher_;
  flusher_->prepare.data = flusher_;
  flusher_->open_handles = 2;
  // After I/O callbacks (check) and after timers (prepare, before blocking).
  uv_check_start(&flusher_->check, [](uv_check_t* h) {
    if (auto* f = static_cast<Flusher*>(h->data); f->pool) f->pool->flush_all();
  });
  uv_prepare_start(&flusher_->prepare, [](uv_prepare_t* h) {
    if (auto* f = static_cast<Flusher*>(h->data); f->pool) f->pool->flush_all();
  });
  // They must not keep the loop alive on their own.
  uv_unref(reinterpret_cast<uv_handle_t*>(&flusher_->check));
  uv_unref(reinterpret_cast<uv_handle_t*>(&flusher_->prepare));
  stop_hook_ = loop_.add_stop_hook([this] { close_all(); });
}

ConnectionPool::~ConnectionPool() {
  close_all();
}

void ConnectionPool::close_all() {
  for (LineConnection* c : all_) c->close();
  dirty_.clear();
  for (LineConnection* c : all_) c->dirty_ = false;
  if (!flusher_) return;
  flusher_->pool = nullptr;
  auto done = [](uv_handle_t* h) {
    auto* f = static_cast<Flusher*>(h->data);
    if (--f->open_handles == 0) delete f;
  };
  uv_close(reinterpret_cast<uv_handle_t*>(&flusher_->check), done);
  uv_close(reinterpret_cast<uv_handle_t*>(&flusher_->prepare), done);
  flusher_ = nullptr;
}

void ConnectionPool::mark_dirty(LineConnection& c) {
  if (c.dirty_ || !flusher_) return;
  c.dirty_ = true;
  dirty_.push_back(&c);
}

void ConnectionPool::forget(LineConnection& c) {
  all_.erase(&c);
  if (c.dirty_) std::erase(dirty_, &c);
}

void ConnectionPool::flush_all() {
  std::vector<LineConnection*> batch;
  for (int round = 0; round < 4 && !dirty_.empty(); ++round) {
    batch.swap(dirty_);
    for (LineConnection* c : batch) {
      c->dirty_ = false;
      c->flush();
    }
    batch.clear();
  }
}

}  // namespace eryantis::client
