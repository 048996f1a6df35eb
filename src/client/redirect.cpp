// Reading where a redirect points. See redirect.hpp.
#include "eryantis/client/redirect.hpp"

namespace eryantis::client {

std::expected<Endpoint, std::string> redirect_endpoint(const ServerMessage& redirect,
                                                       bool websocket) {
  std::string error;
  if (websocket) {
    if (!redirect.web || redirect.web->empty())
      return std::unexpected(std::string("the node gave no WebSocket address (\"web\") to go to"));
    auto e = Endpoint::parse(*redirect.web, error);
    if (!e) return std::unexpected("bad \"web\" address " + *redirect.web + ": " + error);
    if (!e->websocket()) return std::unexpected("\"web\" is not a ws:// address: " + *redirect.web);
    return *e;
  }
  if (redirect.address.empty())
    return std::unexpected(std::string("the node gave no address (\"address\") to go to"));
  auto e = Endpoint::parse(redirect.address, error);
  if (!e || e->websocket())
    return std::unexpected("bad \"address\" " + redirect.address + ": " +
                           (e ? std::string("a TCP host:port was expected") : error));
  return *e;
}

std::string redirect_text(const ServerMessage& redirect, const Endpoint& to) {
  std::string text = redirect.match ? "match " + std::to_string(*redirect.match) : "your match";
  text += " is served by " + to.str();
  return text;
}

}  // namespace eryantis::client
