// Through real restarts on a real database: the stored turn grace deadline is
// kept while players come back one at a time, and a match released from
// quarantine after its players sat down elsewhere waits for them, then resumes;
// a stored match of a game (or game version) this build does not serve is left
// exactly as it was, and served by a build that has it.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <thread>

#include "fixture.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

struct Person {
  std::string nickname;
  std::string token;
  std::unique_ptr<Client> client;
};

class RestartTest : public ServerFixture {
 protected:
  // Connects, greets and logs in; returns the logged_in reply.
  Message log_in(Person& p) {
    p.client = Client::connect(port(), p.nickname);
    EXPECT_TRUE(p.client);
    if (!p.client) return {};
    EXPECT_TRUE(p.client->hello());
    auto r = p.client->login(p.nickname, p.token);
    EXPECT_TRUE(r && r->type == "logged_in") << (r ? r->line : "no reply");
    if (!r) return {};
    p.token = r->str("token");
    return *r;
  }
  void play(Person& p, const std::string& command) {
    auto r = p.client->request(R"("type":"play","command":)" + command);
    ASSERT_TRUE(r && r->type == "ack")
        << p.nickname << " " << command << ": " << (r ? r->line : "no reply");
  }
  // Creates a match of all `players` (the first creates) and plays its setup.
  std::int64_t start_match(std::vector<Person*> players) {
    auto created = players[0]->client->create(static_cast<int>(players.size()), "simple");
    EXPECT_TRUE(created && created->type == "joined");
    if (!created) return 0;
    const std::int64_t match = created->i64("match");
    for (std::size_t i = 1; i < players.size(); ++i) {
      auto joined = players[i]->client->join(match);
      EXPECT_TRUE(joined && joined->type == "joined") << (joined ? joined->line : "no reply");
    }
    static const char* kColors[] = {"black", "white", "grey"};
    for (std::size_t i = 0; i < players.size(); ++i) {
      play(*players[i], R"({"type":"choose_wizard","wizard":)" + std::to_string(i) + "}");
      play(*players[i],
           R"({"type":"choose_tower_color","color":")" + std::string(kColors[i]) + "\"}");
    }
    return match;
  }
  // Our sockets closed first, so the server's shutdown does not wait for them.
  void stop(std::vector<Person*> players) {
    for (Person* p : players) p->client.reset();
    stop_gracefully();
  }
  void sql(const std::string& statement) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(db_.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, statement.c_str(), nullptr, nullptr, &error);
    EXPECT_EQ(rc, SQLITE_OK) << statement << ": " << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
  }
  static bool is_event(const Message& m, const std::string& type) {
    return m.type == "event" &&
           m.json("event").find("\"type\":\"" + type + "\"") != std::string::npos;
  }
};

TEST_F(RestartTest, AStoredTurnGraceDeadlineIsKeptWhilePlayersComeBackOneAtATime) {
  TestConfig config;
  config.turn_grace_ms = 4000;
  start(config);
  std::vector<Person> players(3);
  players[0].nickname = "ta";
  players[1].nickname = "tb";
  players[2].nickname = "tc";
  for (Person& p : players) log_in(p);
  ASSERT_FALSE(HasFailure());
  const std::int64_t match = start_match({&players[0], &players[1], &players[2]});
  ASSERT_FALSE(HasFailure());
  auto state = players[0].client->request(R"("type":"sync")");
  ASSERT_TRUE(state && state->type == "state");
  const rapidjson::Value* to_act = state->get("to_act");
  ASSERT_TRUE(to_act && to_act->IsArray() && to_act->Size() == 1) << state->line;
  const int absent = (*to_act)[0].GetInt();
  // The seat to act leaves: its grace clock starts (stored at the next tick).
  const auto t0 = Clock::now();
  players[absent].client.reset();
  std::this_thread::sleep_for(300ms);
  stop({&players[0], &players[1], &players[2]});
  restart();
  Person& first = players[(absent + 1) % 3];
  Person& second = players[(absent + 2) % 3];
  EXPECT_EQ(log_in(first).i64("match"), match);  // alone: its forfeit clock, not the grace
  std::this_thread::sleep_until(t0 + 2000ms);
  EXPECT_EQ(log_in(second).i64("match"), match);
  const auto second_back = Clock::now();
  auto skip =
      second.client->wait_for([](const Message& m) { return is_event(m, "skip_turn"); }, 10s);
  ASSERT_TRUE(skip) << "no skip_turn";
  const auto skipped = Clock::now();
  // Due 4 s after the disconnect; re-armed it would come 4 s after the second return.
  EXPECT_GE(skipped - t0, 3900ms);
  EXPECT_LE(skipped, std::max(t0 + 4000ms, second_back) + 900ms)
      << "skipped " << std::chrono::duration_cast<std::chrono::milliseconds>(skipped - t0).count()
      << " ms after the disconnect";
}

