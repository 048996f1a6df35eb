// eryantis-replay on the PostgreSQL backend: a postgresql:// URI in place of the
// database file, for list, log, show and verify (a throwaway cluster from
// tests/support; skipped without PostgreSQL, failed when CI is set).
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "eryantis/rules/random_game.hpp"
#include "eryantis/store/pg_store.hpp"
#include "games/handles.hpp"
#include "support/child_process.hpp"
#include "support/postgres_cluster.hpp"

namespace eryantis::replay {
namespace {

using namespace eryantis::rules;

TEST(PostgresReplay, ListLogShowAndVerifyReadAPostgresqlUri) {
  std::string why_not;
  test::PostgresCluster* cluster = test::PostgresCluster::shared(&why_not);
  if (!cluster) {
    if (test::PostgresCluster::required())
      FAIL() << "CI is set, so PostgreSQL must be: " << why_not;
    GTEST_SKIP() << "PostgreSQL backend not tested: " << why_not;
  }
  spdlog::set_level(spdlog::level::warn);
  const std::string uri = cluster->fresh_uri();
  {
    auto store = store::PgStore::open(uri, test::with_games<store::Options>());
    ASSERT_TRUE(store) << store.error().message;
    std::vector<std::uint64_t> hashes;
    RandomGame game = play_random_game(
        {2, Mode::Expert}, 5, [&](const Event&, const State& s) { hashes.push_back(hash(s)); });
    std::vector<store::NewEvent> events;
    for (std::size_t i = 0; i < game.events.size(); ++i) {
      events.emplace_back(
          i == 0 ? store::Actor::server() : store::Actor::player(game.events[i].seat), std::nullopt,
          test::handle(game.events[i]), hashes[i]);
    }
    store::AppendRequest r = store::AppendRequest::of(1, 0, std::move(events), test::handle(game.state));
    r.create = store::NewMatch{test::handle(MatchOptions{2, Mode::Expert}),
                               store::MatchStatus::Running};
    r.seats = {store::SeatRecord{0, 0, "alice", "00", std::nullopt, std::nullopt, std::nullopt},
               store::SeatRecord{0, 1, "bob", "01", std::nullopt, std::nullopt, std::nullopt}};
    r.status = store::MatchStatus::Finished;
    auto done = store->append_batch(std::span(&r, 1));
    ASSERT_TRUE(done.at(0)) << done.at(0).error().message;
  }
  auto run = [](std::vector<std::string> args, std::string* output) {
    args.insert(args.begin(), ERYANTIS_REPLAY_BINARY);
    return test::run_program(args, output, std::chrono::seconds(60));
  };
  std::string list;
  EXPECT_EQ(run({uri, "list"}, &list), 0) << list;
  EXPECT_NE(list.find("alice"), std::string::npos) << list;
  EXPECT_NE(list.find("finished"), std::string::npos) << list;
  std::string log;
  EXPECT_EQ(run({uri, "log", "1"}, &log), 0) << log;
  EXPECT_GE(std::count(log.begin(), log.end(), '\n'), 10) << log;
  std::string show;
  // The board as its first event set it up (--at N is the state after event N).
  EXPECT_EQ(run({uri, "show", "1", "--at", "1", "--no-color"}, &show), 0) << show;
  EXPECT_NE(show.find("match 1 at seq 1 of "), std::string::npos) << show;
  EXPECT_NE(show.find("2 players, expert"), std::string::npos) << show;
  std::string verify;
  EXPECT_EQ(run({uri, "verify", "--all"}, &verify), 0) << verify;
  std::string missing;
  EXPECT_EQ(run({uri, "show", "9"}, &missing), 2) << missing;
  // A server that does not answer is a clear error, not a crash.
  std::string down;
  EXPECT_EQ(run({"postgresql://nobody@/none?host=/nonexistent&port=1", "list"}, &down), 2) << down;
  EXPECT_NE(down.find("cannot open"), std::string::npos) << down;
}

}  // namespace
}  // namespace eryantis::replay
