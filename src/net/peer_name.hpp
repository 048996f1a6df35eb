#pragma once
// The peer of an accepted connection as the logs and ConnectionEvents::on_open
// show it: "127.0.0.1:50312", "[::1]:50312", or "unknown". Internal to the net library.
#include <uv.h>

#include <string>

namespace eryantis::net {

std::string peer_name(const uv_tcp_t& tcp);

}  // namespace eryantis::net
