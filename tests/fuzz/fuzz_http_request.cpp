// Target (h): arbitrary bytes from a browser's socket -> the web listener's request
// parser (llhttp, the request assembly, the header and body limits) -> the path
// decoder and the WebSocket handshake checks, as net::HttpServer runs them.
// The same bytes are fed twice, whole and in small pieces: the requests and the
// outcome (more, upgrade at the same byte, refused) must be identical. Every request must respect
// the limits, have lower-case header names and a path and query that split its target; every
// decoded path must be safe to join to the static folder; every accepted upgrade must have a key to
// answer.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"

namespace {

using namespace eryantis;

// Small, so that the corpus reaches both limits; the server's defaults are 16 KiB.
constexpr std::size_t kMaxHeaderBytes = 512;
constexpr std::size_t kMaxBodyBytes = 256;
constexpr std::size_t kPieceBytes = 5;
// Like the server, which answers each request and reads on (pipelining).
constexpr std::size_t kMaxRequests = 64;

std::string describe(const net::HttpRequest& request) {
  std::string out = request.method + " " + request.target + "\n";
  for (const auto& [name, value] : request.headers)
    out.append(name).append(": ").append(value) += '\n';
  return out;
}

void check_request(const net::HttpRequest& request) {
  std::size_t header_bytes = request.target.size();
  for (const auto& [name, value] : request.headers) {
    header_bytes += name.size() + value.size();
    for (char c : name)
      if (std::isupper(static_cast<unsigned char>(c)) != 0)
        fuzz::fail("a header name is not lower-cased", describe(request));
  }
  if (header_bytes > kMaxHeaderBytes)
    fuzz::fail("a request passed the header limit", describe(request));
  if (request.method.empty()) fuzz::fail("a request has no method", describe(request));
  const std::string joined = request.query.empty() && request.target.find('?') == std::string::npos
                                 ? request.path
                                 : request.path + "?" + request.query;
  if (joined != request.target)
    fuzz::fail("path and query do not split the target", describe(request));
  if (request.path.find('?') != std::string::npos)
    fuzz::fail("a path holds a '?'", describe(request));

  if (const auto decoded = fuzz::decode_request_path(request.path)) {
    if (decoded->empty() || decoded->front() != '/')
      fuzz::fail("a decoded path is not absolute", *decoded);
    if (decoded->find('\0') != std::string::npos || decoded->find('\\') != std::string::npos)
      fuzz::fail("a decoded path holds a NUL or a backslash", *decoded);
    std::size_t start = 1;
    while (start <= decoded->size()) {
      std::size_t end = decoded->find('/', start);
      if (end == std::string::npos) end = decoded->size();
      const std::string_view segment = std::string_view(*decoded).substr(start, end - start);
      if (segment == "." || segment == "..")
        fuzz::fail("a decoded path holds a dot segment", *decoded);
      start = end + 1;
    }
  }
  if (fuzz::check_upgrade_request(request) == net::UpgradeCheck::ok) {
    const std::string* key = request.header("sec-websocket-key");
    if (key == nullptr || key->size() != 24)
      fuzz::fail("an accepted upgrade has no valid key", describe(request));
    if (fuzz::websocket_accept(*key).size() != 28)
      fuzz::fail("an accept key is not 28 characters", *key);
  }
}

class Collect final : public fuzz::HttpRequestParser::Sink {
 public:
  bool on_request(const net::HttpRequest& request) override {
    check_request(request);
    requests.push_back(describe(request));
    return requests.size() < kMaxRequests;
  }
  std::vector<std::string> requests;
};

struct Run {
  std::vector<std::string> requests;
  fuzz::HttpRequestParser::Outcome outcome = fuzz::HttpRequestParser::Outcome::more;
  std::size_t upgrade_at = 0;  // offset of the first byte after an upgrade request
  int status = 0;
};

Run run(std::string_view bytes, std::size_t piece) {
  fuzz::HttpRequestParser parser({kMaxHeaderBytes, kMaxBodyBytes});
  Collect sink;
  Run result;
  for (std::size_t at = 0; at < bytes.size(); at += piece) {
    const std::string_view chunk = bytes.substr(at, piece);
    const auto fed = parser.feed(chunk, sink);
    result.outcome = fed.outcome;
    if (fed.outcome == fuzz::HttpRequestParser::Outcome::more) continue;
    if (fed.outcome == fuzz::HttpRequestParser::Outcome::upgrade) {
      if (fed.used > chunk.size()) fuzz::fail("an upgrade used more bytes than it was given");
      if (!parser.request_done() || !parser.upgrade())
        fuzz::fail("an upgrade without a whole upgrade request");
      if (parser.keep_alive()) fuzz::fail("an upgrade is kept alive as HTTP");
      check_request(parser.request());
      result.requests.push_back(describe(parser.request()));
      result.upgrade_at = at + fed.used;
    }
    if (fed.outcome == fuzz::HttpRequestParser::Outcome::refused) {
      result.status = fed.status;
      if (fed.status != 400 && fed.status != 413 && fed.status != 431)
        fuzz::fail("a refusal with an unexpected status", std::to_string(fed.status));
    }
    break;
  }
  result.requests.insert(result.requests.begin(), sink.requests.begin(), sink.requests.end());
  return result;
}

std::string summary(const Run& run) {
  return "outcome " + std::to_string(static_cast<int>(run.outcome)) + ", status " +
         std::to_string(run.status) + ", upgrade at " + std::to_string(run.upgrade_at) + ", " +
         std::to_string(run.requests.size()) + " requests\n";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const Run whole = run(bytes, bytes.empty() ? 1 : bytes.size());
  const Run pieces = run(bytes, kPieceBytes);
  if (whole.requests != pieces.requests)
    fuzz::fail("the requests depend on how the bytes were split");
  // A limit is checked where llhttp reports a span: at the end of each piece, or
  // only at the end of the field when it all came at once. So a malformed request
  // past a limit may be refused as malformed (400) in one reading and as too
  // large (413, 431) in the other; any other difference is a bug.
  const bool same_status =
      whole.status == pieces.status || whole.status == 400 || pieces.status == 400;
  if (whole.outcome != pieces.outcome || !same_status || whole.upgrade_at != pieces.upgrade_at)
    fuzz::fail("the outcome depends on how the bytes were split", summary(whole) + summary(pieces));
  return 0;
}
