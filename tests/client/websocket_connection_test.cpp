// LineConnection over a WebSocket: against the net layer's HttpServer on one loop
// (lines both ways, closes both ways, a refused upgrade), and against the real
// eryantis-server's web listener: the client library logs in, and eryantis-bot
// plays a whole match over WebSocket.
#include <gtest/gtest.h>

#include "eryantis/json/json.hpp"

#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "eryantis/client/connection.hpp"
#include "eryantis/net/http_server.hpp"
#include "support/child_process.hpp"
#include "support/polling.hpp"
#include "support/server_process.hpp"
#include "support/temp_dir.hpp"

namespace eryantis::client {
namespace {

// Echoes every line; "bye" closes the connection (close code 1000).
struct Echo : transport::ConnectionEvents {
  net::HttpServer* web = nullptr;
  int opened = 0;
  int closed = 0;
  void on_open(transport::ConnectionId, std::string_view) override { ++opened; }
  void on_line(transport::ConnectionId id, std::string_view line) override {
    if (line == "bye")
      web->close(id);
    else
      web->send(id, "echo " + std::string(line));
  }
  void on_line_too_long(transport::ConnectionId) override {}
  void on_closed(transport::ConnectionId) override { ++closed; }
};

struct Recorder : LineConnection::Handler {
  std::vector<std::string> lines;
  std::vector<std::string> closed;
  int connected = 0;
  std::function<void()> after_line;
  void on_connected() override { ++connected; }
  void on_line(std::string_view line) override {
    lines.emplace_back(line);
    if (after_line) after_line();
  }
  void on_closed(std::string_view reason) override { closed.emplace_back(reason); }
};

class InProcess : public ::testing::Test {
 protected:
  InProcess() : web(loop, net::HttpServerOptions{}) {
    echo.web = &web;
    web.set_events(echo);
    auto bound = web.listen("127.0.0.1", 0);
    EXPECT_TRUE(bound) << bound.error();
    port = bound.value_or(0);
  }
  // Runs the loop until `done` holds or 5 s passed.
  void run_until(std::function<bool()> done) {
    loop.after(5000, [&] { loop.stop(); });
    loop.every(5, [&] {
      if (done()) loop.stop();
    });
    loop.run();
  }

