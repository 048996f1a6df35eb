// Ratings and histories through the real server (docs/accounts.md, "Ratings and
// history"): bots and the server's computer players finish matches, and the server's
// GET /ratings/<game> gives exactly the numbers `eryantis-replay DB ratings` recomputes
// from the log of the same file — live (each finished match applied as it finished),
// after a restart (the start's fold over the places stored with each match), and after
// a restart on a file whose results lost their places (the start then folds the log).
// GET /history/<name> lists a player's finished matches, private ones without their id or opponents (still
// rated); every refusal has its code.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <tuple>

#include "eryantis/json/json.hpp"
#include "fixture.hpp"
#include "support/websocket_client.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;
using test::WsClient;

// One rating as both sides print it (name, rating, deviation, volatility, games, W, D, L).
using Row = std::tuple<double, double, double, int, int, int, int>;
// (game, players) -> player -> row.
using Table = std::map<std::pair<std::string, int>, std::map<std::string, Row>>;

Row row_of(const rapidjson::Value& r) {
  return {r["rating"].GetDouble(), r["deviation"].GetDouble(), r["volatility"].GetDouble(),
          r["games"].GetInt(),     r["wins"].GetInt(),         r["draws"].GetInt(),
          r["losses"].GetInt()};
}

class RatingsTest : public ServerFixture {
 protected:
  void start_web() {
    const std::string path = write_config(dir_, "eryantis.toml", db_, TestConfig{});
    std::ofstream(path, std::ios::app)
        << "\n[web]\nenabled = true\nport = 0\n"
        << "\n[computer]\nworkers = 2\npause_ms = 0\nlevel = \"random\"\nplayouts = 50\n";
    start_with(path);
    find_web_port();
  }
  void find_web_port() {
    static constexpr std::string_view kListening = "web listening on http://127.0.0.1:";
    const std::string log = server_->log();
    const std::size_t at = log.rfind(kListening);
    ASSERT_NE(at, std::string::npos) << log;
    web_port_ = std::atoi(log.c_str() + at + kListening.size());
    ASSERT_GT(web_port_, 0);
  }

  std::optional<test::HttpReply> get(std::string_view target, std::string_view method = "GET") {
    auto c = WsClient::connect(web_port_);
    std::optional<test::HttpReply> reply;
    if (c) reply = c->get(target, "Content-Length: 0\r\n", method);
    return reply;
  }

  // The bot: `games` matches of `players` seats, `computers` of them the server's.
  void run_bot(int players, int computers, const std::string& level, int games,
               const std::string& prefix) {
    std::vector<std::string> argv = {ERYANTIS_BOT_BINARY,
                                     "--port",
                                     std::to_string(port()),
                                     "--players",
                                     std::to_string(players),
                                     "--matches",
                                     "1",
                                     "--games",
                                     std::to_string(games),
                                     "--duration",
                                     "120",
                                     "--name-prefix",
                                     prefix,
                                     "--quiet"};
    if (computers > 0) {
      argv.insert(argv.end(), {"--computers", std::to_string(computers), "--level", level});
    }
    std::string output;
    const int code = run_program(argv, &output, 150s);
    ASSERT_EQ(code, 0) << output;
  }

  int finished_in_db() {
    return std::atoi(sql_text("SELECT count(*) FROM matches WHERE status = 'finished'").c_str());
  }

  // The server's table at `at`, every pool the replay tool names (provisional included),
  // once the server has read every finished match of the file.
  Table server_table(const Table& pools, std::int64_t at) {
    Table out;
    const int expected = finished_in_db();
    for (const auto& [pool, rows] : pools) {
      const std::string target = "/ratings/" + pool.first +
                                 "?players=" + std::to_string(pool.second) +
                                 "&provisional=1&limit=1000&at=" + std::to_string(at);
      rapidjson::Document d;
      // Bounded: the server reads finished matches within a tick or two of their end.
      for (int attempt = 0; attempt < 200; ++attempt) {
        auto reply = get(target);
        EXPECT_TRUE(reply);
        if (!reply) return out;
        EXPECT_EQ(reply->status, 200) << reply->body;
        d.Parse(reply->body.c_str());
        if (d.IsObject() && d["matches"].GetInt() == expected) break;
        std::this_thread::sleep_for(50ms);
      }
      EXPECT_EQ(d["matches"].GetInt(), expected) << "the server did not read every match";
      EXPECT_EQ(d["at"].GetInt64(), at);
      for (const auto& r : d["ratings"].GetArray()) out[pool][r["player"].GetString()] = row_of(r);
    }
    return out;
  }

