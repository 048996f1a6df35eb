#pragma once
// The transport seam (eryantis/transport/transport.hpp) under the names the server
// layer and its tests use: a connection is an id, the network a Transport.
#include "eryantis/transport/transport.hpp"

namespace eryantis::server {

using transport::ConnectionEvents;
using transport::ConnectionId;
using transport::Transport;

}  // namespace eryantis::server
