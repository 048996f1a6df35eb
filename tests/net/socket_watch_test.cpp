#include "eryantis/net/socket_watch.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>

namespace eryantis::net {
namespace {

// Both ends of a local stream socket, closed at the end of the test.
struct SocketPair {
  int fds[2] = {-1, -1};
  SocketPair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0); }
  ~SocketPair() {
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
  }
};

TEST(SocketWatch, ReportsReadableUntilDestroyedThenTheLoopClosesCleanly) {
  EventLoop loop;
  SocketPair pair;
  bool timed_out = false;
  loop.after(5000, [&] {
    timed_out = true;
    loop.stop();
  });
  int readable = 0;
  std::unique_ptr<SocketWatch> watch;
  watch = std::make_unique<SocketWatch>(loop, pair.fds[0], [&](bool ok) {
    EXPECT_TRUE(ok);
    char byte = 0;
    EXPECT_EQ(::read(pair.fds[0], &byte, 1), 1);
    if (++readable == 2) {
      watch.reset();  // from inside its own callback, as a dropped connection does
      loop.stop();
    }
  });
  ASSERT_EQ(::write(pair.fds[1], "a", 1), 1);
  loop.after(5, [&] { ASSERT_EQ(::write(pair.fds[1], "b", 1), 1); });
  loop.run();
  EXPECT_FALSE(timed_out);
  EXPECT_EQ(readable, 2);
  EXPECT_EQ(loop.close(), 0);  // nothing left open
}

TEST(SocketWatch, TheLoopsStopClosesAWatchStillAlive) {
  EventLoop loop;
  SocketPair pair;
  SocketWatch watch(loop, pair.fds[0], [](bool) {});
  loop.after(1, [&] { loop.stop(); });
  loop.run();  // returns: stop() closed the watch's handle
  EXPECT_EQ(loop.close(), 0);
}  // the watch is destroyed after its handle closed: nothing to do

}  // namespace
}  // namespace eryantis::net