TEST_F(RestartTest, AMatchReleasedAfterItsPlayersMovedOnResumesWhenTheyAreFree) {
  TestConfig config;
  config.forfeit_after_ms = 1000;
  start(config);
  Person alice{"alice", {}, nullptr};
  Person bob{"bob", {}, nullptr};
  log_in(alice);
  log_in(bob);
  const std::int64_t first = start_match({&alice, &bob});
  ASSERT_FALSE(HasFailure());
  const std::string seq =
      sql_text("SELECT last_seq FROM matches WHERE id = " + std::to_string(first));
  stop({&alice, &bob});

  // Damage one stored hash: the match is quarantined at the next start.
  const std::string where = " WHERE match_id = " + std::to_string(first) + " AND seq = 2";
  const std::string hash = sql_text("SELECT state_hash FROM events" + where);
  ASSERT_EQ(hash.size(), 16u);
  sql("UPDATE events SET state_hash = '0000000000000000'" + where);
  restart();
  EXPECT_NE(server_->log().find("match " + std::to_string(first) + ": quarantined"),
            std::string::npos);
  // Its players see it as gone and play another match.
  EXPECT_FALSE(log_in(alice).has("match"));
  EXPECT_FALSE(log_in(bob).has("match"));
  const std::int64_t second = start_match({&alice, &bob});
  ASSERT_FALSE(HasFailure());
  stop({&alice, &bob});

  // The operator repairs the row and releases the match (docs/operations.md).
  sql("UPDATE events SET state_hash = '" + hash + "'" + where);
  sql("UPDATE matches SET status = 'running', quarantine_reason = NULL WHERE id = " +
      std::to_string(first));
  restart();
  EXPECT_NE(server_->log().find("match " + std::to_string(first) + ": not resumed yet"),
            std::string::npos)
      << server_->log_tail();
  // Each player has exactly one seat: the newer match's.
  EXPECT_EQ(log_in(alice).i64("match"), second);
  EXPECT_EQ(log_in(bob).i64("match"), second);
  auto list = alice.client->request(R"("type":"list_matches")");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->i64("yours"), second);
  // bob goes away; alice wins the second match by forfeit, and the first resumes.
  bob.client.reset();
  auto over = alice.client->wait_type("game_over", 10s);
  ASSERT_TRUE(over) << server_->log_tail();
  EXPECT_EQ(over->i64("match"), second);
  auto resumed = alice.client->wait_for(
      [&](const Message& m) { return m.type == "state" && m.i64("match") == first; }, 5s);
  ASSERT_TRUE(resumed) << server_->log_tail();
  EXPECT_EQ(resumed->str("status"), "running");
  EXPECT_EQ(std::to_string(resumed->i64("seq")), seq);
  EXPECT_EQ(resumed->i64("seat"), 0);
  auto back = log_in(bob);
  EXPECT_EQ(back.i64("match"), first);
  EXPECT_EQ(back.i64("seat"), 1);
  auto sync = bob.client->request(R"("type":"sync")");
  ASSERT_TRUE(sync && sync->type == "state");
  EXPECT_EQ(sync->i64("match"), first);

  // And after another restart the first match is simply there.
  stop({&alice, &bob});
  restart();
  EXPECT_EQ(log_in(alice).i64("match"), first);
  auto db = read_database();
  EXPECT_EQ(db[second].status, store::MatchStatus::Finished);
  EXPECT_EQ(db[first].status, store::MatchStatus::Running);
  EXPECT_TRUE(db[first].verified) << db[first].problem;
}

