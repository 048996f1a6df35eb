// Behaviours docs/protocol.md states in words that no other test pins down: the
// order of the checks of join_match, and leave_match before login.
#include <gtest/gtest.h>

#include "fixture.hpp"

namespace eryantis::integration {
namespace {

class ProtocolDocTest : public ServerFixture {
 protected:
  void SetUp() override { start(TestConfig{}); }

  std::unique_ptr<Client> logged_in(const std::string& nickname) {
    auto c = Client::connect(port(), nickname);
    if (!c || !c->hello()) return nullptr;
    auto in = c->login(nickname);
    if (!in || in->type != "logged_in") return nullptr;
    return c;
  }

  static std::string code_of(const std::optional<Message>& reply) {
    if (!reply) return "(no reply)";
    return reply->type == "error" ? reply->str("code") : reply->type;
  }
};

// §3 leave_match: a connection that is not logged in and not watching gets
// NOT_LOGGED_IN (not NOT_IN_MATCH); a spectator leaves without logging in.
TEST_F(ProtocolDocTest, LeaveMatchBeforeLoginIsNotLoggedInUnlessWatching) {
  auto alice = logged_in("alice");
  ASSERT_TRUE(alice);
  auto created = alice->create(2, "simple");
  ASSERT_TRUE(created && created->type == "joined");
  auto anonymous = Client::connect(port(), "anonymous");
  ASSERT_TRUE(anonymous && anonymous->hello());
  EXPECT_EQ(code_of(anonymous->request(R"("type":"leave_match")")), "NOT_LOGGED_IN");
  auto watching = anonymous->spectate(created->i64("match"));
  ASSERT_TRUE(watching && watching->type == "spectating") << watching->line;
  EXPECT_EQ(code_of(anonymous->request(R"("type":"leave_match")")), "left");
  EXPECT_EQ(code_of(anonymous->request(R"("type":"leave_match")")), "NOT_LOGGED_IN");
}

// §3 join_match checks, in order: NO_SUCH_MATCH; MATCH_FULL (no free seat, or no
// longer waiting for players); ALREADY_IN_MATCH (you hold a seat); then the seat
// you asked for (MATCH_FULL). So a seated player joining a full match hears
// MATCH_FULL, and joining an open one ALREADY_IN_MATCH, even for a taken seat.
TEST_F(ProtocolDocTest, JoinChecksMatchFullBeforeAlreadyInMatch) {
  auto alice = logged_in("alice");
  auto bob = logged_in("bob");
  auto carol = logged_in("carol");
  auto dave = logged_in("dave");
  ASSERT_TRUE(alice && bob && carol && dave);
  auto full = alice->create(2, "simple");
  ASSERT_TRUE(full && full->type == "joined");
  ASSERT_EQ(code_of(carol->join(full->i64("match"))), "joined");
  auto own = bob->create(2, "simple");
  ASSERT_TRUE(own && own->type == "joined");
  auto open = dave->create(3, "simple");
  ASSERT_TRUE(open && open->type == "joined");

  EXPECT_EQ(code_of(bob->join(999)), "NO_SUCH_MATCH");
  EXPECT_EQ(code_of(bob->join(full->i64("match"))), "MATCH_FULL");
  EXPECT_EQ(code_of(bob->join(open->i64("match"))), "ALREADY_IN_MATCH");
  EXPECT_EQ(code_of(bob->request(R"("type":"join_match","match":)" +
                                 std::to_string(open->i64("match")) + R"(,"seat":0)")),
            "ALREADY_IN_MATCH");
  EXPECT_EQ(code_of(bob->join(own->i64("match"))), "ALREADY_IN_MATCH");
  // Without a seat elsewhere, the taken seat is what is refused.
  auto erin = logged_in("erin");
  ASSERT_TRUE(erin);
  EXPECT_EQ(code_of(erin->request(R"("type":"join_match","match":)" +
                                  std::to_string(open->i64("match")) + R"(,"seat":0)")),
            "MATCH_FULL");
  EXPECT_EQ(code_of(erin->join(full->i64("match"))), "MATCH_FULL");
}

}  // namespace
}  // namespace eryantis::integration
