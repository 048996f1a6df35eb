// PostgreSQL only: the store's connection after PostgreSQL dropped it (a restart,
// pg_terminate_backend, a failover of the database): reconnected with the same
// session settings, without failing the first write after an idle drop, and
// with a back-off while the database stays away (docs/cluster.md, "PostgreSQL
// restarts").
#include <poll.h>
#include <signal.h>

#include <chrono>
#include <thread>

#include "backend_fixture.hpp"

namespace eryantis::store::testing {
namespace {

using namespace std::chrono_literals;

constexpr rules::MatchOptions kTwoPlayers{2, rules::Mode::Simple};

class ReconnectTest : public BackendTest {
 protected:
  void SetUp() override {
    location_ = make_location(Backend::Postgresql);
    if (IsSkipped() || HasFatalFailure()) return;
    auto opened = PgStore::open(location_.target, options_);
    ASSERT_TRUE(opened) << opened.error().message;
    store_ = std::make_unique<PgStore>(std::move(*opened));
  }

  // Ends the store's backend from another connection, as a restart of
  // PostgreSQL does (the server closes the idle connection).
  void terminate_store_backend() {
    auto pid = store_->connection().query("SELECT pg_backend_pid()");
    ASSERT_TRUE(pid) << pid.error().message;
    auto other = PgStore::open(location_.target, {});
    ASSERT_TRUE(other) << other.error().message;
    auto done = other->connection().query("SELECT pg_terminate_backend($1)",
                                          pg::Params().add(pid->integer(0, 0)));
    ASSERT_TRUE(done) << done.error().message;
    // Until the backend is gone (pg_terminate_backend only signals it).
    for (int i = 0; i < 200; ++i) {
      auto alive = other->connection().query("SELECT count(*) FROM pg_stat_activity WHERE pid = $1",
                                             pg::Params().add(pid->integer(0, 0)));
      ASSERT_TRUE(alive) << alive.error().message;
      if (alive->integer(0, 0) == 0) break;
      std::this_thread::sleep_for(10ms);
    }
    // ... and until its end reached this side: the socket closed by the server
    // (the backend leaves pg_stat_activity a moment before it closes the socket).
    pollfd fd{PQsocket(store_->connection().handle()), POLLRDHUP, 0};
    ASSERT_EQ(::poll(&fd, 1, 10'000), 1) << "the server never closed the store's socket";
  }

  std::string show(const char* setting) {
    auto rows = store_->connection().query(std::string("SHOW ") + setting);
    if (!rows) return "error: " + rows.error().message;
    return std::string(rows->text(0, 0));
  }

  Options options_ =
      test::with_games(Options{.durability = Durability::Normal, .busy_timeout_ms = 1234});
  std::unique_ptr<PgStore> store_;
};

// A reconnected session keeps what the store set at open: without it a
// reconnected writer waits for a lock for ever (lock_timeout 0) and a store
// opened with durability "normal" silently went back to "full".
TEST_F(ReconnectTest, AReconnectedSessionKeepsTheStoresSettings) {
  ASSERT_EQ(show("synchronous_commit"), "off");
  ASSERT_EQ(show("lock_timeout"), "1234ms");
  terminate_store_backend();
  ASSERT_FALSE(HasFatalFailure());
  // The first statement finds the connection gone; the next one reconnects.
  (void)store_->connection().query("SELECT 1");
  ASSERT_TRUE(store_->connection().reconnect_if_broken());
  EXPECT_EQ(show("synchronous_commit"), "off");
  EXPECT_EQ(show("lock_timeout"), "1234ms");
}

// A connection PostgreSQL closed while it was idle (a restart between two
// batches) is found closed before the next batch is sent: that batch is written,
// not failed with IO (its clients would have been told STORE_FAILURE).
TEST_F(ReconnectTest, AConnectionDroppedWhileIdleCostsNoFailedWrite) {
  auto game = play_random_game(kTwoPlayers, 7, 4);
  AppendRequest create = AppendRequest::of(1, 0, {game.events[0]});
  create.create = NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby};
  for (const auto& r : store_->append_batch(std::span(&create, 1)))
    ASSERT_TRUE(r) << r.error().message;
  terminate_store_backend();
  ASSERT_FALSE(HasFatalFailure());
  AppendRequest next = AppendRequest::of(1, 1, {game.events[1]});
  next.game = &test::eriantys();  // as the server sends it: one statement
  auto results = store_->append_batch(std::span(&next, 1));
  ASSERT_TRUE(results.front()) << results.front().error().message
                               << " (reconnects tried: " << store_->connection().reconnects_tried()
                               << ")";
  EXPECT_EQ(*results.front(), (AppendOutcome{2, 2, false}));
}

// PostgreSQL stopped under the store (a fast shutdown, then the postmaster
// SIGKILLed): writes fail with IO while it is away, without a connection attempt
// per write (the back-off), and the first write after it is back succeeds on a
// reconnected session with the store's settings.
TEST_F(ReconnectTest, WhilePostgresqlIsAwayReconnectsBackOffAndResumeWhenItIsBack) {
  auto* cluster = test::PostgresCluster::shared(nullptr);
  ASSERT_NE(cluster, nullptr);
  // Durability full: with "normal" a crash of PostgreSQL may lose the last commits.
  auto full =
      PgStore::open(location_.target, test::with_games(Options{.busy_timeout_ms = 1234}));
  ASSERT_TRUE(full) << full.error().message;
  store_ = std::make_unique<PgStore>(std::move(*full));
  auto game = play_random_game(kTwoPlayers, 9, 6);
  AppendRequest create = AppendRequest::of(1, 0, {game.events[0]});
  create.create = NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby};
  ASSERT_TRUE(store_->append_batch(std::span(&create, 1)).front());
  Seq seq = 1;
  for (const int signum : {SIGINT, SIGKILL}) {
    SCOPED_TRACE(signum == SIGINT ? "fast shutdown" : "SIGKILL of the postmaster");
    cluster->stop(signum);
    AppendRequest next = AppendRequest::of(1, seq, {game.events[static_cast<std::size_t>(seq)]});
    next.game = &test::eriantys();
    auto failed = store_->append_batch(std::span(&next, 1));
    ASSERT_FALSE(failed.front());
    EXPECT_EQ(failed.front().error().code, StoreCode::Io) << failed.front().error().message;
    const std::uint64_t tried = store_->connection().reconnects_tried();
    EXPECT_GE(tried, 1u);
    failed = store_->append_batch(std::span(&next, 1));
    ASSERT_FALSE(failed.front());
    EXPECT_EQ(store_->connection().reconnects_tried(), tried)
        << "a write right after a failed reconnect tried again: " << failed.front().error().message;
    EXPECT_NE(failed.front().error().message.find("unreachable"), std::string::npos)
        << failed.front().error().message;
    cluster->start_again();
    // The back-off is at most 2 s: bounded attempts until the write goes through.
    Result<AppendOutcome> written = std::unexpected(StoreError{StoreCode::Io, "not tried", -1});
    for (int attempt = 0; attempt < 300 && !written; ++attempt) {
      written = std::move(store_->append_batch(std::span(&next, 1)).front());
      if (!written) std::this_thread::sleep_for(20ms);
    }
    ASSERT_TRUE(written) << written.error().message;
    EXPECT_EQ(*written, (AppendOutcome{seq + 1, seq + 1, false}));
    ++seq;
    EXPECT_EQ(show("lock_timeout"), "1234ms");
  }
}

}  // namespace
}  // namespace eryantis::store::testing
