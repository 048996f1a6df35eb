// Heartbeats and absence timers with short settings (ping after 200 ms of
// silence, close after 1000 ms; a turn skipped after 300 ms; forfeit after 1000 ms).
#include <gtest/gtest.h>

#include <iostream>
#include <thread>

#include "fixture.hpp"

namespace eryantis::integration {
namespace {

using Clock = std::chrono::steady_clock;

class HeartbeatTest : public ServerFixture {
 protected:
  void SetUp() override {
    TestConfig config;
    config.heartbeat_interval_ms = 200;
    config.heartbeat_timeout_ms = 1000;
    config.turn_grace_ms = 300;
    config.forfeit_after_ms = 1000;
    start(config);
  }
};

TEST_F(HeartbeatTest, SilentClientIsPingedThenClosedWhileAnsweringOnesStay) {
  auto silent = Client::connect(port(), "silent");
  auto blank = Client::connect(port(), "blank");    // answers pings with an empty line
  auto ponger = Client::connect(port(), "ponger");  // answers with {"type":"pong"}
  auto pinger = Client::connect(port(), "pinger");  // answers with a ping request
  ASSERT_TRUE(silent && blank && ponger && pinger);
  for (Client* c : {silent.get(), blank.get(), ponger.get(), pinger.get()}) {
    auto w = c->hello();
    ASSERT_TRUE(w && w->type == "welcome");
    EXPECT_EQ(w->i64("heartbeat_ms"), 200) << w->line;
    EXPECT_EQ(w->i64("timeout_ms"), 1000) << w->line;
  }
  const auto start = Clock::now();
  int pings[3] = {0, 0, 0};
  Client* answering[3] = {blank.get(), ponger.get(), pinger.get()};
  bool silent_pinged = false;
  bool silent_told = false;
  std::optional<Clock::duration> silent_closed_after;
  // The answering clients are watched for 2.5 s, and the silent one until it is closed.
  const Millis limit(sanitizer_run() ? 6000 : 4000);
  while (Clock::now() - start < Millis(2500) ||
         (!silent_closed_after && Clock::now() - start < limit)) {
    for (int i = 0; i < 3; ++i) {
      answering[i]->pump();
      while (!answering[i]->inbox().empty()) {
        Message m = answering[i]->inbox().front();
        answering[i]->inbox().pop_front();
        if (m.type == "ping") {
          ++pings[i];
          if (i == 0) answering[i]->send_line("");
          if (i == 1) answering[i]->send_line(R"({"type":"pong"})");
          if (i == 2) answering[i]->send_line(R"({"type":"ping"})");
        } else if (m.type == "pong" && i == 2) {
          // the reply to its own ping
        } else {
          ADD_FAILURE() << answering[i]->name() << " got " << m.line;
        }
      }
    }
    if (!silent_closed_after) {
      silent->pump();
      while (!silent->inbox().empty()) {
        Message m = silent->inbox().front();
        silent->inbox().pop_front();
        if (m.type == "ping")
          silent_pinged = true;
        else if (m.type == "shutdown")
          silent_told = true;
        else
          ADD_FAILURE() << "silent got " << m.line;
      }
      if (silent->closed()) silent_closed_after = Clock::now() - start;
    }
    std::this_thread::sleep_for(Millis(5));
  }
  EXPECT_TRUE(silent_pinged) << "the silent client was never pinged";
  EXPECT_TRUE(silent_told) << "no shutdown message before the close";
  ASSERT_TRUE(silent_closed_after) << "the silent client was not disconnected";
  const auto ms = std::chrono::duration_cast<Millis>(*silent_closed_after).count();
  std::cout << "[ beat     ] silent client closed after " << ms << " ms\n";
  EXPECT_GE(ms, 900) << "closed before the timeout";
  EXPECT_LE(ms, sanitizer_run() ? 4000 : 2500) << "closed long after the timeout";
  for (int i = 0; i < 3; ++i) {
    EXPECT_GE(pings[i], 2) << answering[i]->name() << " was not pinged";
    EXPECT_FALSE(answering[i]->closed()) << answering[i]->name() << " was disconnected";
    auto pong = answering[i]->ping();
    ASSERT_TRUE(pong) << answering[i]->name() << " is not served any more";
    EXPECT_EQ(pong->type, "pong");
  }
}

TEST_F(HeartbeatTest, AbsentSeatIsSkippedThenTheLastPlayerWinsByForfeit) {
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  GameOptions options;
  options.players = 3;
  Game game("absent", options, seed);
  game.connect_all(port());
  ASSERT_FALSE(HasFatalFailure());
  game.create_and_join();
  ASSERT_FALSE(HasFatalFailure());
  ASSERT_TRUE(drive({&game}, std::chrono::seconds(20), [&] {
    return game.idle() && game.player(0).state.phase == rules::Phase::Planning;
  }));
  ASSERT_FALSE(HasFatalFailure());
  // The seat to play an assistant leaves: its turn is skipped after the grace time.
  const rules::Seat absent = game.player(0).state.current_seat();
  int x = 0;
  while (game.player(x).seat != absent) ++x;
  const auto left_at = Clock::now();
  game.disconnect(x);
  ASSERT_TRUE(drive({&game}, std::chrono::seconds(10), [&] {
    return game.count_events("skip_turn") >= 1;
  })) << "the absent seat's turn was not skipped";
  const auto skip_ms = std::chrono::duration_cast<Millis>(Clock::now() - left_at).count();
  std::cout << "[ absent   ] turn skipped after " << skip_ms << " ms\n";
  EXPECT_GE(skip_ms, 250) << "skipped before the grace time";
  // A second player leaves: the last one wins by forfeit after forfeit_after_ms.
  const int y = (x + 1) % 3;
  const int z = (x + 2) % 3;
  game.disconnect(y);
  const auto alone_at = Clock::now();
  ASSERT_TRUE(drive({&game}, std::chrono::seconds(10), [&] { return game.player(z).game_over; }))
      << "no forfeit";
  ASSERT_FALSE(HasFatalFailure());
  const auto forfeit_ms = std::chrono::duration_cast<Millis>(Clock::now() - alone_at).count();
  std::cout << "[ absent   ] forfeit after " << forfeit_ms << " ms\n";
  EXPECT_EQ(game.count_events("award_forfeit"), 1);
  EXPECT_GE(forfeit_ms, 900) << "forfeited before the time";
  EXPECT_FALSE(game.player(z).client->closed()) << "the winner (answering pings) was disconnected";
  game.lost_server();
  stop_gracefully();
  auto db = read_database();
  ASSERT_TRUE(db.count(game.match()));
  EXPECT_EQ(db[game.match()].status, store::MatchStatus::Finished);
  EXPECT_TRUE(db[game.match()].verified) << db[game.match()].problem;
}

}  // namespace
}  // namespace eryantis::integration
