#pragma once
// The web page's session cookie (docs/accounts.md, "The web page's cookie"):
//   POST /account/session {"ticket":"..."}  -> Set-Cookie: eryantis_session=<secret>
//   POST /account/logout                    -> the cookie cleared (Max-Age=0)
// A page logs in (or registers) over its WebSocket with "cookie":true; the reply
// carries a one-time ticket instead of the session secret, and the page exchanges
// it here for an HttpOnly, SameSite=Strict cookie, which every later WebSocket
// upgrade sends: the secret never reaches page scripts. Ending the session itself
// is the WebSocket's `logout` (it knows which session the connection used).
// Synchronous, on the loop thread: no password is hashed here.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "eryantis/net/http_message.hpp"

namespace eryantis::app {

inline constexpr std::string_view kAccountRoute = "/account/";
inline constexpr std::string_view kSessionCookie = "eryantis_session";
// The JSON bodies these routes read are small: {"ticket":"<64 hex digits>"}.
inline constexpr std::size_t kMaxAccountBodyBytes = 1024;

struct SessionGrant {
  std::string secret;
  std::string name;  // the account's
  std::int64_t max_age_s = 0;
};
// Takes a ticket (once): the session it stands for, or nullopt.
using RedeemTicket = std::function<std::optional<SessionGrant>(std::string_view ticket)>;

struct AccountRouteOptions {
  bool secure_cookie = false;  // [web] secure_cookie
};

// `origin_ok`: the request's Origin is the server's own or an allowed one
// (HttpServer::origin_allowed): a cross-site POST gets 403 BAD_ORIGIN.
net::HttpResponse account_response(const net::HttpRequest& request, bool origin_ok,
                                   const RedeemTicket& redeem, const AccountRouteOptions& options);

// The Set-Cookie value: the session for `max_age_s` seconds (0: cleared).
std::string session_cookie(std::string_view secret, std::int64_t max_age_s, bool secure);

}  // namespace eryantis::app
