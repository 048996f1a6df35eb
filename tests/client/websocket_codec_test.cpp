// The client's WebSocket codec against wslay's server side (which refuses what a
// client must not send: unmasked frames among them) and against hand-written
// handshake answers; and the ws:// / host:port addresses.
#include "eryantis/client/websocket_codec.hpp"

#include <gtest/gtest.h>
#include <nettle/base64.h>
#include <nettle/sha1.h>
#include <wslay/wslay.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace eryantis::client {
namespace {

std::string accept_for(const std::string& request) {
  constexpr std::string_view kHeader = "Sec-WebSocket-Key: ";
  const std::size_t at = request.find(kHeader);
  EXPECT_NE(at, std::string::npos) << request;
  const std::string key =
      request.substr(at + kHeader.size(), request.find("\r\n", at) - at - kHeader.size());
  EXPECT_EQ(key.size(), 24u) << "16 bytes in base64";
  const std::string input = key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  sha1_ctx sha;
  sha1_init(&sha);
  sha1_update(&sha, input.size(), reinterpret_cast<const std::uint8_t*>(input.data()));
  std::array<std::uint8_t, SHA1_DIGEST_SIZE> digest{};
  sha1_digest(&sha, digest.size(), digest.data());
  std::string out(BASE64_ENCODE_RAW_LENGTH(digest.size()), '\0');
  base64_encode_raw(out.data(), digest.size(), digest.data());
  return out;
}

std::string answer(const std::string& accept, std::string_view extra = {}) {
  return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Accept: " +
         accept + "\r\n" + std::string(extra) + "\r\n";
}

struct Recorder : WebSocketCodec::Sink {
  std::vector<std::string> messages;
  std::vector<std::string> ended;
  void on_message(std::string_view text) override { messages.emplace_back(text); }
  void on_ended(std::string reason) override { ended.push_back(std::move(reason)); }
};

// wslay's server side over two strings: what the client wrote, what it will read.
class WslayServer {
 public:
  WslayServer() {
    static const wslay_event_callbacks kCallbacks = {
        [](wslay_event_context_ptr ctx, std::uint8_t* buf, std::size_t len, int,
           void* user) -> ssize_t {
          auto& self = *static_cast<WslayServer*>(user);
          if (self.in_.empty()) {
            wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
            return -1;
          }
          const std::size_t n = std::min(len, self.in_.size());
          std::copy_n(self.in_.data(), n, buf);
          self.in_.erase(0, n);
          return static_cast<ssize_t>(n);
        },
        [](wslay_event_context_ptr, const std::uint8_t* data, std::size_t len, int,
           void* user) -> ssize_t {
          static_cast<WslayServer*>(user)->out_.append(reinterpret_cast<const char*>(data), len);
          return static_cast<ssize_t>(len);
        },
        nullptr,
        nullptr,
        nullptr,
        nullptr,
        [](wslay_event_context_ptr, const wslay_event_on_msg_recv_arg* arg, void* user) {
          auto& self = *static_cast<WslayServer*>(user);
          self.received_.push_back(
              {arg->opcode, std::string(reinterpret_cast<const char*>(arg->msg), arg->msg_length),
               arg->status_code});
        },
    };
    wslay_event_context_server_init(&ctx_, &kCallbacks, this);
  }
  ~WslayServer() { wslay_event_context_free(ctx_); }
  WslayServer(const WslayServer&) = delete;
  WslayServer& operator=(const WslayServer&) = delete;

  struct Received {
    int opcode;
    std::string payload;
    int close_code;
  };
  // The client's frames; false when wslay refused them (it stops reading).
  bool read(const std::string& bytes) {
    in_ += bytes;
    return wslay_event_recv(ctx_) == 0 && wslay_event_get_read_enabled(ctx_);
  }
  void queue(int opcode, std::string_view payload) {
    const wslay_event_msg msg{static_cast<std::uint8_t>(opcode),
                              reinterpret_cast<const std::uint8_t*>(payload.data()),
                              payload.size()};
    wslay_event_queue_msg(ctx_, &msg);
  }
  void queue_close(std::uint16_t code) { wslay_event_queue_close(ctx_, code, nullptr, 0); }
  // The frames the server queued, as bytes for the client.
  std::string take() {
    wslay_event_send(ctx_);
    std::string out;
    out.swap(out_);
    return out;
  }
  const std::vector<Received>& received() const { return received_; }

 private:
  wslay_event_context_ptr ctx_ = nullptr;
  std::string in_;
  std::string out_;
  std::vector<Received> received_;
};

class CodecTest : public ::testing::Test {
 protected:
  // The handshake done: the codec is open.
  void open() {
    codec.feed(answer(accept_for(codec.handshake_request())), sink);
    ASSERT_TRUE(codec.open());
    ASSERT_TRUE(sink.ended.empty());
  }
  std::string output() {
    std::string out;
    codec.take_output(out);
    return out;
  }

