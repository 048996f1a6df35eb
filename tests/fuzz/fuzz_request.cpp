// Target (a): arbitrary bytes from a socket -> the line framer -> the request decoder.
// The same bytes are framed twice, whole and in small pieces: the lines (and the
// too-long notices) must be identical, none may hold a '\n' or exceed the limit, and
// decoding any line must return (a request or an error), never crash.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"

namespace {

using namespace eryantis;

// Small, so that the corpus reaches the too-long path; the server's default is 64 KiB.
constexpr std::size_t kMaxLineBytes = 256;
constexpr std::size_t kPieceBytes = 7;

class Collect : public net::LineSplitter::Sink {
 public:
  explicit Collect(bool decode) : decode_(decode) {}
  void on_line(std::string_view line) override {
    if (line.find('\n') != std::string_view::npos) fuzz::fail("a framed line holds a newline");
    if (line.size() > kMaxLineBytes) fuzz::fail("a framed line is longer than the limit");
    events.emplace_back(line);
    if (decode_) {
      auto request = fuzz::decode_request(line);
      if (!request && request.error().message.empty())
        fuzz::fail("a refused request has no message", line);
    }
  }
  void on_too_long() override { events.emplace_back("\x01(too long)"); }

  std::vector<std::string> events;

 private:
  bool decode_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);

  net::LineSplitter whole_splitter(kMaxLineBytes);
  Collect whole(true);
  whole_splitter.feed(bytes, whole);

  net::LineSplitter piece_splitter(kMaxLineBytes);
  Collect pieces(false);
  for (std::size_t at = 0; at < bytes.size(); at += kPieceBytes)
    piece_splitter.feed(bytes.substr(at, kPieceBytes), pieces);

  if (whole.events != pieces.events) fuzz::fail("framing depends on how the bytes were split");
  if (whole_splitter.buffered_bytes() != piece_splitter.buffered_bytes())
    fuzz::fail("the unfinished line depends on how the bytes were split");
  if (whole_splitter.buffered_bytes() > kMaxLineBytes + 1)
    fuzz::fail("the framer holds more than one line's worth of bytes");
  return 0;
}
