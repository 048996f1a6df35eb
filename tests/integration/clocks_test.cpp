// Clocks for everyone, against the real server and its SQLite file: a match created
// with `clock` keeps its time control in its row, shows every seat's clock in
// `state` and `event`, and a seat that runs out (here: nobody plays once the match
// runs) gets the match's on_timeout rule: skipped, taken over by a computer, or
// forfeited. After a graceful restart the clocks go on from the stored times: the
// stop paused them (a `pause` row) and the start resumed them (`resume`).
//
// The smallest bank a match may have is 10 s (clocks::kMinBankMs), so each
// timeout test waits about 10 s: bounded waits on the database or on a push.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "eryantis/json/value.hpp"
#include "fixture.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class ClocksTest : public ServerFixture {
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
  std::string of_match(const std::string& what, std::int64_t match) const {
    return sql_text("SELECT " + what + " FROM matches WHERE id = " + std::to_string(match));
  }
  std::string count(const std::string& table_where) const {
    return sql_text("SELECT count(*) FROM " + table_where);
  }
  // alice creates a 2-seat match with `clock_fields`, bob joins, both make their
  // setup choices until it runs; then nobody plays.
  std::int64_t running_match(Client& alice, Client& bob, const std::string& clock_fields,
                             std::mt19937_64& rng) {
    auto joined =
        alice.request(R"("type":"create_match","players":2,"mode":"simple",)" + clock_fields);
    EXPECT_TRUE(joined && joined->type == "joined") << (joined ? joined->line : "no reply");
    if (!joined || joined->type != "joined") return 0;
    const std::int64_t match = joined->i64("match");
    auto bob_joined = bob.request(R"("type":"join_match","match":)" + std::to_string(match));
    EXPECT_TRUE(bob_joined && bob_joined->type == "joined")
        << (bob_joined ? bob_joined->line : "no reply");
    const auto deadline = Clock::now() + 20s;
    while (of_match("status", match) != "running" && Clock::now() < deadline) {
      step(alice, rng);
      step(bob, rng);
    }
    EXPECT_EQ(of_match("status", match), "running");
    return match;
  }
  // Polls the database (bounded): whether `query` gave `want` within `limit`.
  bool until_sql(const std::string& query, const std::string& want,
                 std::chrono::seconds limit = 20s) const {
    const auto until = Clock::now() + limit;
    while (Clock::now() < until) {
      if (sql_text(query) == want) return true;
      std::this_thread::sleep_for(50ms);  // polling a file another process writes
    }
    return sql_text(query) == want;
  }
};

TEST_F(ClocksTest, BadTimeControlsAreRefused) {
  start(TestConfig{});
  std::string token;
  auto alice = log_in("alice", token);
  ASSERT_TRUE(alice);
  struct Case {
    const char* fields;
    const char* why;
  };
  for (const Case& c :
       {Case{R"("clock":"10")", "a bare number is ambiguous"},
        Case{R"("clock":"5s")", "a bank under 10 s"}, Case{R"("clock":"13h")", "a bank over 12 h"},
        Case{R"("clock":"tomorrow")", "no such text"},
        Case{R"("clock":"30s/turn")", "a turn under 1 min"},
        Case{R"("clock":"10m","on_timeout":"nap")", "no such rule"}}) {
    auto r = alice->request(std::string(R"("type":"create_match","players":2,)") + c.fields);
    ASSERT_TRUE(r) << c.why;
    EXPECT_EQ(r->type, "error") << c.why << ": " << r->line;
    EXPECT_EQ(r->str("code"), "BAD_TIME_CONTROL") << c.why << ": " << r->line;
  }
  // ("computer" on a server without computer players: tests/server/clock_test.cpp.)
  // None of them made a match.
  EXPECT_EQ(count("matches"), "0");
  // "none" is no clock: a match like any other.
  auto none = alice->request(R"("type":"create_match","players":2,"clock":"none")");
  ASSERT_TRUE(none && none->type == "joined") << (none ? none->line : "no reply");
  EXPECT_EQ(of_match("coalesce(clock, 'null')", none->i64("match")), "null");
}

