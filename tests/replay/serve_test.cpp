// `eryantis-replay DB serve`: the real binary on 127.0.0.1 over a database built
// with the store API (random games appended as the server would), asked over
// HTTP; its answers are checked against the games themselves.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>
#include "eryantis/json/json.hpp"

#include <array>
#include <chrono>
#include <string>
#include <vector>

#include "eryantis/rules/random_game.hpp"
#include "eryantis/store/sqlite_store.hpp"
#include "games/handles.hpp"
#include "support/child_process.hpp"
#include "support/polling.hpp"
#include "support/temp_dir.hpp"
#include "support/websocket_client.hpp"

namespace eryantis::replay {
namespace {

using namespace eryantis::rules;

const std::array<std::string, 4> kNames = {"alice", "bob", "carol", "dana"};

class ServeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    spdlog::set_level(spdlog::level::warn);
    db_ = dir_.file("matches.db");
    auto store = store::SqliteStore::open(db_, test::with_games<store::Options>());
    ASSERT_TRUE(store) << store.error().message;
    const std::vector<std::pair<MatchOptions, std::uint64_t>> games = {{{2, Mode::Expert}, 7},
                                                                       {{3, Mode::Simple}, 8}};
    store::MatchId id = 0;
    for (const auto& [options, seed] : games) {
      ++id;
      std::vector<std::uint64_t> hashes;
      RandomGame game = play_random_game(
          options, seed, [&](const Event&, const State& s) { hashes.push_back(hash(s)); });
      std::vector<store::NewEvent> events;
      for (std::size_t i = 0; i < game.events.size(); ++i) {
        store::NewEvent e;
        e.actor = i == 0 ? store::Actor::server() : store::Actor::player(game.events[i].seat);
        e.event = test::handle(game.events[i]);
        e.state_hash = hashes[i];
        events.push_back(std::move(e));
      }
      store::AppendRequest r = store::AppendRequest::of(id, 0, std::move(events),
                                                         test::handle(game.state));
      r.create = store::NewMatch{test::handle(options), store::MatchStatus::Running};
      for (int p = 0; p < options.players; ++p) {
        store::SeatRecord seat;
        seat.seat = p;
        seat.nickname = kNames[static_cast<std::size_t>(p)];
        seat.resume_token_hash = store::hash_to_hex(static_cast<std::uint64_t>(p));
        r.seats.push_back(seat);
      }
      r.status = store::MatchStatus::Finished;
      r.result_json = R"({"type":"result"})";
      auto done = store->append_batch(std::span(&r, 1));
      ASSERT_TRUE(done.at(0)) << done.at(0).error().message;
      games_.push_back(std::move(game));
    }
  }

  void TearDown() override {
    if (server_) server_->kill_hard();
  }

  // Starts `eryantis-replay DB serve --port 0` and reads the port it prints.
  void serve(const std::string& db) {
    server_ = std::make_unique<test::ChildProcess>(
        test::Spawn{.argv = {ERYANTIS_REPLAY_BINARY, db, "serve", "--port", "0", "--static",
                             dir_.file("www")}});
    ASSERT_TRUE(server_->started());
    static constexpr std::string_view kServing = "on http://127.0.0.1:";
    ASSERT_TRUE(test::eventually(std::chrono::seconds(10), [&] {
      const std::string out = server_->output();
      const std::size_t at = out.find(kServing);
      if (at == std::string::npos || out.find('/', at + kServing.size()) == std::string::npos)
        return false;
      port_ = std::atoi(out.c_str() + at + kServing.size());
      return true;
    })) << server_->output();
  }

  test::HttpReply get(const std::string& target, const std::string& method = "GET") {
    auto c = test::WsClient::connect(port_);
    EXPECT_TRUE(c);
    if (!c) return {};
    auto reply = c->get(target, "", method);
    EXPECT_TRUE(reply) << target;
    return reply.value_or(test::HttpReply{});
  }

  static rapidjson::Document parse(const std::string& body) {
    rapidjson::Document d;
    d.Parse(body.c_str());
    EXPECT_FALSE(d.HasParseError()) << body;
    return d;
  }

  test::TempDir dir_{"eryantis-serve"};
  std::string db_;
  std::vector<RandomGame> games_;
  std::unique_ptr<test::ChildProcess> server_;
  int port_ = 0;
};

TEST_F(ServeTest, ListsMatches) {
  serve(db_);
  const test::HttpReply reply = get("/api/matches");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(*reply.header("content-type"), "application/json");
  rapidjson::Document list = parse(reply.body);
  ASSERT_TRUE(list.IsArray());
  ASSERT_EQ(list.Size(), 2u);
  EXPECT_EQ(list[0]["match"].GetInt64(), 1);
  EXPECT_EQ(list[0]["players"].GetInt(), 2);
  EXPECT_STREQ(list[0]["mode"].GetString(), "expert");
  EXPECT_STREQ(list[0]["status"].GetString(), "finished");
  ASSERT_TRUE(list[0].HasMember("game"));
  EXPECT_STREQ(list[0]["game"].GetString(), "eriantys");
  EXPECT_EQ(list[0]["game_version"].GetInt(), 1);
  EXPECT_EQ(list[0]["events"].GetInt64(), static_cast<std::int64_t>(games_[0].events.size()));
  EXPECT_TRUE(list[0]["created"].IsString());
  EXPECT_TRUE(list[0]["last_move"].IsString());
  ASSERT_EQ(list[1]["nicknames"].Size(), 3u);
  EXPECT_STREQ(list[1]["nicknames"][2].GetString(), "carol");
}