  WebSocketCodec codec{"127.0.0.1", 8080, "/ws", 1024};
  Recorder sink;
  WslayServer server;
};

TEST_F(CodecTest, TheUpgradeRequestIsAnHttp11GetWithAFreshKey) {
  const std::string& r = codec.handshake_request();
  EXPECT_TRUE(r.starts_with("GET /ws HTTP/1.1\r\n")) << r;
  EXPECT_NE(r.find("\r\nHost: 127.0.0.1:8080\r\n"), std::string::npos) << r;
  EXPECT_NE(r.find("\r\nUpgrade: websocket\r\n"), std::string::npos) << r;
  EXPECT_NE(r.find("\r\nConnection: Upgrade\r\n"), std::string::npos) << r;
  EXPECT_NE(r.find("\r\nSec-WebSocket-Version: 13\r\n"), std::string::npos) << r;
  EXPECT_TRUE(r.ends_with("\r\n\r\n"));
  WebSocketCodec other("::1", 80, "/x", 1024);
  EXPECT_NE(accept_for(r), accept_for(other.handshake_request())) << "the key is random";
  EXPECT_NE(other.handshake_request().find("\r\nHost: [::1]:80\r\n"), std::string::npos);
}

TEST_F(CodecTest, NothingIsSentBeforeTheServerAcceptsTheUpgrade) {
  codec.queue_text("early");
  EXPECT_TRUE(output().empty());
  // The answer arrives in pieces, the first frame in the same read as its end.
  server.queue(WSLAY_TEXT_FRAME, "welcome");
  const std::string bytes = answer(accept_for(codec.handshake_request())) + server.take();
  for (std::size_t i = 0; i < bytes.size(); i += 7) codec.feed(bytes.substr(i, 7), sink);
  ASSERT_TRUE(codec.open());
  EXPECT_EQ(sink.messages, std::vector<std::string>{"welcome"});
  ASSERT_TRUE(server.read(output()));
  ASSERT_EQ(server.received().size(), 1u);
  EXPECT_EQ(server.received()[0].opcode, WSLAY_TEXT_FRAME);
  EXPECT_EQ(server.received()[0].payload, "early");
}

TEST_F(CodecTest, AWrongAcceptKeyOrARefusalEndsIt) {
  codec.feed(answer("AAAAAAAAAAAAAAAAAAAAAAAAAAA="), sink);
  ASSERT_EQ(sink.ended.size(), 1u);
  EXPECT_NE(sink.ended[0].find("Sec-WebSocket-Accept"), std::string::npos) << sink.ended[0];
  EXPECT_FALSE(codec.open());

  WebSocketCodec refused("127.0.0.1", 8080, "/ws", 1024);
  Recorder r;
  refused.feed("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n", r);
  ASSERT_EQ(r.ended.size(), 1u);
  EXPECT_NE(r.ended[0].find("403 Forbidden"), std::string::npos) << r.ended[0];

  WebSocketCodec not_ws("127.0.0.1", 8080, "/ws", 1024);
  Recorder n;
  not_ws.feed(
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Accept: " +
          accept_for(not_ws.handshake_request()) + "\r\n\r\n",
      n);
  ASSERT_EQ(n.ended.size(), 1u);
  EXPECT_NE(n.ended[0].find("does not upgrade"), std::string::npos) << n.ended[0];
}

TEST_F(CodecTest, TextBothWaysMaskedAsWslaysServerSideRequires) {
  open();
  codec.queue_text(R"({"type":"hello","protocol":1})");
  codec.queue_text("");  // the empty line: a keep-alive
  const std::string frames = output();
  // A masked frame has the MASK bit in its second byte.
  ASSERT_GE(frames.size(), 2u);
  EXPECT_TRUE(static_cast<unsigned char>(frames[1]) & 0x80);
  EXPECT_EQ(frames.find("hello"), std::string::npos) << "the payload is masked";
  ASSERT_TRUE(server.read(frames));
  ASSERT_EQ(server.received().size(), 2u);
  EXPECT_EQ(server.received()[0].payload, R"({"type":"hello","protocol":1})");
  EXPECT_EQ(server.received()[1].payload, "");

  server.queue(WSLAY_TEXT_FRAME, "one");
  server.queue(WSLAY_TEXT_FRAME, "two");
  codec.feed(server.take(), sink);
  EXPECT_EQ(sink.messages, (std::vector<std::string>{"one", "two"}));
}

TEST_F(CodecTest, AFragmentedMessageArrivesWhole) {
  open();
  // FIN=0 text "frag", then FIN=1 continuation "ment", unmasked as a server sends.
  const std::string bytes =
      std::string("\x01\x04", 2) + "frag" + std::string("\x80\x04", 2) + "ment";
  codec.feed(bytes, sink);
  EXPECT_EQ(sink.messages, std::vector<std::string>{"fragment"});
}

TEST_F(CodecTest, PingsAreAnsweredWithPongsAndOurPingsGoOut) {
  open();
  server.queue(WSLAY_PING, "are you there");
  codec.feed(server.take(), sink);
  EXPECT_TRUE(sink.messages.empty());
  codec.queue_ping("and you");
  ASSERT_TRUE(server.read(output()));
  ASSERT_EQ(server.received().size(), 2u);
  EXPECT_EQ(server.received()[0].opcode, WSLAY_PONG);
  EXPECT_EQ(server.received()[0].payload, "are you there");
  EXPECT_EQ(server.received()[1].opcode, WSLAY_PING);
  EXPECT_EQ(server.received()[1].payload, "and you");
}

TEST_F(CodecTest, TheServersCloseIsReportedWithItsCodeAndAnswered) {
  open();
  server.queue(WSLAY_TEXT_FRAME, "bye soon");
  std::string bytes = server.take();  // (wslay sends a queued close before queued messages)
  server.queue_close(1000);
  bytes += server.take();
  codec.feed(bytes, sink);
  EXPECT_EQ(sink.messages, std::vector<std::string>{"bye soon"});
  ASSERT_EQ(sink.ended.size(), 1u);
  EXPECT_NE(sink.ended[0].find("code 1000"), std::string::npos) << sink.ended[0];
  EXPECT_TRUE(codec.ended());
  server.read(output());  // our answer
  ASSERT_EQ(server.received().size(), 1u);
  EXPECT_EQ(server.received()[0].opcode, WSLAY_CONNECTION_CLOSE);
  EXPECT_EQ(server.received()[0].close_code, 1000);
}

TEST_F(CodecTest, OurCloseGoesOutWithItsCode) {
  open();
  codec.queue_close(1000);
  server.read(output());
  ASSERT_EQ(server.received().size(), 1u);
  EXPECT_EQ(server.received()[0].opcode, WSLAY_CONNECTION_CLOSE);
  EXPECT_EQ(server.received()[0].close_code, 1000);
}

TEST_F(CodecTest, AMessageOverTheLimitOrABinaryOneEndsIt) {
  open();
  server.queue(WSLAY_TEXT_FRAME, std::string(2000, 'x'));
  codec.feed(server.take(), sink);
  EXPECT_TRUE(sink.messages.empty());
  ASSERT_EQ(sink.ended.size(), 1u);

  WebSocketCodec binary("127.0.0.1", 8080, "/ws", 1024);
  Recorder r;
  binary.feed(answer(accept_for(binary.handshake_request())), r);
  WslayServer s;
  s.queue(WSLAY_BINARY_FRAME, "\x01\x02");
  binary.feed(s.take(), r);
  ASSERT_EQ(r.ended.size(), 1u);
  EXPECT_NE(r.ended[0].find("binary"), std::string::npos);
  std::string out;
  binary.take_output(out);
  s.read(out);
  ASSERT_EQ(s.received().size(), 1u);
  EXPECT_EQ(s.received()[0].close_code, 1003);
}

TEST(Endpoint, ParsesWebSocketAndTcpAddresses) {
  std::string error;
  auto ws = Endpoint::parse("ws://127.0.0.1:8080/ws", error);
  ASSERT_TRUE(ws) << error;
  EXPECT_EQ(ws->host, "127.0.0.1");
  EXPECT_EQ(ws->port, 8080);
  EXPECT_EQ(ws->websocket_path, "/ws");
  EXPECT_EQ(ws->str(), "ws://127.0.0.1:8080/ws");
  auto bare = Endpoint::parse("ws://localhost:9000", error);
  ASSERT_TRUE(bare) << error;
  EXPECT_EQ(bare->websocket_path, "/ws");
  auto v6 = Endpoint::parse("ws://[::1]:8080/play", error);
  ASSERT_TRUE(v6) << error;
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->websocket_path, "/play");
  EXPECT_EQ(v6->str(), "ws://[::1]:8080/play");
  auto tcp = Endpoint::parse("tcp://10.0.0.1:7777", error);
  ASSERT_TRUE(tcp) << error;
  EXPECT_FALSE(tcp->websocket());
  EXPECT_EQ(tcp->str(), "10.0.0.1:7777");
  EXPECT_TRUE(Endpoint::parse("127.0.0.1:7777", error));
  for (const char* bad : {"wss://h:1/ws", "http://h:1/", "h", "h:0", "h:65536", "h:12x", ":80",
                          "tcp://h:1/path", "ws://[::1/ws"}) {
    error.clear();
    EXPECT_FALSE(Endpoint::parse(bad, error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

}  // namespace
}  // namespace eryantis::client
