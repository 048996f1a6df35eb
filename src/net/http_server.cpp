#include "eryantis/net/http_server.hpp"

#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <string_view>

#include "eryantis/net/allowed_hosts.hpp"
#include "eryantis/net/http_request_parser.hpp"
#include "eryantis/net/websocket_handshake.hpp"
#include "eryantis/net/websocket_session.hpp"
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
// How often deadlines and closing connections are checked once the server stops.
constexpr std::uint64_t kStoppingSweepMs = 10;

}  // namespace

const std::string* HttpRequest::header(std::string_view name) const {
  for (const auto& [key, value] : headers)
    if (key == name) return &value;
  return nullptr;
}

std::optional<std::string> HttpRequest::cookie(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key != "cookie") continue;
    std::string_view rest = value;
    while (!rest.empty()) {
      const std::size_t end = rest.find(';');
      std::string_view pair = rest.substr(0, end);
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
      while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
      const std::size_t equals = pair.find('=');
      if (equals == std::string_view::npos || pair.substr(0, equals) != name) continue;
      std::string_view found = pair.substr(equals + 1);
      while (!found.empty() && found.back() == ' ') found.remove_suffix(1);
      return std::string(found);
    }
  }
  return std::nullopt;
}

HttpResponse HttpResponse::json(std::string body, int status) {
  HttpResponse response;
  response.status = status;
  response.content_type = "application/json";
  response.body = std::move(body);
  return response;
}

HttpResponse HttpResponse::text(int status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.body = std::move(body);
  return response;
}

std::string_view status_reason(int status) {
  switch (status) {
    case 101:
      return "Switching Protocols";
    case 200:
      return "OK";
    case 204:
      return "No Content";
    case 304:
      return "Not Modified";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 401:
      return "Unauthorized";
    case 413:
      return "Content Too Large";
    case 415:
      return "Unsupported Media Type";
    case 421:
      return "Misdirected Request";
    case 426:
      return "Upgrade Required";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "Unknown";
  }
}

struct HttpServer::Connection final : HttpRequestParser::Sink, WebSocketSession::Sink {
  explicit Connection(const HttpServerOptions& options)
      : parser({options.max_header_bytes, options.max_body_bytes}) {}

  enum class Kind { http, websocket };
  enum class State { open, closing, closed };

  uv_tcp_t tcp{};  // tcp.data points back to this Connection
  uv_write_t write_req{};
  uv_shutdown_t shutdown_req{};
  HttpServer* server = nullptr;  // not owned; null once closed, so late callbacks do nothing
  std::uint64_t key = 0;
  ConnectionId id = 0;  // WebSocket connections only
  Kind kind = Kind::http;
  State state = State::open;
  bool announced = false;  // on_open was called, so on_closed is owed
  bool writing = false;
  bool dirty = false;
  bool shutdown_started = false;
  bool shutdown_done = false;  // our FIN is queued after everything we wrote
  bool peer_eof = false;
  std::uint64_t deadline = 0;  // uv_now() after which it is cut (a slow request, a slow close)

  HttpRequestParser parser;                     // HTTP: requests
  std::unique_ptr<WebSocketSession> websocket;  // after the upgrade: frames

  std::string pending;  // bytes queued since the last write
  std::string out;      // bytes of the write in flight
  std::size_t held() const { return pending.size() + out.size(); }

  // HttpRequestParser::Sink: a response per request; a connection that ends
  // after this response reads no further request.
  bool on_request(const HttpRequest&) override {
    server->on_request(*this);
    return state == State::open;
  }
  // WebSocketSession::Sink
  bool open() const override { return server != nullptr && state == State::open; }
  void on_text(std::string_view message) override { server->events_->on_line(id, message); }
  void write(std::string_view bytes) override {
    if (server != nullptr) server->queue(*this, bytes);
  }
};

struct HttpServer::Prepare {
  uv_prepare_t prepare{};
  HttpServer* server = nullptr;  // not owned
};
struct HttpServer::Sweeper {
  uv_timer_t timer{};
  HttpServer* server = nullptr;  // not owned
};

