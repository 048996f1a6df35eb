#pragma once
// The client side of a WebSocket (RFC 6455) over a byte stream, with no I/O of
// its own: the HTTP/1.1 upgrade request and the check of the server's answer
// (101, Upgrade, Connection, Sec-WebSocket-Accept = base64(SHA-1(key + GUID))),
// then wslay for the frames: text messages out (masked, as a client must), text
// messages in (fragments reassembled, at most `max_message_bytes`), pings answered
// with pongs, and the close handshake. LineConnection feeds it the socket's bytes
// and writes what it produces; the tests drive it against wslay's server side.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace eryantis::client {

// Where a client connects: TCP lines ("host:port", "tcp://host:port") or a
// WebSocket ("ws://host:port/path"; the path defaults to "/ws").
struct Endpoint {
  std::string host = "127.0.0.1";
  int port = 7777;
  std::string websocket_path;  // "" = the TCP line transport

  bool websocket() const { return !websocket_path.empty(); }
  // "ws://127.0.0.1:8080/ws", or "127.0.0.1:7777" for TCP.
  std::string str() const;
  // nullopt with `error` set when `url` is not one of the forms above.
  static std::optional<Endpoint> parse(std::string_view url, std::string& error);
};

class WebSocketCodec {
 public:
  class Sink {
   public:
    virtual ~Sink() = default;
    // One text message (valid during the call).
    virtual void on_message(std::string_view text) = 0;
    // The handshake was refused, the server broke the protocol, or it closed the
    // WebSocket (its close code in the reason). Nothing more is delivered after it.
    virtual void on_ended(std::string reason) = 0;
  };

  // `host` and `port` name the server in the request's Host header.
  WebSocketCodec(std::string_view host, int port, std::string_view path,
                 std::size_t max_message_bytes);
  WebSocketCodec(const WebSocketCodec&) = delete;
  WebSocketCodec& operator=(const WebSocketCodec&) = delete;
  ~WebSocketCodec();

  // The upgrade request: the first bytes to write on the socket.
  const std::string& handshake_request() const { return request_; }
  // Bytes read from the socket. The handshake's answer first; then frames.
  void feed(std::string_view bytes, Sink& sink);
  // Queues a text message (sent once the handshake is done).
  void queue_text(std::string_view text);
  void queue_ping(std::string_view payload);
  // Starts the close handshake (code 1000 = normal closure).
  void queue_close(std::uint16_t code = 1000);
  // Appends the frames ready to go (masked) to `out`. Nothing before the handshake.
  void take_output(std::string& out);
  bool open() const { return state_ == State::Open; }
  bool ended() const { return state_ == State::Ended; }

  struct Callbacks;  // wslay's callbacks; public for the .cpp

 private:
  enum class State : std::uint8_t { Handshake, Open, Ended };
  void end(Sink& sink, std::string reason);
  // The server's answer to the upgrade: "" when it accepts, else why not.
  std::string check_handshake(std::string_view head) const;

  struct Context;  // wslay's context, freed with the codec
  std::unique_ptr<Context> context_;
  std::string request_;
  std::string expected_accept_;
  std::string head_;  // the answer's headers while they arrive
  State state_ = State::Handshake;
  std::size_t max_message_bytes_;
  // The frames' masking keys. RFC 6455 §5.3 wants them unpredictable (so a page's
  // script cannot aim bytes at a proxy): splitmix64 seeded from the kernel once per
  // connection rather than a system call per frame, which the load bots could not
  // afford; 8 bytes of state, not mt19937's 5 KB, for 10,000 bot connections.
  std::uint64_t mask_state_ = 0;
  std::uint64_t next_mask_bits();
  // While feeding: the bytes wslay has not read yet, and where messages go.
  std::string_view incoming_;
  Sink* sink_ = nullptr;
  std::string* output_ = nullptr;
};

}  // namespace eryantis::client
