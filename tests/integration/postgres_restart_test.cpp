// The real server on PostgreSQL (storage.backend = "postgresql", a throwaway
// cluster from tests/support): a match is played, the server SIGKILLed and
// restarted on the same database, everyone logs back in with their token and
// the match is finished. Every acknowledged command is stored, the match
// verifies, and eryantis-replay verifies it through a postgresql:// URI.
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "fixture.hpp"
#include "support/postgres_cluster.hpp"

namespace eryantis::integration {
namespace {

class PostgresRestartTest : public ServerFixture {};

TEST_F(PostgresRestartTest, KilledMidMatchResumesFromPostgresql) {
  std::string why_not;
  test::PostgresCluster* cluster = test::PostgresCluster::shared(&why_not);
  if (!cluster) {
    if (test::PostgresCluster::required())
      FAIL() << "CI is set, so PostgreSQL must be: " << why_not;
    GTEST_SKIP() << "PostgreSQL backend not tested: " << why_not;
  }
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  std::mt19937_64 rng(seed);

  const std::string uri = cluster->fresh_uri();
  TestConfig config;
  config.durability = "full";
  config.snapshot_every = 8;  // the restart resumes from a snapshot
  std::string toml = test::read_file(write_config(dir_, "eryantis.toml", db_, config));
  const std::string section = "[storage]\n";
  toml.insert(toml.find(section) + section.size(),
              "backend = \"postgresql\"\npostgresql = \"" + uri + "\"\n");
  const std::string path = dir_.file("postgresql.toml");
  test::write_file(path, toml);
  start_with(path);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_NE(server_->log().find("database postgresql://"), std::string::npos)
      << server_->log_tail();

  GameOptions options{2, rules::Mode::Expert};
  options.tolerate_command_errors = false;
  Game game("pg", options, rng());
  game.connect_all(port());
  ASSERT_FALSE(HasFatalFailure());
  game.create_and_join();
  ASSERT_FALSE(HasFatalFailure());
  // A game on a local socket takes well under a second: stop it after a random
  // number of acknowledged commands rather than after a time.
  const std::size_t crash_after = 5 + rng() % 20;
  drive({&game}, std::chrono::seconds(20), [&] { return game.acked().size() >= crash_after; });
  ASSERT_FALSE(HasFatalFailure());
  ASSERT_FALSE(game.over()) << "the game ended before the crash; nothing was resumed";
  const std::size_t acked_before = game.acked().size();

  server_->kill_hard();
  game.pump();
  game.lost_server();
  restart();
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_NE(server_->log().find("restored 1 unfinished match"), std::string::npos)
      << server_->log_tail();
  for (int i = 0; i < game.players(); ++i) {
    ASSERT_TRUE(game.reconnect(i, port())) << "player " << i << " could not log back in";
  }
  ASSERT_TRUE(drive({&game}, std::chrono::seconds(sanitizer_run() ? 120 : 40)))
      << "the game did not end after the restart";
  game.lost_server();
  stop_gracefully();

  std::string error;
  auto db = read_db(uri, &error);
  ASSERT_TRUE(error.empty()) << error;
  expect_finished_in_db(db, game);
  std::cout << "[ pg       ] " << acked_before << " commands acknowledged before the kill, "
            << game.acked().size() << " in all, every one stored\n";
  std::string output;
  if (auto code = replay_verify_all(uri, &output)) {
    EXPECT_EQ(*code, 0) << "eryantis-replay verify --all:\n" << output;
  }
}

}  // namespace
}  // namespace eryantis::integration