HttpServer::HttpServer(EventLoop& loop, HttpServerOptions options)
    : loop_(loop),
      options_(std::move(options)),
      static_files_(options_.static_root, options_.max_file_bytes),
      allowed_hosts_(options_.allowed_hosts),
      prepare_(std::make_unique<Prepare>()),
      sweeper_(std::make_unique<Sweeper>()),
      read_buffer_(std::make_unique<char[]>(kReadBufferBytes)) {
  // As in TcpServer: what is sent during a loop iteration goes out in one write
  // per connection just before the loop would block.
  prepare_->server = this;
  prepare_->prepare.data = prepare_.get();
  int rc = uv_prepare_init(loop_.raw(), &prepare_->prepare);
  if (rc == 0) {
    rc = uv_prepare_start(&prepare_->prepare, [](uv_prepare_t* handle) {
      static_cast<Prepare*>(handle->data)->server->run_deferred();
    });
    uv_unref(as_handle(&prepare_->prepare));  // referenced only while it has work
  }
  if (rc < 0) init_error_ = std::string("http: cannot set up the write pass: ") + uv_strerror(rc);
  // Deadlines (slow requests, slow closes) are checked a few times per timeout;
  // the timer alone does not keep the loop alive.
  sweeper_->server = this;
  sweeper_->timer.data = sweeper_.get();
  rc = uv_timer_init(loop_.raw(), &sweeper_->timer);
  if (rc == 0) {
    rc = start_sweeper(std::clamp<std::uint64_t>(
        std::min(options_.request_timeout_ms, options_.close_timeout_ms) / 4, 10, 1000));
    uv_unref(as_handle(&sweeper_->timer));
  }
  if (rc < 0 && init_error_.empty())
    init_error_ = std::string("http: cannot set up the deadline timer: ") + uv_strerror(rc);
  stop_hook_ = loop_.add_stop_hook([this] {
    stop_accepting();
    close_all();
  });
}

int HttpServer::start_sweeper(std::uint64_t period_ms) {
  return uv_timer_start(
      &sweeper_->timer,
      [](uv_timer_t* timer) { static_cast<Sweeper*>(timer->data)->server->sweep(); }, period_ms,
      period_ms);
}

HttpServer::~HttpServer() {
  stop_hook_ = {};
  for (auto& [key, owned] : connections_) {
    Connection* connection = owned.get();
    connection->server = nullptr;
    close_and_free(std::move(owned), as_handle(&connection->tcp));
  }
  connections_.clear();
  stop_accepting();
  prepare_->server = nullptr;
  uv_handle_t* prepare = as_handle(&prepare_->prepare);
  close_and_free(std::move(prepare_), prepare);
  sweeper_->server = nullptr;
  uv_handle_t* sweeper = as_handle(&sweeper_->timer);
  close_and_free(std::move(sweeper_), sweeper);
}

void HttpServer::add_route(std::string path, HttpHandler handler) {
  routes_.emplace_back(std::move(path), std::move(handler));
}

std::expected<int, std::string> HttpServer::listen(const std::string& host, int port) {
  if (!init_error_.empty()) return std::unexpected(init_error_);
  if (listener_) return std::unexpected("listen: already listening");
  auto listener = ListenerSocket::open(loop_.raw(), host, port, [this](int status) {
    if (status < 0) {
      log_throttle_.log(spdlog::level::warn, "http accept failed",
                        fmt::format("http: accept failed: {}", uv_strerror(status)));
      return;
    }
    on_accept();
  });
  if (!listener) return std::unexpected(listener.error());
  listener_ = std::move(*listener);
  return listener_->port();
}

