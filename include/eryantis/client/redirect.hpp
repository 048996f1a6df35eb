#pragma once
// Following a `redirect` (docs/cluster.md, like Redis Cluster's MOVED): a node
// that does not serve a match answers join_match, spectate and a resuming login
// with the node that does. The client closes, connects there, logs in with the
// same nickname and resume token and repeats the request (a resuming login needs
// no repeat). Nodes that disagree about an owner for a moment could bounce a
// client for ever: at most kMaxRedirectHops in a row, the next one is an error.
#include <expected>
#include <string>

#include "eryantis/client/client_protocol.hpp"
#include "eryantis/client/websocket_codec.hpp"

namespace eryantis::client {

inline constexpr int kMaxRedirectHops = 3;

// Where a redirect sends a client of this transport: `address` for TCP, `web` for
// a WebSocket (path /ws when the URL has none). An error when the node gave no
// usable address for it.
std::expected<Endpoint, std::string> redirect_endpoint(const ServerMessage& redirect,
                                                       bool websocket);

// "match 12 is served by 127.0.0.1:7002" (without a match: "another node").
std::string redirect_text(const ServerMessage& redirect, const Endpoint& to);

// Redirects in a row: follow() counts one more and says whether it may be
// followed; reset() once a request got a real answer (or a login went through).
class RedirectHops {
 public:
  bool follow() { return ++hops_ <= kMaxRedirectHops; }
  void reset() { hops_ = 0; }
  int hops() const { return hops_; }

 private:
  int hops_ = 0;
};

}  // namespace eryantis::client
