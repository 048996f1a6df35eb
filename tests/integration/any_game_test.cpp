// The engine is generic: Goofspiel, a card game with hidden bids and a shuffled
// deck that exists only in the tests (tests/games), played end to end through the
// real server (eryantis-test-server: src/main/main.cpp built with the tests'
// registry), its SQLite file, a restart, the store's verify, a computer seat and the
// generic load bot. No platform file names Goofspiel (docs/games.md).
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <random>
#include <set>

#include "client.hpp"
#include "eryantis/store/sqlite_store.hpp"
#include "games/games.hpp"
#include "support/child_process.hpp"
#include "support/server_process.hpp"
#include "support/temp_dir.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;

class AnyGameTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = dir_.file("any.db");
    test::TestConfig config;
    config.durability = "full";
    config_ = test::write_config(dir_, "any.toml", db_, config);
    server_ = std::make_unique<test::ServerProcess>(config_, db_, 0, ERYANTIS_TEST_SERVER_BINARY);
    ASSERT_TRUE(server_->start()) << server_->log_tail();
  }

  std::unique_ptr<Client> player(const std::string& nickname) {
    auto c = Client::connect(server_->port(), nickname);
    EXPECT_TRUE(c);
    if (!c) return c;
    EXPECT_TRUE(c->hello(true));
    auto logged = c->login(nickname);
    EXPECT_TRUE(logged && logged->type == "logged_in");
    return c;
  }

  // Plays random legal commands from `legal` for whoever must act, until every
  // client saw game_over. Returns the event JSON each client was sent, by seq.
  std::vector<std::map<std::int64_t, std::string>> play_out(
      std::vector<std::unique_ptr<Client>>& clients, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::map<std::int64_t, std::string>> events(clients.size());
    std::vector<bool> over(clients.size(), false);
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (std::find(over.begin(), over.end(), false) != over.end() &&
           std::chrono::steady_clock::now() < deadline) {
      for (std::size_t i = 0; i < clients.size(); ++i) {
        if (over[i]) continue;
        auto m = clients[i]->next(20ms);
        if (!m) continue;
        if (m->type == "game_over") over[i] = true;
        if (m->type == "event") events[i][m->i64("seq")] = m->json("event");
        if (m->type != "event" && m->type != "state") continue;
        const auto& doc = *m->doc;
        if (!doc.HasMember("legal") || !doc["legal"].IsArray() || doc["legal"].Empty()) continue;
        const auto& legal = doc["legal"];
        const auto& pick = legal[static_cast<rapidjson::SizeType>(rng() % legal.Size())];
        rapidjson::StringBuffer text;
        rapidjson::Writer<rapidjson::StringBuffer> writer(text);
        pick.Accept(writer);  // the legal entry is a `play` command as it is
        clients[i]->send_play(text.GetString(), std::nullopt);
      }
    }
    EXPECT_TRUE(std::find(over.begin(), over.end(), false) == over.end())
        << "the match did not end in 60 s:\n"
        << server_->log_tail();
    return events;
  }

  // The matches of the file, verified by the store's own fold with the tests' games.
  std::map<store::MatchId, store::MatchSummary> verified_matches() {
    auto db = store::SqliteStore::open(db_, store::Options{.read_only = true,
                                                           .games = &test::games()});
    EXPECT_TRUE(db) << db.error().message;
    std::map<store::MatchId, store::MatchSummary> out;
    if (!db) return out;
    auto list = db->list_matches();
    EXPECT_TRUE(list);
    for (const store::MatchSummary& m : *list) {
      auto report = db->verify(m.id);
      EXPECT_TRUE(report && report->ok())
          << "match " << m.id << ": "
          << (report ? report->divergence->reason : report.error().message);
      out[m.id] = m;
    }
    return out;
  }

  test::TempDir dir_;
  std::string db_;
  std::string config_;
  std::unique_ptr<test::ServerProcess> server_;
};

TEST_F(AnyGameTest, AGameOfTheTestsIsPlayedRestoredAndVerifiedThroughTheRealServer) {
  const std::uint64_t seed = std::random_device{}();
  std::cout << "[ seed     ] " << seed << std::endl;
  std::vector<std::unique_ptr<Client>> clients;
  clients.push_back(player("ada"));
  clients.push_back(player("bob"));
  ASSERT_FALSE(HasFailure());
  // welcome lists it; create_match names it with its own options.
  auto created = clients[0]->request(
      R"("type":"create_match","players":2,"game":"goofspiel","options":{"cards":6})");
  ASSERT_TRUE(created);
  ASSERT_EQ(created->type, "joined") << created->line;
  const std::int64_t match = created->i64("match");
  auto state = clients[0]->wait_type("state", 5s);
  ASSERT_TRUE(state);
  EXPECT_EQ(state->str("game"), "goofspiel");
  auto joined = clients[1]->join(match);
  ASSERT_TRUE(joined && joined->type == "joined") << (joined ? joined->line : "no reply");

  const auto events = play_out(clients, seed);
  ASSERT_FALSE(HasFailure());
  // Hidden information stays hidden: somewhere a seat's bid reached the other seat
  // without its card (the two seats were sent different event texts).
  int differing = 0;
  for (const auto& [seq, text] : events[0])
    if (auto other = events[1].find(seq); other != events[1].end() && other->second != text)
      ++differing;
  EXPECT_GT(differing, 0) << "every event was the same for both seats: nothing hidden";

  // Killed and started again: the finished match is on disk, whole and verifiable.
  server_->kill_hard();
  ASSERT_TRUE(server_->start()) << server_->log_tail();
  const auto stored = verified_matches();
  ASSERT_EQ(stored.count(match), 1u);
  EXPECT_EQ(stored.at(match).game, "goofspiel");
  EXPECT_EQ(stored.at(match).status, store::MatchStatus::Finished);
}

TEST_F(AnyGameTest, AComputerSeatAndTheGenericBotPlayIt) {
  // A person against the server's own player of that game (the engine's generic
  // search over the game's hooks).
  std::vector<std::unique_ptr<Client>> clients;
  clients.push_back(player("cy"));
  ASSERT_FALSE(HasFailure());
  auto created = clients[0]->request(
      R"("type":"create_match","players":2,"game":"goofspiel","computers":1,"level":"strong")");
  ASSERT_TRUE(created);
  ASSERT_EQ(created->type, "joined") << created->line;
  play_out(clients, 7);
  ASSERT_FALSE(HasFailure());

  // The load bot, which knows no game: random legal commands from `legal`.
  test::ChildProcess bot(test::Spawn{
      .argv = {ERYANTIS_TEST_BOT_BINARY, "--port", std::to_string(server_->port()), "--game",
               "goofspiel", "--matches", "3", "--games", "3", "--duration", "30", "--quiet",
               "--json"}});
  ASSERT_TRUE(bot.started());
  const auto code = bot.wait_exit(std::chrono::seconds(60));
  ASSERT_TRUE(code.has_value()) << "the bot did not finish";
  EXPECT_EQ(*code, 0) << bot.output();
  server_->signal_term();
  EXPECT_EQ(server_->wait_exit(20s), 0) << server_->log_tail();
  int finished = 0;
  for (const auto& [id, m] : verified_matches())
    finished += m.game == "goofspiel" && m.status == store::MatchStatus::Finished;
  EXPECT_GE(finished, 4);  // the computer's match and the bot's three
}

}  // namespace
}  // namespace eryantis::integration