// Issue 11: a player away when their match ended is told the result at their next
// login, even across a restart, exactly once (also across a second restart).
TEST_F(RestartTest, AResultMissedIsToldAtLoginAfterARestartExactlyOnce) {
  TestConfig config;
  config.forfeit_after_ms = 1000;
  start(config);
  Person alice{"alice", {}, nullptr};
  Person bob{"bob", {}, nullptr};
  log_in(alice);
  log_in(bob);
  const std::int64_t match = start_match({&alice, &bob});
  ASSERT_FALSE(HasFailure());
  // bob goes away; alice, alone, wins by forfeit a second later.
  bob.client.reset();
  auto over = alice.client->wait_type("game_over", 10s);
  ASSERT_TRUE(over) << server_->log_tail();
  EXPECT_EQ(over->i64("match"), match);
  // Stored with the ending, before anybody told bob anything.
  EXPECT_EQ(sql_text("SELECT match_id FROM unseen_endings WHERE nickname = 'bob'"),
            std::to_string(match));
  stop({&alice, &bob});
  restart();

  auto back = log_in(bob);
  EXPECT_FALSE(back.has("match"));  // no seat any more
  auto missed = bob.client->next(5s);
  ASSERT_TRUE(missed) << server_->log_tail();
  EXPECT_EQ(missed->type, "game_over") << missed->line;
  EXPECT_EQ(missed->i64("match"), match);
  EXPECT_EQ(missed->json("result"), over->json("result"));
  // Once: nothing else comes on this connection, nor after logging in again.
  EXPECT_FALSE(bob.client->wait_type("game_over", 300ms));
  bob.client.reset();
  log_in(bob);
  EXPECT_FALSE(bob.client->wait_type("game_over", 300ms));
  // Nor after one more restart: the delivery was stored too.
  stop({&alice, &bob});
  EXPECT_EQ(sql_text("SELECT count(*) FROM unseen_endings"), "0");
  restart();
  log_in(bob);
  EXPECT_FALSE(bob.client->wait_type("game_over", 300ms));
  bob.client.reset();
}

