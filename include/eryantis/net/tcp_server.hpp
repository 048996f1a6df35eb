#pragma once
// transport::Transport over libuv TCP: accepts connections, splits what they send
// into lines for transport::ConnectionEvents, and writes the lines the server
// sends. Moves lines only: no protocol knowledge. Loop thread only.
// A peer's EOF (half-close or close) ends its last line even without a '\n',
// then the connection closes as if close() had been called: what was queued
// until then is flushed, later sends are dropped.
// A connection whose first line is HTTP (a request line or a header line: a
// browser sent it, see foreign_protocol.hpp) is closed at once, unanswered, and
// none of its lines reach the events; one warning is logged (repeats summed up).
#include <cstddef>
#include <cstdint>
#include <expected>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "eryantis/log/log_throttle.hpp"
#include "eryantis/net/event_loop.hpp"
#include "eryantis/transport/transport.hpp"

namespace eryantis::net {

class ListenerSocket;

struct TcpServerOptions {
  // Connections beyond this get `busy_line` and are closed without an id.
  std::size_t max_connections = 4096;
  // Longest line accepted from a client (without "\n" / "\r\n").
  std::size_t max_line_bytes = 64 * 1024;
  // Bytes queued for one connection but not yet written to its socket; a
  // connection going past it is closed (a slow client never slows others).
  std::size_t max_outgoing_bytes = 4 * 1024 * 1024;
  // Bytes queued for all connections together (what the process holds for
  // peers that read slowly or never). Going past it cuts the connections that
  // hold the most, biggest first, until they hold 7/8 of it: max_connections
  // times max_outgoing_bytes (20,000 x 1 MiB = 20 GiB) is no bound at all.
  std::size_t max_outgoing_bytes_total = 256 * 1024 * 1024;
  // Bytes held for unfinished incoming lines (a line whose '\n' has not come
  // yet) by all connections together. Each may hold up to max_line_bytes
  // (20,000 x 64 KiB = 1.25 GiB); going past this cuts the connections holding
  // the longest unfinished lines, biggest first, until they hold 7/8 of it.
  // Keep it at least twice max_line_bytes: one whole line must always fit.
  std::size_t max_incoming_bytes_total = 64 * 1024 * 1024;
  // Sent (with '\n') to a connection refused by max_connections; empty = none.
  std::string busy_line;
  // How long close() may take to flush and see the peer close (its EOF, or its
  // acknowledgement of everything sent), before the connection is closed anyway.
  std::uint64_t close_timeout_ms = 5000;
  // TCP keepalive: first probe after this many idle seconds.
  unsigned keepalive_delay_s = 60;
};

class TcpServer final : public transport::Transport {
 public:
  // `loop` and `events` must outlive the server; destroy the server before the
  // loop. loop.stop() makes the server stop accepting and close_all().
  TcpServer(EventLoop& loop, transport::ConnectionEvents& events, TcpServerOptions options);
  // For when the events object needs the transport to be constructed first:
  // call set_events() before listen().
  TcpServer(EventLoop& loop, TcpServerOptions options);
  TcpServer(const TcpServer&) = delete;
  TcpServer& operator=(const TcpServer&) = delete;
  // Closes everything at once, without calling events (they may be gone).
  ~TcpServer() override;

  void set_events(transport::ConnectionEvents& events) { events_ = &events; }

  // Binds and listens; port 0 picks a free port. Returns the bound port.
  // `host` is an IPv4 or IPv6 literal ("0.0.0.0", "127.0.0.1", "::").
  std::expected<int, std::string> listen(const std::string& host, int port);

  // transport::Transport. Unknown or closing ids are ignored. on_closed is never
  // called from inside these; it comes later from a loop callback.
  void send(transport::ConnectionId id, std::string line) override;
  void close(transport::ConnectionId id) override;

  // Closes the listening socket; existing connections go on.
  void stop_accepting();
  // close() on every connection (shutdown: each flushes, then closes as soon as
  // the peer has acknowledged what it was sent, checked every 10 ms; a peer that
  // does not read holds it for at most close_timeout_ms).
  void close_all();
  // Connections that have an id and have not been reported closed.
  std::size_t connection_count() const { return open_count_; }
  // Bytes queued (not yet taken by the kernel) for all connections, and for one
  // (0 once it is closed).
  std::size_t queued_bytes() const { return queued_bytes_; }
  std::size_t queued_bytes(transport::ConnectionId id) const;
  // Bytes held for unfinished incoming lines, by all connections and by one.
  std::size_t incoming_bytes() const { return incoming_bytes_; }
  std::size_t incoming_bytes(transport::ConnectionId id) const;

  struct Connection;  // defined in the .cpp; public for its libuv callbacks

 private:
  struct Prepare;
  struct Sweeper;
  class Lines;  // the splitter's sink: lines to the events, the first one checked
  enum class Notify { now, later };

  void on_accept();
  void start_reading(Connection& connection);
  void on_read(Connection& connection, ssize_t nread);
  // Closes a connection whose first line is HTTP (foreign_protocol.hpp), logged.
  void refuse_http(Connection& connection, std::string_view first_line);
  void on_write_done(Connection& connection, int status);
  void on_shutdown_done(Connection& connection, int status);
  void begin_close(Connection& connection);
  void flush(Connection& connection);
  void release_out(Connection& connection);
  void maybe_shutdown(Connection& connection);
  void finish(Connection& connection, Notify notify);
  void mark_dirty(Connection& connection);
  // Cuts the biggest holders until `incoming` more bytes fit in the budget.
  void enforce_budget(std::size_t incoming);
  // Updates incoming_bytes_ with what the connection's splitter holds now.
  void recount_incoming(Connection& connection);
  // Cuts the connections holding the longest unfinished lines until they fit.
  void enforce_incoming_budget();
  void run_deferred();
  void start_sweeper();  // (re)starts the close timer at the period for now
  void sweep();
  Connection* find(transport::ConnectionId id);

  EventLoop& loop_;
  transport::ConnectionEvents* events_ = nullptr;  // not owned
  TcpServerOptions options_;
  EventLoop::StopHook stop_hook_;

  // Owned while open; handed to libuv when closed (see uv_handle.hpp).
  std::unique_ptr<ListenerSocket> listener_;
  std::unique_ptr<Prepare> prepare_;  // flushes writes and reports closes each iteration
  std::unique_ptr<Sweeper> sweeper_;  // ends closes that take too long
  std::string init_error_;            // a handle libuv could not set up: listen() reports it
  std::unordered_map<transport::ConnectionId, std::unique_ptr<Connection>> connections_;

  transport::ConnectionId next_id_ = 1;
  std::size_t open_count_ = 0;
  std::size_t closing_count_ = 0;                    // connections in close() (flush / linger)
  bool stopping_ = false;                            // close_all() was called
  std::size_t queued_bytes_ = 0;                     // sum of every connection's held()
  std::size_t incoming_bytes_ = 0;                   // sum of every connection's held_incoming
  std::vector<transport::ConnectionId> dirty_;       // have queued bytes to write
  std::vector<transport::ConnectionId> closed_ids_;  // on_closed still to report
  std::vector<transport::ConnectionId> scratch_;     // used by run_deferred only
  std::unique_ptr<char[]> read_buffer_;              // shared: reads are consumed at once
  // Accept failures repeat per connection attempt (out of descriptors: EMFILE).
  logging::LogThrottle log_throttle_;
};

}  // namespace eryantis::net
