#include "eryantis/net/foreign_protocol.hpp"

#include <string_view>

namespace eryantis::net {

namespace {

// RFC 9110 §5.6.2: tchar.
bool token_char(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool scheme_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '-' || c == '.';
}

// origin-form ("/..."), asterisk-form ("*") or absolute-form ("scheme://...").
bool request_target(std::string_view target) {
  if (target.starts_with('/')) return true;
  if (target == "*" || target.starts_with("* ")) return true;
  const std::size_t colon = target.find("://");
  if (colon == 0 || colon == std::string_view::npos) return false;
  for (std::size_t i = 0; i < colon; ++i)
    if (!scheme_char(target[i])) return false;
  return true;
}

}  // namespace

bool looks_like_http(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && token_char(line[i])) ++i;
  if (i == 0 || i == line.size()) return false;
  if (line[i] == ':') return true;  // a header line: "Host: ..."
  return line[i] == ' ' && request_target(line.substr(i + 1));
}

}  // namespace eryantis::net
