#include "peer_name.hpp"

#include <sys/socket.h>

namespace eryantis::net {

std::string peer_name(const uv_tcp_t& tcp) {
  sockaddr_storage address{};
  int length = sizeof address;
  if (uv_tcp_getpeername(&tcp, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    return "unknown";
  }
  char ip[64] = {};
  if (address.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&address);
    uv_ip6_name(in6, ip, sizeof ip);
    // Built with append: g++ 12 warns falsely (-Wrestrict) on "[" + std::string(...).
    std::string name = "[";
    name.append(ip).append("]:").append(std::to_string(ntohs(in6->sin6_port)));
    return name;
  }
  const auto* in4 = reinterpret_cast<const sockaddr_in*>(&address);
  uv_ip4_name(in4, ip, sizeof ip);
  std::string name(ip);
  name.append(":").append(std::to_string(ntohs(in4->sin_port)));
  return name;
}

}  // namespace eryantis::net
