#include "eryantis/main/account_route.hpp"

#include "eryantis/json/json.hpp"
#include "json_route.hpp"

namespace eryantis::app {
namespace {

using json_route::error;
using json_route::put;
using json_route::Writer;

net::HttpResponse reply(std::string_view type, std::string_view name) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  put(w, "type");
  put(w, type);
  if (!name.empty()) {
    put(w, "name");
    put(w, name);
  }
  w.EndObject();
  net::HttpResponse response =
      net::HttpResponse::json(std::string(buffer.GetString(), buffer.GetSize()));
  response.headers.emplace_back("Cache-Control", "no-store");
  return response;
}

}  // namespace

std::string session_cookie(std::string_view secret, std::int64_t max_age_s, bool secure) {
  std::string cookie(kSessionCookie);
  cookie.append("=").append(secret);
  cookie.append("; HttpOnly; SameSite=Strict; Path=/; Max-Age=");
  cookie.append(std::to_string(max_age_s > 0 ? max_age_s : 0));
  if (secure) cookie.append("; Secure");
  return cookie;
}

net::HttpResponse account_response(const net::HttpRequest& request, bool origin_ok,
                                   const RedeemTicket& redeem, const AccountRouteOptions& options) {
  const std::string_view path = request.path;
  const bool session = path == "/account/session";
  const bool logout = path == "/account/logout";
  if (!session && !logout)
    return error(404, "NOT_FOUND", "the account routes are POST /account/session and "
                                   "POST /account/logout");
  if (request.method != "POST") {
    net::HttpResponse response = error(405, "METHOD", "only POST");
    response.headers.emplace_back("Allow", "POST");
    return response;
  }
  // SameSite=Strict keeps the cookie off cross-site requests; this keeps another
  // site from setting or clearing it (login CSRF).
  if (!origin_ok)
    return error(403, "BAD_ORIGIN",
                 "this page's origin may not use the account routes ([web] allowed_origins)");
  // A JSON body: a cross-site page cannot send this type without a CORS preflight.
  const std::string* type = request.header("content-type");
  if (type == nullptr || !type->starts_with("application/json"))
    return error(415, "BAD_CONTENT_TYPE", "send the body as application/json");
  if (request.body.size() > kMaxAccountBodyBytes)
    return error(413, "TOO_LARGE",
                 "the body has at most " + std::to_string(kMaxAccountBodyBytes) + " bytes");
  if (logout) {
    net::HttpResponse response = reply("logged_out", "");
    response.headers.emplace_back("Set-Cookie", session_cookie("", 0, options.secure_cookie));
    return response;
  }
  rapidjson::Document body;
  body.Parse(request.body.data(), request.body.size());
  if (body.HasParseError() || !body.IsObject())
    return error(400, "BAD_JSON", "the body is not a JSON object");
  const auto ticket = body.FindMember("ticket");
  if (ticket == body.MemberEnd() || !ticket->value.IsString())
    return error(400, "MISSING_FIELD", "field \"ticket\" (a string) is missing");
  std::optional<SessionGrant> grant = redeem(
      std::string_view(ticket->value.GetString(), ticket->value.GetStringLength()));
  if (!grant)
    return error(401, "BAD_TICKET",
                 "that ticket is unknown, used or expired (a ticket works once, within a "
                 "minute): log in again");
  net::HttpResponse response = reply("session", grant->name);
  response.headers.emplace_back(
      "Set-Cookie", session_cookie(grant->secret, grant->max_age_s, options.secure_cookie));
  return response;
}

}  // namespace eryantis::app
