#pragma once
// A blocking POSIX TCP client for the tests, used from a std::thread while the
// loop runs on the test's thread. Every receive has a timeout, so a broken
// server fails a test instead of hanging it.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace eryantis::net::testing {

class TestClient {
 public:
  // Connects to 127.0.0.1:port. receive_buffer > 0 sets SO_RCVBUF first (a
  // small one makes a client that never reads fill up quickly).
  static std::optional<TestClient> connect(int port, int receive_buffer = 0);

  TestClient(TestClient&& other) noexcept;
  TestClient& operator=(TestClient&& other) noexcept;
  TestClient(const TestClient&) = delete;
  TestClient& operator=(const TestClient&) = delete;
  ~TestClient();

  bool send_all(std::string_view bytes);
  // The next line without its '\n'; nullopt on EOF, error or timeout.
  std::optional<std::string> read_line(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // Reads (and drops) until the server closes; false on timeout.
  bool wait_closed(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // True once a read saw the orderly end of the stream.
  bool saw_eof() const { return eof_; }
  void close();
  // Half-close: no more bytes from us (the server sees EOF); reading goes on.
  bool shutdown_write();

 private:
  explicit TestClient(int fd) : fd_(fd) {}
  // Waits for readable data; false on timeout.
  bool wait_readable(std::chrono::steady_clock::time_point deadline);

  int fd_ = -1;  // owned
  std::string buffer_;
  bool eof_ = false;
};

}  // namespace eryantis::net::testing
