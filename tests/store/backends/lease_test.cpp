// PostgreSQL only: match leases and the fence every write may carry, the
// migration runner shared by nodes starting together, and what SQLite says of a
// fence. Each test gets its own database on the binary's throwaway cluster.
#include <thread>

#include "backend_fixture.hpp"
#include "eryantis/store/migrations.hpp"

namespace eryantis::store::testing {
namespace {

using namespace std::chrono_literals;

constexpr rules::MatchOptions kTwoPlayers{2, rules::Mode::Simple};

class LeaseTest : public BackendTest {
 protected:
  void SetUp() override {
    location_ = make_location(Backend::Postgresql);
    if (IsSkipped() || HasFatalFailure()) return;
    auto opened = PgStore::open(location_.target, test::with_games(Options{}));
    ASSERT_TRUE(opened) << opened.error().message;
    store_ = std::make_unique<PgStore>(std::move(*opened));
    game_ = play_random_game(kTwoPlayers, 41, 10);
    match_ = store_->create_match(NewMatch{test::handle(kTwoPlayers), MatchStatus::Running}).value();
  }

  // One event appended at the match's current end, carrying `fence`.
  Result<AppendOutcome> append_fenced(const std::optional<LeaseFence>& fence) {
    const Seq last = store_->last_seq(match_).value();
    AppendRequest request =
        AppendRequest::of(match_, last, {game_.events[static_cast<std::size_t>(last)]});
    request.game = &test::eriantys();  // as the server sends it: one statement
    request.fence = fence;
    auto results = store_->append_batch(std::span(&request, 1));
    return std::move(results.front());
  }

  // Sleeps until the database's clock is past the lease's expiry.
  void wait_for_expiry(const Lease& lease) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < deadline) {
      auto taken = store_->acquire_lease(match_ + 1000, "probe", 1ms);  // reads the clock
      ASSERT_TRUE(taken);
      if (taken->expires_at_ms > lease.expires_at_ms) return;
      std::this_thread::sleep_for(20ms);
    }
    FAIL() << "the lease did not expire within 10 s";
  }

  std::unique_ptr<PgStore> store_;
  Game game_;
  MatchId match_ = 0;
};

TEST_F(LeaseTest, OneNodeAtATimeAndEveryTakeRaisesTheEpoch) {
  auto a = store_->acquire_lease(match_, "node-a", 10s);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->node, "node-a");
  EXPECT_EQ(a->epoch, 1);
  auto b = store_->acquire_lease(match_, "node-b", 10s);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code, StoreCode::Conflict);
  EXPECT_NE(b.error().message.find("node-a"), std::string::npos) << b.error().message;

  auto renewed = store_->renew_lease(match_, a->fence(), 20s);
  ASSERT_TRUE(renewed) << renewed.error().message;
  EXPECT_EQ(renewed->epoch, 1);
  EXPECT_GT(renewed->expires_at_ms, a->expires_at_ms);

  // The same node taking again (a restart) is a new writer: a new epoch.
  auto again = store_->acquire_lease(match_, "node-a", 10s);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->epoch, 2);
  EXPECT_EQ(store_->renew_lease(match_, a->fence(), 10s).error().code, StoreCode::Fenced);

  // Released: another node takes it at once, and the old fence is dead.
  ASSERT_TRUE(store_->release_lease(match_, again->fence()));
  auto taken = store_->acquire_lease(match_, "node-b", 10s);
  ASSERT_TRUE(taken) << taken.error().message;
  EXPECT_EQ(taken->epoch, 3);
  EXPECT_EQ(store_->renew_lease(match_, again->fence(), 10s).error().code, StoreCode::Fenced);
  EXPECT_EQ(store_->lease(match_).value()->node, "node-b");
  EXPECT_EQ(store_->lease(match_ + 1).value(), std::nullopt);
}

TEST_F(LeaseTest, AWriterThatLostItsLeaseCannotAppend) {
  auto a = store_->acquire_lease(match_, "node-a", 300ms);
  ASSERT_TRUE(a) << a.error().message;
  auto first = append_fenced(a->fence());
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(*first, (AppendOutcome{1, 1, false}));

  // Node a pauses past its lease: even before anyone takes over, it may not write.
  wait_for_expiry(*a);
  auto expired = append_fenced(a->fence());
  ASSERT_FALSE(expired);
  EXPECT_EQ(expired.error().code, StoreCode::Fenced);
  EXPECT_NE(expired.error().message.find("expired"), std::string::npos);

  // Node b takes the match over; a wakes up and tries again.
  auto b = store_->acquire_lease(match_, "node-b", 10s);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->epoch, 2);
  auto stale = append_fenced(a->fence());
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().code, StoreCode::Fenced);
  EXPECT_NE(stale.error().message.find("node-b holds epoch 2"), std::string::npos)
      << stale.error().message;
  EXPECT_EQ(append_fenced(LeaseFence{"node-a", 2}).error().code, StoreCode::Fenced);
  EXPECT_EQ(store_->last_seq(match_).value(), 1);  // nothing of a's was written

  auto ours = append_fenced(b->fence());
  ASSERT_TRUE(ours) << ours.error().message;
  EXPECT_EQ(*ours, (AppendOutcome{2, 2, false}));
  // No lease row at all: a fenced write is refused too.
  const MatchId other = store_->create_match(NewMatch{test::handle(kTwoPlayers), MatchStatus::Running}).value();
  AppendRequest unleased = AppendRequest::of(other, 0, {game_.events[0]});
  unleased.game = &test::eriantys();
  unleased.fence = LeaseFence{"node-a", 1};
  EXPECT_EQ(store_->append_batch(std::span(&unleased, 1)).front().error().code, StoreCode::Fenced);
}

