// Full games over the socket: 2, 3 and 4 players, simple and expert, each
// player a scripted client choosing random legal moves from the views it is sent.
#include <gtest/gtest.h>

#include <iostream>

#include "fixture.hpp"

namespace eryantis::integration {
namespace {

struct GameParam {
  int players;
  rules::Mode mode;
};

std::string param_name(const ::testing::TestParamInfo<GameParam>& info) {
  return std::to_string(info.param.players) + "Players" +
         (info.param.mode == rules::Mode::Expert ? "Expert" : "Simple");
}

class FullGameTest : public ServerFixture, public ::testing::WithParamInterface<GameParam> {};

TEST_P(FullGameTest, PlayedToTheEndOverTheSocket) {
  TestConfig config;
  config.durability = "full";  // the default: every ack is fsynced
  start(config);
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  RecordProperty("seed", std::to_string(seed));
  GameOptions options;
  options.players = GetParam().players;
  options.mode = GetParam().mode;
  Game game("g", options, seed);
  game.connect_all(port());
  ASSERT_FALSE(HasFatalFailure());
  game.create_and_join();
  ASSERT_FALSE(HasFatalFailure());

  ASSERT_TRUE(drive({&game}, std::chrono::seconds(60))) << "the game did not end in time";
  ASSERT_FALSE(HasFatalFailure());

  // Every accepted command got exactly one ack; the seqs are dense (the match
  // was created at seq 1, then only the players' commands).
  EXPECT_EQ(static_cast<std::int64_t>(game.acked().size()), game.commands_sent());
  store::Seq expected = 2;
  for (const auto& [seq, count] : game.acked()) {
    EXPECT_EQ(seq, expected++) << "acknowledged seqs are not dense";
    EXPECT_EQ(count, 1);
  }
  EXPECT_EQ(game.max_seq(), expected - 1);
  for (int i = 0; i < game.players(); ++i) {
    EXPECT_TRUE(game.player(i).game_over) << game.player(i).nickname;
    EXPECT_EQ(game.player(i).seq, game.max_seq());
  }
  std::cout << "[ game     ] " << game.max_seq() << " events\n";

  game.lost_server();  // the players leave (else the shutdown waits for them to hang up)
  stop_gracefully();
  auto db = read_database();
  expect_finished_in_db(db, game);
  EXPECT_EQ(db[game.match()].seqs.size(), static_cast<std::size_t>(game.max_seq()));
  EXPECT_EQ(db[game.match()].by_player.size(), game.acked().size());
}

INSTANTIATE_TEST_SUITE_P(
    AllSizes, FullGameTest,
    ::testing::Values(GameParam{2, rules::Mode::Simple}, GameParam{2, rules::Mode::Expert},
                      GameParam{3, rules::Mode::Simple}, GameParam{3, rules::Mode::Expert},
                      GameParam{4, rules::Mode::Simple}, GameParam{4, rules::Mode::Expert}),
    param_name);

}  // namespace
}  // namespace eryantis::integration