TEST_F(ServeTest, LogHasOneSentencePerEvent) {
  serve(db_);
  rapidjson::Document log = parse(get("/api/matches/1/log").body);
  ASSERT_TRUE(log.IsArray());
  ASSERT_EQ(log.Size(), games_[0].events.size());
  for (rapidjson::SizeType i = 0; i < log.Size(); ++i) {
    EXPECT_EQ(log[i]["seq"].GetInt64(), static_cast<std::int64_t>(i + 1));
    EXPECT_TRUE(log[i]["at"].IsString());
    EXPECT_TRUE(log[i]["round"].IsInt());
    EXPECT_TRUE(log[i]["type"].IsString());
    EXPECT_GT(log[i]["text"].GetStringLength(), 0u);
  }
  EXPECT_TRUE(log[0]["seat"].IsNull());  // the match's creation is the server's
  EXPECT_TRUE(log[1]["seat"].IsInt());
  // The sentences name the players.
  EXPECT_NE(get("/api/matches/1/log").body.find("alice"), std::string::npos);
}

TEST_F(ServeTest, AtSeqIsThePublicStateFoldedThere) {
  serve(db_);
  const RandomGame& game = games_[0];
  const std::int64_t last = static_cast<std::int64_t>(game.events.size());
  for (std::int64_t seq : {std::int64_t{1}, last / 2, last}) {
    rapidjson::Document at = parse(get("/api/matches/1/at/" + std::to_string(seq)).body);
    ASSERT_TRUE(at.IsObject()) << seq;
    EXPECT_EQ(at["match"].GetInt64(), 1);
    EXPECT_EQ(at["seq"].GetInt64(), seq);
    EXPECT_TRUE(at["view"].IsObject());
    EXPECT_TRUE(at["to_act"].IsArray());
    EXPECT_EQ(std::string(at["hash"].GetString()).size(), 16u);
  }
  // The last position: the game's final state seen by a spectator.
  rapidjson::Document end = parse(get("/api/matches/1/at/" + std::to_string(last)).body);
  EXPECT_STREQ(end["status"].GetString(), "finished");
  EXPECT_EQ(std::string(end["hash"].GetString()),
            store::hash_to_hex(hash(view(game.state, kNoSeat).state)));
  EXPECT_EQ(get("/api/matches/1/at/" + std::to_string(last + 1)).status, 404);
  EXPECT_EQ(get("/api/matches/9/at/1").status, 404);
}

