#pragma once
// An HTTP request as the server parsed it and the response a route or the static
// files give back. Plain data: the HTTP server turns them into bytes.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace eryantis::net {

struct HttpRequest {
  std::string method;  // "GET", "HEAD", ...
  std::string target;  // as sent: "/api/matches?x=1"
  std::string path;    // the target without its query, still percent-encoded
  std::string query;   // after '?', or empty
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;  // at most HttpRequestLimits::max_body_bytes
  // The first header of that (lower-case) name, or nullptr.
  const std::string* header(std::string_view name) const;
  // The value of cookie `name` in the Cookie headers ("a=1; b=2"), or nullopt.
  std::optional<std::string> cookie(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // added as they are

  static HttpResponse json(std::string body, int status = 200);
  static HttpResponse text(int status, std::string body);
};

// A route answers one request synchronously, on the loop thread.
using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

// The reason phrase of a status code the server uses ("Not Found").
std::string_view status_reason(int status);

}  // namespace eryantis::net
