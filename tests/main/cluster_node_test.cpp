// A cluster node's look-ups taken in batches (docs/cluster.md section 4): many
// look-ups queued at once on the writer are answered exactly as one at a time
// would answer them — adopted (epoch + 1, the same folded match), redirected to
// the live holder, missing, or refused with the lease given back when the log
// diverges — on a real throwaway PostgreSQL.
#include "eryantis/main/cluster_node.hpp"

#include <gtest/gtest.h>
#include <spdlog/fmt/fmt.h>

#include <signal.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "support/postgres_cluster.hpp"
#include "test_support.hpp"

namespace eryantis::app {
namespace {

using namespace std::chrono_literals;
using server::Located;

constexpr rules::MatchOptions kTwoPlayers{2, rules::Mode::Simple};

store::PgStore open_pg(const std::string& conninfo) {
  auto opened = store::PgStore::open(conninfo, test::with_games(store::Options{}));
  if (!opened) throw std::runtime_error(opened.error().message);
  return std::move(*opened);
}

TEST(ClusterNodeTest, LookUpsQueuedTogetherAreAnsweredAsOneAtATime) {
  std::string why_not;
  test::PostgresCluster* postgres = test::PostgresCluster::shared(&why_not);
  if (!postgres) {
    if (test::PostgresCluster::required()) FAIL() << "CI needs PostgreSQL: " << why_not;
    GTEST_SKIP() << "PostgreSQL not installed: " << why_not;
  }
  const std::string conninfo = postgres->fresh_conninfo();
  store::PgStore db = open_pg(conninfo);

  // Played matches (snapshots every 64 events by default), one of them with a
  // diverging log, one another node serves, one finished; and more lobby matches
  // than one batch takes.
  std::vector<store::MatchId> played;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto game = store::testing::play_random_game(kTwoPlayers, 7 + seed, 40 + 25 * seed);
    played.push_back(store::testing::store_game(db, game, seed));
  }
  for (const store::MatchId id : played)
    ASSERT_TRUE(db.upsert_seat({id, 0, fmt::format("p{}", id), "h", std::nullopt, 1, {}}));
  const store::MatchId diverging = played[1];
  const store::MatchId elsewhere = played[2];
  ASSERT_TRUE(db.connection().exec(
      fmt::format("UPDATE events SET state_hash = '0000000000000000' WHERE match_id = {} AND "
                  "seq = (SELECT last_seq FROM matches WHERE id = {})",
                  diverging, diverging)));
  ASSERT_TRUE(db.register_node({"b", "127.0.0.1:7002", std::string("ws://127.0.0.1:8002/ws")}));
  ASSERT_TRUE(db.acquire_lease(elsewhere, "b", 60s));
  const store::MatchId finished =
      db.create_match({test::handle(kTwoPlayers), store::MatchStatus::Finished}).value();
  std::vector<store::MatchId> lobby;
  for (std::size_t i = 0; i < ClusterNode::kLocateBatch + 6; ++i)
    lobby.push_back(db.create_match({test::handle(kTwoPlayers), store::MatchStatus::Lobby}).value());
  const store::MatchId missing = lobby.back() + 1000;

  // What one look-up at a time reads for each adoptable match.
  std::map<store::MatchId, server::LoadedMatch> expected;
  for (const store::MatchId id : played) {
    if (id == diverging || id == elsewhere) continue;
    auto match = load_match(db, id, store::MatchStatus::Running);
    ASSERT_TRUE(match) << match.error();
    expected.emplace(id, std::move(*match));
  }

  std::mutex mutex;
  std::condition_variable ready;
  bool notified = false;
  auto committer =
      store::GroupCommitter::start(std::make_unique<store::PgStore>(open_pg(conninfo)), {}, [&] {
        std::lock_guard lock(mutex);
        notified = true;
        ready.notify_one();
      });
  ASSERT_TRUE(committer) << committer.error().message;
  ClusterNode node(**committer, ClusterConfig{"a", "127.0.0.1:7001", "", 10000});

  // Every look-up queued before the first answer comes back (the test thread
  // is the loop); the lobby matches fill more than one batch, and a second
  // look-up of one match waits for the next batch.
  std::vector<store::MatchId> asked = played;
  asked.push_back(finished);
  asked.push_back(missing);
  asked.insert(asked.end(), lobby.begin(), lobby.end());
  asked.push_back(played[0]);
  std::multimap<store::MatchId, Located> answers;
  for (const store::MatchId id : asked)
    node.locate(id, [&answers, id](Located found) { answers.emplace(id, std::move(found)); });
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (answers.size() < asked.size() && std::chrono::steady_clock::now() < deadline) {
    {
      std::unique_lock lock(mutex);
      ready.wait_for(lock, 100ms, [&] { return notified; });
      notified = false;
    }
    (*committer)->deliver_completions();
  }
  ASSERT_EQ(answers.size(), asked.size());