void HttpServer::on_accept() {
  auto owned = std::make_unique<Connection>(options_);
  Connection& connection = *owned;
  if (const int init = uv_tcp_init(loop_.raw(), &connection.tcp); init < 0) {
    log_throttle_.log(spdlog::level::warn, "http accept failed",
                      fmt::format("http: cannot create a TCP handle: {}", uv_strerror(init)));
    return;
  }
  connection.tcp.data = owned.get();
  connection.server = this;
  if (const int rc = uv_accept(listener_->stream(), as_stream(&connection.tcp)); rc < 0) {
    log_throttle_.log(spdlog::level::warn, "http accept failed",
                      fmt::format("http: accept failed: {}", uv_strerror(rc)));
    close_and_free(std::move(owned), as_handle(&connection.tcp));
    return;
  }
  uv_tcp_nodelay(&connection.tcp, 1);
  connection.key = next_key_++;
  connection.deadline = uv_now(loop_.raw()) + options_.request_timeout_ms;
  const bool full = connections_.size() >= options_.max_connections;
  connections_.emplace(connection.key, std::move(owned));

  const int rc = uv_read_start(
      as_stream(&connection.tcp),
      [](uv_handle_t* handle, std::size_t, uv_buf_t* buffer) {
        HttpServer* server = static_cast<Connection*>(handle->data)->server;
        *buffer = uv_buf_init(server->read_buffer_.get(), kReadBufferBytes);
      },
      [](uv_stream_t* stream, ssize_t nread, const uv_buf_t*) {
        auto* connection = static_cast<Connection*>(stream->data);
        HttpServer* server = connection->server;
        if (server == nullptr) return;
        if (nread > 0) {
          server->on_read(*connection, server->read_buffer_.get(), static_cast<std::size_t>(nread));
          return;
        }
        if (nread == 0) return;
        if (nread == UV_EOF && connection->state == Connection::State::closing) {
          connection->peer_eof = true;
          if (connection->shutdown_started && !connection->writing)
            server->finish(*connection, false);
          return;
        }
        server->finish(*connection, false);
      });
  if (rc < 0) {
    finish(connection, false);
    return;
  }
  if (full) {
    respond(connection, HttpResponse::text(503, "the server is full; try again later\n"), false,
            false);
  }
}

void HttpServer::on_read(Connection& connection, const char* data, std::size_t size) {
  if (connection.state != Connection::State::open) return;  // read only to be dropped
  if (connection.kind == Connection::Kind::websocket) {
    feed_websocket(connection, data, size);
    return;
  }
  const HttpRequestParser::Fed fed =
      connection.parser.feed(std::string_view(data, size), connection);
  if (connection.state != Connection::State::open) return;  // answered and ending
  if (fed.outcome == HttpRequestParser::Outcome::upgrade) {
    on_request(connection);
    if (connection.kind == Connection::Kind::websocket && fed.used < size)
      feed_websocket(connection, data + fed.used, size - fed.used);
    return;
  }
  if (fed.outcome == HttpRequestParser::Outcome::refused) {
    respond(connection,
            HttpResponse::text(fed.status, std::string(status_reason(fed.status)) + "\n"), false,
            false);
  }
}

void HttpServer::on_request(Connection& connection) {
  const HttpRequest& request = connection.parser.request();
  // Before anything is answered, files and the WebSocket upgrade alike: a page
  // whose name was rebound to this address must learn nothing (allowed_hosts.hpp).
  for (const auto& [name, value] : request.headers) {
    if (name != "host" || allowed_hosts_.allows(value)) continue;
    log_throttle_.log(
        spdlog::level::warn, "http unknown host",
        fmt::format("http: refused {} {} for host \"{}\" (421): not a name of this listener "
                    "(localhost, an IP address, [web] allowed_hosts). A DNS rebinding attempt, "
                    "or this server's name missing from allowed_hosts",
                    request.method, request.path.substr(0, 60), value.substr(0, 100)));
    respond(connection,
            HttpResponse::text(421,
                               "this server does not answer to that host name; it answers to "
                               "localhost, its IP addresses and the names in its [web] "
                               "allowed_hosts\n"),
            false, false);
    return;
  }
  const bool keep_alive = connection.parser.keep_alive();
  const bool head = request.method == "HEAD";
  const std::optional<std::string> decoded = decode_request_path(request.path);
  if (decoded && !options_.websocket_path.empty() && *decoded == options_.websocket_path &&
      events_ != nullptr) {
    if (try_upgrade(connection, request)) return;
    return;  // refused: answered and ending
  }
  if (decoded) {
    if (const HttpHandler* handler = route_for(*decoded); handler != nullptr) {
      HttpResponse response;
      try {
        response = (*handler)(request);
      } catch (const std::exception& e) {
        spdlog::error("http: {} {}: {}", request.method, request.path, e.what());
        response = HttpResponse::text(500, "internal error\n");
      }
      respond(connection, response, head, keep_alive);
      return;
    }
  }
  if (request.method != "GET" && !head) {
    HttpResponse response = HttpResponse::text(405, "only GET and HEAD\n");
    response.headers.emplace_back("Allow", "GET, HEAD");
    respond(connection, response, false, keep_alive);
    return;
  }
  respond(connection, static_files_.serve(request), head, keep_alive);
}

