#pragma once
// A cluster node's LISTEN eryantis_lobby connection, watched by the event loop
// (docs/cluster.md): each notification makes the server read the cluster's lobby
// at once. Connecting blocks, so it runs on the store's writer thread (as the
// other cluster calls do); a dropped connection tells the server to poll again
// and is opened anew every kRetryMs until it is back.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "eryantis/net/event_loop.hpp"
#include "eryantis/net/socket_watch.hpp"
#include "eryantis/server/cluster.hpp"
#include "eryantis/store/group_committer.hpp"
#include "eryantis/store/pg_lobby_listener.hpp"

namespace eryantis::app {

class LobbyListener {
 public:
  // A second attempt soon after a drop (PostgreSQL restarting), not a busy loop.
  static constexpr std::uint64_t kRetryMs = 1000;

  // All of them must outlive this object; it is used on the loop thread only.
  LobbyListener(net::EventLoop& loop, store::GroupCommitter& committer, std::string conninfo,
                server::LobbyNotices& notices);
  LobbyListener(const LobbyListener&) = delete;
  LobbyListener& operator=(const LobbyListener&) = delete;
  ~LobbyListener();

  // Connects (later, on the writer thread), then listens until the loop stops.
  void start();

 private:
  void connect();
  void listen(store::PgLobbyListener listener);
  void on_readable(bool readable);
  void lost(const std::string& why);

  net::EventLoop& loop_;
  store::GroupCommitter& committer_;
  std::string conninfo_;
  server::LobbyNotices& notices_;
  // The watch goes first (declared after): libuv stops polling before libpq closes.
  std::optional<store::PgLobbyListener> listener_;
  std::unique_ptr<net::SocketWatch> watch_;
  // Completions and timers that come back after this object is gone do nothing.
  std::shared_ptr<LobbyListener*> self_;
  net::EventLoop::StopHook stop_hook_;
  bool stopped_ = false;
};

}  // namespace eryantis::app