  for (const auto& [id, want] : expected) {
    auto [first, last] = answers.equal_range(id);
    ASSERT_NE(first, last);
    const Located& found = first->second;
    ASSERT_EQ(found.kind, Located::Kind::Adopted) << id << ": " << found.message;
    EXPECT_EQ(found.adopted.epoch, 1);
    const server::LoadedMatch& got = found.adopted.match;
    EXPECT_EQ(got.id, id);
    EXPECT_EQ(got.status, want.status);
    EXPECT_EQ(got.last_seq, want.last_seq);
    EXPECT_EQ(got.state, want.state) << id;
    EXPECT_EQ(got.seats, want.seats);
    EXPECT_EQ(got.recent_commands, want.recent_commands);
    EXPECT_EQ(db.lease(id).value()->node, "a");
  }
  // The same match asked twice: the second look-up, in a later batch, takes it
  // again as one at a time would (a new epoch), never in the same statement.
  {
    auto [first, last] = answers.equal_range(played[0]);
    std::vector<std::int64_t> epochs;
    for (auto it = first; it != last; ++it) {
      ASSERT_EQ(it->second.kind, Located::Kind::Adopted);
      epochs.push_back(it->second.adopted.epoch);
    }
    std::sort(epochs.begin(), epochs.end());
    EXPECT_EQ(epochs, (std::vector<std::int64_t>{1, 2}));
  }
  for (const store::MatchId id : lobby) {
    const Located& found = answers.find(id)->second;
    ASSERT_EQ(found.kind, Located::Kind::Adopted) << id << ": " << found.message;
    EXPECT_EQ(found.adopted.match.status, store::MatchStatus::Lobby);
    EXPECT_EQ(found.adopted.match.last_seq, 0);
  }
  // Another node's live lease: the client is sent there, and the lease is untouched.
  const Located& redirected = answers.find(elsewhere)->second;
  ASSERT_EQ(redirected.kind, Located::Kind::Elsewhere) << redirected.message;
  EXPECT_EQ(redirected.holder.address, "127.0.0.1:7002");
  EXPECT_EQ(redirected.holder.web, std::optional<std::string>("ws://127.0.0.1:8002/ws"));
  EXPECT_EQ(db.lease(elsewhere).value()->node, "b");
  EXPECT_EQ(answers.find(finished)->second.kind, Located::Kind::Missing);
  EXPECT_EQ(answers.find(missing)->second.kind, Located::Kind::Missing);
  // The diverging log is not served, and its lease is given back at once:
  // another node takes it without waiting for the 10 s lease.
  const Located& refused = answers.find(diverging)->second;
  ASSERT_EQ(refused.kind, Located::Kind::Failed);
  EXPECT_NE(refused.message.find("diverges"), std::string::npos) << refused.message;
  auto taken = db.acquire_lease(diverging, "c", 10s);
  ASSERT_TRUE(taken) << taken.error().message;
  EXPECT_EQ(taken->epoch, 2);
  (*committer)->stop();
}

// The loop's side of a test: a real GroupCommitter on the throwaway PostgreSQL,
// its completions delivered on this thread, and a clock the test moves.
struct TimeFenceRig {
  explicit TimeFenceRig(const std::string& conninfo) {
    auto started = store::GroupCommitter::start(std::make_unique<store::PgStore>(open_pg(conninfo)),
                                                {}, [this] {
                                                  std::lock_guard lock(mutex);
                                                  notified = true;
                                                  ready.notify_one();
                                                });
    if (!started) throw std::runtime_error(started.error().message);
    committer = std::move(*started);
    node.emplace(*committer, ClusterConfig{"a", "127.0.0.1:7001", "", 3000},
                 [this] { return now; });
  }
  ~TimeFenceRig() { committer->stop(); }

  // Delivers completions until `done` holds or `real` (wall time) passed.
  template <class Done>
  bool run_until(Done done, std::chrono::milliseconds real = 10s) {
    const auto deadline = std::chrono::steady_clock::now() + real;
    while (!done() && std::chrono::steady_clock::now() < deadline) {
      {
        std::unique_lock lock(mutex);
        ready.wait_for(lock, 20ms, [&] { return notified; });
        notified = false;
      }
      committer->deliver_completions();
    }
    return done();
  }

  store::HeldLease new_match() {
    std::optional<store::Result<store::HeldLease>> got;
    node->new_match([&](store::Result<store::HeldLease> lease) { got = std::move(lease); });
    if (!run_until([&] { return got.has_value(); }) || !*got)
      throw std::runtime_error("new_match failed");
    return **got;
  }

