#pragma once
// The HTTP/1.1 request side of the web listener, without a socket: llhttp plus
// the assembly of HttpRequest and the size limits. Bytes go in as they were read;
// each whole request goes to the sink, which may stop the parsing (the connection
// ends after its response). The HTTP server feeds it from its reads; the fuzz
// target fuzz_http_request feeds it arbitrary bytes.
#include <llhttp.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "eryantis/net/http_message.hpp"

namespace eryantis::net {

struct HttpRequestLimits {
  // The request line and headers together (url, names and values); past it: 431.
  std::size_t max_header_bytes = 16 * 1024;
  // A request body; past it: 413.
  std::size_t max_body_bytes = 16 * 1024;
};

class HttpRequestParser {
 public:
  class Sink {
   public:
    virtual ~Sink() = default;
    // A whole request that is not an upgrade (feed reports those). Returning
    // false stops the parsing: nothing after this request is read.
    virtual bool on_request(const HttpRequest& request) = 0;
  };

  enum class Outcome {
    more,     // every byte was taken; the next request (or the rest of this one) may follow
    upgrade,  // a whole upgrade request: the bytes from `used` on are the new protocol's
    stopped,  // the sink stopped the parsing
    refused,  // not HTTP, or past a limit: answer `status` and close
  };
  struct Fed {
    Outcome outcome = Outcome::more;
    std::size_t used = 0;  // for `upgrade`: the bytes of this feed the request took
    int status = 0;        // for `refused`: 400, 413 or 431
  };

  explicit HttpRequestParser(HttpRequestLimits limits);
  // llhttp keeps a pointer to this parser: it stays where it was made.
  HttpRequestParser(const HttpRequestParser&) = delete;
  HttpRequestParser& operator=(const HttpRequestParser&) = delete;

  // Once feed returned anything but `more`, the parser takes no more bytes.
  Fed feed(std::string_view bytes, Sink& sink);

  // The request being parsed, or the last whole one.
  const HttpRequest& request() const { return request_; }
  bool request_done() const { return request_done_; }
  // Some bytes of a request arrived and it is not whole yet (a slow client).
  bool request_started() const { return header_bytes_ > 0 && !request_done_; }
  // The last request asks the connection to stay open (HTTP/1.1 without
  // "Connection: close", and not an upgrade).
  bool keep_alive() const;
  bool upgrade() const;

 private:
  friend struct HttpParserCallbacks;

  bool over_header_limit(std::size_t length);
  void end_header();

  llhttp_t parser_{};
  HttpRequestLimits limits_;
  Sink* sink_ = nullptr;  // during feed only
  HttpRequest request_;
  std::string header_field_;
  std::string header_value_;
  bool in_value_ = false;
  std::size_t header_bytes_ = 0;
  std::size_t body_bytes_ = 0;
  int reject_status_ = 0;  // a limit was passed: answered with this status
  bool request_done_ = false;
};

}  // namespace eryantis::net
