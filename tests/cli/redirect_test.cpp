// The real eryantis-cli (piped input) against two scripted nodes of a cluster:
// node a redirects a join to node b; the client moves, logs in at b with the
// token a gave, and repeats the join there with its id.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>

#include "fake_server.hpp"
#include "session.hpp"
#include "support/child_process.hpp"
#include "support/polling.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;

// The raw JSON of the request's "id" ("" = none).
std::string id_of(const std::string& line) {
  const auto at = line.find(R"("id":)");
  if (at == std::string::npos) return {};
  return line.substr(at + 5, line.find_first_of(",}", at) - at - 5);
}

bool is(const std::string& line, const char* type) {
  return line.find(std::string(R"("type":")") + type + '"') != std::string::npos;
}

// A node: welcome and logged_in (token `token`) for anyone; `join` answers join_match.
eryantis::test::FakeServer node(std::string token,
                                std::function<std::string(const std::string& id)> join) {
  return eryantis::test::FakeServer([token, join](const std::string& line) -> std::string {
    if (is(line, "hello"))
      return R"({"type":"welcome","protocol":1,"server":"fake"})"
             "\n";
    if (is(line, "login"))
      return R"({"type":"logged_in","id":"login","nickname":"alice","token":")" + token + "\"}\n";
    if (is(line, "list_matches"))
      return R"({"type":"match_list","id":)" + id_of(line) +
             R"(,"open":[],"running":[]})"
             "\n";
    if (is(line, "join_match")) return join(id_of(line));
    return {};
  });
}

TEST(CliRedirect, FollowsARedirectAndRepeatsTheJoin) {
  eryantis::test::FakeServer b = node("tok-b", [](const std::string& id) {
    return R"({"type":"joined","id":)" + id +
           R"(,"match":12,"seat":1})"
           "\n";
  });
  const int b_port = b.port();
  eryantis::test::FakeServer a = node("tok-a", [b_port](const std::string& id) {
    return R"({"type":"redirect","id":)" + id + R"(,"address":"127.0.0.1:)" +
           std::to_string(b_port) +
           R"(","web":null,"match":12,"reason":"node b serves it"})"
           "\n";
  });
  ASSERT_GT(a.port(), 0);
  ASSERT_GT(b_port, 0);
  eryantis::test::TempDir dir("eryantis-cli-redirect");
  eryantis::test::ChildProcess cli(eryantis::test::Spawn{
      .argv = {ERYANTIS_CLI_BIN, "--port", std::to_string(a.port()), "--nickname", "alice",
               "--tokens", dir.file("tokens"), "--no-color"},
      .stdin_pipe = true});
  ASSERT_TRUE(cli.started());
  cli.write_stdin("join 12\nlist\n");
  cli.close_stdin();
  const auto status = cli.wait_exit(10s);
  ASSERT_TRUE(status.has_value()) << "still running:\n" << cli.output();
  EXPECT_EQ(*status, eryantis::cli::kExitOk) << cli.output();
  const std::string out = cli.output();
  EXPECT_NE(out.find("match 12 is served by 127.0.0.1:" + std::to_string(b_port) +
                     ": moving there (node b serves it)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("joined match 12 as seat 1"), std::string::npos) << out;

  std::string join_at_a;
  for (const auto& l : a.received())
    if (is(l, "join_match")) join_at_a = l;
  ASSERT_FALSE(join_at_a.empty());
  const auto at_b = b.received();
  ASSERT_GE(at_b.size(), 4u);  // hello, login, the join again, list
  EXPECT_TRUE(is(at_b[1], "login"));
  EXPECT_NE(at_b[1].find(R"("token":"tok-a")"), std::string::npos) << at_b[1];
  EXPECT_EQ(at_b[2], join_at_a);  // the same request with the same id
  EXPECT_TRUE(is(at_b[3], "list_matches"));
  EXPECT_EQ(b.connections(), 1);
}

TEST(CliRedirect, ALoopOfRedirectsEndsAfterThreeHops) {
  // Node a sends every join to itself: the client follows three times, then says so.
  std::atomic<int> self{0};
  eryantis::test::FakeServer a = node("tok-a", [&self](const std::string& id) {
    return R"({"type":"redirect","id":)" + id + R"(,"address":"127.0.0.1:)" +
           std::to_string(self.load()) +
           R"(","match":7})"
           "\n";
  });
  self = a.port();
  eryantis::test::TempDir dir("eryantis-cli-redirect");
  eryantis::test::ChildProcess cli(eryantis::test::Spawn{
      .argv = {ERYANTIS_CLI_BIN, "--port", std::to_string(a.port()), "--nickname", "alice",
               "--tokens", dir.file("tokens"), "--no-color"},
      .stdin_pipe = true});
  ASSERT_TRUE(cli.started());
  cli.write_stdin("join 7\nlist\n");
  cli.close_stdin();
  const auto status = cli.wait_exit(10s);
  ASSERT_TRUE(status.has_value()) << "still running:\n" << cli.output();
  EXPECT_EQ(*status, eryantis::cli::kExitOk) << cli.output();
  const std::string out = cli.output();
  std::size_t moves = 0;
  for (auto at = out.find("moving there"); at != std::string::npos;
       at = out.find("moving there", at + 1))
    ++moves;
  EXPECT_EQ(moves, 3u) << out;
  EXPECT_NE(out.find("TOO_MANY_REDIRECTS"), std::string::npos) << out;
  EXPECT_EQ(a.connections(), 4);  // the first connection and three hops
  std::size_t joins = 0;
  for (const auto& l : a.received()) joins += is(l, "join_match") ? 1 : 0;
  EXPECT_EQ(joins, 4u);
}

}  // namespace
