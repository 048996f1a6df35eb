#pragma once
// HTTP/1.1 and WebSocket (RFC 6455) over libuv TCP, on the caller's loop.
//
// Requests are parsed by llhttp; a request whose Host is not one of the
// listener's names gets 421 (AllowedHosts); a GET of the WebSocket path upgrades the
// connection, and from then on wslay does the framing. A WebSocket connection is
// a transport::Transport connection like a TCP one: one protocol message per text
// frame, in and out; the server layer never learns the difference. Everything
// else is answered by a route (add_route) or from the static folder.
// Loop thread only.
#include <cstddef>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "eryantis/log/log_throttle.hpp"
#include "eryantis/net/allowed_hosts.hpp"
#include "eryantis/net/event_loop.hpp"
#include "eryantis/net/http_message.hpp"
#include "eryantis/net/static_files.hpp"
#include "eryantis/net/websocket_session.hpp"
#include "eryantis/transport/transport.hpp"

namespace eryantis::net {

class ListenerSocket;

struct HttpServerOptions {
  // The path that upgrades to WebSocket; empty = no WebSocket endpoint.
  std::string websocket_path = "/ws";
  // The cookie whose value a WebSocket upgrade hands to the events as a session
  // secret (ConnectionEvents::on_session_cookie); empty = none.
  std::string session_cookie = "eryantis_session";
  // Origins (scheme://host[:port]) a browser's upgrade may come from besides the
  // server's own (the Origin equal to http://<Host header>). A request without an
  // Origin (a program, not a page) is accepted.
  std::vector<std::string> allowed_origins;
  // Host names (besides localhost and any IP address) that requests may name in
  // their Host header; any other gets 421 and the connection closes: the defence
  // against DNS rebinding (allowed_hosts.hpp). "*" allows every name.
  std::vector<std::string> allowed_hosts;
  // The folder of static files; empty = no static files (404).
  std::string static_root;
  // HTTP and WebSocket connections together; more get 503 and are closed.
  std::size_t max_connections = 4096;
  // The request line and headers together; past it: 431 and close.
  std::size_t max_header_bytes = 16 * 1024;
  // A request body (only routes could read one); past it: 413 and close.
  std::size_t max_body_bytes = 16 * 1024;
  // A request must arrive whole within this long of its first byte (or of the
  // connection, or of the previous response): otherwise 408 and close. Also the
  // idle time a kept-alive HTTP connection may stay open.
  std::uint64_t request_timeout_ms = 10'000;
  // Largest WebSocket message (a protocol line); past it: close 1009.
  std::size_t max_message_bytes = 64 * 1024;
  // Bytes queued for one connection and not taken by its socket; past it the
  // connection is cut (a client that never reads slows nobody else). An HTTP
  // connection may hold max_file_bytes more: one whole file.
  std::size_t max_outgoing_bytes = 1024 * 1024;
  // The same for all connections together; past it the connection that queues
  // is cut.
  std::size_t max_outgoing_bytes_total = 256 * 1024 * 1024;
  // Files larger than this are not served (404): the web client's files are small.
  std::size_t max_file_bytes = 16 * 1024 * 1024;
  // How long close() may take to flush before the socket is closed anyway.
  std::uint64_t close_timeout_ms = 5000;
};

class HttpServer final : public transport::Transport {
 public:
  // `loop` must outlive the server; destroy the server before the loop.
  // loop.stop() makes the server stop accepting and close every connection.
  HttpServer(EventLoop& loop, HttpServerOptions options);
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  ~HttpServer() override;

  // The receiver of WebSocket connections; without one, the WebSocket path is a 404.
  void set_events(transport::ConnectionEvents& events) { events_ = &events; }
  // WebSocket connection ids start here (so they can share a server with another
  // transport's ids: see TransportRouter).
  void set_first_id(transport::ConnectionId first) { next_id_ = first; }

  // Answers requests whose path (percent-decoded) is exactly `path`, or starts with
  // `path` when it ends in '/'. Routes come before static files; the longest
  // matching route wins. Any method reaches the handler.
  void add_route(std::string path, HttpHandler handler);

  // Binds and listens; port 0 picks a free port. Returns the bound port.
  std::expected<int, std::string> listen(const std::string& host, int port);

  // transport::Transport (WebSocket connections): one text frame per line.
  void send(transport::ConnectionId id, std::string line) override;
  void close(transport::ConnectionId id) override;

  void stop_accepting();
  // Closes every connection: WebSockets get close `code`, HTTP ones end after
  // their response. For the server's stop: each socket closes as soon as its peer
  // acknowledged what it was sent (checked every 10 ms), or after close_timeout_ms.
  void close_all(std::uint16_t code = ws_close::going_away);
  // WebSocket connections announced to the events and not yet reported closed.
  std::size_t websocket_count() const { return websocket_count_; }
  std::size_t connection_count() const { return connections_.size(); }
  std::size_t queued_bytes() const { return queued_bytes_; }

  // Whether a browser page may make this request: no Origin (a program), the
  // server's own (http(s)://<Host>), or one of allowed_origins. Routes that change
  // state (POST /account/...) check it against cross-site requests.
  bool origin_allowed(const HttpRequest& request) const;

  struct Connection;  // defined in the .cpp; public for its C callbacks

 private:
  struct Prepare;
  struct Sweeper;

  void on_accept();
  void on_read(Connection& connection, const char* data, std::size_t size);
  void on_request(Connection& connection);
  void answer(Connection& connection, const HttpRequest& request);
  bool try_upgrade(Connection& connection, const HttpRequest& request);
  void respond(Connection& connection, const HttpResponse& response, bool head_only,
               bool keep_alive);
  void feed_websocket(Connection& connection, const char* data, std::size_t size);
  void pump_websocket(Connection& connection);
  void queue(Connection& connection, std::string_view bytes);
  void mark_dirty(Connection& connection);
  void flush(Connection& connection);
  void on_write_done(Connection& connection, int status);
  void begin_close(Connection& connection);
  void finish(Connection& connection, bool notify_now);
  void run_deferred();
  int start_sweeper(std::uint64_t period_ms);  // (re)starts the deadline timer
  void sweep();
  Connection* find(transport::ConnectionId id);
  const HttpHandler* route_for(const std::string& decoded_path) const;

  EventLoop& loop_;
  transport::ConnectionEvents* events_ = nullptr;  // not owned
  HttpServerOptions options_;
  StaticFiles static_files_;
  AllowedHosts allowed_hosts_;
  std::vector<std::pair<std::string, HttpHandler>> routes_;
  EventLoop::StopHook stop_hook_;
  std::unique_ptr<ListenerSocket> listener_;
  std::unique_ptr<Prepare> prepare_;  // flushes writes and reports closes each loop turn
  std::unique_ptr<Sweeper> sweeper_;  // cuts slow requests and slow closes
  std::string init_error_;            // a handle libuv could not set up: listen() reports it
  std::unordered_map<std::uint64_t, std::unique_ptr<Connection>> connections_;
  std::uint64_t next_key_ = 1;  // connections_ keys (HTTP connections have no transport id)
  transport::ConnectionId next_id_ = 1;
  std::unordered_map<transport::ConnectionId, std::uint64_t> websockets_;  // id -> key
  std::size_t websocket_count_ = 0;
  bool stopping_ = false;  // close_all() was called: deadlines are checked every 10 ms
  std::size_t queued_bytes_ = 0;
  std::vector<std::uint64_t> dirty_;
  std::vector<transport::ConnectionId> closed_ids_;
  std::unique_ptr<char[]> read_buffer_;
  logging::LogThrottle log_throttle_;
};

}  // namespace eryantis::net