  std::mutex mutex;
  std::condition_variable ready;
  bool notified = false;
  ClusterNode::Clock::time_point now{std::chrono::hours(1)};
  std::unique_ptr<store::GroupCommitter> committer;
  std::optional<ClusterNode> node;
};

// Fenced by time: PostgreSQL frozen for the writer (its backend SIGSTOPped, the
// renewal stuck in flight). Each match leaves this node's hands lease_ms minus
// the margin after its last take or renewal was asked for, one at a time, while
// the database still refuses it to another node; the stuck renewal's own
// answer, once PostgreSQL goes on, changes nothing.
TEST(ClusterNodeTest, ARenewalStuckInFlightLosesEachMatchBeforeItsLeaseRunsOut) {
  std::string why_not;
  test::PostgresCluster* postgres = test::PostgresCluster::shared(&why_not);
  if (!postgres) {
    if (test::PostgresCluster::required()) FAIL() << "CI needs PostgreSQL: " << why_not;
    GTEST_SKIP() << "PostgreSQL not installed: " << why_not;
  }
  const std::string conninfo = postgres->fresh_conninfo();
  store::PgStore other = open_pg(conninfo);
  TimeFenceRig rig(conninfo);
  const auto t0 = rig.now;
  const store::HeldLease first = rig.new_match();
  rig.now += 1s;
  const store::HeldLease second = rig.new_match();

  // The writer's backend, frozen.
  std::optional<std::int64_t> backend;
  rig.committer->run_on_writer([&backend](store::EventStore& db) {
    auto pid = dynamic_cast<store::PgStore&>(db).connection().query("SELECT pg_backend_pid()");
    const std::int64_t value = pid ? pid->integer(0, 0) : -1;
    return std::function<void()>([&backend, value] { backend = value; });
  });
  ASSERT_TRUE(rig.run_until([&] { return backend.has_value(); }));
  ASSERT_GT(*backend, 0);
  ASSERT_EQ(::kill(static_cast<pid_t>(*backend), SIGSTOP), 0);
  // Whatever fails below, the backend goes on (a stopped one would keep the
  // cluster from shutting down at the end of the binary).
  struct Resume {
    pid_t pid;
    ~Resume() { ::kill(pid, SIGCONT); }
  } resume{static_cast<pid_t>(*backend)};

  std::vector<std::vector<store::MatchId>> answers;
  auto renewed = [&](store::Result<std::vector<store::MatchId>> lost) {
    answers.push_back(lost ? *lost : std::vector<store::MatchId>{-1});
  };
  rig.now += 500ms;
  rig.node->renew({first, second}, renewed);
  const auto margin = rig.node->time_fence_margin();
  rig.now = t0 + 3s - margin - 1ms;
  rig.node->check_time_fence();
  rig.run_until([] { return false; }, 200ms);
  EXPECT_TRUE(answers.empty()) << "answered before the first lease's time was up";
  rig.now = t0 + 3s - margin;
  rig.node->check_time_fence();
  ASSERT_EQ(answers.size(), 1u) << "the stuck renewal was not answered by the time fence";
  EXPECT_EQ(answers[0], std::vector<store::MatchId>{first.match_id});
  // The database still keeps the match from any other node: the node let go first.
  auto taken = other.acquire_lease(first.match_id, "b", 3s);
  ASSERT_FALSE(taken);
  EXPECT_EQ(taken.error().code, store::StoreCode::Conflict) << taken.error().message;

  // The server asks again for what it still holds (queued behind the stuck one).
  rig.node->renew({second}, renewed);
  rig.now = t0 + 1s + 3s - margin;
  rig.node->check_time_fence();
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[1], std::vector<store::MatchId>{second.match_id});

  // PostgreSQL goes on: both stuck renewals complete, and nobody hears of them.
  ASSERT_EQ(::kill(static_cast<pid_t>(*backend), SIGCONT), 0);
  std::optional<bool> after;
  rig.committer->run_on_writer(
      [&after](store::EventStore&) { return std::function<void()>([&after] { after = true; }); });
  ASSERT_TRUE(rig.run_until([&] { return after.has_value(); }));
  EXPECT_EQ(answers.size(), 2u);
}

// Fenced by time, the database away (stopped): renewals fail at once; the
// matches are kept while their lease surely runs, then answered as lost.
TEST(ClusterNodeTest, FailingRenewalsLoseTheMatchesOnceTheirLeaseMayHaveRunOut) {
  std::string why_not;
  test::PostgresCluster* postgres = test::PostgresCluster::shared(&why_not);
  if (!postgres) {
    if (test::PostgresCluster::required()) FAIL() << "CI needs PostgreSQL: " << why_not;
    GTEST_SKIP() << "PostgreSQL not installed: " << why_not;
  }
  const std::string conninfo = postgres->fresh_conninfo();
  TimeFenceRig rig(conninfo);
  const auto t0 = rig.now;
  const store::HeldLease held = rig.new_match();
  postgres->stop(SIGINT);
  std::optional<store::Result<std::vector<store::MatchId>>> answer;
  auto renewed = [&](store::Result<std::vector<store::MatchId>> lost) { answer = std::move(lost); };
  rig.now = t0 + 1s;
  rig.node->renew({held}, renewed);
  ASSERT_TRUE(rig.run_until([&] { return answer.has_value(); }));
  EXPECT_FALSE(*answer) << "a failed renewal within the lease keeps the match";
  answer.reset();
  rig.now = t0 + 3s - rig.node->time_fence_margin();
  rig.node->renew({held}, renewed);
  ASSERT_TRUE(rig.run_until([&] { return answer.has_value(); }));
  ASSERT_TRUE(*answer) << answer->error().message;
  EXPECT_EQ(**answer, std::vector<store::MatchId>{held.match_id});
  postgres->start_again();
}

}  // namespace
}  // namespace eryantis::app
