// Masters of Renaissance, the second game, end to end through the release server
// (eryantis-server, the catalogue's games) and its SQLite file, as issue 25's "done
// when" plays it: a solo game against Lorenzo that survives a kill -9 in the middle,
// two people in one match, and one person with three computers. Every move comes
// from the seat's `legal` list, a command type first and then one of its commands
// (uniformly over the list would mostly rearrange the warehouse: a production turn
// lists thousands of payments and layouts). Seeds are printed. And the load bot
// (eryantis-bot) plays it from events alone, folding each into its seat's view.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>

#include "client.hpp"
#include "eryantis/codec/json_value.hpp"
#include "eryantis/json/value.hpp"
#include "fixture.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

struct Person {
  explicit Person(std::string name) : nickname(std::move(name)) {}
  std::string nickname;
  std::string token;
  std::unique_ptr<Client> client;
  std::map<std::int64_t, std::string> events;  // seq -> the event as this seat was sent it
  std::optional<Message> game_over;
};

class RenaissanceTest : public ServerFixture {
 protected:
  void start_with_computers() {
    const std::string path = write_config(dir_, "eryantis.toml", db_, TestConfig{});
    // No pause (the test waits for nobody); greedy decides in microseconds.
    std::ofstream(path, std::ios::app)
        << "\n[computer]\nworkers = 1\npause_ms = 0\nlevel = \"greedy\"\nplayouts = 200\n";
    start_with(path);
  }
  void log_in(Person& p) {
    p.client = Client::connect(port(), p.nickname);
    ASSERT_TRUE(p.client);
    ASSERT_TRUE(p.client->hello());
    auto r = p.client->login(p.nickname, p.token);
    ASSERT_TRUE(r && r->type == "logged_in") << (r ? r->line : "no reply");
    p.token = r->str("token");
  }
  // One command from `legal`: a type uniformly among those listed, then one of its
  // commands. Never a resignation (the list has none).
  static std::string pick(const rapidjson::Value& legal, std::mt19937_64& rng) {
    std::map<std::string, std::vector<const rapidjson::Value*>> by_type;
    for (const auto& c : legal.GetArray()) by_type[c["type"].GetString()].push_back(&c);
    auto it = by_type.begin();
    std::advance(it, static_cast<long>(rng() % by_type.size()));
    return json::text(*it->second[rng() % it->second.size()]);
  }
  // Plays every person's seat from what the server pushes until each saw game_over,
  // or `moves` commands were sent in all (then returns false), or time ran out.
  bool play(std::vector<Person*> people, std::mt19937_64& rng, int moves,
            std::chrono::seconds limit) {
    const auto deadline = Clock::now() + limit;
    auto all_over = [&] {
      return std::ranges::all_of(people, [](const Person* p) { return p->game_over.has_value(); });
    };
    while (!all_over() && Clock::now() < deadline) {
      for (Person* p : people) {
        if (p->game_over) continue;
        auto m = p->client->next(10ms);
        if (!m) continue;
        if (m->type == "game_over") p->game_over = m;
        if (m->type == "error") {
          // Another seat moved first, or our own move raced a push: wait for the next.
          EXPECT_EQ(m->str("code"), "STALE_SEQ") << p->nickname << ": " << m->line;
          continue;
        }
        if (m->type == "event") p->events[m->i64("seq")] = m->json("event");
        if (m->type != "state" && m->type != "event") continue;
        const rapidjson::Value* legal = m->get("legal");
        if (!legal || !legal->IsArray() || legal->Empty()) continue;
        if (moves-- <= 0) return false;
        p->client->send_line(R"({"type":"play","id":")" + p->client->fresh_id() +
                             R"(","expected_seq":)" + std::to_string(m->i64("seq")) +
                             R"(,"command":)" + pick(*legal, rng) + "}");
      }
    }
    EXPECT_TRUE(all_over()) << "no game_over in " << limit.count() << " s";
    return all_over();
  }
  // The match ended by the rules (not a forfeit or an operator), is finished on disk, and the
  // store's own fold of its events verifies.
  void expect_finished_and_verified(std::int64_t match, const Message& game_over) {
    const std::string result = game_over.json("result");
    std::cout << "[ result   ] " << result << " after "
              << sql_text("SELECT last_seq FROM matches WHERE id = " + std::to_string(match))
              << " events" << std::endl;
    for (const char* ending : {"\"faith_track\"", "\"seventh_card\"", "\"black_cross\"",
                               "\"colour_gone\""})
      if (result.find(ending) != std::string::npos) return expect_stored(match);
    ADD_FAILURE() << "not an ending of the rules: " << result;
  }
  void expect_stored(std::int64_t match) {
    EXPECT_EQ(sql_text("SELECT game FROM matches WHERE id = " + std::to_string(match)),
              "renaissance");
    EXPECT_EQ(sql_text("SELECT status FROM matches WHERE id = " + std::to_string(match)),
              "finished");
    const auto db = read_database();
    ASSERT_TRUE(db.contains(match));
    EXPECT_TRUE(db.at(match).verified) << db.at(match).problem;
    std::string output;  // and eryantis-replay agrees, when it is built
    if (const auto code = replay_verify_all(db_, &output)) {
      EXPECT_EQ(*code, 0) << output;
    }
  }
};

