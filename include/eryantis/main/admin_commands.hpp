#pragma once
// What eryantis-admin can ask, read from the admin socket's request line and
// answered with one JSON line ({"ok":true,...} or {"ok":false,"error":"..."}):
//   sessions | matches | end MATCH [REASON] | kick NICKNAME [REASON] | drain |
//   drain-status | backup FILE | reissue-token NICKNAME | chat MATCH |
//   chat-delete MESSAGE [REASON] | metrics | help
// Runs on the loop; slow work (a backup) runs on a thread of its own.
#include <functional>
#include <string>
#include <string_view>

#include "eryantis/net/admin_socket.hpp"
#include "eryantis/net/event_loop.hpp"
#include "eryantis/server/server.hpp"

namespace eryantis::app {

class AdminCommands {
 public:
  // `begin_shutdown` stops the server like SIGTERM does (drain calls it once the
  // last match in play is over).
  AdminCommands(net::EventLoop& loop, server::Server& server, std::string database,
                std::function<void()> begin_shutdown);
  void handle(std::string_view request, net::AdminSocket::Reply reply);
  // `metrics`: the Prometheus text (until the HTTP listener serves /metrics).
  void set_metrics_text(std::function<std::string()> text) { metrics_text_ = std::move(text); }

 private:
  // Calls `done()` on the loop every `interval_ms` until it returns true or the loop stops.
  void poll_until(std::uint64_t interval_ms, std::function<bool()> done);

  net::EventLoop& loop_;
  server::Server& server_;
  std::string database_;
  std::function<void()> begin_shutdown_;
  std::function<std::string()> metrics_text_;
  bool backup_running_ = false;
  bool stopped_ = false;
  net::EventLoop::StopHook stop_hook_;
};

}  // namespace eryantis::app