// A clocked match (schema 13): `at` adds the control and every seat's clock right
// after the event, folded from the events' stored times and the clock steps.
TEST_F(ServeTest, AtSeqShowsTheClocksOfAClockedMatch) {
  {
    auto store = store::SqliteStore::open(db_, test::with_games<store::Options>());
    ASSERT_TRUE(store) << store.error().message;
    const MatchOptions options{2, Mode::Simple};
    std::vector<std::uint64_t> hashes;
    RandomGame game = play_random_game(
        options, 9, [&](const Event&, const State& s) { hashes.push_back(hash(s)); });
    ASSERT_GE(game.events.size(), 2u);
    auto event = [&](std::size_t i) {
      store::NewEvent e;
      e.actor = i == 0 ? store::Actor::server() : store::Actor::player(game.events[i].seat);
      e.event = test::handle(game.events[i]);
      e.state_hash = hashes[i];
      return e;
    };
    // Created at 1 s with its clocks running at once; the second event 3 s later.
    store::AppendRequest first = store::AppendRequest::of(3, 0, {event(0)});
    first.create = store::NewMatch{test::handle(options), store::MatchStatus::Running};
    first.create->clock = "10m+0s";
    first.time_ms = 1'000;
    store::AppendRequest second = store::AppendRequest::of(3, 1, {event(1)});
    second.time_ms = 4'000;
    for (const store::AppendRequest& r : {first, second}) {
      auto done = store->append_batch(std::span(&r, 1));
      ASSERT_TRUE(done.at(0)) << done.at(0).error().message;
    }
  }
  serve(db_);
  auto total_left = [](const rapidjson::Document& at) {
    std::int64_t sum = 0;
    for (const auto& c : at["clocks"].GetArray()) sum += c["left_ms"].GetInt64();
    return sum;
  };
  rapidjson::Document one = parse(get("/api/matches/3/at/1").body);
  ASSERT_TRUE(one.HasMember("clocks")) << get("/api/matches/3/at/1").body;
  EXPECT_STREQ(one["clock"]["control"].GetString(), "10m+0s");
  EXPECT_EQ(one["clocks"].Size(), 2u);
  EXPECT_EQ(total_left(one), 1'200'000);
  rapidjson::Document two = parse(get("/api/matches/3/at/2").body);
  EXPECT_LE(total_left(two), 1'200'000 - 3'000);
  EXPECT_GE(total_left(two), 1'200'000 - 6'000);
  // A match without a clock has no such fields.
  EXPECT_FALSE(parse(get("/api/matches/1/at/1").body).HasMember("clocks"));
}

TEST_F(ServeTest, VerifyFindsTheFirstDivergence) {
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(db_.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "UPDATE events SET state_hash = '0000000000000000' "
                           "WHERE match_id = 2 AND seq = 5",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  serve(db_);
  rapidjson::Document good = parse(get("/api/matches/1/verify").body);
  EXPECT_TRUE(good["ok"].GetBool());
  EXPECT_TRUE(good["seq"].IsNull());
  rapidjson::Document bad = parse(get("/api/matches/2/verify").body);
  EXPECT_FALSE(bad["ok"].GetBool());
  EXPECT_EQ(bad["seq"].GetInt64(), 5);
  EXPECT_GT(bad["message"].GetStringLength(), 0u);
  // The log lists every stored event (ADamagedMatchListsEveryStoredEvent).
  EXPECT_EQ(parse(get("/api/matches/2/log").body).Size(), games_[1].events.size());
}

// A damaged match in the viewer (docs/web.md): its log lists every stored event,
// marks the first divergent one with what differs and those after it as not
// re-checked; positions up to the last stored event exist, and past the trusted
// prefix `at` says why it cannot show them.
TEST_F(ServeTest, ADamagedMatchListsEveryStoredEvent) {
  const std::size_t events = games_[1].events.size();
  ASSERT_GT(events, 40u);
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(db_.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "UPDATE events SET state_hash = '0000000000000000' "
                           "WHERE match_id = 2 AND seq = 30",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  serve(db_);
  rapidjson::Document log = parse(get("/api/matches/2/log").body);
  ASSERT_TRUE(log.IsArray());
  ASSERT_EQ(log.Size(), events) << "every stored event, not the trusted 29";
  for (rapidjson::SizeType i = 0; i < log.Size(); ++i) {
    const auto& e = log[i];
    const std::int64_t seq = e["seq"].GetInt64();
    EXPECT_EQ(seq, static_cast<std::int64_t>(i + 1));
    EXPECT_TRUE(e["type"].IsString());
    EXPECT_GT(e["text"].GetStringLength(), 0u);
    EXPECT_EQ(e["trusted"].GetBool(), seq < 30) << seq;
    EXPECT_EQ(e.HasMember("diverges"), seq == 30) << seq;
    EXPECT_EQ(seq < 30 ? e["round"].IsInt() : e["round"].IsNull(), true) << seq;
  }
  const std::string differs = log[29]["diverges"].GetString();
  EXPECT_NE(differs.find("hash mismatch at event 30: stored 0000000000000000, recomputed "),
            std::string::npos)
      << differs;
  EXPECT_NE(std::string(log[29]["text"].GetString()).find(differs), std::string::npos);
  EXPECT_NE(std::string(log[30]["text"].GetString()).find("the match diverges at event 30"),
            std::string::npos)
      << log[30]["text"].GetString();
  // The trusted events keep their sentences (the same as an undamaged match's).
  EXPECT_EQ(std::string(log[0]["text"].GetString()).rfind("match created: 3 players", 0), 0u);
  // Positions: 29 is the last trusted board; 30 and 31 name the divergence.
  EXPECT_EQ(get("/api/matches/2/at/29").status, 200);
  const test::HttpReply past = get("/api/matches/2/at/31");
  EXPECT_EQ(past.status, 404);
  EXPECT_NE(past.body.find("events 1..29 are trustworthy: hash mismatch at event 30"),
            std::string::npos)
      << past.body;
}

TEST_F(ServeTest, OnlyGetAndKnownPaths) {
  serve(db_);
  EXPECT_EQ(get("/api/matches", "DELETE").status, 405);
  EXPECT_EQ(get("/api/nothing").status, 404);
  EXPECT_EQ(get("/api/matches/x/log").status, 404);
  EXPECT_EQ(get("/api/matches/1/frobnicate").status, 404);
  EXPECT_EQ(get("/ws").status, 404);  // no WebSocket here
  EXPECT_EQ(get("/").status, 404);    // no web client built in this test's folder
}

TEST_F(ServeTest, AMissingDatabaseIsAUsageError) {
  auto child = test::ChildProcess(
      test::Spawn{.argv = {ERYANTIS_REPLAY_BINARY, dir_.file("none.db"), "serve", "--port", "0"}});
  EXPECT_EQ(child.wait_exit(std::chrono::seconds(10)), 2);
}

}  // namespace
}  // namespace eryantis::replay