TEST_F(RenaissanceTest, ASoloGameAgainstLorenzoSurvivesAKillAndEnds) {
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] " << seed << std::endl;
  std::mt19937_64 rng(seed);
  start(TestConfig{.durability = "full"});
  Person ada{"ada"};
  log_in(ada);
  ASSERT_FALSE(HasFailure());
  auto created = ada.client->request(R"("type":"create_match","players":1,"game":"renaissance")");
  ASSERT_TRUE(created && created->type == "joined") << (created ? created->line : "no reply");
  const std::int64_t match = created->i64("match");

  // Some moves, then the server dies without a word: every acknowledged move is on disk.
  EXPECT_FALSE(play({&ada}, rng, 12, 30s));
  const std::string seq_before =
      sql_text("SELECT last_seq FROM matches WHERE id = " + std::to_string(match));
  server_->kill_hard();
  restart();
  ada.client.reset();
  log_in(ada);  // back in the match by nickname: the state follows logged_in
  ASSERT_FALSE(HasFailure());
  ASSERT_TRUE(play({&ada}, rng, 100000, 60s));
  EXPECT_GT(std::stoll(sql_text("SELECT last_seq FROM matches WHERE id = " +
                                std::to_string(match))),
            std::stoll(seq_before));

  // The result says who won: the player (with a score) or Lorenzo.
  const std::string result = ada.game_over->json("result");
  EXPECT_NE(result.find(R"("lorenzo_won":)"), std::string::npos) << result;
  EXPECT_NE(result.find(R"("scores":)"), std::string::npos) << result;
  expect_finished_and_verified(match, *ada.game_over);
}

TEST_F(RenaissanceTest, TwoPeoplePlayToTheEndAndNeitherSeesTheOthersLeaders) {
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] " << seed << std::endl;
  std::mt19937_64 rng(seed);
  start(TestConfig{});
  Person ada{"ada"}, bob{"bob"};
  log_in(ada);
  log_in(bob);
  ASSERT_FALSE(HasFailure());
  auto created = ada.client->request(R"("type":"create_match","players":2,"game":"renaissance")");
  ASSERT_TRUE(created && created->type == "joined") << (created ? created->line : "no reply");
  const std::int64_t match = created->i64("match");
  auto joined = bob.client->join(match);
  ASSERT_TRUE(joined && joined->type == "joined") << (joined ? joined->line : "no reply");
  ASSERT_TRUE(play({&ada, &bob}, rng, 100000, 90s));

  // The deal is hidden: the two seats were sent different texts of the same events
  // (each sees its own four leaders and the other's as 0).
  int differing = 0;
  for (const auto& [seq, text] : ada.events)
    if (auto other = bob.events.find(seq); other != bob.events.end() && other->second != text)
      ++differing;
  EXPECT_GT(differing, 0) << "every event was the same for both seats: nothing hidden";
  EXPECT_EQ(ada.game_over->json("result"), bob.game_over->json("result"));
  expect_finished_and_verified(match, *ada.game_over);
}

