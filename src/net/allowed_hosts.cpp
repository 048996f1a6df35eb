#include "eryantis/net/allowed_hosts.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>

namespace eryantis::net {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return out;
}

bool digits(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool ip_literal(const std::string& name, int family) {
  std::array<unsigned char, 16> address{};
  return inet_pton(family, name.c_str(), address.data()) == 1;
}

}  // namespace

AllowedHosts::AllowedHosts(const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (name == "*") {
      any_ = true;
      continue;
    }
    std::string n = lower(name);
    if (n.ends_with('.')) n.pop_back();
    names_.push_back(std::move(n));
  }
}

std::string AllowedHosts::name_of(std::string_view host) {
  if (host.starts_with('[')) {  // IP-literal (RFC 3986 §3.2.2)
    const std::size_t close = host.find(']');
    if (close == std::string_view::npos) return {};
    const std::string_view rest = host.substr(close + 1);
    if (!rest.empty() && !(rest.front() == ':' && digits(rest.substr(1)))) return {};
    return lower(host.substr(1, close - 1));
  }
  const std::size_t colon = host.find(':');
  std::string_view name = host.substr(0, colon);
  if (colon != std::string_view::npos && !digits(host.substr(colon + 1))) return {};
  if (name.ends_with('.')) name.remove_suffix(1);
  if (!valid_name(name)) return {};
  return lower(name);
}

bool AllowedHosts::valid_name(std::string_view name) {
  if (name.empty()) return false;
  return std::none_of(name.begin(), name.end(), [](unsigned char c) {
    return c <= ' ' || c == ':' || c == '/' || c == '@' || c == '[' || c == ']' || c == 0x7F;
  });
}

bool AllowedHosts::allows(std::string_view host_header) const {
  const std::string name = name_of(host_header);
  if (name.empty()) return false;
  if (host_header.starts_with('[')) return ip_literal(name, AF_INET6);
  if (ip_literal(name, AF_INET) || name == "localhost" || any_) return true;
  return std::find(names_.begin(), names_.end(), name) != names_.end();
}

}  // namespace eryantis::net
