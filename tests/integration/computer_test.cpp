// Computer seats in the real server on a real database: a person plays a whole
// match against a computer, and a computer seat survives a restart and goes on
// playing. The person picks a random command from the `legal` list the server
// sends; the computer is the server's own.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <random>

#include "eryantis/codec/json_value.hpp"
#include "eryantis/json/value.hpp"
#include "fixture.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class ComputerSeatTest : public ServerFixture {
 protected:
  // The test configuration plus [computer] (no pause: the test waits for nobody).
  void start_with_computers(const std::string& level) {
    const std::string path = write_config(dir_, "eryantis.toml", db_, TestConfig{});
    std::ofstream(path, std::ios::app)
        << "\n[computer]\nworkers = 2\npause_ms = 0\nlevel = \"" << level << "\"\nplayouts = 200\n";
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
  // Plays the seat's legal commands (chosen by `rng`) as states and events arrive,
  // until game_over or `moves` commands sent; true at game over.
  bool play(Client& c, std::mt19937_64& rng, int moves, Clock::time_point deadline) {
    while (Clock::now() < deadline) {
      auto m = c.next(100ms);
      if (!m) continue;
      if (m->type == "game_over") return true;
      if (m->type == "error") {
        EXPECT_EQ(m->str("code"), "STALE_SEQ") << m->line;  // someone moved first: wait
        continue;
      }
      if (m->type != "state" && m->type != "event") continue;
      const rapidjson::Value* legal = m->get("legal");
      if (!legal || !legal->IsArray() || legal->Empty()) continue;
      if (moves-- <= 0) return false;
      const rapidjson::Value& pick =
          (*legal)[static_cast<rapidjson::SizeType>(rng() % legal->Size())];
      c.send_line(R"({"type":"play","id":")" + c.fresh_id() + R"(","expected_seq":)" +
                  std::to_string(m->i64("seq")) + R"(,"command":)" + json::text(pick) + "}");
    }
    ADD_FAILURE() << "no game_over in time";
    return false;
  }
};

TEST_F(ComputerSeatTest, APersonPlaysAMatchToTheEndAgainstARandomComputer) {
  start_with_computers("greedy");
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::string token;
  auto alice = log_in("alice", token);
  ASSERT_TRUE(alice);
  auto joined = alice->request(
      R"("type":"create_match","players":2,"mode":"expert","computers":1,"level":"random")");
  ASSERT_TRUE(joined && joined->type == "joined") << (joined ? joined->line : "no reply");
  const std::int64_t match = joined->i64("match");
  EXPECT_TRUE(play(*alice, rng, 100000, Clock::now() + 20s));
  const auto db = read_database();
  auto it = db.find(match);
  ASSERT_NE(it, db.end());
  EXPECT_EQ(it->second.status, store::MatchStatus::Finished);
  EXPECT_TRUE(it->second.verified) << it->second.problem;
  EXPECT_EQ(sql_text("SELECT computer FROM seats WHERE match_id = " + std::to_string(match) +
                     " AND seat = 1"),
            "random");
  EXPECT_EQ(sql_text("SELECT computer IS NULL FROM seats WHERE match_id = " +
                     std::to_string(match) + " AND seat = 0"),
            "1");
  EXPECT_GT(std::stoll(sql_text("SELECT count(*) FROM events WHERE match_id = " +
                                std::to_string(match) + " AND actor = '0'")),
            10);
  // The computer's moves are stored as its seat's, like a person's.
  EXPECT_NE(sql_text("SELECT count(*) FROM events WHERE match_id = " + std::to_string(match) +
                     " AND actor = '1'"),
            "0");
}

TEST_F(ComputerSeatTest, AComputerSeatSurvivesARestartAndGoesOnPlaying) {
  start_with_computers("greedy");
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::string token;
  auto alice = log_in("alice", token);
  ASSERT_TRUE(alice);
  auto joined = alice->request(R"("type":"create_match","players":3,"mode":"simple")");
  ASSERT_TRUE(joined && joined->type == "joined") << (joined ? joined->line : "no reply");
  const std::int64_t match = joined->i64("match");
  // Two computers at two levels: one from create's default, one added in the lobby.
  // The reply is a seats message with the request's id.
  auto seats = alice->request(R"("type":"add_computer","level":"random")");
  ASSERT_TRUE(seats && seats->type == "seats") << (seats ? seats->line : "no reply");
  EXPECT_NE(
      seats->json("seats").find(R"("nickname":"Computer 1","connected":true,"computer":"random")"),
      std::string::npos)
      << seats->line;
  seats = alice->request(R"("type":"add_computer")");
  ASSERT_TRUE(seats && seats->type == "seats") << (seats ? seats->line : "no reply");
  EXPECT_NE(seats->json("seats").find(R"("computer":"greedy")"), std::string::npos) << seats->line;
  // Setup and a few moves, then a graceful restart.
  EXPECT_FALSE(play(*alice, rng, 6, Clock::now() + 10s));
  const std::string seq_before =
      sql_text("SELECT last_seq FROM matches WHERE id = " + std::to_string(match));
  alice.reset();
  stop_gracefully();
  EXPECT_EQ(sql_text("SELECT computer FROM seats WHERE match_id = " + std::to_string(match) +
                     " AND seat = 1"),
            "random");
  EXPECT_EQ(sql_text("SELECT computer FROM seats WHERE match_id = " + std::to_string(match) +
                     " AND seat = 2"),
            "greedy");
  restart();
  alice = log_in("alice", token);
  ASSERT_TRUE(alice);
  // Back in the match (the state comes after logged_in); the computers play on to the end.
  EXPECT_TRUE(play(*alice, rng, 100000, Clock::now() + 20s));
  EXPECT_EQ(sql_text("SELECT status FROM matches WHERE id = " + std::to_string(match)), "finished");
  EXPECT_GT(
      std::stoll(sql_text("SELECT last_seq FROM matches WHERE id = " + std::to_string(match))),
      std::stoll(seq_before));
  for (const char* actor : {"1", "2"})
    EXPECT_NE(sql_text("SELECT count(*) FROM events WHERE match_id = " + std::to_string(match) +
                       " AND actor = '" + actor + "' AND seq > " + seq_before),
              "0")
        << "computer seat " << actor << " did not move after the restart";
}

}  // namespace
}  // namespace eryantis::integration
