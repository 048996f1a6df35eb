#pragma once
// Which `Host` a request to the web listener may name: the defence against DNS
// rebinding. A page of evil.example whose name the attacker then points at
// 127.0.0.1 reaches the listener as its own origin (`Host: evil.example:8080`,
// `Origin: http://evil.example:8080`, so an Origin check alone passes) and could
// read /metrics, the replay API or play over /ws. The browser always sends the
// name it resolved, so the listener answers only to names that are its own:
//   - any IP address literal (`127.0.0.1`, `[::1]`, the bound address): an address
//     is not a name, so no DNS answer can redirect it;
//   - `localhost`;
//   - the names listed in `[web] allowed_hosts` (compared without case; `*` allows
//     any name, for a proxy in front that checks names itself).
// The port is not compared: a browser sends the port it connected to. A trailing
// dot ("localhost.") is the same name. A request without a Host header comes from a
// program, not a browser page, and is allowed.
#include <string>
#include <string_view>
#include <vector>

namespace eryantis::net {

class AllowedHosts {
 public:
  explicit AllowedHosts(const std::vector<std::string>& names);

  // Whether a Host header's value ("name", "name:port", "[v6]:port") is allowed.
  bool allows(std::string_view host_header) const;

  // The name part of a Host value, lower-cased, without port or trailing dot;
  // the address inside brackets for an IPv6 literal; empty when malformed.
  static std::string name_of(std::string_view host_header);
  // Whether `name` (as name_of gives it) can be listed: not empty, no port, no
  // slash, no space. Used to check the configuration.
  static bool valid_name(std::string_view name);

 private:
  std::vector<std::string> names_;  // lower-cased, without trailing dot
  bool any_ = false;                // "*" listed
};

}  // namespace eryantis::net
