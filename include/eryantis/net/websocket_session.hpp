#pragma once
// One WebSocket connection's frames (RFC 6455, server side), without a socket:
// wslay reads the client's frames from the bytes fed to it, assembles messages
// (up to max_message_bytes), answers pings and closes, and writes its frames to
// the sink. Text messages go to the sink; a binary one is refused with close 1003.
// The HTTP server drives it from its reads; the fuzz target fuzz_ws_frames feeds it
// arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

struct wslay_event_context;

namespace eryantis::net {

// WebSocket close codes (RFC 6455 §7.4.1) and when this server sends them.
namespace ws_close {
// The server closed (a `shutdown` message came first).
inline constexpr std::uint16_t normal = 1000;
// The listener stops (no `shutdown` message was possible).
inline constexpr std::uint16_t going_away = 1001;
// A bad frame: unmasked, reserved bits or opcode, a bad continuation, a control
// frame fragmented or over 125 bytes, a close frame with a 1-byte payload, a frame
// length not in its shortest form or with its top bit set.
inline constexpr std::uint16_t protocol_error = 1002;
// A binary frame: the protocol is text.
inline constexpr std::uint16_t unsupported_data = 1003;
// A text message that is not UTF-8 (checked by wslay).
inline constexpr std::uint16_t invalid_payload = 1007;
// A message longer than max_message_bytes.
inline constexpr std::uint16_t too_big = 1009;
}  // namespace ws_close

class WebSocketSession {
 public:
  class Sink {
   public:
    virtual ~Sink() = default;
    // Whether messages are still wanted: once the connection is closing, the
    // messages left in a read are dropped.
    virtual bool open() const = 0;
    virtual void on_text(std::string_view message) = 0;
    // Frames to send, in order.
    virtual void write(std::string_view bytes) = 0;
  };

  // nullptr when wslay cannot allocate its context. `sink` outlives the session.
  static std::unique_ptr<WebSocketSession> create(Sink& sink, std::size_t max_message_bytes);
  struct Key {  // only create() makes sessions (they must have a context)
   private:
    friend class WebSocketSession;
    Key() = default;
  };
  WebSocketSession(Sink& sink, Key) : sink_(sink) {}
  WebSocketSession(const WebSocketSession&) = delete;
  WebSocketSession& operator=(const WebSocketSession&) = delete;
  ~WebSocketSession();

  // Reads every frame in `bytes` (a frame cut short waits for the next feed; a
  // control frame's payload is handed to wslay only once it is whole, see
  // whole_control_payloads).
  // A bad frame needs nothing from the caller: the close (1002, 1007, 1009) is
  // queued and reading stops; send() then writes it.
  void feed(std::string_view bytes);
  // Writes what is queued (messages, pongs, closes) to the sink; false on a
  // failure that ends the connection.
  bool send();
  // Queues one text message; false when the session no longer sends.
  bool queue_text(std::string_view text);
  // Queues our close; the messages that follow it (in this read or later) are dropped.
  void queue_close(std::uint16_t code, std::string_view reason = {});
  // Our close frame is out, or neither side has anything left to say: the
  // connection can end.
  bool finished() const;

 private:
  struct Callbacks;

  // How much of `bytes` (what is held, then the new bytes) wslay may read now:
  // all but the payload of a control frame cut short, which is held; up to a
  // header that refused_header refuses (refused_ is then set).
  std::size_t whole_control_payloads(std::string_view bytes);
  // Why a frame header (its first 2 bytes, or those and its extended length) breaks
  // RFC 6455 in a way wslay's frame layer would answer without a status code;
  // nullptr when it does not.
  static const char* refused_header(std::string_view header);

  Sink& sink_;
  wslay_event_context* context_ = nullptr;  // owned
  std::string_view input_;                  // what wslay's recv callback still has to read
  std::string held_;                        // the start of a control frame's payload
  std::string header_;                      // the frame header read so far (2 to 14 bytes)
  std::uint64_t payload_left_ = 0;          // of the data frame being read
  std::uint64_t control_left_ = 0;          // of the control frame being read
  bool close_queued_ = false;               // by us: the messages after it are dropped
  const char* refused_ = nullptr;           // a bad frame header: why (close 1002)
};

}  // namespace eryantis::net
