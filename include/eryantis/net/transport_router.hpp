#pragma once
// One transport::Transport over two: the server layer gets a single Transport
// while connections come from the TCP listener and from the web listener's
// WebSockets. The second transport numbers its connections from kSecondFirstId
// (HttpServer::set_first_id), so an id alone says where it lives.
#include <string>
#include <utility>

#include "eryantis/transport/transport.hpp"

namespace eryantis::net {

class TransportRouter final : public transport::Transport {
 public:
  // 2^62: the first transport would need that many connections to reach it.
  static constexpr transport::ConnectionId kSecondFirstId = transport::ConnectionId{1} << 62;

  // Both must outlive the router.
  TransportRouter(transport::Transport& first, transport::Transport& second)
      : first_(first), second_(second) {}

  void send(transport::ConnectionId id, std::string line) override {
    route(id).send(id, std::move(line));
  }
  void close(transport::ConnectionId id) override { route(id).close(id); }

 private:
  transport::Transport& route(transport::ConnectionId id) {
    return id >= kSecondFirstId ? second_ : first_;
  }
  transport::Transport& first_;
  transport::Transport& second_;
};

}  // namespace eryantis::net
