#pragma once
// Ports on 127.0.0.1 for tests that must restart a server on the same address.

namespace eryantis::test {

// A TCP port on 127.0.0.1 that was free a moment ago (bind port 0, read it,
// close it); 0 if none could be had.
int free_port();

}  // namespace eryantis::test
