// `move_log` against the real server and its SQLite file: a spectator who
// arrives mid-match and a client after a server crash read the whole move log
// back from the database, in the same words the `event` pushes carried.
#include <gtest/gtest.h>

#include <iostream>
#include <map>

#include "fixture.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;

class MoveLogTest : public ServerFixture {
 protected:
  // A spectator connection on `match`; its `state`'s seq.
  std::int64_t watch(std::unique_ptr<Client>& c, std::int64_t match, const std::string& name) {
    c = Client::connect(port(), name);
    EXPECT_TRUE(c);
    if (!c) return -1;
    EXPECT_TRUE(c->hello());
    auto r = c->spectate(match);
    EXPECT_TRUE(r && r->type == "spectating") << (r ? r->line : "no reply");
    auto state = c->wait_type("state", 5s);
    EXPECT_TRUE(state);
    return state ? state->i64("seq") : -1;
  }
  // Every page of the log from seq 1: seq -> text, and how many pages it took.
  std::map<std::int64_t, std::string> read_log(Client& c, std::int64_t seq, int* pages) {
    std::map<std::int64_t, std::string> out;
    std::int64_t from = 1;
    for (*pages = 0; *pages < 10; ++*pages) {
      auto r = c.request(R"("type":"move_log","from":)" + std::to_string(from));
      EXPECT_TRUE(r && r->type == "move_log") << (r ? r->line : "no reply");
      if (!r || r->type != "move_log") break;
      EXPECT_EQ(r->i64("seq"), seq);
      EXPECT_LT(r->line.size(), 64u * 1024u);
      for (const auto& line : r->get("lines")->GetArray()) {
        from = line["seq"].GetInt64() + 1;
        out[line["seq"].GetInt64()] = line["text"].GetString();
      }
      if (!(*r->get("more")).GetBool()) {
        ++*pages;
        break;
      }
    }
    return out;
  }
};

TEST_F(MoveLogTest, ALateSpectatorAndARestartReadTheWholeLogFromTheDatabase) {
  start(TestConfig{});
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  Game game("log", GameOptions{.players = 2, .mode = rules::Mode::Expert}, seed);
  game.connect_all(port());
  ASSERT_FALSE(HasFatalFailure());
  game.create_and_join();
  ASSERT_FALSE(HasFatalFailure());
  // Watches from before the first move: every event push, with its sentence.
  std::unique_ptr<Client> early;
  ASSERT_EQ(watch(early, game.match(), "early"), 1);
  ASSERT_TRUE(drive({&game}, 60s, [&] { return game.max_seq() >= 60 && game.idle(); }));
  std::map<std::int64_t, std::string> pushed;
  // pump() stops once the bytes that came first are read: wait for the last push itself
  // (CI once saw 58 of 59 after a 100 ms pump), then take what came before it.
  auto last = early->wait_for(
      [&](const Message& m) { return m.type == "event" && m.i64("seq") == game.max_seq(); }, 10s);
  ASSERT_TRUE(last) << "the spectator was not sent seq " << game.max_seq();
  pushed[last->i64("seq")] = last->str("text");
  for (const Message& m : early->inbox())
    if (m.type == "event") pushed[m.i64("seq")] = m.str("text");
  ASSERT_EQ(pushed.size(), static_cast<std::size_t>(game.max_seq() - 1));

  // A spectator arriving at seq 60 or so reads seqs 1..seq: the creation, then
  // exactly the sentences that were pushed.
  std::unique_ptr<Client> late;
  const std::int64_t seq = watch(late, game.match(), "late");
  ASSERT_EQ(seq, game.max_seq());
  int pages = 0;
  const auto log = read_log(*late, seq, &pages);
  EXPECT_EQ(pages, 1) << "a whole match fits one page";
  ASSERT_EQ(log.size(), static_cast<std::size_t>(seq));
  EXPECT_EQ(log.at(1).rfind("match created: 2 players, expert, characters ", 0), 0u) << log.at(1);
  for (const auto& [s, text] : pushed) EXPECT_EQ(log.at(s), text) << "seq " << s;

  // The server dies; after the restart the log is read again from the file.
  server_->kill_hard();
  game.lost_server();
  early.reset();
  late.reset();
  restart();
  std::unique_ptr<Client> after;
  ASSERT_EQ(watch(after, game.match(), "after"), seq);
  EXPECT_EQ(read_log(*after, seq, &pages), log);
}

}  // namespace
}  // namespace eryantis::integration