  Table replay_table(std::int64_t at, int* matches = nullptr) {
    std::string output;
    const int code = run_program(
        {ERYANTIS_REPLAY_BINARY, db_, "ratings", "--json", "--at", std::to_string(at)}, &output);
    EXPECT_EQ(code, 0) << output;
    rapidjson::Document d;
    d.Parse(output.c_str());
    Table out;
    if (!d.IsObject()) {
      ADD_FAILURE() << "not JSON: " << output;
      return out;
    }
    if (matches) *matches = d["matches"].GetInt();
    EXPECT_EQ(d["skipped"].Size(), 0u) << output;
    for (const auto& pool : d["pools"].GetArray()) {
      auto& rows = out[{pool["game"].GetString(), pool["players"].GetInt()}];
      for (const auto& r : pool["ratings"].GetArray()) rows[r["player"].GetString()] = row_of(r);
    }
    return out;
  }

  int web_port_ = 0;
};

TEST_F(RatingsTest, TheServersRatingsAreTheReplayToolsFoldOfTheSameFile) {
  start_web();
  // Bots against the random computer (the scale's anchor), against the greedy one, and
  // three bots at a table of three with a computer: three pools, computers rated too.
  run_bot(2, 1, "random", 3, "ra");
  ASSERT_FALSE(HasFatalFailure());
  run_bot(2, 1, "greedy", 2, "rg");
  ASSERT_FALSE(HasFatalFailure());
  run_bot(2, 0, "", 2, "rb");
  ASSERT_FALSE(HasFatalFailure());
  run_bot(3, 1, "random", 2, "rc");
  ASSERT_FALSE(HasFatalFailure());
  ASSERT_GE(finished_in_db(), 9);

  const std::int64_t at = 4'000'000'000'000;  // a fixed "now" for both: deviations widen alike
  int replayed = 0;
  Table replay = replay_table(at, &replayed);
  EXPECT_EQ(replayed, finished_in_db());
  ASSERT_TRUE(replay.contains({"eriantys", 2})) << "no 2-player pool";
  ASSERT_TRUE(replay.contains({"eriantys", 3})) << "no 3-player pool";
  EXPECT_TRUE(replay.at({"eriantys", 2}).contains("computer:random"));
  EXPECT_TRUE(replay.at({"eriantys", 2}).contains("computer:greedy"));
  // The anchor does not move.
  EXPECT_EQ(std::get<0>(replay.at({"eriantys", 2}).at("computer:random")), 1000.0);

  // Live: each match applied as it finished.
  EXPECT_EQ(server_table(replay, at), replay);

  // A player's history: every finished match of the random computer, newest first.
  auto history = get("/history/computer:random");
  ASSERT_TRUE(history);
  ASSERT_EQ(history->status, 200) << history->body;
  rapidjson::Document h;
  h.Parse(history->body.c_str());
  ASSERT_TRUE(h.IsObject()) << history->body;
  const int with_random = std::atoi(
      sql_text("SELECT count(DISTINCT m.id) FROM matches m JOIN seats s ON s.match_id = m.id "
               "WHERE m.status = 'finished' AND s.computer = 'random'")
          .c_str());
  EXPECT_GE(with_random, 5);  // three 2-player matches, two 3-player ones
  EXPECT_EQ(h["finished"].GetInt(), with_random);
  ASSERT_EQ(h["matches"].Size(), static_cast<rapidjson::SizeType>(with_random));
  std::int64_t previous = INT64_MAX;
  for (const auto& m : h["matches"].GetArray()) {
    EXPECT_LE(m["finished_ms"].GetInt64(), previous);
    previous = m["finished_ms"].GetInt64();
    EXPECT_GT(m["commands"].GetInt64(), 0);
    EXPECT_GE(m["duration_ms"].GetInt64(), 0);
    EXPECT_TRUE(m["result"].GetString() == std::string("won") ||
                m["result"].GetString() == std::string("lost") ||
                m["result"].GetString() == std::string("draw"))
        << m["result"].GetString();
  }
  EXPECT_EQ(h["ratings"].Size(), 2u);  // its 2- and 3-player pools
  // A bot's history by its nickname (the bots are named <prefix>-...).
  const std::string bot =
      sql_text("SELECT nickname FROM seats WHERE computer IS NULL AND nickname LIKE 'rb%' LIMIT 1");
  ASSERT_FALSE(bot.empty());
  auto bots = get("/history/" + bot);
  ASSERT_TRUE(bots);
  EXPECT_EQ(bots->status, 200) << bots->body;

  // Refusals, each with its code.
  const auto code_of = [&](std::string_view target, int status, std::string_view method = "GET") {
    auto reply = get(target, method);
    EXPECT_TRUE(reply) << target;
    if (!reply) return std::string();
    EXPECT_EQ(reply->status, status) << target << ": " << reply->body;
    rapidjson::Document d;
    d.Parse(reply->body.c_str());
    return d.IsObject() && d.HasMember("code") ? std::string(d["code"].GetString()) : reply->body;
  };
  EXPECT_EQ(code_of("/ratings/chess?players=2", 404), "UNKNOWN_GAME");
  EXPECT_EQ(code_of("/ratings/eriantys", 400), "BAD_PLAYERS");
  EXPECT_EQ(code_of("/ratings/eriantys?players=9", 400), "BAD_PLAYERS");
  EXPECT_EQ(code_of("/ratings/eriantys?players=two", 400), "BAD_PLAYERS");
  EXPECT_EQ(code_of("/ratings/eriantys?players=2&colour=red", 400), "BAD_PARAMETER");
  EXPECT_EQ(code_of("/ratings/eriantys?players=2&at=soon", 400), "BAD_PARAMETER");
  EXPECT_EQ(code_of("/ratings/eriantys?players=2&players=3", 400), "BAD_PARAMETER");
  EXPECT_EQ(code_of("/history/nobody", 404), "UNKNOWN_PLAYER");
  EXPECT_EQ(code_of("/history/", 400), "BAD_PLAYER");
  EXPECT_EQ(code_of("/history/" + bot + "?limit=0", 400), "BAD_PARAMETER");
  EXPECT_EQ(code_of("/ratings/eriantys?players=2", 405, "POST"), "METHOD_NOT_ALLOWED");
  // Without provisional=1 the leaderboard shows only established ratings: after a few
  // matches every person is provisional; the anchor (deviation 0) never is.
  auto board = get("/ratings/eriantys?players=2");
  ASSERT_TRUE(board);
  rapidjson::Document b;
  b.Parse(board->body.c_str());
  ASSERT_TRUE(b.IsObject()) << board->body;
  for (const auto& r : b["ratings"].GetArray()) EXPECT_FALSE(r["provisional"].GetBool());

  // Restarted: the start's fold over the stored places gives the same numbers.
  stop_gracefully();
  ASSERT_FALSE(HasFailure());
  restart();
  ASSERT_FALSE(HasFatalFailure());
  find_web_port();
  EXPECT_EQ(server_table(replay, at), replay);

  // A private match (docs/accounts.md, "Private matches in ratings and histories"): still
  // rated (both folds give the same numbers as before), listed without its id or opponents.
  stop_gracefully();
  ASSERT_FALSE(HasFailure());
  const std::string hidden =
      sql_text("SELECT min(m.id) FROM matches m JOIN seats s ON s.match_id = m.id "
               "WHERE m.status = 'finished' AND s.computer = 'random'");
  sql_text("UPDATE matches SET is_private = 1 WHERE id = " + hidden);
  restart();
  ASSERT_FALSE(HasFatalFailure());
  find_web_port();
  EXPECT_EQ(server_table(replay, at), replay);
  EXPECT_EQ(replay_table(at), replay);
  auto listed = get("/history/computer:random?limit=500");
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->status, 200) << listed->body;
  rapidjson::Document l;
  l.Parse(listed->body.c_str());
  ASSERT_TRUE(l.IsObject()) << listed->body;
  EXPECT_EQ(l["finished"].GetInt(), with_random);
  EXPECT_EQ(l["private"].GetInt(), 1);
  ASSERT_EQ(l["matches"].Size(), static_cast<rapidjson::SizeType>(with_random));
  int private_rows = 0;
  for (const auto& m : l["matches"].GetArray()) {
    if (m["match"].IsNull()) {  // the private one: its own seat only, no id, no opponents
      ++private_rows;
      EXPECT_TRUE(m["private"].GetBool());
      EXPECT_EQ(m["seats"].Size(), 1u);
    } else {
      EXPECT_NE(std::to_string(m["match"].GetInt64()), hidden) << "a private match's id is shown";
    }
  }
  EXPECT_EQ(private_rows, 1);

  // Schema 14 (docs/accounts.md, "Who is rated: the player key"): a bot's later seats
  // become an account's (its earlier matches stay its guest name's: not inherited), and
  // a seat of a 3-player match is taken over by a computer after its bot left. Both
  // folds rate the account under account:<id> and who left last, the computer not.
  stop_gracefully();
  ASSERT_FALSE(HasFailure());
  const std::string member = sql_text(
      "SELECT nickname FROM seats WHERE computer IS NULL AND nickname LIKE 'rb%' "
      "AND length(nickname) BETWEEN 3 AND 20 ORDER BY match_id LIMIT 1");
  ASSERT_FALSE(member.empty());
  sql_text("INSERT INTO accounts (name, name_key, password_hash, created_ms, "
           "password_changed_ms) VALUES ('" + member + "', lower('" + member + "'), 'x', 1, 1)");
  const std::string account = sql_text("SELECT id FROM accounts WHERE name = '" + member + "'");
  const int member_matches = std::atoi(
      sql_text("SELECT count(*) FROM seats WHERE nickname = '" + member + "'").c_str());
  sql_text("UPDATE seats SET account_id = " + account + " WHERE nickname = '" + member +
           "' AND (SELECT count(*) FROM seats WHERE nickname = '" + member + "') = 1 OR "
           "(nickname = '" + member + "' AND match_id > (SELECT min(match_id) FROM seats "
           "WHERE nickname = '" + member + "'))");
  const std::string leaver = sql_text(
      "SELECT s.nickname FROM seats s JOIN matches m ON m.id = s.match_id WHERE "
      "m.status = 'finished' AND s.computer IS NULL AND s.nickname LIKE 'rc%' "
      "ORDER BY s.match_id LIMIT 1");
  ASSERT_FALSE(leaver.empty());
  sql_text("UPDATE seats SET computer = 'random', nickname = 'Computer ' || seat, "
           "left_by = 'name:' || nickname WHERE nickname = '" + leaver + "' AND match_id = "
           "(SELECT min(match_id) FROM seats WHERE nickname = '" + leaver + "')");
  restart();
  ASSERT_FALSE(HasFatalFailure());
  find_web_port();
  const Table keyed = replay_table(at);
  EXPECT_EQ(server_table(keyed, at), keyed);
  const std::string account_key = "account:" + account;
  EXPECT_TRUE(keyed.at({"eriantys", 2}).contains(account_key));
  EXPECT_EQ(keyed.at({"eriantys", 2}).contains("name:" + member), member_matches > 1)
      << "a guest's matches under the name stay the guest's";
  ASSERT_TRUE(keyed.at({"eriantys", 3}).contains("name:" + leaver));
  EXPECT_GE(std::get<6>(keyed.at({"eriantys", 3}).at("name:" + leaver)), 1)
      << "who left is rated, last";
  EXPECT_NE(keyed, replay);
  // Pages show the account's name, and its history is found by that name.
  auto member_history = get("/history/" + member);
  ASSERT_TRUE(member_history);
  ASSERT_EQ(member_history->status, 200) << member_history->body;
  rapidjson::Document mh;
  mh.Parse(member_history->body.c_str());
  ASSERT_TRUE(mh.IsObject()) << member_history->body;
  EXPECT_EQ(std::string(mh["player"].GetString()), account_key);
  EXPECT_EQ(std::string(mh["name"].GetString()), member);
  auto board2 = get("/ratings/eriantys?players=2&provisional=1&limit=1000");
  ASSERT_TRUE(board2);
  rapidjson::Document b2;
  b2.Parse(board2->body.c_str());
  ASSERT_TRUE(b2.IsObject()) << board2->body;
  bool shown = false;
  for (const auto& r : b2["ratings"].GetArray())
    if (std::string(r["player"].GetString()) == account_key)
      shown = std::string(r["name"].GetString()) == member;
  EXPECT_TRUE(shown) << board2->body;
  replay = keyed;

  // A file whose results name no places (matches finished before the server stored
  // them): the server folds their logs at start, as the replay tool always does.
  stop_gracefully();
  ASSERT_FALSE(HasFailure());
  sql_text("UPDATE matches SET result = json_remove(result, '$.places', '$.teams')");
  ASSERT_EQ(sql_text("SELECT count(*) FROM matches WHERE result LIKE '%places%'"), "0");
  restart();
  ASSERT_FALSE(HasFatalFailure());
  find_web_port();
  EXPECT_EQ(server_table(replay, at), replay);
  EXPECT_EQ(replay_table(at), replay);

  // Stored places that disagree with the log: the replay tool says so (exit 1) and uses
  // the log's, so its numbers do not change.
  sql_text(
      "UPDATE matches SET result = json_set(result, '$.places', json('[1,1]')) WHERE id = "
      "(SELECT min(id) FROM matches WHERE status = 'finished')");
  std::string output;
  EXPECT_EQ(
      run_program({ERYANTIS_REPLAY_BINARY, db_, "ratings", "--json", "--at", std::to_string(at)},
                  &output),
      1)
      << output;
  EXPECT_NE(output.find("differ from the log's"), std::string::npos) << output;
}

}  // namespace
}  // namespace eryantis::integration
