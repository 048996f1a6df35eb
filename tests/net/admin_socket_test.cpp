// The admin socket's bounds: a connection that sends no request line is told and
// closed after idle_timeout_ms, and connections beyond max_connections are told
// they are refused and closed, while the operator's next command still works.
// The loop runs on the test's thread, the clients on another.
#include "eryantis/net/admin_socket.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/temp_dir.hpp"

namespace eryantis::net {
namespace {

using namespace std::chrono_literals;

// A blocking Unix-socket client whose reads have a deadline.
class UnixClient {
 public:
  explicit UnixClient(const std::string& path) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  UnixClient(const UnixClient&) = delete;
  UnixClient& operator=(const UnixClient&) = delete;
  ~UnixClient() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool connected() const { return fd_ >= 0; }
  bool send(const std::string& bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
           static_cast<ssize_t>(bytes.size());
  }
  // Everything until the server closes; nullopt if it has not closed by `timeout`.
  std::optional<std::string> read_to_end(std::chrono::milliseconds timeout = 5s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::string text;
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return std::nullopt;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return std::nullopt;
      char buffer[4096];
      const ssize_t n = ::read(fd_, buffer, sizeof buffer);
      if (n <= 0) return text;
      text.append(buffer, static_cast<std::size_t>(n));
    }
  }
  // Whether the server has closed the connection (or said something) within `timeout`.
  bool readable_within(std::chrono::milliseconds timeout) {
    pollfd p{fd_, POLLIN, 0};
    return ::poll(&p, 1, static_cast<int>(timeout.count())) > 0;
  }

 private:
  int fd_ = -1;
};

AdminSocketOptions test_options() {
  AdminSocketOptions options;
  options.max_connections = 3;
  options.idle_timeout_ms = 300;
  options.busy_line = "busy";
  options.idle_line = "too slow";
  return options;
}

class Harness {
 public:
  explicit Harness(AdminSocketOptions options = test_options())
      : socket(
            loop,
            [this](std::string_view request, AdminSocket::Reply reply) {
              ++requests;
              if (request == "later") {
                later.push_back(std::move(reply));  // answered when the test says so
                return;
              }
              reply("ok " + std::string(request));
            },
            std::move(options)) {
    auto listening = socket.listen(path);
    EXPECT_TRUE(listening.has_value()) << listening.error();
  }

  // Runs the loop until `client` returns; false on timeout.
  bool run(std::function<void()> client, std::chrono::milliseconds limit = 20s) {
    bool timed_out = false;
    auto done = loop.make_wakeup([this] { loop.stop(); });
    loop.after(limit.count(), [&] {
      timed_out = true;
      loop.stop();
    });
    std::thread thread([&] {
      client();
      done->notify();
    });
    loop.run();
    thread.join();
    return !timed_out;
  }

  test::TempDir dir;
  std::string path = dir.file("admin.sock");
  EventLoop loop;
  int requests = 0;  // loop thread
  std::vector<AdminSocket::Reply> later;
  AdminSocket socket;
};

TEST(AdminSocket, AConnectionWithoutARequestIsToldAndClosedAfterTheTimeout) {
  Harness h;
  ASSERT_TRUE(h.run([&] {
    UnixClient silent(h.path);
    UnixClient half(h.path);
    ASSERT_TRUE(silent.connected() && half.connected());
    ASSERT_TRUE(half.send("sessions"));  // no newline: never a whole request
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(silent.read_to_end(), "too slow\n");
    EXPECT_EQ(half.read_to_end(), "too slow\n");
    EXPECT_GE(std::chrono::steady_clock::now() - start, 200ms) << "closed before the timeout";
    // A request that comes in time is answered, whatever the timeout.
    UnixClient prompt(h.path);
    ASSERT_TRUE(prompt.send("matches\n"));
    EXPECT_EQ(prompt.read_to_end(), "ok matches\n");
  }));
  EXPECT_EQ(h.requests, 1);
  EXPECT_EQ(h.socket.connection_count(), 0u);
}

// An answer may take long (a drain): only the wait for the request is bounded.
TEST(AdminSocket, ARequestBeingAnsweredHasNoTimeLimit) {
  Harness h;
  ASSERT_TRUE(h.run([&] {
    UnixClient slow(h.path);
    ASSERT_TRUE(slow.send("later\n"));
    EXPECT_FALSE(slow.readable_within(1s)) << "closed while its answer was pending";
  }));
  ASSERT_EQ(h.later.size(), 1u);
}

TEST(AdminSocket, ConnectionsBeyondTheLimitAreToldAndClosed) {
  AdminSocketOptions options = test_options();
  options.idle_timeout_ms = 60'000;  // the idle ones stay for this test
  Harness h(options);
  ASSERT_TRUE(h.run([&] {
    std::vector<std::unique_ptr<UnixClient>> idle;
    for (int i = 0; i < 3; ++i) {
      idle.push_back(std::make_unique<UnixClient>(h.path));
      ASSERT_TRUE(idle.back()->connected());
    }
    for (int i = 0; i < 5; ++i) {
      UnixClient refused(h.path);
      ASSERT_TRUE(refused.connected());
      refused.send("matches\n");  // not read
      EXPECT_EQ(refused.read_to_end(), "busy\n");
    }
    // One of the three leaves: its slot serves the next command.
    idle.pop_back();
    for (int attempt = 0; attempt < 200; ++attempt) {
      UnixClient next(h.path);
      ASSERT_TRUE(next.send("sessions\n"));
      auto reply = next.read_to_end();
      ASSERT_TRUE(reply);
      if (*reply == "ok sessions\n") return;
      EXPECT_EQ(*reply, "busy\n");
      std::this_thread::sleep_for(5ms);  // the server has not seen the close yet
    }
    ADD_FAILURE() << "the freed slot was never given to a new connection";
  }));
  EXPECT_EQ(h.requests, 1);
}

}  // namespace
}  // namespace eryantis::net
