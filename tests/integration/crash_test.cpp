// Crash recovery: several games run at once while the server is SIGKILLed at
// random moments and restarted on the same database; everyone reconnects with
// their token and every game is finished. Every acknowledged seq must be in the
// events table afterwards, and every match must verify.
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "fixture.hpp"

namespace eryantis::integration {
namespace {

class CrashTest : public ServerFixture {};

TEST_F(CrashTest, KilledAtRandomMomentsLosesNothingAcknowledged) {
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  RecordProperty("seed", std::to_string(seed));
  std::mt19937_64 rng(seed);
  const bool slow = sanitizer_run();
  const int kills = slow ? 5 : 10;
  const int batch_size = slow ? 3 : 6;  // games started at once

  TestConfig config;
  config.durability = "full";
  config.snapshot_every = 8;  // restarts also resume from snapshots
  start(config);

  std::vector<std::unique_ptr<Game>> games;
  int batches = 0;
  auto start_batch = [&] {
    static constexpr GameOptions kinds[] = {{2, rules::Mode::Simple}, {3, rules::Mode::Expert},
                                            {4, rules::Mode::Simple}, {2, rules::Mode::Expert},
                                            {3, rules::Mode::Simple}, {4, rules::Mode::Expert}};
    for (int i = 0; i < batch_size; ++i) {
      GameOptions o = kinds[i % 6];
      o.tolerate_command_errors = false;
      std::string name = "k";  // (built step by step: g++ 12 warns falsely on a + chain)
      name += std::to_string(batches);
      name += 'g';
      name += std::to_string(i);
      auto g = std::make_unique<Game>(name, o, rng());
      g->connect_all(port());
      if (HasFatalFailure()) return;
      g->create_and_join();
      if (HasFatalFailure()) return;
      games.push_back(std::move(g));
    }
    ++batches;
  };
  auto active = [&] {
    std::vector<Game*> out;
    for (auto& g : games)
      if (!g->over()) out.push_back(g.get());
    return out;
  };

  start_batch();
  ASSERT_FALSE(HasFatalFailure());
  for (int k = 1; k <= kills; ++k) {
    if (active().empty()) {  // everything ended early: more games to crash into
      start_batch();
      ASSERT_FALSE(HasFatalFailure());
    }
    const auto run_ms = std::chrono::milliseconds(20 + rng() % 300);
    drive(active(), run_ms);
    ASSERT_FALSE(HasFatalFailure());
    std::int64_t in_flight = 0;
    for (Game* g : active()) in_flight += g->has_pending();
    server_->kill_hard();
    std::cout << "[ crash    ] kill " << k << " after " << run_ms.count() << " ms, " << in_flight
              << " command(s) in flight\n";
    // What reached the clients before the kill still counts (acks are durable).
    for (Game* g : active()) {
      g->pump();
      g->lost_server();
    }
    ASSERT_FALSE(HasFatalFailure());
    restart();
    for (Game* g : active())
      for (int i = 0; i < g->players(); ++i) {
        auto logged = g->reconnect(i, port());
        ASSERT_TRUE(logged) << g->name() << " player " << i << " could not log back in";
      }
    ASSERT_FALSE(HasFatalFailure());
  }
  ASSERT_TRUE(drive(active(), std::chrono::seconds(slow ? 240 : 60)))
      << "not every game ended after the crashes";
  ASSERT_FALSE(HasFatalFailure());
  for (auto& g : games) g->lost_server();
  {
    // Served once more (the last restart may have had nobody to reconnect): the
    // server is in its loop, so SIGTERM meets its handler (see SigtermRightAfterStart).
    auto c = Client::connect(port(), "last");
    ASSERT_TRUE(c);
    ASSERT_TRUE(c->ping());
  }
  stop_gracefully();

  auto db = read_database();
  std::size_t acked = 0;
  for (auto& g : games) {
    expect_finished_in_db(db, *g);
    acked += g->acked().size();
  }
  for (const auto& [id, m] : db) EXPECT_TRUE(m.verified) << "match " << id << ": " << m.problem;
  std::cout << "[ crash    ] " << games.size() << " games, " << acked
            << " acknowledged commands, all stored\n";
  std::string output;
  if (auto code = replay_verify_all(db_, &output)) {
    EXPECT_EQ(*code, 0) << "eryantis-replay verify --all:\n" << output;
    std::cout << "[ crash    ] eryantis-replay verify --all: exit " << *code << "\n";
  } else {
    std::cout << "[ crash    ] eryantis-replay not built: skipped its verify\n";
  }
}

}  // namespace
}  // namespace eryantis::integration