const HttpHandler* HttpServer::route_for(const std::string& decoded_path) const {
  const HttpHandler* best = nullptr;
  std::size_t best_length = 0;
  for (const auto& [path, handler] : routes_) {
    const bool prefix = !path.empty() && path.back() == '/';
    const bool hit = prefix ? decoded_path.starts_with(path) : decoded_path == path;
    if (hit && path.size() >= best_length) {
      best = &handler;
      best_length = path.size();
    }
  }
  return best;
}

bool HttpServer::origin_allowed(const HttpRequest& request) const {
  const std::string* origin = request.header("origin");
  if (origin == nullptr) return true;  // not a browser page: nothing to protect against
  if (const std::string* host = request.header("host");
      host != nullptr && (*origin == "http://" + *host || *origin == "https://" + *host)) {
    return true;
  }
  return std::find(options_.allowed_origins.begin(), options_.allowed_origins.end(), *origin) !=
         options_.allowed_origins.end();
}

bool HttpServer::try_upgrade(Connection& connection, const HttpRequest& request) {
  const UpgradeCheck check = check_upgrade_request(request);
  if (check == UpgradeCheck::not_websocket) {
    respond(connection,
            HttpResponse::text(400, "a WebSocket upgrade (RFC 6455) is expected here\n"), false,
            false);
    return false;
  }
  if (check == UpgradeCheck::bad_version) {
    HttpResponse response = HttpResponse::text(426, "WebSocket version 13 only\n");
    response.headers.emplace_back("Sec-WebSocket-Version", "13");
    respond(connection, response, false, false);
    return false;
  }
  if (!origin_allowed(request)) {
    respond(connection, HttpResponse::text(403, "origin not allowed ([web] allowed_origins)\n"),
            false, false);
    return false;
  }
  connection.websocket = WebSocketSession::create(connection, options_.max_message_bytes);
  if (connection.websocket == nullptr) {
    respond(connection, HttpResponse::text(500, "out of memory\n"), false, false);
    return false;
  }
  queue(connection,
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Accept: " +
            websocket_accept(*request.header("sec-websocket-key")) + "\r\n\r\n");
  connection.kind = Connection::Kind::websocket;
  connection.deadline = 0;  // the server's heartbeats watch it from now on
  connection.id = next_id_++;
  connection.announced = true;
  websockets_.emplace(connection.id, connection.key);
  ++websocket_count_;
  events_->on_open(connection.id, peer_name(connection.tcp));
  // A browser's session (docs/accounts.md, "The web page's cookie"): the
  // connection is logged in with it as by a `login` with that session.
  if (!options_.session_cookie.empty())
    if (std::optional<std::string> secret = request.cookie(options_.session_cookie);
        secret && !secret->empty())
      events_->on_session_cookie(connection.id, std::move(*secret));
  return true;
}

