// The real eryantis-server and its database file: one server per file (a second
// exits with code 2 while read-only tools keep working), files it must not or
// cannot write are refused at start and left as they were, a damaged page is
// found at start, a damage found while serving degrades the server at once, and
// two servers started together hand out unrelated tokens.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <latch>
#include <string_view>
#include <thread>

#include "eryantis/store/sqlite.hpp"
#include "eryantis/store/store.hpp"
#include "fixture.hpp"
#include "page_damage.hpp"
#include "support/polling.hpp"

namespace eryantis::integration {
namespace {

using store::testing::btree_pages;
using store::testing::file_bytes;
using store::testing::kEventsKeyIndex;
using store::testing::overwrite_page;

class DatabaseGuardTest : public ServerFixture {
 protected:
  // A server on this test's database that is expected to refuse to start:
  // its exit code (-1 if it ran until killed after 30 s) and its output.
  std::pair<int, std::string> start_refused(const std::string& config) {
    std::string output;
    const int code = run_program({test::server_binary(), "--config", config, "--port", "0"},
                                 &output, std::chrono::seconds(30));
    EXPECT_EQ(output.find("listening"), std::string::npos) << "it started:\n" << output;
    return {code, output};
  }
  // The server started and a match of two players created and joined.
  std::unique_ptr<Game> serve_a_match(rules::Mode mode, std::uint64_t seed) {
    start(TestConfig{});
    auto game = std::make_unique<Game>("g", GameOptions{2, mode}, seed);
    if (HasFatalFailure()) return game;
    game->connect_all(port());
    if (!HasFatalFailure()) game->create_and_join();
    return game;
  }
  // A match with a few moves stored, then a graceful stop (the WAL moved into the file).
  void play_a_little_then_stop() {
    auto game = serve_a_match(rules::Mode::Expert, 7);
    ASSERT_FALSE(HasFatalFailure());
    drive({game.get()}, Millis(300));
    game.reset();  // disconnected: the server need not wait for them to hang up
    stop_gracefully();
  }
};

TEST_F(DatabaseGuardTest, ASecondServerOnTheSameFileExitsWithCode2) {
  auto served = serve_a_match(rules::Mode::Simple, 3);
  ASSERT_FALSE(HasFatalFailure());
  Game& game = *served;

  const std::string other_config = write_config(dir_, "second.toml", db_, TestConfig{});
  auto [code, log] = start_refused(other_config);
  EXPECT_EQ(code, 2) << log;
  EXPECT_NE(log.find("already used by another eryantis-server (pid " +
                     std::to_string(server_->pid()) + ")"),
            std::string::npos)
      << log;

  // Read-only tools work beside the running server...
  std::string output;
  const auto replay = replay_verify_all(db_, &output);
  ASSERT_TRUE(replay) << "eryantis-replay is not built";
  EXPECT_EQ(*replay, 0) << output;
  auto reader = store::Store::open(db_, store::Options{.read_only = true});
  ASSERT_TRUE(reader) << reader.error().message;
  EXPECT_TRUE(reader->seats(game.match()));
  // ...and the first server still plays.
  ASSERT_TRUE(drive({&game}, std::chrono::seconds(60)));
  for (int i = 0; i < game.players(); ++i) game.disconnect(i);
  stop_gracefully();
  // Once it stopped, the file is free again.
  ServerProcess next(other_config, db_);
  EXPECT_TRUE(next.start()) << next.log_tail();
}

TEST_F(DatabaseGuardTest, AnotherApplicationsFileIsRefusedAndLeftUnchanged) {
  {
    auto db = store::sqlite::Database::open(db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db);
    ASSERT_TRUE(
        db->exec("PRAGMA application_id = 1234; CREATE TABLE notes (x); "
                 "INSERT INTO notes VALUES ('keep me')"));
  }
  const std::string before = file_bytes(db_);
  ASSERT_EQ(before.at(18), 1);  // rollback-journal mode: WAL would make it 2
  auto [code, log] = start_refused(write_config(dir_, "eryantis.toml", db_, TestConfig{}));
  EXPECT_EQ(code, 1) << log;
  EXPECT_NE(log.find("refusing to touch it"), std::string::npos) << log;
  EXPECT_EQ(file_bytes(db_), before) << "the refused file was changed";
  EXPECT_FALSE(std::filesystem::exists(db_ + "-wal"));
}

// Root ignores file permissions, so as root the server runs as `nobody` through
// setpriv(1): the refusal then comes from the kernel, as for an operator whose
// server does not own the file.
TEST_F(DatabaseGuardTest, ADatabaseTheServerCannotWriteStopsTheStart) {
  play_a_little_then_stop();
  ASSERT_FALSE(HasFatalFailure());
  std::filesystem::permissions(dir_.path(), std::filesystem::perms::all);  // the lock file
  std::filesystem::permissions(db_, std::filesystem::perms::owner_read |
                                        std::filesystem::perms::group_read |
                                        std::filesystem::perms::others_read);
  std::vector<std::string> argv;
  if (geteuid() == 0) {
    if (!std::filesystem::exists("/usr/bin/setpriv")) GTEST_SKIP() << "root without setpriv(1)";
    argv = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"};
  }
  argv.insert(argv.end(), {test::server_binary(), "--config", config_path_});
  const std::string before = file_bytes(db_);
  std::string output;
  const int code = run_program(argv, &output, std::chrono::seconds(30));
  EXPECT_EQ(code, 1) << output;
  EXPECT_NE(output.find("cannot be written by this process"), std::string::npos) << output;
  EXPECT_EQ(output.find("listening"), std::string::npos) << output;
  EXPECT_EQ(file_bytes(db_), before);
}

TEST_F(DatabaseGuardTest, ADamagedIndexPageStopsTheStart) {
  play_a_little_then_stop();
  ASSERT_FALSE(HasFatalFailure());
  overwrite_page(db_, btree_pages(db_, kEventsKeyIndex).back());
  auto [code, log] = start_refused(config_path_);
  EXPECT_EQ(code, 1) << log;
  EXPECT_NE(log.find("the database file is damaged"), std::string::npos) << log;
}

TEST_F(DatabaseGuardTest, DamageFoundWhileServingDegradesTheServerOnce) {
  auto served = serve_a_match(rules::Mode::Simple, 5);
  ASSERT_FALSE(HasFatalFailure());
  Game& game = *served;
  // Everything into the file (the server's connections are idle between writes),
  // then a stray write over the root of the events' key index: every append needs it.
  {
    auto db = store::sqlite::Database::open(db_, SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->exec("PRAGMA busy_timeout = 5000; PRAGMA wal_checkpoint(TRUNCATE)"));
  }
  overwrite_page(db_, btree_pages(db_, kEventsKeyIndex).front());

  auto client = Client::connect(port(), "watcher");
  ASSERT_TRUE(client);
  ASSERT_TRUE(client->hello());
  ASSERT_EQ(client->login("watcher")->type, "logged_in");
  // The first write fails with the damage; from then on writes are refused at once.
  std::vector<std::string> codes;
  for (int i = 0; i < 3; ++i) {
    auto reply = client->request(R"("type":"create_match","players":2)");
    ASSERT_TRUE(reply);
    codes.push_back(reply->str("code"));
  }
  EXPECT_EQ(codes[0], "STORE_FAILURE");
  EXPECT_EQ(codes[1], "SERVER_DEGRADED");
  EXPECT_EQ(codes[2], "SERVER_DEGRADED");
  auto pong = client->request(R"("type":"ping")");
  ASSERT_TRUE(pong);
  EXPECT_EQ(pong->type, "pong");

  // The server's output is read by another thread: the line written before the
  // first reply may reach the log after it.
  constexpr std::string_view kDegraded = "degraded: the database is damaged";
  EXPECT_TRUE(test::eventually(std::chrono::seconds(2), [&] {
    return server_->log().find(kDegraded) != std::string::npos;
  })) << server_->log_tail();
  const std::string log = server_->log();
  std::size_t critical = 0;
  for (std::size_t at = log.find(kDegraded); at != std::string::npos;
       at = log.find(kDegraded, at + 1))
    ++critical;
  EXPECT_EQ(critical, 1u) << log;
  client.reset();
  for (int i = 0; i < game.players(); ++i) game.disconnect(i);
  stop_gracefully();
}

// Started in the same instant (same clock, neighbouring pids), two servers hand
// their first player tokens that share nothing: of 64 hex digits ~60 differ
// between random tokens (each with p = 15/16), fewer than 40 means a common origin.
TEST_F(DatabaseGuardTest, TwoServersStartedTogetherIssueUnrelatedTokens) {
  const std::string db_a = dir_.file("a.db"), db_b = dir_.file("b.db");
  ServerProcess a(write_config(dir_, "a.toml", db_a, TestConfig{}), db_a);
  ServerProcess b(write_config(dir_, "b.toml", db_b, TestConfig{}), db_b);
  // Spawned at once from two threads. A child dies with the thread that forked it
  // (PR_SET_PDEATHSIG), so each thread lives until the test is done.
  std::atomic<bool> a_started = false, b_started = false;
  std::latch started(2), done(1);
  auto run = [&](ServerProcess& s, std::atomic<bool>& ok) {
    ok = s.start();
    started.count_down();
    done.wait();
  };
  std::jthread starting_a([&] { run(a, a_started); });
  std::jthread starting_b([&] { run(b, b_started); });
  struct Release {
    std::latch& done;
    ~Release() { done.count_down(); }
  } release{done};
  started.wait();
  ASSERT_TRUE(a_started) << a.log_tail();
  ASSERT_TRUE(b_started) << b.log_tail();
  std::string tokens[2];
  int k = 0;
  for (ServerProcess* s : {&a, &b}) {
    auto client = Client::connect(s->port(), "alice");
    ASSERT_TRUE(client) << "port " << s->port() << "\n" << s->log_tail();
    ASSERT_TRUE(client->hello()) << "port " << s->port() << "\n" << s->log_tail();
    auto logged = client->login("alice");
    ASSERT_TRUE(logged);
    tokens[k++] = logged->str("token");
  }
  for (const std::string& t : tokens) {
    ASSERT_EQ(t.size(), 64u) << t;
    EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos) << t;
  }
  int differing = 0;
  for (std::size_t i = 0; i < 64; ++i) differing += tokens[0][i] != tokens[1][i];
  EXPECT_GE(differing, 40) << tokens[0] << "\n" << tokens[1];
}

}  // namespace
}  // namespace eryantis::integration
