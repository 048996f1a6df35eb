#include "eryantis/net/tcp_server.hpp"

#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <string_view>
#include <utility>

#include "eryantis/net/foreign_protocol.hpp"
#include "eryantis/net/line_splitter.hpp"
#include "listener_socket.hpp"
#include "outgoing_bytes.hpp"
#include "peer_name.hpp"
#include "uv_handle.hpp"

namespace eryantis::net {

using detail::as_handle;
using detail::as_stream;
using detail::close_and_free;
using transport::ConnectionId;

namespace {

constexpr std::size_t kReadBufferBytes = 64 * 1024;
// Write buffers keep up to this much capacity between writes. Small on purpose:
// 10,000 idle connections each keeping the capacity of their last burst (a few
// full board views) cost ~8 KiB apiece; a fresh allocation per larger write
// costs ~100 ns.
constexpr std::size_t kKeepBufferBytes = 1024;
// How often closing connections are checked once the server stops (close_all).
constexpr std::uint64_t kStoppingSweepMs = 10;

}  // namespace

struct TcpServer::Connection {
  explicit Connection(std::size_t max_line_bytes) : splitter(max_line_bytes) {}

  enum class State { open, closing, closed };

  uv_tcp_t tcp{};  // tcp.data points back to this Connection
  uv_write_t write_req{};
  uv_shutdown_t shutdown_req{};
  TcpServer* server = nullptr;  // not owned; null once closed, so late callbacks do nothing
  ConnectionId id = 0;
  bool announced = false;  // on_open was called, so on_closed is owed
  State state = State::open;
  bool writing = false;  // a uv_write is in flight (reading `out`)
  bool dirty = false;    // listed in TcpServer::dirty_
  bool shutdown_started = false;
  bool shutdown_done = false;
  bool peer_eof = false;
  bool first_line_read = false;      // later lines are not checked for HTTP
  std::uint64_t close_deadline = 0;  // uv_now() after which a closing connection is cut
  LineSplitter splitter;
  std::size_t held_incoming = 0;  // splitter.held_bytes() as counted in incoming_bytes_
  std::string pending;            // lines queued since the last write
  std::string out;  // bytes of the write in flight; libuv reads them until its callback

  // Heap bytes held for unsent output: the allocations, not the lengths (a
  // string grows by doubling, so it may hold up to twice what it queues). An
  // empty buffer (at most kKeepBufferBytes kept for reuse) counts as nothing.
  std::size_t held() const {
    return (pending.empty() ? 0 : pending.capacity()) + (out.empty() ? 0 : out.capacity());
  }
};

// Owners of the server's own handles; handle.data points back to the owner.
struct TcpServer::Prepare {
  uv_prepare_t prepare{};
  TcpServer* server = nullptr;  // not owned
};
struct TcpServer::Sweeper {
  uv_timer_t timer{};
  TcpServer* server = nullptr;  // not owned
};

namespace {

TcpServer::Connection* connection_of(void* data) {
  return static_cast<TcpServer::Connection*>(data);
}

}  // namespace

// Hands the lines of one read to the events while the connection stays open (the
// server may close it from inside on_line). A connection whose first line is HTTP
// is closed there: nothing it sent reaches the events (foreign_protocol.hpp).
class TcpServer::Lines final : public LineSplitter::Sink {
 public:
  Lines(TcpServer& server, Connection& connection) : server_(server), connection_(connection) {}
  void on_line(std::string_view line) override {
    if (!open()) return;
    if (!connection_.first_line_read) {
      connection_.first_line_read = true;
      if (looks_like_http(line)) {
        server_.refuse_http(connection_, line);
        return;
      }
    }
    server_.events_->on_line(connection_.id, line);
  }
  void on_too_long() override {
    if (!open()) return;
    connection_.first_line_read = true;
    server_.events_->on_line_too_long(connection_.id);
  }

