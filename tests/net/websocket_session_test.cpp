#include "eryantis/net/websocket_session.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace eryantis::net {
namespace {

constexpr std::size_t kMaxMessageBytes = 64;

// A client frame (RFC 6455 §5.2): masked, as a browser sends it.
std::string client_frame(int opcode, std::string_view payload, bool fin = true) {
  static constexpr std::uint8_t kMask[4] = {0x37, 0xfa, 0x21, 0x3d};
  std::string frame;
  frame += static_cast<char>((fin ? 0x80 : 0) | opcode);
  if (payload.size() < 126) {
    frame += static_cast<char>(0x80 | payload.size());
  } else {
    frame += static_cast<char>(0x80 | 126);
    frame += static_cast<char>(payload.size() >> 8);
    frame += static_cast<char>(payload.size() & 0xFF);
  }
  for (std::uint8_t m : kMask) frame += static_cast<char>(m);
  for (std::size_t i = 0; i < payload.size(); ++i)
    frame += static_cast<char>(static_cast<std::uint8_t>(payload[i]) ^ kMask[i % 4]);
  return frame;
}

std::string close_payload(std::uint16_t code, std::string_view reason = {}) {
  std::string payload;
  payload += static_cast<char>(code >> 8);
  payload += static_cast<char>(code & 0xFF);
  payload += reason;
  return payload;
}

// Records what the session delivers and writes; the session as the server drives
// it: feed, send, and once finished nothing more is read.
struct Peer final : WebSocketSession::Sink {
  std::vector<std::string> messages;
  std::string written;
  bool is_open = true;
  bool open() const override { return is_open; }
  void on_text(std::string_view message) override { messages.emplace_back(message); }
  void write(std::string_view bytes) override { written.append(bytes); }

