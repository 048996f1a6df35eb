// A cluster node's `redirect` (docs/cluster.md): read from its line, turned into
// where a TCP or a WebSocket client goes, and the count of hops in a row.
#include "eryantis/client/redirect.hpp"

#include <gtest/gtest.h>

namespace eryantis::client {
namespace {

ServerMessage redirect(const std::string& line) {
  auto m = parse_server_message(line);
  EXPECT_TRUE(m) << line;
  return m ? *m : ServerMessage{};
}

TEST(Redirect, EveryFieldIsRead) {
  const auto m = redirect(
      R"({"type":"redirect","id":4,"address":"127.0.0.1:7002","web":"ws://127.0.0.1:8002/ws","match":12,"reason":"node b serves it"})");
  EXPECT_EQ(m.type, MessageType::Redirect);
  EXPECT_EQ(message_type_name(m.type), "redirect");
  EXPECT_EQ(m.id, "4");
  EXPECT_EQ(m.address, "127.0.0.1:7002");
  EXPECT_EQ(m.web, "ws://127.0.0.1:8002/ws");
  EXPECT_EQ(m.match, 12);
  EXPECT_EQ(m.reason, "node b serves it");
  const auto no_web = redirect(R"({"type":"redirect","address":"127.0.0.1:7002","web":null})");
  EXPECT_FALSE(no_web.web.has_value());
  EXPECT_FALSE(no_web.match.has_value());
}

TEST(Redirect, EachTransportGoesToItsOwnAddress) {
  const auto m = redirect(
      R"({"type":"redirect","address":"127.0.0.1:7002","web":"ws://127.0.0.1:8002/play","match":3})");
  auto tcp = redirect_endpoint(m, false);
  ASSERT_TRUE(tcp) << tcp.error();
  EXPECT_EQ(tcp->host, "127.0.0.1");
  EXPECT_EQ(tcp->port, 7002);
  EXPECT_FALSE(tcp->websocket());
  EXPECT_EQ(redirect_text(m, *tcp), "match 3 is served by 127.0.0.1:7002");
  auto ws = redirect_endpoint(m, true);
  ASSERT_TRUE(ws) << ws.error();
  EXPECT_EQ(ws->port, 8002);
  EXPECT_EQ(ws->websocket_path, "/play");

  auto v6 = redirect_endpoint(redirect(R"({"type":"redirect","address":"[::1]:7003"})"), false);
  ASSERT_TRUE(v6) << v6.error();
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, 7003);
}

TEST(Redirect, AnAddressThatCannotBeReachedIsAnError) {
  struct Case {
    const char* line;
    bool websocket;
    const char* says;
  };
  const Case cases[] = {
      {R"({"type":"redirect","match":1})", false, "no address"},
      {R"({"type":"redirect","address":"","match":1})", false, "no address"},
      {R"({"type":"redirect","address":"node-b","match":1})", false, "needs a port"},
      {R"({"type":"redirect","address":"127.0.0.1:99999"})", false, "between 1 and 65535"},
      {R"({"type":"redirect","address":"ws://127.0.0.1:8002/ws"})", false, "TCP host:port"},
      {R"({"type":"redirect","address":"127.0.0.1:7002","web":null})", true, "no WebSocket"},
      {R"({"type":"redirect","address":"127.0.0.1:7002","web":"wss://x:1/ws"})", true,
       "only ws://"},
      {R"({"type":"redirect","web":"127.0.0.1:8002"})", true, "not a ws://"},
  };
  for (const auto& c : cases) {
    auto e = redirect_endpoint(redirect(c.line), c.websocket);
    ASSERT_FALSE(e) << c.line;
    EXPECT_NE(e.error().find(c.says), std::string::npos) << c.line << ": " << e.error();
  }
}

TEST(Redirect, AtMostThreeHopsInARow) {
  RedirectHops hops;
  EXPECT_TRUE(hops.follow());
  EXPECT_TRUE(hops.follow());
  EXPECT_TRUE(hops.follow());
  EXPECT_FALSE(hops.follow());  // the 4th
  EXPECT_EQ(hops.hops(), 4);
  hops.reset();
  EXPECT_TRUE(hops.follow());
  EXPECT_EQ(hops.hops(), 1);
}

}  // namespace
}  // namespace eryantis::client