TEST_F(ClocksTest, ASeatOutOfTimeIsSkipped) {
  start(TestConfig{});
  std::mt19937_64 rng(test_seed());
  std::string a, b;
  auto alice = log_in("alice", a);
  auto bob = log_in("bob", b);
  ASSERT_TRUE(alice && bob);
  const std::int64_t match = running_match(*alice, *bob, R"("clock":"10s+1s")", rng);
  ASSERT_NE(match, 0);
  EXPECT_EQ(of_match("clock", match), "10s+1s");
  EXPECT_EQ(of_match("on_timeout", match), "skip");
  // The state shows the control and every seat's clock.
  alice->send_line(R"({"type":"sync","id":"s1"})");
  auto state = alice->wait_type("state", 5s);
  ASSERT_TRUE(state);
  EXPECT_EQ(state->json("clock"), R"({"control":"10s+1s","on_timeout":"skip"})") << state->line;
  const rapidjson::Value* clocks = state->get("clocks");
  ASSERT_TRUE(clocks && clocks->IsArray() && clocks->Size() == 2) << state->line;
  // At most the bank plus one increment per turn ended so far (a seat that ended two turns
  // once its clock ran has up to 12 s: the bound was 11 s and failed 1 run in 3 for that).
  const std::int64_t turns = std::stoll(count("events WHERE match_id = " + std::to_string(match)));
  int running = 0;
  for (const auto& c : clocks->GetArray()) {
    EXPECT_LE(c["left_ms"].GetInt64(), 10'000 + 1'000 * turns) << state->line;
    EXPECT_GT(c["left_ms"].GetInt64(), 0) << state->line;
    running += c["running"].GetBool();
  }
  EXPECT_EQ(running, 1) << state->line;
  // Nobody plays: the seat to act runs out and the server skips its turn (an event
  // of the server's, as a turn grace's skip).
  const std::string server_events =
      "events WHERE actor = 'server' AND seq > 1 AND match_id = " + std::to_string(match);
  const std::string before = count(server_events);
  const auto started = Clock::now();
  ASSERT_TRUE(until_sql("SELECT count(*) > " + before + " FROM " + server_events, "1", 25s))
      << "no turn was skipped";
  EXPECT_GE(Clock::now() - started, 8s) << "skipped before the bank could run out";
  // The push of that event carries the clocks: the seat that ran out has a timeout.
  auto pushed = alice->wait_for(
      [](const Message& m) {
        if (m.type != "event") return false;
        const rapidjson::Value* c = m.get("clocks");
        if (!c || !c->IsArray()) return false;
        for (const auto& seat : c->GetArray())
          if (seat["timeouts"].GetInt() > 0) return true;
        return false;
      },
      5s);
  EXPECT_TRUE(pushed) << "no event with a timed-out clock";
  EXPECT_EQ(of_match("status", match), "running");
}

TEST_F(ClocksTest, AComputerTakesASeatOutOfTime) {
  start_with_computers();
  std::mt19937_64 rng(test_seed());
  std::string a, b;
  auto alice = log_in("alice", a);
  auto bob = log_in("bob", b);
  ASSERT_TRUE(alice && bob);
  const std::int64_t match =
      running_match(*alice, *bob, R"("clock":"10s","on_timeout":"computer")", rng);
  ASSERT_NE(match, 0);
  EXPECT_EQ(of_match("on_timeout", match), "computer");
  // The seat to act runs out: a computer (the default level, greedy) takes it.
  const std::string computers =
      "seats WHERE computer IS NOT NULL AND match_id = " + std::to_string(match);
  ASSERT_TRUE(until_sql("SELECT count(*) FROM " + computers, "1", 25s)) << "no takeover";
  EXPECT_EQ(sql_text("SELECT computer FROM " + computers), "greedy");
  // Stored with the seat: its clock is stopped for good (an untimed step).
  EXPECT_EQ(count("clock_steps WHERE kind = 'untimed' AND match_id = " + std::to_string(match)),
            "1");
  // Its player is told why.
  const std::string seat = sql_text("SELECT seat FROM " + computers);
  Client& out = seat == "0" ? *alice : *bob;
  auto left = out.wait_for(
      [](const Message& m) { return m.type == "left" && m.str("reason") == "timeout"; }, 5s);
  EXPECT_TRUE(left) << "the player out of time was not told";
}

