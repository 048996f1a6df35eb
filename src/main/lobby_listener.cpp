#include "eryantis/main/lobby_listener.hpp"

#include <spdlog/spdlog.h>

#include <functional>
#include <stdexcept>
#include <utility>

namespace eryantis::app {

LobbyListener::LobbyListener(net::EventLoop& loop, store::GroupCommitter& committer,
                             std::string conninfo, server::LobbyNotices& notices)
    : loop_(loop),
      committer_(committer),
      conninfo_(std::move(conninfo)),
      notices_(notices),
      self_(std::make_shared<LobbyListener*>(this)) {
  // The loop's stop() waits for every handle: the watch closes then, and no
  // reconnection starts after it.
  stop_hook_ = loop_.add_stop_hook([this] {
    stopped_ = true;
    watch_.reset();
  });
}

LobbyListener::~LobbyListener() {
  *self_ = nullptr;
  watch_.reset();  // before the connection's socket closes
}

void LobbyListener::start() {
  connect();
}

void LobbyListener::connect() {
  if (stopped_) return;
  std::weak_ptr<LobbyListener*> weak = self_;
  committer_.run_on_writer([conninfo = conninfo_, weak](store::EventStore&) {
    // shared_ptr: a std::function must be copyable, the connection is not.
    auto opened = std::make_shared<store::Result<store::PgLobbyListener>>(
        store::PgLobbyListener::open(conninfo));
    return std::function<void()>([weak, opened] {
      auto self = weak.lock();
      if (!self || !*self) return;
      LobbyListener& me = **self;
      if (!*opened) {
        me.lost(opened->error().message);
        return;
      }
      me.listen(std::move(**opened));
    });
  });
}

void LobbyListener::listen(store::PgLobbyListener listener) {
  if (stopped_) return;
  listener_.emplace(std::move(listener));
  try {
    watch_ = std::make_unique<net::SocketWatch>(loop_, listener_->socket(),
                                                [this](bool readable) { on_readable(readable); });
  } catch (const std::runtime_error& e) {
    lost(e.what());
    return;
  }
  spdlog::info("cluster: listening for lobby changes ({})", store::kLobbyChannel);
  notices_.lobby_notices(true);
  // Whatever changed while nobody listened is read now.
  notices_.lobby_changed();
}

void LobbyListener::on_readable(bool readable) {
  if (!listener_) return;
  auto received =
      readable ? listener_->drain()
               : store::Result<int>(store::fail(store::StoreCode::Io, "polling its socket failed"));
  if (!received) {
    lost(received.error().message);
    return;
  }
  if (*received > 0) notices_.lobby_changed();
}

void LobbyListener::lost(const std::string& why) {
  watch_.reset();  // before the connection closes
  const bool was_listening = listener_.has_value();
  listener_.reset();
  if (stopped_) return;
  if (was_listening) {
    spdlog::warn("cluster: lobby changes no longer arrive ({}); polling until reconnected", why);
    notices_.lobby_notices(false);
  } else {
    spdlog::debug("cluster: lobby listener not connected: {}", why);
  }
  std::weak_ptr<LobbyListener*> weak = self_;
  loop_.after(kRetryMs, [weak] {
    if (auto self = weak.lock(); self && *self) (*self)->connect();
  });
}

}  // namespace eryantis::app
