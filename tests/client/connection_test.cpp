// LineConnection against the net layer's TcpServer on one loop.
#include "eryantis/client/connection.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eryantis/net/tcp_server.hpp"

namespace eryantis::client {
namespace {

// Echoes every line; "bye" closes the connection.
struct Echo : transport::ConnectionEvents {
  net::TcpServer* tcp = nullptr;
  void on_open(transport::ConnectionId, std::string_view) override {}
  void on_line(transport::ConnectionId id, std::string_view line) override {
    if (line == "bye")
      tcp->close(id);
    else
      tcp->send(id, "echo " + std::string(line));
  }
  void on_line_too_long(transport::ConnectionId) override {}
  void on_closed(transport::ConnectionId) override {}
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

TEST(LineConnection, SendsBatchedLinesAndReadsReplies) {
  net::EventLoop loop;
  Echo echo;
  net::TcpServer tcp(loop, echo, {});
  echo.tcp = &tcp;
  auto port = tcp.listen("127.0.0.1", 0);
  ASSERT_TRUE(port) << port.error();
  ConnectionPool pool(loop);
  Recorder rec;
  LineConnection conn(pool, rec);
  conn.connect("127.0.0.1", *port);
  EXPECT_EQ(conn.status(), LineConnection::Status::Connecting);
  // Queued before the connection is open: sent once it is.
  conn.send("one");
  conn.send("two");
  rec.after_line = [&] {
    if (rec.lines.size() == 2) {
      conn.send("three");
      conn.send("bye");
    }
  };
  loop.after(5000, [&] { loop.stop(); });
  loop.every(5, [&] {
    if (!rec.closed.empty()) loop.stop();
  });
  loop.run();
  EXPECT_EQ(rec.connected, 1);
  EXPECT_EQ(rec.lines, (std::vector<std::string>{"echo one", "echo two", "echo three"}));
  ASSERT_EQ(rec.closed.size(), 1u);  // the server closed after "bye"
  EXPECT_EQ(conn.status(), LineConnection::Status::Idle);
  EXPECT_EQ(conn.bytes_out(), std::string("one\ntwo\nthree\nbye\n").size());
}

TEST(LineConnection, ARefusedConnectionIsReportedAndOwnCloseIsSilent) {
  net::EventLoop loop;
  ConnectionPool pool(loop);
  Recorder refused, closed_by_us;
  LineConnection a(pool, refused);
  LineConnection b(pool, closed_by_us);
  a.connect("127.0.0.1", 1);  // nothing listens on port 1
  b.connect("127.0.0.1", 1);
  b.close();
  a.send("lost");
  loop.after(3000, [&] { loop.stop(); });
  loop.every(5, [&] {
    if (!refused.closed.empty()) loop.stop();
  });
  loop.run();
  ASSERT_EQ(refused.closed.size(), 1u);
  EXPECT_NE(refused.closed[0].find("cannot connect"), std::string::npos) << refused.closed[0];
  EXPECT_TRUE(closed_by_us.closed.empty());
  EXPECT_EQ(refused.connected, 0);
}

TEST(LineConnection, ManyConnectionsOnOneLoop) {
  net::EventLoop loop;
  Echo echo;
  net::TcpServer tcp(loop, echo, {});
  echo.tcp = &tcp;
  auto port = tcp.listen("127.0.0.1", 0);
  ASSERT_TRUE(port);
  ConnectionPool pool(loop);
  constexpr int kConnections = 200;
  std::vector<std::unique_ptr<Recorder>> recs;
  std::vector<std::unique_ptr<LineConnection>> conns;
  int done = 0;
  for (int i = 0; i < kConnections; ++i) {
    recs.push_back(std::make_unique<Recorder>());
    conns.push_back(std::make_unique<LineConnection>(pool, *recs.back()));
    recs.back()->after_line = [&done] { ++done; };
    conns.back()->connect("localhost", *port);
    conns.back()->send("hi " + std::to_string(i));
  }
  loop.after(10000, [&] { loop.stop(); });
  loop.every(5, [&] {
    if (done == kConnections) loop.stop();
  });
  loop.run();
  ASSERT_EQ(done, kConnections);
  for (int i = 0; i < kConnections; ++i)
    EXPECT_EQ(recs[i]->lines, std::vector<std::string>{"echo hi " + std::to_string(i)});
}

}  // namespace
}  // namespace eryantis::client
