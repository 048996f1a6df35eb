// Attacks a web page of any site can make a visitor's browser carry out against a
// server on the visitor's machine, played against the real eryantis-server:
//   - a cross-protocol POST to the game's TCP port, whose text/plain body is
//     protocol lines (docs/reliability.md, "The web listener and the ports");
//   - DNS rebinding: the page's own host name, pointed at 127.0.0.1, reaching the
//     web listener with `Host: evil.example`.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <thread>

#include "fixture.hpp"
#include "support/browser_request.hpp"
#include "support/websocket_client.hpp"

namespace eryantis::integration {
namespace {

std::size_t count(const std::string& text, std::string_view part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

class CrossProtocolTest : public ServerFixture {};

// The browser's POST carries a body that would log in as a player whose seat needs
// no token (require_resume_token = false), give the seat back and open a match of
// its own. The server closes the connection at the request line: the database and
// the other player see nothing, and one log line names what happened.
TEST_F(CrossProtocolTest, ABrowsersPostToTheGamePortRunsNothing) {
  const std::string config = write_config(dir_, "eryantis.toml", db_, TestConfig{});
  {
    std::ifstream in(config);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string key = "require_resume_token = ";
    text.replace(text.find(key + "true"), key.size() + 4, key + "false");
    std::ofstream(config) << text;
  }
  start_with(config);
  ASSERT_FALSE(HasFatalFailure());

  // alice creates a match, bob joins it (full: setup, where a seat can still be
  // given back), then alice's connection drops: her seat waits for her nickname.
  auto alice = Client::connect(port(), "alice");
  auto bob = Client::connect(port(), "bob");
  ASSERT_TRUE(alice && bob);
  ASSERT_TRUE(alice->hello() && alice->login("alice") && bob->hello() && bob->login("bob"));
  auto created = alice->create(2, "simple");
  ASSERT_TRUE(created && created->type == "joined") << (created ? created->line : "no reply");
  const std::int64_t match = created->i64("match");
  auto joined = bob->join(match);
  ASSERT_TRUE(joined && joined->type == "joined") << (joined ? joined->line : "no reply");
  // The chat's history follows bob's state, read on the store's reader thread: it is
  // in before bob's inbox is taken as "told nothing" below.
  ASSERT_TRUE(bob->wait_type("chat_history", Millis(5000)));
  alice.reset();
  ASSERT_TRUE(bob->wait_for(
      [](const Message& m) {
        return m.type == "seats" && m.line.find(R"("connected":false)") != std::string::npos;
      },
      Millis(5000)));
  bob->inbox().clear();
  const auto before = read_database();

  const std::string body =
      "{\"type\":\"hello\",\"protocol\":1}\n"
      "{\"type\":\"login\",\"nickname\":\"alice\"}\n"
      "{\"type\":\"leave_match\"}\n"
      "{\"type\":\"create_match\",\"players\":2}\n"
      "{\"type\":\"play\",\"command\":{\"type\":\"resign\"}}\n";
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto browser = Client::connect(port(), "browser");
    ASSERT_TRUE(browser);
    browser->send_raw(test::browser_text_post("127.0.0.1:" + std::to_string(port()), body));
    EXPECT_TRUE(browser->wait_closed(Millis(5000))) << "the connection stayed open";
    EXPECT_TRUE(browser->inbox().empty()) << "answered: " << browser->inbox().front().line;
  }
  // One line for both attempts (the repeats are summed up later). The server wrote it
  // before closing, but the harness reads its output on a thread of its own: wait
  // for it (a loaded machine once read the log before that thread had).
  for (int i = 0; i < 500 && count(server_->log(), "looks like HTTP") == 0; ++i)
    std::this_thread::sleep_for(Millis(10));
  EXPECT_EQ(count(server_->log(), "looks like HTTP"), 1u) << server_->log_tail(20);

  auto pong = bob->ping();  // the server goes on; bob was told nothing
  ASSERT_TRUE(pong);
  EXPECT_TRUE(bob->inbox().empty()) << "bob got: " << bob->inbox().front().line;
  auto listed = bob->request(R"("type":"list_matches")");
  ASSERT_TRUE(listed);
  EXPECT_EQ(count(listed->line, R"("match":)"), 1u) << listed->line;

  stop_gracefully();
  const auto after = read_database();
  ASSERT_EQ(after.size(), before.size()) << "a match was created";
  ASSERT_TRUE(after.count(match));
  EXPECT_EQ(after.at(match).seqs, before.at(match).seqs) << "the match was changed";
  EXPECT_EQ(after.at(match).status, before.at(match).status);
}

}  // namespace
}  // namespace eryantis::integration