void HttpServer::respond(Connection& connection, const HttpResponse& response, bool head_only,
                         bool keep_alive) {
  std::string bytes;
  bytes.reserve(256 + response.body.size());
  bytes.append("HTTP/1.1 ")
      .append(std::to_string(response.status))
      .append(" ")
      .append(status_reason(response.status))
      .append("\r\n");
  if (response.status != 304) {
    bytes.append("Content-Type: ").append(response.content_type).append("\r\n");
    bytes.append("Content-Length: ").append(std::to_string(response.body.size())).append("\r\n");
  }
  for (const auto& [name, value] : response.headers)
    bytes.append(name).append(": ").append(value).append("\r\n");
  bytes.append("X-Content-Type-Options: nosniff\r\n");
  bytes.append(keep_alive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n");
  if (!head_only && response.status != 304) bytes.append(response.body);
  queue(connection, bytes);
  if (connection.state != Connection::State::open) return;  // cut by a limit
  if (keep_alive) {
    connection.deadline = uv_now(loop_.raw()) + options_.request_timeout_ms;
  } else {
    begin_close(connection);
  }
}

void HttpServer::feed_websocket(Connection& connection, const char* data, std::size_t size) {
  connection.websocket->feed(std::string_view(data, size));
  if (connection.state != Connection::State::open) return;
  pump_websocket(connection);
}

// Frames the session queued (pongs, close replies) go to the write queue; once
// our close frame is out (the peer's answering close, its EOF or close_timeout_ms
// completes it), or the peer failed the handshake, the connection ends.
void HttpServer::pump_websocket(Connection& connection) {
  if (!connection.websocket->send()) {
    finish(connection, false);
    return;
  }
  if (connection.state == Connection::State::open && connection.websocket->finished())
    begin_close(connection);
}

void HttpServer::send(ConnectionId id, std::string line) {
  Connection* connection = find(id);
  if (connection == nullptr || connection->state != Connection::State::open) return;
  if (!connection->websocket->queue_text(line)) return;
  if (!connection->websocket->send()) finish(*connection, false);
}

void HttpServer::close(ConnectionId id) {
  Connection* connection = find(id);
  if (connection == nullptr || connection->state != Connection::State::open) return;
  connection->websocket->queue_close(ws_close::normal);
  connection->websocket->send();
  begin_close(*connection);
}

void HttpServer::stop_accepting() {
  listener_.reset();
}

void HttpServer::close_all(std::uint16_t code) {
  // The server is stopping and waits for these closes: check them every 10 ms.
  if (!stopping_) {
    stopping_ = true;
    start_sweeper(kStoppingSweepMs);
  }
  std::vector<Connection*> all;
  for (auto& [key, connection] : connections_) all.push_back(connection.get());
  for (Connection* connection : all) {
    if (connection->state != Connection::State::open) continue;
    if (connection->kind == Connection::Kind::websocket) {
      connection->websocket->queue_close(code);
      connection->websocket->send();
    }
    if (connection->state == Connection::State::open) begin_close(*connection);
  }
}

HttpServer::Connection* HttpServer::find(ConnectionId id) {
  auto it = websockets_.find(id);
  if (it == websockets_.end()) return nullptr;
  auto connection = connections_.find(it->second);
  return connection == connections_.end() ? nullptr : connection->second.get();
}

void HttpServer::queue(Connection& connection, std::string_view bytes) {
  if (connection.state == Connection::State::closed) return;
  const std::size_t queued =
      unsent_after(connection.pending, as_stream(&connection.tcp), bytes.size());
  // An HTTP response may be one whole file (a bundle, a source map): up to
  // max_file_bytes on top of the limit, so one file always fits but a client
  // pipelining requests without reading does not pile them up.
  const std::size_t limit = connection.kind == Connection::Kind::http
                                ? options_.max_outgoing_bytes + options_.max_file_bytes
                                : options_.max_outgoing_bytes;
  if (queued > limit || queued_bytes_ + bytes.size() > options_.max_outgoing_bytes_total) {
    spdlog::debug("http: connection {}: cut, {} bytes queued (max {}, all connections {})",
                  connection.key, queued, limit, queued_bytes_);
    finish(connection, false);
    return;
  }
  connection.pending.append(bytes);
  queued_bytes_ += bytes.size();
  mark_dirty(connection);
}

void HttpServer::mark_dirty(Connection& connection) {
  if (connection.dirty) return;
  connection.dirty = true;
  dirty_.push_back(connection.key);
  uv_ref(as_handle(&prepare_->prepare));
}

void HttpServer::flush(Connection& connection) {
  if (connection.writing || connection.pending.empty()) return;
  std::swap(connection.pending, connection.out);
  const WriteResult result = start_write(as_stream(&connection.tcp), &connection.write_req,
                                         connection.out, [](uv_write_t* request, int status) {
                                           auto* connection =
                                               static_cast<Connection*>(request->handle->data);
                                           if (connection->server != nullptr)
                                             connection->server->on_write_done(*connection, status);
                                         });
  switch (result.state) {
    case WriteStart::done:
      queued_bytes_ -= connection.out.size();
      connection.out.clear();
      return;
    case WriteStart::in_flight:
      connection.writing = true;
      return;
    case WriteStart::failed:
      finish(connection, false);
      return;
  }
}

void HttpServer::on_write_done(Connection& connection, int status) {
  connection.writing = false;
  queued_bytes_ -= connection.out.size();
  connection.out.clear();
  if (status < 0) {
    finish(connection, false);
    return;
  }
  mark_dirty(connection);  // what was queued meanwhile, or the shutdown
}

void HttpServer::begin_close(Connection& connection) {
  if (connection.state != Connection::State::open) return;
  connection.state = Connection::State::closing;
  connection.deadline = uv_now(loop_.raw()) + options_.close_timeout_ms;
  if (connection.announced) {
    // For the server the connection is over once it asked for (or saw) the close.
    connection.announced = false;
    --websocket_count_;
    websockets_.erase(connection.id);
    closed_ids_.push_back(connection.id);
  }
  mark_dirty(connection);
}

void HttpServer::finish(Connection& connection, bool notify_now) {
  if (connection.state == Connection::State::closed) return;
  connection.state = Connection::State::closed;
  connection.server = nullptr;
  queued_bytes_ -= connection.pending.size() + connection.out.size();
  // `out` may still be read by libuv: it goes with the connection in its close callback.
  std::string().swap(connection.pending);
  connection.out.clear();
  if (connection.announced) {
    connection.announced = false;
    --websocket_count_;
    websockets_.erase(connection.id);
    if (notify_now) {
      events_->on_closed(connection.id);
    } else {
      closed_ids_.push_back(connection.id);
      uv_ref(as_handle(&prepare_->prepare));
    }
  }
  auto node = connections_.extract(connection.key);
  if (!node.empty()) close_and_free(std::move(node.mapped()), as_handle(&connection.tcp));
}

void HttpServer::run_deferred() {
  log_throttle_.flush();
  std::vector<std::uint64_t> batch;
  std::vector<ConnectionId> closed;
  while (!dirty_.empty() || !closed_ids_.empty()) {
    batch.swap(dirty_);
    for (std::uint64_t key : batch) {
      auto it = connections_.find(key);
      if (it == connections_.end()) continue;
      Connection& connection = *it->second;
      connection.dirty = false;
      flush(connection);
      if (connection.state == Connection::State::closing && !connection.writing &&
          connection.pending.empty() && !connection.shutdown_started) {
        connection.shutdown_started = true;
        if (connection.peer_eof) {
          finish(connection, false);
          continue;
        }
        // Half-close and wait for the peer's EOF, its acknowledgement of all we
        // sent (see sweep) or the deadline: closing with its bytes unread would
        // send a reset that can destroy our last frames.
        const int rc = uv_shutdown(&connection.shutdown_req, as_stream(&connection.tcp),
                                   [](uv_shutdown_t* request, int status) {
                                     auto* c = static_cast<Connection*>(request->handle->data);
                                     if (c->server == nullptr) return;
                                     c->shutdown_done = true;
                                     if (status < 0 || c->peer_eof) c->server->finish(*c, false);
                                   });
        if (rc < 0) finish(connection, false);
      }
    }
    batch.clear();
    closed.swap(closed_ids_);
    if (events_ != nullptr)
      for (ConnectionId id : closed) events_->on_closed(id);
    closed.clear();
  }
  uv_unref(as_handle(&prepare_->prepare));
}

void HttpServer::sweep() {
  const std::uint64_t now = uv_now(loop_.raw());
  std::vector<Connection*> late;
  std::vector<Connection*> delivered;
  for (auto& [key, connection] : connections_) {
    if (connection->deadline != 0 && connection->deadline <= now) {
      late.push_back(connection.get());
    } else if (connection->shutdown_done && peer_has_everything(&connection->tcp)) {
      delivered.push_back(connection.get());  // nothing of ours can be lost any more
    }
  }
  for (Connection* connection : delivered) {
    discard_unread(&connection->tcp);
    finish(*connection, false);
  }
  for (Connection* connection : late) {
    if (connection->state == Connection::State::open) {
      // A request that did not arrive whole in time (or an idle kept-alive connection).
      const bool started = connection->parser.request_started();
      if (started) {
        respond(*connection, HttpResponse::text(408, "request timeout\n"), false, false);
      } else {
        begin_close(*connection);
      }
    } else {
      finish(*connection, false);
    }
  }
}

}  // namespace eryantis::net