  // The status code of the close frame written, or 0 when there is none.
  int close_code() const {
    for (std::size_t at = 0; at + 2 <= written.size();) {
      const auto opcode = static_cast<std::uint8_t>(written[at]) & 0x0F;
      const std::size_t length = static_cast<std::uint8_t>(written[at + 1]) & 0x7F;
      if (opcode == 0x8)
        return length < 2 ? 1005
                          : (static_cast<std::uint8_t>(written[at + 2]) << 8) |
                                static_cast<std::uint8_t>(written[at + 3]);
      at += 2 + length;
    }
    return 0;
  }
};

// Feeds `bytes` in pieces of `piece` bytes (0: all at once).
Peer run(std::string_view bytes, std::size_t piece = 0) {
  Peer peer;
  auto session = WebSocketSession::create(peer, kMaxMessageBytes);
  EXPECT_NE(session, nullptr);
  if (piece == 0) piece = bytes.size();
  for (std::size_t at = 0; at < bytes.size() && peer.is_open; at += piece) {
    session->feed(bytes.substr(at, piece));
    EXPECT_TRUE(session->send());
    if (session->finished()) peer.is_open = false;
  }
  return peer;
}

TEST(WebSocketSession, DeliversTextMessagesWholeOrFragmentedAndAnswersPings) {
  const std::string bytes = client_frame(1, R"({"type":"ping","id":1})") +
                            client_frame(1, R"({"type":)", false) + client_frame(9, "hi") +
                            client_frame(0, R"("sync"})");
  for (std::size_t piece : {0, 1, 3, 7}) {
    SCOPED_TRACE("piece " + std::to_string(piece));
    const Peer peer = run(bytes, piece);
    EXPECT_EQ(peer.messages,
              (std::vector<std::string>{R"({"type":"ping","id":1})", R"({"type":"sync"})"}));
    EXPECT_EQ(peer.written, std::string("\x8a\x02hi"));  // the pong, unmasked
    EXPECT_EQ(peer.close_code(), 0);
  }
}

TEST(WebSocketSession, RefusesBinaryTooBigAndNonUtf8Messages) {
  EXPECT_EQ(run(client_frame(2, "\x01\x02")).close_code(), 1003);
  EXPECT_EQ(run(client_frame(1, std::string(kMaxMessageBytes + 1, 'x'))).close_code(), 1009);
  EXPECT_EQ(run(client_frame(1, "caf\xc3")).close_code(), 1007);
  const Peer unmasked = run(std::string("\x81\x02hi", 4));
  EXPECT_EQ(unmasked.close_code(), 1002);
  EXPECT_TRUE(unmasked.messages.empty());
}

// Found by fuzz_ws_frames: text messages read after a binary one in the same read
// reached the server although its close (1003) was already queued; in a later
// read they were dropped.
TEST(WebSocketSession, DropsWhatFollowsARefusedBinaryMessageInTheSameRead) {
  const std::string bytes = client_frame(2, "\x00", true) + client_frame(1, R"({"type":"ping"})") +
                            client_frame(1, R"({"type":"sync"})");
  for (std::size_t piece : {0, 3}) {
    SCOPED_TRACE("piece " + std::to_string(piece));
    const Peer peer = run(bytes, piece);
    EXPECT_TRUE(peer.messages.empty());
    EXPECT_EQ(peer.close_code(), 1003);
  }
}

// Found by fuzz_ws_frames: wslay 1.1.1 checks a close reason's UTF-8 from the third
// byte of each piece a read brings, so a reason that is not UTF-8, split across
// reads, was echoed back in our close frame instead of being refused with 1007.
TEST(WebSocketSession, RefusesANonUtf8CloseReasonHoweverItIsSplit) {
  const std::string bytes =
      client_frame(1, "hello") + client_frame(8, close_payload(1000, "b\xbc\x8d"));
  for (std::size_t piece : {0, 1, 2, 3, 5, 7, 11, 13}) {
    SCOPED_TRACE("piece " + std::to_string(piece));
    const Peer peer = run(bytes, piece);
    EXPECT_EQ(peer.messages, std::vector<std::string>{"hello"});
    EXPECT_EQ(peer.close_code(), 1007);
    EXPECT_EQ(peer.written.find("\xbc"), std::string::npos);
  }
  // A valid reason is echoed, also split.
  const std::string good = client_frame(8, close_payload(1000, "bye"));
  for (std::size_t piece : {0, 1, 3}) {
    const Peer peer = run(good, piece);
    EXPECT_EQ(peer.close_code(), 1000);
    EXPECT_NE(peer.written.find("bye"), std::string::npos);
  }
}

// A header wslay refuses (reserved bits, a 64-bit length with its top bit set)
// is refused as soon as it arrives, even before the mask: nothing is held for it.
TEST(WebSocketSession, RefusesABadHeaderBeforeItIsWhole) {
  const Peer peer = run(std::string(12, '\xff'));
  EXPECT_FALSE(peer.is_open);
  EXPECT_NE(peer.close_code(), 0);
}

// The headers wslay's frame layer would answer with a close without a status code
// (1005 for the client) get 1002 with a reason, the same bytes back however the
// input is split, and the message before them is delivered.
TEST(WebSocketSession, FrameLayerErrorsCloseWith1002HoweverTheInputIsSplit) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"64-bit length, top bit set",
       std::string("\x81\xff\x80\x00\x00\x00\x00\x00\x00\x05\x01\x02\x03\x04", 14)},
      {"64-bit length below 65536",
       std::string("\x81\xff\x00\x00\x00\x00\x00\x00\x00\x7e\x01\x02\x03\x04", 14)},
      {"16-bit length below 126", std::string("\x81\xfe\x00\x7d\x01\x02\x03\x04", 8)},
      {"close with a 1-byte payload", client_frame(8, "\x03")},
      {"fragmented ping", client_frame(9, "x", false)},
      {"control frame over 125 bytes", client_frame(10, std::string(126, 'p'))},
  };
  for (const auto& [name, bad] : cases) {
    SCOPED_TRACE(name);
    const std::string bytes = client_frame(1, "hello") + bad + client_frame(1, "after");
    const Peer whole = run(bytes);
    EXPECT_EQ(whole.messages, std::vector<std::string>{"hello"});
    EXPECT_EQ(whole.close_code(), 1002);
    EXPECT_FALSE(whole.is_open);
    for (std::size_t piece = 1; piece < bytes.size(); ++piece) {
      const Peer split = run(bytes, piece);
      EXPECT_EQ(split.messages, whole.messages) << "piece " << piece;
      EXPECT_EQ(split.written, whole.written) << "piece " << piece;
    }
  }
}

TEST(WebSocketSession, HoldsOnlyWhatACutControlFrameNeeds) {
  // A long text message split everywhere still arrives whole, and a ping cut
  // after its header is answered once its payload comes.
  const std::string text(60, 'a');
  const std::string bytes = client_frame(1, text) + client_frame(9, "0123456789");
  for (std::size_t cut = 0; cut <= bytes.size(); ++cut) {
    Peer peer;
    auto session = WebSocketSession::create(peer, kMaxMessageBytes);
    ASSERT_NE(session, nullptr);
    session->feed(std::string_view(bytes).substr(0, cut));
    ASSERT_TRUE(session->send());
    session->feed(std::string_view(bytes).substr(cut));
    ASSERT_TRUE(session->send());
    EXPECT_EQ(peer.messages, std::vector<std::string>{text}) << "cut at " << cut;
    EXPECT_EQ(peer.written, std::string("\x8a\x0a") + "0123456789") << "cut at " << cut;
  }
}

TEST(WebSocketSession, QueuedTextGoesOutAsOneUnmaskedFrame) {
  Peer peer;
  auto session = WebSocketSession::create(peer, kMaxMessageBytes);
  ASSERT_NE(session, nullptr);
  ASSERT_TRUE(session->queue_text(R"({"type":"pong"})"));
  ASSERT_TRUE(session->send());
  EXPECT_EQ(peer.written, std::string("\x81\x0f") + R"({"type":"pong"})");
  EXPECT_FALSE(session->finished());
  session->queue_close(1000);
  ASSERT_TRUE(session->send());
  EXPECT_TRUE(session->finished());
  EXPECT_FALSE(session->queue_text("late"));
}

}  // namespace
}  // namespace eryantis::net
