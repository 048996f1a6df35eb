#pragma once
// A blocking WebSocket (RFC 6455) and HTTP/1.1 client for the tests, written
// from the RFC so that it can also send what a real client never would: unmasked
// frames, binary frames, bad opcodes, oversized or fragmented messages. Every
// read has a deadline, so a broken server fails a test instead of hanging it.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace eryantis::test {

struct HttpReply {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;
  const std::string* header(std::string_view name) const;
};

struct WsFrame {
  bool fin = true;
  int opcode = 0;  // 1 text, 2 binary, 8 close, 9 ping, 10 pong
  std::string payload;
  // For a close frame: its status code (0 when it has none).
  int close_code() const;
};

class WsClient {
 public:
  static constexpr int kText = 1, kBinary = 2, kClose = 8, kPing = 9, kPong = 10;

  // Connects to 127.0.0.1:port. receive_buffer > 0 sets SO_RCVBUF first.
  static std::optional<WsClient> connect(int port, int receive_buffer = 0);
  WsClient(WsClient&& other) noexcept;
  WsClient& operator=(WsClient&& other) noexcept;
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;
  ~WsClient();

  bool send_all(std::string_view bytes);
  // One HTTP response (headers, then Content-Length bytes of body unless the
  // status has none); nullopt on EOF or timeout.
  std::optional<HttpReply> read_reply(bool head = false,
                                      std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // GET `target` with these extra header lines ("Name: value\r\n"...).
  std::optional<HttpReply> get(std::string_view target, std::string_view extra_headers = {},
                               std::string_view method = "GET");
  // The upgrade request; the reply's status (101 when it worked).
  std::optional<HttpReply> upgrade(std::string_view path = "/ws",
                                   std::string_view extra_headers = {});

  // One frame; `masked` false sends what RFC 6455 forbids a client to send.
  bool send_frame(int opcode, std::string_view payload, bool fin = true, bool masked = true);
  bool send_text(std::string_view text) { return send_frame(kText, text); }
  std::optional<WsFrame> read_frame(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // The next text frame's payload, answering nothing and skipping pongs.
  std::optional<std::string> read_text(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // Reads frames until a close frame; its code, or nullopt (EOF first, timeout).
  std::optional<int> read_close(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // Reads (and drops) until the server closes the TCP connection; false on timeout.
  bool wait_closed(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  void close();

 private:
  explicit WsClient(int fd) : fd_(fd) {}
  // At least `count` bytes buffered; false on EOF or timeout.
  bool fill(std::size_t count, std::chrono::steady_clock::time_point deadline);

  int fd_ = -1;  // owned
  std::string buffer_;
  std::uint32_t mask_seed_ = 0x9e3779b9u;
};

}  // namespace eryantis::test