// Issue 24: the store records each match's game; a build quarantines at start
// (logs, skips: never crashes on, changes or times out) every match of a game it
// does not have or of a game version its game does not read.
TEST_F(RestartTest, AMatchOfAGameThisBuildDoesNotServeIsSkippedUntouched) {
  TestConfig config;
  config.abandon_after_ms = 1000;  // what would end the unserved ones, were they served
  start(config);
  Person alice{"alice", {}, nullptr}, bob{"bob", {}, nullptr};
  Person carol{"carol", {}, nullptr}, dave{"dave", {}, nullptr};
  Person erin{"erin", {}, nullptr}, frank{"frank", {}, nullptr};
  for (Person* p : {&alice, &bob, &carol, &dave, &erin, &frank}) log_in(*p);
  const std::int64_t served = start_match({&alice, &bob});
  const std::int64_t other_game = start_match({&carol, &dave});
  auto created = erin.client->create(2, "expert");
  ASSERT_TRUE(created && created->type == "joined");
  const std::int64_t newer_rules = created->i64("match");
  auto lobby = frank.client->create(2, "simple");
  ASSERT_TRUE(lobby && lobby->type == "joined");
  const std::int64_t served_lobby = lobby->i64("match");
  ASSERT_FALSE(HasFailure());
  stop({&alice, &bob, &carol, &dave, &erin, &frank});
  EXPECT_EQ(sql_text("SELECT game || ' ' || game_version FROM matches WHERE id = " +
                     std::to_string(served)),
            "eriantys 1");

  // Another build's matches: a game this one lacks, and rules newer than it reads.
  sql("UPDATE matches SET game = 'nosuchgame' WHERE id = " + std::to_string(other_game));
  sql("UPDATE matches SET game_version = 99 WHERE id = " + std::to_string(newer_rules));
  const std::string row_columns =
      "status || '|' || updated || '|' || last_seq || '|' || coalesce(deadline_kind, '-') || "
      "'|' || coalesce(deadline_at, '-') || '|' || coalesce(quarantine_reason, '-') || '|' || "
      "game || '|' || game_version || '|' || (SELECT count(*) FROM events WHERE match_id = id) "
      "|| '|' || (SELECT group_concat(nickname) FROM seats WHERE match_id = id)";
  auto row = [&](std::int64_t id) {
    return sql_text("SELECT " + row_columns + " FROM matches WHERE id = " + std::to_string(id));
  };
  const std::string other_game_row = row(other_game);
  const std::string newer_rules_row = row(newer_rules);
  ASSERT_NE(other_game_row.find("running|"), std::string::npos) << other_game_row;
  ASSERT_NE(newer_rules_row.find("lobby|"), std::string::npos) << newer_rules_row;

  restart();
  const std::string log = server_->log();
  EXPECT_NE(log.find("match " + std::to_string(other_game) +
                     ": game nosuchgame version 1 quarantined: this build does not serve it; "
                     "a build that has it will"),
            std::string::npos)
      << server_->log_tail();
  EXPECT_NE(log.find("match " + std::to_string(newer_rules) +
                     ": game eriantys version 99 quarantined: this build does not serve it"),
            std::string::npos)
      << server_->log_tail();
  // The served match is back; the unserved ones are not listed, their players free.
  EXPECT_EQ(log_in(alice).i64("match"), served);
  EXPECT_FALSE(log_in(carol).has("match"));
  EXPECT_FALSE(log_in(erin).has("match"));
  auto list = alice.client->request(R"("type":"list_matches")");
  ASSERT_TRUE(list);
  const std::string open = list->json("open");
  const std::string running = list->json("running");
  EXPECT_NE(running.find("\"match\":" + std::to_string(served) + ","), std::string::npos)
      << running;
  EXPECT_NE(running.find("\"game\":\"eriantys\""), std::string::npos) << running;
  for (const std::int64_t unserved : {other_game, newer_rules}) {
    EXPECT_EQ(open.find("\"match\":" + std::to_string(unserved) + ","), std::string::npos)
        << open;
    EXPECT_EQ(running.find("\"match\":" + std::to_string(unserved) + ","), std::string::npos)
        << running;
  }
  auto join = carol.client->join(other_game);
  ASSERT_TRUE(join);
  EXPECT_EQ(join->type, "error") << join->line;
  // The served lobby match, deserted, is abandoned after abandon_after_ms; the
  // unserved ones, whose stored timers were due no later, are not.
  EXPECT_TRUE(test::eventually(std::chrono::seconds(20), [&] {
    return sql_text("SELECT status FROM matches WHERE id = " + std::to_string(served_lobby)) ==
           "abandoned";
  })) << server_->log_tail();
  EXPECT_EQ(row(other_game), other_game_row);
  EXPECT_EQ(row(newer_rules), newer_rules_row);
  stop({&alice, &bob, &carol, &erin});
  EXPECT_EQ(row(other_game), other_game_row);
  EXPECT_EQ(row(newer_rules), newer_rules_row);

  // A build that serves them (as far as this one can tell: the rows back as it
  // wrote them) takes them up again where they were: their stored desertion
  // timers, long due, now end them as they would have ended here.
  sql("UPDATE matches SET game = 'eriantys' WHERE id = " + std::to_string(other_game));
  sql("UPDATE matches SET game_version = 1 WHERE id = " + std::to_string(newer_rules));
  restart();
  EXPECT_TRUE(test::eventually(std::chrono::seconds(20), [&] {
    return sql_text("SELECT group_concat(status) FROM matches WHERE id IN (" +
                    std::to_string(other_game) + ", " + std::to_string(newer_rules) + ")") ==
           "abandoned,abandoned";
  })) << server_->log_tail();
  // The log holds every run's lines: the two of the second start, none since.
  const std::string all = server_->log();
  std::size_t lines = 0;
  for (auto at = all.find("this build does not serve it"); at != std::string::npos;
       at = all.find("this build does not serve it", at + 1))
    ++lines;
  EXPECT_EQ(lines, 2u);
}

}  // namespace
}  // namespace eryantis::integration