  net::EventLoop loop;
  Echo echo;
  net::HttpServer web;
  int port = 0;
};

TEST_F(InProcess, LinesGoBothWaysAndTheServersCloseIsReported) {
  ConnectionPool pool(loop);
  Recorder rec;
  LineConnection conn(pool, rec);
  conn.connect(Endpoint{"127.0.0.1", port, "/ws"});
  EXPECT_EQ(conn.status(), LineConnection::Status::Connecting);
  conn.send("one");  // queued before the upgrade: sent once it is done
  conn.send("two");
  rec.after_line = [&] {
    if (rec.lines.size() == 2) {
      EXPECT_EQ(conn.status(), LineConnection::Status::Open);
      conn.send(std::string(10'000, 'x'));  // several TCP segments, one message
      conn.send("bye");
    }
  };
  run_until([&] { return !rec.closed.empty(); });
  EXPECT_EQ(rec.connected, 1);
  ASSERT_EQ(rec.lines.size(), 3u);
  EXPECT_EQ(rec.lines[0], "echo one");
  EXPECT_EQ(rec.lines[1], "echo two");
  EXPECT_EQ(rec.lines[2], "echo " + std::string(10'000, 'x'));
  ASSERT_EQ(rec.closed.size(), 1u);
  EXPECT_NE(rec.closed[0].find("code 1000"), std::string::npos) << rec.closed[0];
  EXPECT_EQ(conn.status(), LineConnection::Status::Idle);
}

TEST_F(InProcess, OurCloseSendsACloseFrameTheServerSees) {
  ConnectionPool pool(loop);
  Recorder rec;
  LineConnection conn(pool, rec);
  conn.connect(Endpoint{"127.0.0.1", port, "/ws"});
  conn.send("hi");
  rec.after_line = [&] { conn.close(); };
  run_until([&] { return echo.closed == 1; });
  EXPECT_EQ(echo.opened, 1);
  EXPECT_EQ(echo.closed, 1);
  EXPECT_TRUE(rec.closed.empty()) << "our own close is silent";
}

TEST_F(InProcess, AnUpgradeToAnUnknownPathIsReportedAsRefused) {
  ConnectionPool pool(loop);
  Recorder rec;
  LineConnection conn(pool, rec);
  conn.connect(Endpoint{"127.0.0.1", port, "/nowhere"});
  conn.send("hi");
  run_until([&] { return !rec.closed.empty(); });
  EXPECT_EQ(rec.connected, 0);
  ASSERT_EQ(rec.closed.size(), 1u);
  EXPECT_NE(rec.closed[0].find("refused the WebSocket upgrade: HTTP/1.1 404"), std::string::npos)
      << rec.closed[0];
}

// ---------------------------------------------------------------------------
// The real server

class RealServer : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<test::ServerProcess>(
        std::string(ERYANTIS_SOURCE_DIR) + "/config/eryantis.toml", dir_.file("ws.db"));
    ASSERT_TRUE(server_->start()) << server_->log_tail();
    // The shipped configuration turns the web listener on; the test server's is on port 0.
    static constexpr std::string_view kListening = "web listening on http://127.0.0.1:";
    ASSERT_TRUE(test::eventually(std::chrono::seconds(5), [&] {
      return server_->log().find(kListening) != std::string::npos;
    })) << server_->log_tail();
    const std::string log = server_->log();
    web_port_ = std::atoi(log.c_str() + log.find(kListening) + kListening.size());
    ASSERT_GT(web_port_, 0);
  }

  test::TempDir dir_{"eryantis-ws-client"};
  std::unique_ptr<test::ServerProcess> server_;
  int web_port_ = 0;
};

TEST_F(RealServer, TheClientLibraryLogsInOverTheWebListener) {
  net::EventLoop loop;
  ConnectionPool pool(loop);
  Recorder rec;
  LineConnection conn(pool, rec);
  std::string error;
  auto endpoint = Endpoint::parse("ws://127.0.0.1:" + std::to_string(web_port_) + "/ws", error);
  ASSERT_TRUE(endpoint) << error;
  conn.connect(*endpoint);
  conn.send(R"({"type":"hello","id":1,"protocol":1,"client":"ws-client-test"})");
  conn.send(R"({"type":"login","id":2,"nickname":"wsclient"})");
  conn.send(R"({"type":"watch_lobby","id":3})");
  loop.after(5000, [&] { loop.stop(); });
  loop.every(5, [&] {
    if (rec.lines.size() >= 3 || !rec.closed.empty()) loop.stop();
  });
  loop.run();
  ASSERT_EQ(rec.lines.size(), 3u) << (rec.closed.empty() ? "" : rec.closed[0]);
  EXPECT_NE(rec.lines[0].find(R"("type":"welcome","id":1)"), std::string::npos) << rec.lines[0];
  EXPECT_NE(rec.lines[1].find(R"("type":"logged_in","id":2,"nickname":"wsclient")"),
            std::string::npos)
      << rec.lines[1];
  EXPECT_NE(rec.lines[2].find(R"("type":"match_list","id":3)"), std::string::npos) << rec.lines[2];
  EXPECT_NE(server_->log().find("wsclient"), std::string::npos);
}

TEST_F(RealServer, TheBotPlaysAWholeMatchOverWebSocket) {
  test::ChildProcess bot(
      test::Spawn{.argv = {ERYANTIS_BOT_BIN, "--ws", "--port", std::to_string(web_port_), "--json",
                           "--quiet", "--matches", "1", "--players", "2", "--games", "1",
                           "--duration", "60", "--seed", "3"},
                  .stdout_file = dir_.file("bot.out"),
                  .stderr_file = dir_.file("bot.log")});
  const auto code = bot.wait_exit(std::chrono::seconds(60));
  std::istringstream lines(test::read_file(dir_.file("bot.out")));
  std::string last;
  for (std::string l; std::getline(lines, l);)
    if (!l.empty()) last = l;
  rapidjson::Document r;
  r.Parse(last.c_str());
  const std::string log = test::read_file(dir_.file("bot.log"));
  ASSERT_FALSE(r.HasParseError()) << log;
  ASSERT_TRUE(r.IsObject()) << log;
  EXPECT_EQ(code.value_or(-1), 0) << log;
  EXPECT_STREQ(r["transport"].GetString(), "websocket");
  EXPECT_GE(r["games_finished"].GetUint64(), 1u) << log;
  EXPECT_GT(r["commands_acked"].GetUint64(), 0u);
  EXPECT_EQ(r["unexpected_errors"].GetUint64(), 0u) << log;
  EXPECT_EQ(r["syncs"].GetUint64(), 0u) << "every mirrored hash matched";
  EXPECT_EQ(r["disconnects"].GetUint64(), 0u) << log;
}

}  // namespace
}  // namespace eryantis::client
