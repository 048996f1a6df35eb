// Private matches against the real server and its SQLite file (docs/accounts.md,
// "Invite links and private matches"): the lobby never lists one, its code opens it,
// the store keeps only the code's digest, and after the server is killed and started
// again the match is still private, its code still works and a revoked one does not.
#include <gtest/gtest.h>

#include "fixture.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;

class InviteTest : public ServerFixture {
 protected:
  std::unique_ptr<Client> logged_in(const std::string& nickname, std::string* token = nullptr) {
    auto c = Client::connect(port(), nickname);
    if (!c || !c->hello()) return nullptr;
    auto in = c->login(nickname);
    if (!in || in->type != "logged_in") return nullptr;
    if (token) *token = in->str("token");
    return c;
  }
  static std::string code_of(const std::optional<Message>& reply) {
    if (!reply) return "(no reply)";
    return reply->type == "error" ? reply->str("code") : reply->type;
  }
  static std::optional<Message> join(Client& c, std::int64_t match, const std::string& code) {
    return c.request(R"("type":"join_match","match":)" + std::to_string(match) +
                     R"(,"code":)" + quote(code));
  }
  // The ids of the lobby's matches, open and running.
  static std::vector<std::int64_t> listed(Client& c) {
    std::vector<std::int64_t> ids;
    auto list = c.request(R"("type":"list_matches")");
    if (!list || list->type != "match_list") return ids;
    for (const char* part : {"open", "running"})
      for (const auto& m : list->get(part)->GetArray()) ids.push_back(m["match"].GetInt64());
    return ids;
  }
};

TEST_F(InviteTest, APrivateMatchStaysPrivateAndItsCodeWorksAfterARestart) {
  start(TestConfig{});
  std::string alice_token;
  auto alice = logged_in("alice", &alice_token);
  auto carol = logged_in("carol");
  ASSERT_TRUE(alice && carol);
  auto created = alice->request(R"("type":"create_match","players":3,"private":true)");
  ASSERT_EQ(code_of(created), "joined") << (created ? created->line : "");
  const std::int64_t match = created->i64("match");
  auto invite = alice->wait_type("invite", 5s);
  ASSERT_TRUE(invite);
  EXPECT_EQ(invite->i64("match"), match);
  const std::string code = invite->str("code");
  ASSERT_EQ(code.size(), 22u);
  EXPECT_TRUE(listed(*carol).empty());
  // The store: private, one invite row holding a digest (never the code).
  EXPECT_EQ(sql_text("SELECT is_private FROM matches WHERE id = " + std::to_string(match)), "1");
  EXPECT_EQ(sql_text("SELECT count(*) FROM invites WHERE match_id = " +
                     std::to_string(match) + " AND length(digest) = 64 AND revoked = 0"),
            "1");
  EXPECT_EQ(sql_text("SELECT count(*) FROM invites WHERE instr(digest, '" + code + "')"),
            "0");

  // A second code replaces the first; then the server dies and comes back.
  auto renewed = alice->request(R"("type":"revoke_invite")");
  ASSERT_EQ(code_of(renewed), "invite") << (renewed ? renewed->line : "");
  const std::string fresh = renewed->str("code");
  ASSERT_NE(fresh, code);
  server_->kill_hard();
  alice.reset();
  carol.reset();
  restart();

  auto bob = logged_in("bob");
  auto dave = logged_in("dave");
  auto eve = logged_in("eve");
  ASSERT_TRUE(bob && dave && eve);
  EXPECT_TRUE(listed(*eve).empty()) << "the restarted server lists the private match";
  EXPECT_EQ(code_of(bob->request(R"("type":"join_match","match":)" + std::to_string(match))),
            "NO_SUCH_MATCH");
  EXPECT_EQ(code_of(join(*bob, match, code)), "INVITE_REVOKED");
  EXPECT_EQ(code_of(join(*bob, match, "AAAAAAAAAAAAAAAAAAAAAA")), "NO_SUCH_MATCH");
  EXPECT_EQ(code_of(join(*bob, match, fresh)), "joined");
  // The creator is back in her seat and may still revoke.
  auto back = Client::connect(port(), "alice");
  ASSERT_TRUE(back && back->hello());
  auto resumed = back->login("alice", alice_token);
  ASSERT_TRUE(resumed && resumed->type == "logged_in") << (resumed ? resumed->line : "");
  EXPECT_EQ(resumed->i64("match"), match);
  auto none = back->request(R"("type":"revoke_invite","renew":false)");
  ASSERT_EQ(code_of(none), "invite") << (none ? none->line : "");
  EXPECT_TRUE(none->get("code")->IsNull());
  EXPECT_EQ(code_of(join(*dave, match, fresh)), "INVITE_REVOKED");
  EXPECT_EQ(sql_text("SELECT count(*) FROM invites WHERE match_id = " +
                     std::to_string(match) + " AND revoked = 0"),
            "0");
  EXPECT_EQ(sql_text("SELECT sum(uses) FROM invites WHERE match_id = " +
                     std::to_string(match)),
            "1");
}

}  // namespace
}  // namespace eryantis::integration
