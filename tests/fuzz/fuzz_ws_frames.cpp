// Target (w): arbitrary bytes as a client's WebSocket frames after the handshake ->
// the web listener's session (wslay's reader, the message assembly, the message
// limit, the refusal of binary messages), as net::HttpServer drives it: each read
// is fed, then what the session queued is written, and a finished session reads
// nothing more.
// The same bytes are fed twice, whole and in small pieces: the messages, the
// frames written back (but pongs, see frames_but_pongs) and the end must be identical. Every
// message must fit the limit and be UTF-8 (the protocol is JSON text), and everything written back
// must be unmasked server frames.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"

namespace {

using namespace eryantis;

// Small, so that the corpus reaches the too-big path; the server's default is 64 KiB.
constexpr std::size_t kMaxMessageBytes = 512;
constexpr std::size_t kPieceBytes = 3;

// RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF.
bool valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(text[at]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    std::uint32_t code = 0;
    if (lead < 0x80) {
      ++i;
      continue;
    }
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
      code = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      code = lead & 0x0F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      code = lead & 0x07;
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k) {
      if ((byte(i + k) & 0xC0) != 0x80) return false;
      code = (code << 6) | (byte(i + k) & 0x3F);
    }
    if ((length == 3 && code < 0x800) || (length == 4 && code < 0x10000) || code > 0x10FFFF ||
        (code >= 0xD800 && code <= 0xDFFF))
      return false;
    i += length;
  }
  return true;
}

class Collect final : public fuzz::WebSocketSession::Sink {
 public:
  bool open() const override { return open_; }
  void on_text(std::string_view message) override {
    if (message.size() > kMaxMessageBytes) fuzz::fail("a message passed the limit");
    if (!valid_utf8(message)) fuzz::fail("a text message is not UTF-8", message);
    messages.emplace_back(message);
  }
  void write(std::string_view bytes) override { written.append(bytes); }

  void close() { open_ = false; }
  std::vector<std::string> messages;
  std::string written;

 private:
  bool open_ = true;
};

// The frames the session wrote: each must be a whole, unmasked frame. Returns
// them without the pongs: wslay sends a close queued in the same read before the
// pongs queued earlier (and nothing after it), so whether a ping is answered
// before a close depends on how the bytes were split.
std::vector<std::string> frames_but_pongs(std::string_view bytes) {
  std::vector<std::string> frames;
  while (!bytes.empty()) {
    if (bytes.size() < 2) fuzz::fail("a frame written back is cut short");
    const auto at = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
    if ((at(1) & 0x80) != 0) fuzz::fail("the server masked a frame");
    const unsigned opcode = at(0) & 0x0F;
    if (opcode != 0x1 && opcode != 0x8 && opcode != 0xA)
      fuzz::fail("the server wrote a frame that is not text, close or pong");
    std::size_t header = 2;
    std::uint64_t length = at(1) & 0x7F;
    if (length == 126 || length == 127) {
      const std::size_t extra = length == 126 ? 2 : 8;
      if (bytes.size() < 2 + extra) fuzz::fail("a frame header written back is cut short");
      length = 0;
      for (std::size_t i = 0; i < extra; ++i) length = (length << 8) | at(2 + i);
      header += extra;
    }
    if (opcode >= 0x8 && length > 125) fuzz::fail("a control frame written back is too long");
    if (bytes.size() - header < length) fuzz::fail("a frame payload written back is cut short");
    const std::size_t size = header + static_cast<std::size_t>(length);
    if (opcode != 0xA) frames.emplace_back(bytes.substr(0, size));
    bytes.remove_prefix(size);
  }
  return frames;
}

struct Run {
  std::vector<std::string> messages;
  std::vector<std::string> written;  // but the pongs
  bool finished = false;
};

Run run(std::string_view bytes, std::size_t piece) {
  Collect sink;
  auto session = fuzz::WebSocketSession::create(sink, kMaxMessageBytes);
  if (session == nullptr) fuzz::fail("no session (out of memory)");
  Run result;
  for (std::size_t at = 0; at < bytes.size() && !result.finished; at += piece) {
    session->feed(bytes.substr(at, piece));
    if (!session->send()) break;
    // The server stops reading once its close is out (begin_close).
    result.finished = session->finished();
    if (result.finished) sink.close();
  }
  result.messages = std::move(sink.messages);
  result.written = frames_but_pongs(sink.written);
  return result;
}

std::string hex(const std::vector<std::string>& frames) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const std::string& frame : frames) {
    for (unsigned char c : frame) {
      out += kDigits[c >> 4];
      out += kDigits[c & 0xF];
      out += ' ';
    }
    out += "| ";
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const Run whole = run(bytes, bytes.empty() ? 1 : bytes.size());
  const Run pieces = run(bytes, kPieceBytes);
  if (whole.messages != pieces.messages)
    fuzz::fail("the messages depend on how the bytes were split");
  if (whole.written != pieces.written)
    fuzz::fail("the frames written back depend on how the bytes were split",
               hex(whole.written) + "\n" + hex(pieces.written));
  if (whole.finished != pieces.finished) fuzz::fail("the end depends on how the bytes were split");
  return 0;
}