 private:
  bool open() const { return connection_.state == Connection::State::open; }
  TcpServer& server_;
  Connection& connection_;
};

TcpServer::TcpServer(EventLoop& loop, transport::ConnectionEvents& events, TcpServerOptions options)
    : TcpServer(loop, std::move(options)) {
  events_ = &events;
}

TcpServer::TcpServer(EventLoop& loop, TcpServerOptions options)
    : loop_(loop),
      options_(std::move(options)),
      prepare_(std::make_unique<Prepare>()),
      sweeper_(std::make_unique<Sweeper>()),
      read_buffer_(std::make_unique<char[]>(kReadBufferBytes)) {
  // Runs just before the loop would block, so everything sent during an
  // iteration goes out in one write per connection, with no added latency.
  // libuv's inits cannot fail on a live loop today, but a failure would leave a handle
  // that must never be started or closed: it is recorded and listen() reports it.
  int rc = uv_prepare_init(loop_.raw(), &prepare_->prepare);
  prepare_->server = this;
  prepare_->prepare.data = prepare_.get();
  if (rc == 0) {
    rc = uv_prepare_start(&prepare_->prepare, [](uv_prepare_t* handle) {
      static_cast<Prepare*>(handle->data)->server->run_deferred();
    });
    uv_unref(as_handle(&prepare_->prepare));  // referenced only while it has work
  }
  if (rc < 0) init_error_ = std::string("net: cannot set up the write pass: ") + uv_strerror(rc);

  rc = uv_timer_init(loop_.raw(), &sweeper_->timer);
  if (rc < 0 && init_error_.empty())
    init_error_ = std::string("net: cannot set up the close timer: ") + uv_strerror(rc);
  sweeper_->server = this;
  sweeper_->timer.data = sweeper_.get();

  stop_hook_ = loop_.add_stop_hook([this] {
    stop_accepting();
    close_all();
  });
}

TcpServer::~TcpServer() {
  stop_hook_ = {};
  for (auto& [id, owned] : connections_) {
    Connection* connection = owned.get();
    connection->server = nullptr;
    close_and_free(std::move(owned), as_handle(&connection->tcp));
  }
  connections_.clear();
  listener_.reset();
  uv_handle_t* prepare = as_handle(&prepare_->prepare);
  close_and_free(std::move(prepare_), prepare);
  uv_handle_t* sweeper = as_handle(&sweeper_->timer);
  close_and_free(std::move(sweeper_), sweeper);
}

std::expected<int, std::string> TcpServer::listen(const std::string& host, int port) {
  if (!init_error_.empty()) return std::unexpected(init_error_);
  if (events_ == nullptr) return std::unexpected("listen: no ConnectionEvents set");
  if (listener_) return std::unexpected("listen: already listening");
  auto listener = ListenerSocket::open(loop_.raw(), host, port, [this](int status) {
    if (status < 0) {
      log_throttle_.log(spdlog::level::warn, "accept failed",
                        fmt::format("net: accept failed: {}", uv_strerror(status)));
      return;
    }
    on_accept();
  });
  if (!listener) return std::unexpected(listener.error());
  listener_ = std::move(*listener);
  spdlog::debug("net: listening on {}:{}", host, listener_->port());
  return listener_->port();
}

void TcpServer::on_accept() {
  auto owned = std::make_unique<Connection>(options_.max_line_bytes);
  Connection& connection = *owned;
  if (const int init = uv_tcp_init(loop_.raw(), &connection.tcp); init < 0) {
    // No handle to accept into: the peer waits in the backlog until a later try.
    log_throttle_.log(spdlog::level::warn, "accept failed",
                      fmt::format("net: cannot create a TCP handle: {}", uv_strerror(init)));
    return;
  }
  connection.tcp.data = owned.get();
  connection.server = this;
  // Even a connection we refuse must be accepted, or libuv stops polling the listener.
  const int rc = uv_accept(listener_->stream(), as_stream(&connection.tcp));
  if (rc < 0) {
    log_throttle_.log(spdlog::level::warn, "accept failed",
                      fmt::format("net: accept failed: {}", uv_strerror(rc)));
    close_and_free(std::move(owned), as_handle(&connection.tcp));
    return;
  }
  // Both only tune the socket: a failure costs latency or dead-peer detection, not data.
  if (const int nodelay = uv_tcp_nodelay(&connection.tcp, 1); nodelay < 0)
    spdlog::debug("net: TCP_NODELAY refused: {}", uv_strerror(nodelay));
  if (const int keepalive = uv_tcp_keepalive(&connection.tcp, 1, options_.keepalive_delay_s);
      keepalive < 0)
    spdlog::debug("net: keepalive refused: {}", uv_strerror(keepalive));
  connection.id = next_id_++;
  connections_.emplace(connection.id, std::move(owned));

  if (open_count_ >= options_.max_connections) {
    spdlog::debug("net: refusing a connection: {} open (max {})", open_count_,
                  options_.max_connections);
    if (!options_.busy_line.empty()) {
      connection.pending = options_.busy_line + '\n';
      queued_bytes_ += connection.held();
    }
    begin_close(connection);
    start_reading(connection);
    return;
  }
  connection.announced = true;
  ++open_count_;
  events_->on_open(connection.id, peer_name(connection.tcp));
  if (connection.state != Connection::State::closed) start_reading(connection);
}

void TcpServer::start_reading(Connection& connection) {
  const int rc = uv_read_start(
      as_stream(&connection.tcp),
      [](uv_handle_t* handle, std::size_t, uv_buf_t* buffer) {
        // Reads stop when the handle closes, so server is set here.
        TcpServer* server = connection_of(handle->data)->server;
        *buffer = uv_buf_init(server->read_buffer_.get(), kReadBufferBytes);
      },
      [](uv_stream_t* stream, ssize_t nread, const uv_buf_t*) {
        Connection* connection = connection_of(stream->data);
        if (connection->server != nullptr) connection->server->on_read(*connection, nread);
      });
  if (rc < 0) {
    spdlog::debug("net: connection {}: read failed: {}", connection.id, uv_strerror(rc));
    finish(connection, Notify::now);
  }
}

void TcpServer::on_read(Connection& connection, ssize_t nread) {
  if (nread > 0) {
    // While closing, what the peer still sends is read only to be dropped.
    if (connection.state != Connection::State::open) return;
    Lines sink(*this, connection);
    connection.splitter.feed(std::string_view(read_buffer_.get(), nread), sink);
    if (connection.state == Connection::State::closed) return;
    recount_incoming(connection);
    if (incoming_bytes_ > options_.max_incoming_bytes_total) enforce_incoming_budget();
    return;
  }
  if (nread == 0) return;  // nothing this time (EAGAIN)
  if (nread == UV_EOF && connection.state == Connection::State::closing) {
    // The peer answered our close; finish once our side is shut down too.
    connection.peer_eof = true;
    if (connection.shutdown_done) finish(connection, Notify::now);
    return;
  }
  if (nread == UV_EOF) {
    // The peer is done sending (a half-close, or a full close): its last line
    // counts even without a '\n', and the replies already queued are flushed
    // before the connection closes, like a close by the server.
    Lines sink(*this, connection);
    connection.splitter.end(sink);
    if (connection.state == Connection::State::closed) return;
    recount_incoming(connection);
    connection.peer_eof = true;
    begin_close(connection);
    return;
  }
  spdlog::debug("net: connection {}: read failed: {}", connection.id,
                uv_strerror(static_cast<int>(nread)));
  finish(connection, Notify::now);
}

void TcpServer::refuse_http(Connection& connection, std::string_view first_line) {
  // As Redis does with "POST" and "Host:": a page of any site can make a browser
  // post to this port, and the body's lines would be played as requests. Nothing
  // is answered (the peer is a browser, not a client of ours); the close drops the
  // rest of what it sent.
  constexpr std::size_t kShown = 60;
  log_throttle_.log(
      spdlog::level::warn, "http on the game port",
      fmt::format("net: connection {} from {}: closed, its first line looks like HTTP (\"{}{}\"), "
                  "not the game protocol: possibly a web page trying to use this port through a "
                  "browser (a cross-protocol attack). Browsers belong on the [web] listener",
                  connection.id, peer_name(connection.tcp), first_line.substr(0, kShown),
                  first_line.size() > kShown ? "…" : ""));
  finish(connection, Notify::later);  // inside the read: on_closed comes after it
}

void TcpServer::recount_incoming(Connection& connection) {
  incoming_bytes_ -= connection.held_incoming;
  connection.held_incoming = connection.splitter.held_bytes();
  incoming_bytes_ += connection.held_incoming;
}

void TcpServer::enforce_incoming_budget() {
  // Down to 7/8 of the budget, as for output: one sort per budget/8 bytes read.
  const std::size_t low_water = options_.max_incoming_bytes_total / 8 * 7;
  std::vector<std::pair<std::size_t, Connection*>> holders;
  for (auto& [id, connection] : connections_)
    if (connection->held_incoming > 0)
      holders.emplace_back(connection->held_incoming, connection.get());
  std::sort(holders.begin(), holders.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [held, connection] : holders) {
    if (incoming_bytes_ <= low_water) break;
    spdlog::warn(
        "net: connection {}: cut, it holds {} bytes of an unfinished line, the most of all "
        "connections, which hold {} together (limits.max_incoming_bytes_total {})",
        connection->id, held, incoming_bytes_, options_.max_incoming_bytes_total);
    finish(*connection, Notify::later);  // on_closed after this read callback
    // Freed now, not with the connection in its close callback: one loop turn
    // may read from hundreds of connections before any close callback runs.
    connection->splitter.reset();
  }
}

void TcpServer::send(ConnectionId id, std::string line) {
  Connection* connection = find(id);
  if (connection == nullptr || connection->state != Connection::State::open ||
      !connection->announced) {
    return;
  }
  const std::size_t queued =
      unsent_after(connection->pending, as_stream(&connection->tcp), line.size() + 1);
  if (queued > options_.max_outgoing_bytes) {
    spdlog::debug("net: connection {}: closed, {} bytes queued (max {})", id, queued,
                  options_.max_outgoing_bytes);
    finish(*connection, Notify::later);  // we are inside the server's call
    return;
  }
  // What the append will allocate (libstdc++ at least doubles a string it grows).
  std::string& pending = connection->pending;
  const std::size_t before = connection->held();
  const std::size_t need = pending.size() + line.size() + 1;
  const std::size_t capacity =
      need > pending.capacity() ? std::max(need, 2 * pending.capacity()) : pending.capacity();
  const std::size_t growth = capacity - (pending.empty() ? 0 : pending.capacity());
  if (queued_bytes_ + growth > options_.max_outgoing_bytes_total) {
    enforce_budget(growth);
    if (connection->state != Connection::State::open) return;  // it was among the biggest
  }
  pending.reserve(need);
  pending.append(line);
  pending.push_back('\n');
  queued_bytes_ += connection->held() - before;
  mark_dirty(*connection);
}

void TcpServer::enforce_budget(std::size_t incoming) {
  // Down to 7/8 of the budget, so that a server at its limit sorts its
  // connections once per budget/8 bytes (32 MiB by default), not once per line.
  const std::size_t low_water = options_.max_outgoing_bytes_total / 8 * 7;
  std::vector<std::pair<std::size_t, Connection*>> holders;
  for (auto& [id, connection] : connections_)
    if (connection->held() > 0) holders.emplace_back(connection->held(), connection.get());
  std::sort(holders.begin(), holders.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [held, connection] : holders) {
    if (queued_bytes_ + incoming <= low_water) break;
    spdlog::warn(
        "net: connection {}: cut, it holds {} bytes of unsent output, the most of all "
        "connections, which hold {} together (limits.max_outgoing_bytes_total {})",
        connection->id, held, queued_bytes_, options_.max_outgoing_bytes_total);
    finish(*connection, Notify::later);  // we are inside the server's call
  }
}

std::size_t TcpServer::queued_bytes(ConnectionId id) const {
  auto it = connections_.find(id);
  return it == connections_.end() ? 0 : it->second->held();
}

std::size_t TcpServer::incoming_bytes(ConnectionId id) const {
  auto it = connections_.find(id);
  return it == connections_.end() ? 0 : it->second->held_incoming;
}

void TcpServer::close(ConnectionId id) {
  Connection* connection = find(id);
  if (connection != nullptr && connection->announced) begin_close(*connection);
}

void TcpServer::stop_accepting() {
  listener_.reset();
}

void TcpServer::close_all() {
  // The server is stopping: the process waits for these closes, so a closing
  // connection is checked every 10 ms (a round trip on any sane network), not
  // every close_timeout_ms / 4.
  stopping_ = true;
  for (auto& [id, connection] : connections_) begin_close(*connection);
  if (closing_count_ > 0) start_sweeper();
}

void TcpServer::start_sweeper() {
  const std::uint64_t period =
      stopping_ ? kStoppingSweepMs
                : std::clamp<std::uint64_t>(options_.close_timeout_ms / 4, 10, 1000);
  uv_timer_start(
      &sweeper_->timer,
      [](uv_timer_t* timer) { static_cast<Sweeper*>(timer->data)->server->sweep(); }, period,
      period);
}

TcpServer::Connection* TcpServer::find(ConnectionId id) {
  auto it = connections_.find(id);
  return it == connections_.end() ? nullptr : it->second.get();
}

void TcpServer::mark_dirty(Connection& connection) {
  if (connection.dirty) return;
  connection.dirty = true;
  dirty_.push_back(connection.id);
  uv_ref(as_handle(&prepare_->prepare));
}

void TcpServer::begin_close(Connection& connection) {
  if (connection.state != Connection::State::open) return;
  connection.state = Connection::State::closing;
  connection.close_deadline = uv_now(loop_.raw()) + options_.close_timeout_ms;
  if (closing_count_++ == 0) start_sweeper();
  mark_dirty(connection);  // the flush and the shutdown happen in run_deferred
}

void TcpServer::flush(Connection& connection) {
  if (connection.writing || connection.pending.empty()) return;
  std::swap(connection.pending, connection.out);
  const WriteResult result = start_write(as_stream(&connection.tcp), &connection.write_req,
                                         connection.out, [](uv_write_t* request, int status) {
                                           Connection* connection =
                                               connection_of(request->handle->data);
                                           if (connection->server != nullptr)
                                             connection->server->on_write_done(*connection, status);
                                         });
  switch (result.state) {
    case WriteStart::done:
      release_out(connection);
      return;
    case WriteStart::in_flight:
      connection.writing = true;
      return;
    case WriteStart::failed:
      spdlog::debug("net: connection {}: write failed: {}", connection.id,
                    uv_strerror(result.error));
      finish(connection, Notify::now);
      return;
  }
}

void TcpServer::release_out(Connection& connection) {
  const std::size_t before = connection.held();
  connection.out.clear();
  // A buffer grown by a burst is given back, so idle connections stay small.
  if (connection.out.capacity() > kKeepBufferBytes) std::string().swap(connection.out);
  queued_bytes_ -= before - connection.held();
}

void TcpServer::on_write_done(Connection& connection, int status) {
  connection.writing = false;
  release_out(connection);
  if (status < 0) {
    spdlog::debug("net: connection {}: write failed: {}", connection.id, uv_strerror(status));
    finish(connection, Notify::now);
    return;
  }
  flush(connection);  // what was queued meanwhile
  maybe_shutdown(connection);
}

void TcpServer::maybe_shutdown(Connection& connection) {
  if (connection.state != Connection::State::closing || connection.shutdown_started ||
      !connection.pending.empty()) {
    return;
  }
  connection.shutdown_started = true;
  // libuv runs the shutdown after the writes already queued.
  const int rc = uv_shutdown(&connection.shutdown_req, as_stream(&connection.tcp),
                             [](uv_shutdown_t* request, int status) {
                               Connection* connection = connection_of(request->handle->data);
                               if (connection->server != nullptr) {
                                 connection->server->on_shutdown_done(*connection, status);
                               }
                             });
  if (rc < 0) finish(connection, Notify::now);
}

void TcpServer::on_shutdown_done(Connection& connection, int status) {
  if (status < 0 || connection.peer_eof) {
    finish(connection, Notify::now);
    return;
  }
  // Everything is written: for the server the connection is over. Closing the
  // socket now, with the peer's bytes unread, would send a reset that can
  // destroy our last lines in flight, so it lingers (without an id) until the
  // peer's EOF, the peer's acknowledgement of all we sent (see sweep), or the
  // deadline.
  connection.shutdown_done = true;
  if (connection.announced) {
    connection.announced = false;
    --open_count_;
    events_->on_closed(connection.id);
  }
}

void TcpServer::finish(Connection& connection, Notify notify) {
  if (connection.state == Connection::State::closed) return;
  if (connection.state == Connection::State::closing && --closing_count_ == 0) {
    uv_timer_stop(&sweeper_->timer);  // it would keep the loop alive for nothing
  }
  connection.state = Connection::State::closed;
  connection.server = nullptr;
  // What it still holds is dropped: `pending` now, `out` (which libuv may still
  // read) with the connection in its close callback.
  queued_bytes_ -= connection.held();
  std::string().swap(connection.pending);
  // The splitter's buffer goes with the connection (feed may be running).
  incoming_bytes_ -= connection.held_incoming;
  connection.held_incoming = 0;
  const ConnectionId id = connection.id;
  auto node = connections_.extract(id);
  if (!node.empty()) close_and_free(std::move(node.mapped()), as_handle(&connection.tcp));
  if (!connection.announced) return;
  --open_count_;
  if (notify == Notify::now) {
    events_->on_closed(id);
  } else {
    closed_ids_.push_back(id);
    uv_ref(as_handle(&prepare_->prepare));
  }
}

void TcpServer::run_deferred() {
  log_throttle_.flush();
  std::vector<ConnectionId>& batch = scratch_;  // a member: keeps its capacity
  while (!dirty_.empty() || !closed_ids_.empty()) {
    batch.swap(dirty_);
    for (ConnectionId id : batch) {
      Connection* connection = find(id);
      if (connection == nullptr) continue;
      connection->dirty = false;
      flush(*connection);
      if (connection->state != Connection::State::closed) maybe_shutdown(*connection);
    }
    batch.clear();
    batch.swap(closed_ids_);
    for (ConnectionId id : batch) events_->on_closed(id);
    batch.clear();
  }
  uv_unref(as_handle(&prepare_->prepare));
}

void TcpServer::sweep() {
  const std::uint64_t now = uv_now(loop_.raw());
  std::vector<Connection*> expired;  // stay valid until their close callbacks
  std::vector<Connection*> delivered;
  for (auto& [id, connection] : connections_) {
    if (connection->state != Connection::State::closing) continue;
    if (connection->close_deadline <= now) {
      expired.push_back(connection.get());
    } else if (connection->shutdown_done && peer_has_everything(&connection->tcp)) {
      // Nothing of ours can be lost any more: the socket need not wait for the
      // peer's EOF (an idle peer may never send one).
      delivered.push_back(connection.get());
    }
  }
  for (Connection* connection : expired) {
    spdlog::debug("net: connection {}: close timed out", connection->id);
    finish(*connection, Notify::now);
  }
  for (Connection* connection : delivered) {
    discard_unread(&connection->tcp);
    finish(*connection, Notify::now);
  }
}

}  // namespace eryantis::net
