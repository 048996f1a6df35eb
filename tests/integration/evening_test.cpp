// A player's evening over real sockets (issue 11): resigning ends the match for
// everyone, a seat left unchosen in setup is freed so nobody is held hostage, a
// spectator watches again after a crash, and a token handed out while tokens are
// not required is the seat's when they are required again.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "fixture.hpp"

namespace eryantis::integration {
namespace {

class EveningTest : public ServerFixture {
 protected:
  // The test configuration with extra [matches] lines.
  void start_with_matches(const std::string& lines, const std::string& file = "eryantis.toml") {
    const std::string path = write_config(dir_, file, db_, TestConfig{});
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::string toml = text.str();
    toml.replace(toml.find("require_resume_token = true\n"), 28, lines);
    std::ofstream(path, std::ios::trunc) << toml;
    start_with(path);
  }
  std::unique_ptr<Client> player(const std::string& nickname, const std::string& token = {}) {
    auto c = Client::connect(port(), nickname);
    EXPECT_TRUE(c && c->hello());
    if (!c) return c;
    auto in = c->login(nickname, token);
    EXPECT_TRUE(in && in->type == "logged_in") << (in ? in->line : "no reply");
    if (in) tokens_[nickname] = in->str("token");
    return c;
  }
  static std::optional<Message> play(Client& c, const std::string& command) {
    return c.reply(c.send_play(command, std::nullopt));
  }
  // Both choose; the match starts.
  static void setup_two(Client& a, Client& b) {
    for (auto [c, w, t] : {std::tuple{&a, 0, "black"}, std::tuple{&b, 1, "white"}}) {
      auto r = play(*c, R"({"type":"choose_wizard","wizard":)" + std::to_string(w) + "}");
      ASSERT_TRUE(r && r->type == "ack") << (r ? r->line : "no reply");
      r = play(*c, std::string(R"({"type":"choose_tower_color","color":")") + t + "\"}");
      ASSERT_TRUE(r && r->type == "ack") << (r ? r->line : "no reply");
    }
  }
  std::map<std::string, std::string> tokens_;
};

TEST_F(EveningTest, ResigningEndsTheMatchWithASentenceForEveryone) {
  start(TestConfig{});
  auto alice = player("alice");
  auto bob = player("bob");
  auto joined = alice->create(2, "simple");
  ASSERT_TRUE(joined && joined->type == "joined");
  const std::int64_t m = joined->i64("match");
  ASSERT_EQ(bob->join(m)->type, "joined");
  auto state = bob->wait_type("state", Millis(5000));
  ASSERT_TRUE(state);
  ASSERT_TRUE(state->get("legal") && state->get("legal")->IsArray());
  EXPECT_EQ(state->get("legal")->Size(), 4u + 2u);  // 4 wizards, 2 tower colours
  EXPECT_TRUE(state->has("deadline"));
  setup_two(*alice, *bob);
  ASSERT_FALSE(HasFatalFailure());
  auto r = play(*bob, R"({"type":"resign"})");
  ASSERT_TRUE(r && r->type == "ack") << (r ? r->line : "no reply");
  for (Client* c : {alice.get(), bob.get()}) {
    auto event = c->wait_for(
        [](const Message& e) {
          return e.type == "event" && e.str("text").find("resigned") != std::string::npos;
        },
        Millis(5000));
    ASSERT_TRUE(event) << c->name();
    EXPECT_EQ(event->str("text").rfind("bob resigned", 0), 0u) << event->str("text");
    auto over = c->wait_type("game_over", Millis(5000));
    ASSERT_TRUE(over) << c->name();
    EXPECT_NE(over->json("result").find(R"("reason":"resign","winners":[0])"), std::string::npos)
        << over->line;
  }
}

TEST_F(EveningTest, ASeatNotChosenInTimeIsFreedAndItsPlayerTold) {
  start_with_matches("require_resume_token = true\nsetup_choice_ms = 1500\n");
  auto alice = player("alice");
  auto bob = player("bob");
  const std::int64_t m = alice->create(2, "simple")->i64("match");
  ASSERT_EQ(bob->join(m)->type, "joined");
  ASSERT_EQ(play(*alice, R"({"type":"choose_wizard","wizard":2})")->type, "ack");
  ASSERT_EQ(play(*alice, R"({"type":"choose_tower_color","color":"white"})")->type, "ack");
  auto deadline = alice->wait_for(
      [](const Message& s) {
        return s.type == "seats" && s.json("deadline").find("remove") != std::string::npos;
      },
      Millis(5000));
  ASSERT_TRUE(deadline) << "no remove deadline announced";
  auto left = bob->wait_type("left", Millis(8000));  // bob never chooses
  ASSERT_TRUE(left) << "bob was not told";
  EXPECT_EQ(left->str("reason"), "setup_timeout");
  EXPECT_EQ(left->id, "");
  ASSERT_EQ(bob->create(3, "expert")->type, "joined");  // bob is free again
  // alice may go too: her match waits for players.
  auto gone = alice->request(R"("type":"leave_match")");
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->type, "left") << gone->line;
}

TEST_F(EveningTest, ASpectatorWatchesAgainAfterACrash) {
  start(TestConfig{});
  auto alice = player("alice");
  auto bob = player("bob");
  const std::int64_t m = alice->create(2, "simple")->i64("match");
  ASSERT_EQ(bob->join(m)->type, "joined");
  setup_two(*alice, *bob);
  ASSERT_FALSE(HasFatalFailure());
  auto eve = Client::connect(port(), "eve");
  ASSERT_TRUE(eve && eve->hello());
  ASSERT_EQ(eve->spectate(m)->type, "spectating");
  auto before = eve->wait_type("state", Millis(5000));
  ASSERT_TRUE(before);
  server_->kill_hard();
  restart();
  auto again = Client::connect(port(), "eve");
  ASSERT_TRUE(again && again->hello());
  auto watching = again->spectate(m);
  ASSERT_TRUE(watching);
  EXPECT_EQ(watching->type, "spectating") << watching->line;
  auto after = again->wait_type("state", Millis(5000));
  ASSERT_TRUE(after);
  EXPECT_EQ(after->i64("seq"), before->i64("seq"));
  EXPECT_EQ(after->str("hash"), before->str("hash"));
  EXPECT_EQ(after->json("legal"), "[]");
}

TEST_F(EveningTest, ATokenGivenWithoutRequiredTokensWorksOnceTheyAreRequiredAgain) {
  start_with_matches("require_resume_token = false\n", "lax.toml");
  const std::string lax_config = config_path_;
  auto alice = player("alice");
  auto bob = player("bob");
  const std::int64_t m = alice->create(2, "simple")->i64("match");
  ASSERT_EQ(bob->join(m)->type, "joined");
  alice.reset();
  auto back = Client::connect(port(), "alice");
  ASSERT_TRUE(back && back->hello());
  std::optional<Message> in;
  ASSERT_TRUE(test::eventually(Millis(5000), [&] {  // once the server saw the old connection go
    in = back->login("alice");
    return in && in->type == "logged_in";
  }));
  EXPECT_EQ(in->i64("match"), m);
  const std::string fresh = in->str("token");
  EXPECT_NE(fresh, tokens_["alice"]);
  back.reset();
  bob.reset();
  stop_gracefully();  // pending writes (the binding) are committed first
  start_with_matches("require_resume_token = true\n", "strict.toml");
  auto strict = Client::connect(port(), "alice");
  ASSERT_TRUE(strict && strict->hello());
  auto old = strict->login("alice", tokens_["alice"]);
  ASSERT_TRUE(old);
  EXPECT_EQ(old->str("code"), "BAD_TOKEN");
  auto ok = strict->login("alice", fresh);
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->type, "logged_in") << ok->line;
  EXPECT_EQ(ok->i64("seat"), 0);
}

}  // namespace
}  // namespace eryantis::integration
