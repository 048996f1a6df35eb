// A computer takes the seat, against the real server and its SQLite file: in a
// started 3-seat match created with `takeover`, a player leaves; the computer holds
// the seat in the store, and after a restart it is still there, the match still
// says its takeover level and the computer plays on.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "eryantis/json/value.hpp"
#include "fixture.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class TakeoverSeatTest : public ServerFixture {
 protected:
  void start_with_computers() {
    const std::string path = write_config(dir_, "eryantis.toml", db_, TestConfig{});
    std::ofstream(path, std::ios::app)
        << "\n[computer]\nworkers = 1\npause_ms = 0\nlevel = \"random\"\nplayouts = 50\n";
    start_with(path);
  }
  std::unique_ptr<Client> log_in(const std::string& nickname, std::string& token) {
    auto c = Client::connect(port(), nickname);
    EXPECT_TRUE(c);
    if (!c) return c;
    EXPECT_TRUE(c->hello());
    auto r = c->login(nickname, token);
    EXPECT_TRUE(r && r->type == "logged_in") << (r ? r->line : "no reply");
    if (r) token = r->str("token");
    return c;
  }
  // Reads what arrived for a while and plays one legal command if it may.
  static void step(Client& c, std::mt19937_64& rng) {
    std::optional<Message> last;
    for (auto m = c.next(30ms); m; m = c.next(5ms))
      if (m->type == "state" || m->type == "event") last = std::move(m);
    if (!last) return;
    const rapidjson::Value* legal = last->get("legal");
    if (!legal || !legal->IsArray() || legal->Empty()) return;
    const rapidjson::Value& pick =
        (*legal)[static_cast<rapidjson::SizeType>(rng() % legal->Size())];
    c.send_line(R"({"type":"play","id":")" + c.fresh_id() + R"(","expected_seq":)" +
                std::to_string(last->i64("seq")) + R"(,"command":)" + json::text(pick) + "}");
  }
  std::string status_of(std::int64_t match) const {
    return sql_text("SELECT status FROM matches WHERE id = " + std::to_string(match));
  }
};

TEST_F(TakeoverSeatTest, TheComputerKeepsTheSeatAcrossARestart) {
  start_with_computers();
  std::mt19937_64 rng(test_seed());
  std::string alice_token;
  std::string bob_token;
  auto alice = log_in("alice", alice_token);
  auto bob = log_in("bob", bob_token);
  ASSERT_TRUE(alice && bob);
  auto joined = alice->request(
      R"("type":"create_match","players":3,"mode":"simple","computers":1,"takeover":"random")");
  ASSERT_TRUE(joined && joined->type == "joined") << (joined ? joined->line : "no reply");
  const std::int64_t match = joined->i64("match");
  EXPECT_EQ(sql_text("SELECT takeover FROM matches WHERE id = " + std::to_string(match)), "random");
  // Bob takes the free seat (the computer holds seat 1).
  auto bob_joined = bob->request(R"("type":"join_match","match":)" + std::to_string(match));
  ASSERT_TRUE(bob_joined && bob_joined->type == "joined")
      << (bob_joined ? bob_joined->line : "no reply");
  const int bob_seat = static_cast<int>(bob_joined->i64("seat"));
  // Both make their setup choices until the match runs.
  const auto deadline = Clock::now() + 20s;
  while (status_of(match) != "running" && Clock::now() < deadline) {
    step(*alice, rng);
    step(*bob, rng);
  }
  ASSERT_EQ(status_of(match), "running");
  // Bob leaves: a computer of the match's level takes his seat.
  auto left = bob->request(R"("type":"leave_match")");
  ASSERT_TRUE(left && left->type == "left") << (left ? left->line : "no reply");
  const std::string bob_row =
      " WHERE match_id = " + std::to_string(match) + " AND seat = " + std::to_string(bob_seat);
  EXPECT_EQ(sql_text("SELECT computer FROM seats" + bob_row), "random");
  EXPECT_EQ(sql_text("SELECT nickname FROM seats" + bob_row),
            "Computer " + std::to_string(bob_seat));
  // Bob is free again.
  auto other = bob->request(R"("type":"create_match","players":2)");
  ASSERT_TRUE(other && other->type == "joined") << (other ? other->line : "no reply");

  alice.reset();
  bob.reset();
  stop_gracefully();
  restart();
  alice = log_in("alice", alice_token);
  ASSERT_TRUE(alice);
  // The state after logged_in: the computer in bob's seat, the takeover level kept.
  auto state = alice->wait_type("state", 5s);
  ASSERT_TRUE(state) << "no state after the restart";
  EXPECT_EQ(state->str("takeover"), "random") << state->line;
  const rapidjson::Value* seats = state->get("seats");
  ASSERT_TRUE(seats && seats->IsArray());
  EXPECT_STREQ((*seats)[static_cast<rapidjson::SizeType>(bob_seat)]["computer"].GetString(),
               "random");
  EXPECT_EQ(sql_text("SELECT takeover FROM matches WHERE id = " + std::to_string(match)), "random");
  // The computers play on: events by bob's old seat after the restart.
  const std::string seq_before =
      sql_text("SELECT last_seq FROM matches WHERE id = " + std::to_string(match));
  const std::string moved =
      "SELECT count(*) FROM events WHERE match_id = " + std::to_string(match) + " AND actor = '" +
      std::to_string(bob_seat) + "' AND seq > " + seq_before;
  alice->send_line(R"({"type":"sync","id":"again"})");  // a state to play from (the first was read)
  const auto until = Clock::now() + 12s;
  while (sql_text(moved) == "0" && status_of(match) == "running" && Clock::now() < until)
    step(*alice, rng);
  EXPECT_NE(sql_text(moved), "0") << "the computer in seat " << bob_seat << " did not move";
}

}  // namespace
}  // namespace eryantis::integration