TEST_F(RenaissanceTest, OnePersonAndThreeComputersPlayAFourPlayerGame) {
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] " << seed << std::endl;
  std::mt19937_64 rng(seed);
  start_with_computers();
  Person ada{"ada"};
  log_in(ada);
  ASSERT_FALSE(HasFailure());
  auto created = ada.client->request(
      R"("type":"create_match","players":4,"game":"renaissance","computers":3)");
  ASSERT_TRUE(created && created->type == "joined") << (created ? created->line : "no reply");
  const std::int64_t match = created->i64("match");
  ASSERT_TRUE(play({&ada}, rng, 100000, 120s));
  // Each computer seat moved as its own seat (the store keeps who acted).
  for (const char* actor : {"1", "2", "3"})
    EXPECT_NE(sql_text("SELECT count(*) FROM events WHERE match_id = " + std::to_string(match) +
                       " AND actor = '" + actor + "'"),
              "0")
        << "computer seat " << actor << " never moved";
  expect_finished_and_verified(match, *ada.game_over);
}

// The load bot follows Renaissance from events alone ("updates":"events"): each seat
// folds the event as it may see it (hidden leaders, decks and tokens blanked) over
// its view with the rules' checked fold and checks the server's hash after every
// one. Any refusal or hash mismatch would be a sync; none may happen. Then the
// same with full updates (each event's view), for 1, 2 and 4 players.
TEST_F(RenaissanceTest, TheLoadBotFollowsItFromEventsAloneWithoutASync) {
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] " << seed << std::endl;
  start(TestConfig{});
  for (const char* updates : {"events", "full"})
    for (const char* players : {"1", "2", "4"}) {
      SCOPED_TRACE(std::string(updates) + ", " + players + " player(s)");
      const std::string games = sanitizer_run() ? "1" : "3";
      test::ChildProcess bot(test::Spawn{
          .argv = {ERYANTIS_BOT_BINARY, "--json", "--quiet", "--port", std::to_string(port()),
                   "--game", "renaissance", "--players", players, "--matches", games, "--games",
                   games, "--updates", updates, "--seed", std::to_string(seed % 1'000'000),
                   "--name-prefix", std::string(updates).substr(0, 1) + players, "--give-up",
                   "10"}});
      ASSERT_TRUE(bot.started());
      const auto code = bot.wait_exit(test::scaled(std::chrono::seconds(180)));
      ASSERT_TRUE(code) << "the bots did not finish their games";
      std::istringstream out(bot.output());
      std::string last_line;
      for (std::string l; std::getline(out, l);)
        if (!l.empty()) last_line = l;
      rapidjson::Document report;
      report.Parse(last_line.c_str());
      ASSERT_TRUE(!report.HasParseError() && report.IsObject()) << bot.output();
      EXPECT_EQ(*code, 0) << bot.output();
      EXPECT_GE(report["games_finished"].GetUint64(), std::stoull(games)) << last_line;
      EXPECT_EQ(report["unexpected_errors"].GetUint64(), 0u) << last_line;
      EXPECT_EQ(report["syncs"].GetUint64(), 0u) << "a seat's fold was refused or its hash "
                                                     "differed: "
                                                  << last_line;
      EXPECT_GT(report["events_applied"].GetUint64(), 20u) << last_line;
    }
}

}  // namespace
}  // namespace eryantis::integration