TEST_F(ClocksTest, ASeatOutOfTimeForfeits) {
  start(TestConfig{});
  std::mt19937_64 rng(test_seed());
  std::string a, b;
  auto alice = log_in("alice", a);
  auto bob = log_in("bob", b);
  ASSERT_TRUE(alice && bob);
  const std::int64_t match =
      running_match(*alice, *bob, R"("clock":"10s","on_timeout":"forfeit")", rng);
  ASSERT_NE(match, 0);
  // The seat to act runs out and resigns: in a match of two the other wins.
  ASSERT_TRUE(
      until_sql("SELECT status FROM matches WHERE id = " + std::to_string(match), "finished", 25s))
      << "the match did not end";
  auto over = alice->wait_type("game_over", 5s);
  EXPECT_TRUE(over) << "no game_over";
}

TEST_F(ClocksTest, ClocksGoOnFromTheStoredTimesAfterARestart) {
  start(TestConfig{});
  std::mt19937_64 rng(test_seed());
  std::string a, b;
  auto alice = log_in("alice", a);
  auto bob = log_in("bob", b);
  ASSERT_TRUE(alice && bob);
  const std::int64_t match = running_match(*alice, *bob, R"("clock":"10m+2s")", rng);
  ASSERT_NE(match, 0);
  const std::string id = std::to_string(match);
  // A few more moves, each charged to the seat that made it.
  const std::string seq0 = of_match("last_seq", match);
  const auto until = Clock::now() + 10s;
  while (std::stoll(of_match("last_seq", match)) < std::stoll(seq0) + 4 && Clock::now() < until) {
    step(*alice, rng);
    step(*bob, rng);
  }
  alice->send_line(R"({"type":"sync","id":"before"})");
  auto before = alice->wait_for([](const Message& m) { return m.type == "state"; }, 5s);
  ASSERT_TRUE(before);
  const std::string clocks_before = before->json("clocks");
  std::int64_t total_before = 0;
  for (const auto& c : before->get("clocks")->GetArray()) total_before += c["left_ms"].GetInt64();
  EXPECT_LT(total_before, 2 * 600'000 + 4 * 2'000) << clocks_before;
  const auto unix_now = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  const std::int64_t before_ms = unix_now();
  alice.reset();
  bob.reset();
  stop_gracefully();
  // The stop paused the running clocks.
  EXPECT_EQ(count("clock_steps WHERE kind = 'pause' AND match_id = " + id), "2")
      << "one pause at creation (the lobby), one at the stop";
  // Time passes while the server is down: not charged.
  std::this_thread::sleep_for(1500ms);
  restart();
  alice = log_in("alice", a);
  ASSERT_TRUE(alice);
  auto state = alice->wait_type("state", 5s);
  const std::int64_t after_ms = unix_now();
  ASSERT_TRUE(state) << "no state after the restart";
  EXPECT_EQ(state->json("clock"), R"({"control":"10m+2s","on_timeout":"skip"})") << state->line;
  ASSERT_TRUE(until_sql(
      "SELECT count(*) FROM clock_steps WHERE kind = 'resume' AND match_id = " + id, "2", 5s))
      << "one resume when the match started, one after the restart";
  std::int64_t total_after = 0;
  for (const auto& c : state->get("clocks")->GetArray()) total_after += c["left_ms"].GetInt64();
  // Folded back from the stored times: what was left, less what ran between the last
  // state before the stop and the stop's pause, and between the restart's resume and the
  // state after it; never the downtime (pause to resume, at least the 1.5 s slept). The
  // bound comes from the stored steps' times, not a fixed slack: a slow stop under load
  // (a sanitizer build) runs the clock longer, and that is right.
  const auto step_at = [&](const std::string& kind) {
    return std::stoll(sql_text("SELECT max(at_ms) FROM clock_steps WHERE kind = '" + kind +
                               "' AND match_id = " + id));
  };
  const std::int64_t paused_at = step_at("pause");
  const std::int64_t resumed_at = step_at("resume");
  const std::int64_t downtime = resumed_at - paused_at;
  EXPECT_GE(downtime, 1'500);
  const std::int64_t charged = total_before - total_after;
  EXPECT_GE(charged, 0) << clocks_before << " then " << state->json("clocks");
  EXPECT_LE(charged, (after_ms - before_ms) - downtime + 100)
      << "the downtime (" << downtime << " ms) was charged: " << clocks_before << " then "
      << state->json("clocks");
}

}  // namespace
}  // namespace eryantis::integration