// A take-over waits for a write in flight to commit, and the write after it is
// refused: the fence is checked under a row lock, in the write's transaction.
TEST_F(LeaseTest, ATakeOverWaitsForTheWriteInFlight) {
  auto a = store_->acquire_lease(match_, "node-a", 200ms);
  ASSERT_TRUE(a);
  auto other = PgStore::open(location_.target, test::with_games(Options{}));
  ASSERT_TRUE(other) << other.error().message;
  pg::Connection& conn = store_->connection();
  // Node a's write, still open: the fence holds a share lock on the lease row.
  ASSERT_TRUE(conn.exec("BEGIN"));
  auto locked =
      conn.query("SELECT epoch FROM leases WHERE match_id = $1 AND node = 'node-a' FOR SHARE",
                 pg::Params().add(match_));
  ASSERT_TRUE(locked && locked->size() == 1);
  std::this_thread::sleep_for(300ms);  // the lease expires meanwhile
  std::atomic<bool> taken{false};
  std::thread take_over([&] {
    auto b = other->acquire_lease(match_, "node-b", 10s);
    EXPECT_TRUE(b) << b.error().message;
    taken = true;
  });
  std::this_thread::sleep_for(200ms);
  EXPECT_FALSE(taken.load());  // blocked behind node a's transaction
  ASSERT_TRUE(conn.exec("COMMIT"));
  take_over.join();
  EXPECT_TRUE(taken.load());
  EXPECT_EQ(append_fenced(a->fence()).error().code, StoreCode::Fenced);
}

TEST_F(LeaseTest, NodesStartingTogetherMigrateOnce) {
  std::string why_not;
  test::PostgresCluster* cluster = test::PostgresCluster::shared(&why_not);
  ASSERT_NE(cluster, nullptr);
  const std::string conninfo = cluster->fresh_conninfo();
  std::vector<std::thread> nodes;
  std::atomic<int> opened{0};
  for (int i = 0; i < 3; ++i) {
    nodes.emplace_back([&] {
      auto store = PgStore::open(conninfo);
      EXPECT_TRUE(store) << store.error().message;
      if (store && store->schema_version() == latest_pg_schema_version()) ++opened;
    });
  }
  for (auto& node : nodes) node.join();
  EXPECT_EQ(opened.load(), 3);
  auto store = PgStore::open(conninfo);
  ASSERT_TRUE(store);
  auto version = store->connection().query("SELECT version FROM eryantis_schema");
  ASSERT_TRUE(version);
  EXPECT_EQ(version->integer(0, 0), latest_pg_schema_version());
  // The readable views exist and read the tables.
  EXPECT_TRUE(store->connection().exec("SELECT * FROM timeline; SELECT * FROM match_summary"));
}

TEST_F(LeaseTest, RefusesAForeignOrNewerDatabase) {
  std::string why_not;
  test::PostgresCluster* cluster = test::PostgresCluster::shared(&why_not);
  ASSERT_NE(cluster, nullptr);
  const std::string foreign = cluster->fresh_conninfo();
  {
    auto conn = pg::Connection::open(foreign);
    ASSERT_TRUE(conn);
    ASSERT_TRUE(conn->exec("CREATE TABLE events (id integer)"));
  }
  auto refused = PgStore::open(foreign);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, StoreCode::Foreign);

  ASSERT_TRUE(store_->connection().exec("UPDATE eryantis_schema SET version = 999"));
  auto newer = PgStore::open(location_.target);
  ASSERT_FALSE(newer);
  EXPECT_EQ(newer.error().code, StoreCode::TooNew);
  auto unmigrated = PgStore::open(cluster->fresh_conninfo(), Options{.read_only = true});
  ASSERT_FALSE(unmigrated);
  EXPECT_EQ(unmigrated.error().code, StoreCode::TooOld);
}

TEST(SqliteFence, IsRefusedBecauseAFileHasOneWriter) {
  TempDir dir;
  SqliteStore store = open_store(dir.file("one.db"));
  const Game game = play_random_game(kTwoPlayers, 1, 2);
  AppendRequest request = AppendRequest::of(1, 0, {game.events[0]});
  request.create = NewMatch{test::handle(kTwoPlayers), MatchStatus::Running};
  request.fence = LeaseFence{"node-a", 1};
  auto result = store.append_batch(std::span(&request, 1)).front();
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, StoreCode::Invalid);
  EXPECT_EQ(store.max_match_id().value(), 0);
}

TEST(StoreLocation, UrisNamePostgresqlAndPasswordsAreHidden) {
  EXPECT_EQ(StoreLocation::from_argument("data/eryantis.db").backend, Backend::Sqlite);
  EXPECT_EQ(StoreLocation::from_argument("postgresql://u@/db?host=/tmp").backend,
            Backend::Postgresql);
  EXPECT_EQ(StoreLocation::from_argument("postgres://h/db").backend, Backend::Postgresql);
  EXPECT_EQ(StoreLocation::from_argument("postgresql://u:secret@h/db").describe(),
            "postgresql://u:***@h/db");
  EXPECT_EQ((StoreLocation{Backend::Postgresql, "host=h password=secret dbname=x"}).describe(),
            "host=h password=*** dbname=x");
  EXPECT_EQ(parse_backend("postgresql"), Backend::Postgresql);
  EXPECT_EQ(parse_backend("mysql"), std::nullopt);
}

}  // namespace
}  // namespace eryantis::store::testing
