// Which first lines are HTTP (and close a game connection), and that no protocol
// line ever is.
#include "eryantis/net/foreign_protocol.hpp"

#include <gtest/gtest.h>

#include <string>

namespace eryantis::net {
namespace {

TEST(ForeignProtocol, RequestAndHeaderLinesAreHttp) {
  for (const char* line :
       {"POST / HTTP/1.1", "GET / HTTP/1.0", "GET /ws HTTP/1.1", "PUT /a?b=c HTTP/1.1", "x /",
        "post /", "OPTIONS * HTTP/1.1", "GET http://127.0.0.1:7777/ HTTP/1.1",
        "GET https://h/ HTTP/1.1", "Host: 127.0.0.1:7777", "host:127.0.0.1", "Content-Length: 3",
        "Origin: https://evil.example", "sec-ch-ua-mobile: ?0", "X-A:"}) {
    EXPECT_TRUE(looks_like_http(line)) << line;
  }
}

TEST(ForeignProtocol, ProtocolLinesAndOtherTextAreNot) {
  for (const char* line : {"",
                           "{\"type\":\"hello\",\"protocol\":1}",
                           " {\"type\":\"ping\"}",
                           "\t{}",
                           "[1,2]",
                           "42",
                           "\"ping\"",
                           "hello",
                           "hello world",
                           "this is not json",
                           "GET",
                           "GET ",
                           "GET  /",
                           "GET x",
                           "GET ://x",
                           ": value",
                           " Host: x",
                           "Ho st: x",
                           "{\"Host\": 1}",
                           "POST\t/ HTTP/1.1"}) {
    EXPECT_FALSE(looks_like_http(line)) << line;
  }
}

// Every byte that can start a JSON text (RFC 8259: whitespace, then a value; a
// request is an object) is outside the token set, so no line the protocol could
// accept is ever taken for HTTP.
TEST(ForeignProtocol, NoLineStartingLikeJsonIsHttp) {
  for (const char first : std::string(" \t\r{[\"")) {
    const std::string line = std::string(1, first) + "GET / HTTP/1.1";
    EXPECT_FALSE(looks_like_http(line)) << line;
  }
}

}  // namespace
}  // namespace eryantis::net
