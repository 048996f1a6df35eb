#include "eryantis/net/http_request_parser.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eryantis/net/websocket_handshake.hpp"

namespace eryantis::net {
namespace {

using Outcome = HttpRequestParser::Outcome;

struct Requests final : HttpRequestParser::Sink {
  std::vector<HttpRequest> seen;
  std::size_t stop_after = 100;
  bool on_request(const HttpRequest& request) override {
    seen.push_back(request);
    return seen.size() < stop_after;
  }
};

constexpr HttpRequestLimits kLimits{256, 32};

TEST(HttpRequestParser, AssemblesPipelinedRequestsInAnyPieces) {
  const std::string bytes =
      "GET /api/matches?limit=2 HTTP/1.1\r\nHost: a\r\nX-Long: one,\r\n two\r\n\r\n"
      "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
      "HEAD / HTTP/1.0\r\n\r\n";
  for (std::size_t piece : {bytes.size(), std::size_t{1}, std::size_t{4}}) {
    SCOPED_TRACE("piece " + std::to_string(piece));
    HttpRequestParser parser(kLimits);
    Requests sink;
    for (std::size_t at = 0; at < bytes.size(); at += piece)
      ASSERT_EQ(parser.feed(std::string_view(bytes).substr(at, piece), sink).outcome,
                Outcome::more);
    ASSERT_EQ(sink.seen.size(), 3u);
    EXPECT_EQ(sink.seen[0].method, "GET");
    EXPECT_EQ(sink.seen[0].path, "/api/matches");
    EXPECT_EQ(sink.seen[0].query, "limit=2");
    ASSERT_NE(sink.seen[0].header("host"), nullptr);
    EXPECT_EQ(*sink.seen[0].header("host"), "a");
    EXPECT_EQ(sink.seen[1].method, "POST");
    EXPECT_EQ(sink.seen[2].method, "HEAD");
    EXPECT_FALSE(parser.keep_alive());  // HTTP/1.0
    EXPECT_FALSE(parser.request_started());
  }
}

TEST(HttpRequestParser, RefusesPastTheLimitsAndMalformedRequests) {
  Requests sink;
  HttpRequestParser headers(kLimits);
  const auto big = headers.feed("GET / HTTP/1.1\r\nX: " + std::string(300, 'a') + "\r\n\r\n", sink);
  EXPECT_EQ(big.outcome, Outcome::refused);
  EXPECT_EQ(big.status, 431);

  HttpRequestParser body(kLimits);
  const auto long_body =
      body.feed("POST / HTTP/1.1\r\nContent-Length: 40\r\n\r\n" + std::string(40, 'b'), sink);
  EXPECT_EQ(long_body.outcome, Outcome::refused);
  EXPECT_EQ(long_body.status, 413);

  HttpRequestParser garbage(kLimits);
  const auto bad = garbage.feed("\x16\x03\x01 hello\r\n\r\n", sink);
  EXPECT_EQ(bad.outcome, Outcome::refused);
  EXPECT_EQ(bad.status, 400);
  EXPECT_TRUE(sink.seen.empty());
}

TEST(HttpRequestParser, StopsWhenTheSinkSaysSoAndReportsUpgrades) {
  Requests sink;
  sink.stop_after = 1;
  HttpRequestParser parser(kLimits);
  EXPECT_EQ(parser.feed("GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n", sink).outcome,
            Outcome::stopped);
  EXPECT_EQ(sink.seen.size(), 1u);

  const std::string upgrade =
      "GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
  HttpRequestParser ws(kLimits);
  Requests none;
  const auto fed = ws.feed(upgrade + "\x81\x80", none);
  EXPECT_EQ(fed.outcome, Outcome::upgrade);
  EXPECT_EQ(fed.used, upgrade.size());  // the frame bytes are left for the WebSocket
  EXPECT_TRUE(none.seen.empty());       // upgrades are answered by the caller
  EXPECT_TRUE(ws.upgrade());
  EXPECT_FALSE(ws.keep_alive());
  EXPECT_EQ(check_upgrade_request(ws.request()), UpgradeCheck::ok);
}

TEST(WebSocketHandshake, ChecksTheRequestAndComputesTheAcceptKey) {
  HttpRequest request;
  request.method = "GET";
  request.headers = {{"upgrade", "WebSocket"},
                     {"connection", "keep-alive, Upgrade"},
                     {"sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ=="},
                     {"sec-websocket-version", "13"}};
  EXPECT_EQ(check_upgrade_request(request), UpgradeCheck::ok);
  // RFC 6455 §1.3's example.
  EXPECT_EQ(websocket_accept("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");

  HttpRequest old = request;
  old.headers[3].second = "8";
  EXPECT_EQ(check_upgrade_request(old), UpgradeCheck::bad_version);
  HttpRequest short_key = request;
  short_key.headers[2].second = "c2hvcnQ=";
  EXPECT_EQ(check_upgrade_request(short_key), UpgradeCheck::not_websocket);
  HttpRequest post = request;
  post.method = "POST";
  EXPECT_EQ(check_upgrade_request(post), UpgradeCheck::not_websocket);
  HttpRequest no_upgrade = request;
  no_upgrade.headers[1].second = "keep-alive";
  EXPECT_EQ(check_upgrade_request(no_upgrade), UpgradeCheck::not_websocket);
}

}  // namespace
}  // namespace eryantis::net
