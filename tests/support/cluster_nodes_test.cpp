// The cluster fixture itself (cluster_nodes.hpp), with what the server does
// today: three nodes on one PostgreSQL start, each answers a login, what one
// creates is in the shared database, a stopped node answers once continued, a
// node killed and restarted comes back on its port.
#include "support/cluster_nodes.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <string>

#include "support/polling.hpp"

namespace eryantis::test {
namespace {

using namespace std::chrono_literals;

// A blocking line client on 127.0.0.1 with deadlines: enough to say hello and log in.
class LineClient {
 public:
  explicit LineClient(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    if (fd_ >= 0 && ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~LineClient() {
    if (fd_ >= 0) ::close(fd_);
  }
  LineClient(const LineClient&) = delete;
  LineClient& operator=(const LineClient&) = delete;

  bool connected() const { return fd_ >= 0; }
  void send(const std::string& line) {
    const std::string text = line + "\n";
    if (fd_ >= 0) (void)!::send(fd_, text.data(), text.size(), MSG_NOSIGNAL);
  }
  // The first line received containing `needle` within `timeout` ("" = none).
  std::string wait_for(const std::string& needle, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (fd_ >= 0) {
      for (std::size_t nl; (nl = buffer_.find('\n')) != std::string::npos;) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        if (line.find(needle) != std::string::npos) return line;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return {};
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char chunk[4096];
      const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n <= 0) return {};
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
    return {};
  }

 private:
  int fd_ = -1;
  std::string buffer_;
};

// Says hello and logs in as `nickname`; true when logged_in came within `timeout`.
bool logs_in(int port, const std::string& nickname, std::chrono::milliseconds timeout = 5s) {
  LineClient c(port);
  if (!c.connected()) return false;
  c.send(R"({"type":"hello","id":1,"protocol":1,"client":"cluster-fixture-test"})");
  c.send(R"({"type":"login","id":2,"nickname":")" + nickname + R"("})");
  return !c.wait_for(R"("logged_in")", timeout).empty();
}

long long count_matches(const std::string& uri) {
  PGconn* conn = PQconnectdb(uri.c_str());
  long long n = -1;
  if (PQstatus(conn) == CONNECTION_OK) {
    PGresult* r = PQexec(conn, "SELECT count(*) FROM matches");
    if (PQresultStatus(r) == PGRES_TUPLES_OK) n = std::atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
  }
  PQfinish(conn);
  return n;
}

TEST(ClusterNodes, StartKillStopAndRestartNodesOnOnePostgresql) {
  std::string why_not;
  auto cluster = ClusterNodes::start(ClusterOptions{}, &why_not);
  if (!cluster) {
    if (PostgresCluster::shared(nullptr) == nullptr && !PostgresCluster::required())
      GTEST_SKIP() << "PostgreSQL not available: " << why_not;
    FAIL() << why_not;
  }
  std::cout << "[ cluster  ] 3 nodes on " << cluster->uri() << ", [cluster] section "
            << (cluster->cluster_section() ? "on" : "refused by this server: left out") << "\n";
  ASSERT_EQ(cluster->size(), 3);
  for (int i = 0; i < cluster->size(); ++i) {
    EXPECT_EQ(ClusterNodes::name(i), std::string(1, static_cast<char>('a' + i)));
    EXPECT_EQ(cluster->node(i).port(), cluster->port(i));
    EXPECT_TRUE(logs_in(cluster->port(i), "user_" + ClusterNodes::name(i)))
        << "node " << ClusterNodes::name(i) << ":\n"
        << cluster->node(i).log_tail();
  }

  // One database: a match created on node a is stored where every node reads.
  {
    LineClient c(cluster->port(0));
    c.send(R"({"type":"hello","id":1,"protocol":1})");
    c.send(R"({"type":"login","id":2,"nickname":"creator"})");
    c.send(R"({"type":"create_match","id":3,"players":2,"mode":"simple"})");
    ASSERT_FALSE(c.wait_for(R"("joined")", 5s).empty()) << cluster->node(0).log_tail();
  }
  EXPECT_TRUE(eventually(5s, [&] { return count_matches(cluster->uri()) == 1; }))
      << count_matches(cluster->uri());

  // A stopped node holds its socket but answers nothing until it is continued.
  cluster->stop(2);
  {
    LineClient c(cluster->port(2));
    ASSERT_TRUE(c.connected());  // the kernel still accepts for it
    c.send(R"({"type":"hello","id":1,"protocol":1})");
    c.send(R"({"type":"login","id":2,"nickname":"paused"})");
    EXPECT_TRUE(c.wait_for(R"("logged_in")", 300ms).empty());
    cluster->cont(2);
    EXPECT_FALSE(c.wait_for(R"("logged_in")", 5s).empty()) << cluster->node(2).log_tail();
  }

  // A crash: the node is gone, the others go on; restarted, it is back on its port.
  const int port_b = cluster->port(1);
  cluster->kill_hard(1);
  EXPECT_FALSE(cluster->node(1).running());
  EXPECT_FALSE(logs_in(port_b, "nobody_home", 500ms));
  EXPECT_TRUE(logs_in(cluster->port(0), "still_a"));
  ASSERT_TRUE(cluster->restart(1)) << cluster->node(1).log_tail();
  EXPECT_EQ(cluster->node(1).port(), port_b);
  EXPECT_TRUE(logs_in(port_b, "back_b")) << cluster->node(1).log_tail();
  EXPECT_EQ(count_matches(cluster->uri()), 1);  // the restart lost nothing of the database
}

}  // namespace
}  // namespace eryantis::test
