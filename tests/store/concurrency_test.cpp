// Concurrency: a read-only connection beside a writer, and group commit for
// many matches from many threads.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <thread>

#include "eryantis/store/group_committer.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

using testing::Game;
using testing::TempDir;

TEST(ReaderTest, ReadOnlyConnectionSeesAConsistentPrefixWhileAWriterAppends) {
  const std::uint64_t seed = testing::test_seed("ReaderSeesConsistentPrefix");
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  SqliteStore writer = testing::open_store(path, Options{.snapshot_every = 8});
  const Game game = testing::play_random_game({4, rules::Mode::Expert}, seed);
  const MatchId id =
      writer.create_match(NewMatch{test::handle(game.options), MatchStatus::Running}).value();

  std::atomic<bool> done = false;
  std::thread appender([&] {
    std::size_t next = 0;
    while (next < game.events.size()) {
      const std::size_t chunk = std::min<std::size_t>(3, game.events.size() - next);
      const game::State after = game.after(next + chunk - 1);
      auto appended =
          writer.append(id, static_cast<Seq>(next), {game.events.data() + next, chunk}, &after);
      if (!appended) {
        ADD_FAILURE() << appended.error().message;
        break;
      }
      next += chunk;
    }
    done = true;
  });

  SqliteStore reader = testing::open_store(path, Options{.read_only = true});
  int reads = 0;
  Seq longest = 0;
  while (!done || reads == 0) {
    auto report = reader.load_unfinished();
    ASSERT_TRUE(report) << report.error().message;
    ASSERT_TRUE(report->quarantined.empty()) << report->quarantined[0].reason;
    ASSERT_EQ(report->restored.size(), 1u);
    const LoadedMatch& seen = report->restored[0];
    // Whatever prefix the reader sees is exactly the state after that many events.
    if (seen.last_seq > 0) {
      EXPECT_EQ(test::eriantys_state(seen.state),
                game.states[static_cast<std::size_t>(seen.last_seq - 1)]);
    }
    auto rows = reader.load_events(id).value();
    for (std::size_t i = 0; i < rows.size(); ++i) ASSERT_EQ(rows[i].seq, static_cast<Seq>(i + 1));
    longest = std::max(longest, seen.last_seq);
    ++reads;
  }
  appender.join();
  // How many reads overlapped the writer depends on timing; each one was checked.
  std::cout << "reader: " << reads << " consistent reads, up to seq " << longest << std::endl;
}

// Collects completions the way the server will: notify wakes the "loop", which
// runs deliver_completions on its own thread.
struct CompletionLoop {
  std::mutex mutex;
  std::condition_variable wake;
  bool pending = false;
  GroupCommitter::Notify notify() {
    return [this] {
      std::lock_guard lock(mutex);
      pending = true;
      wake.notify_one();
    };
  }
  void wait() {
    std::unique_lock lock(mutex);
    wake.wait_for(lock, std::chrono::milliseconds(100), [&] { return pending; });
    pending = false;
  }
};

TEST(GroupCommitTest, ManyMatchesFromManyThreads) {
  const std::uint64_t seed = testing::test_seed("GroupCommitManyMatches");
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  const int kMatches = testing::sanitizer_run() ? 16 : 64;
  const int kThreads = 4;

  std::vector<Game> games;
  std::vector<MatchId> ids;
  {
    SqliteStore setup = testing::open_store(path);
    for (int m = 0; m < kMatches; ++m) {
      games.push_back(testing::play_random_game(
          {static_cast<std::uint8_t>(2 + m % 3), m % 2 ? rules::Mode::Expert : rules::Mode::Simple},
          seed + static_cast<std::uint64_t>(m), 120));
      ids.push_back(
          setup.create_match(NewMatch{test::handle(games.back().options), MatchStatus::Running})
              .value());
    }
  }

  CompletionLoop loop;
  auto committer = GroupCommitter::start(
      path, GroupCommitter::Options{.store = test::with_games(Options{.snapshot_every = 32}),
                              .max_batch = 256},
      loop.notify());
  ASSERT_TRUE(committer) << committer.error().message;

  std::mutex results_mutex;
  std::map<MatchId, std::vector<AppendOutcome>> outcomes;  // in completion order
  std::atomic<int> completions = 0;
  std::atomic<int> failures = 0;
  int expected = 0;
  for (const Game& game : games) expected += static_cast<int>(game.events.size());

  // Each thread owns some matches and pipelines their events one request each,
  // without waiting: order per match is the submission order.
  std::vector<std::thread> producers;
  for (int t = 0; t < kThreads; ++t) {
    producers.emplace_back([&, t] {
      for (std::size_t m = static_cast<std::size_t>(t); m < games.size(); m += kThreads) {
        const Game& game = games[m];
        for (std::size_t i = 0; i < game.events.size(); ++i) {
          AppendRequest request =
              AppendRequest::of(ids[m], static_cast<Seq>(i), {game.events[i]}, game.after(i));
          (*committer)->submit(std::move(request), [&, id = ids[m]](Result<AppendOutcome> r) {
            if (!r) {
              ++failures;
              ADD_FAILURE() << r.error().message;
            } else {
              std::lock_guard lock(results_mutex);
              outcomes[id].push_back(*r);
            }
            ++completions;
          });
        }
      }
    });
  }
  // This thread is the loop: it runs completions until all have arrived.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (completions < expected && std::chrono::steady_clock::now() < deadline) {
    loop.wait();
    (*committer)->deliver_completions();
  }
  for (auto& producer : producers) producer.join();
  (*committer)->stop();
  (*committer)->deliver_completions();

  EXPECT_EQ(completions, expected);
  EXPECT_EQ(failures, 0);
  for (std::size_t m = 0; m < games.size(); ++m) {
    const auto& seen = outcomes[ids[m]];
    ASSERT_EQ(seen.size(), games[m].events.size());
    for (std::size_t i = 0; i < seen.size(); ++i) {
      EXPECT_EQ(seen[i].first_seq, static_cast<Seq>(i + 1));  // completions in order per match
    }
  }
  const auto stats = (*committer)->stats();
  std::cout << "group commit: " << stats.events << " events in " << stats.batches << " transactions"
            << std::endl;
  EXPECT_EQ(stats.events, static_cast<std::uint64_t>(expected));
  EXPECT_LT(stats.batches, stats.requests);  // batching happened

  SqliteStore check = testing::open_store(path);
  auto report = check.load_unfinished().value();
  EXPECT_TRUE(report.quarantined.empty());
  ASSERT_EQ(report.restored.size(), games.size());
  for (std::size_t m = 0; m < games.size(); ++m) {
    EXPECT_EQ(test::eriantys_state(report.restored[m].state), games[m].states.back());
    EXPECT_TRUE(check.verify(ids[m]).value().ok());
  }
}

TEST(GroupCommitTest, AConflictFailsOnlyItsOwnRequest) {
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  const Game game = testing::play_random_game({2, rules::Mode::Simple}, 1, 10);
  MatchId a = 0;
  MatchId b = 0;
  {
    SqliteStore setup = testing::open_store(path);
    a = setup.create_match(NewMatch{test::handle(game.options), MatchStatus::Running}).value();
    b = setup.create_match(NewMatch{test::handle(game.options), MatchStatus::Running}).value();
  }
  CompletionLoop loop;
  auto committer = GroupCommitter::start(
      path, GroupCommitter::Options{.store = test::with_games(Options{})}, loop.notify());
  ASSERT_TRUE(committer);
  std::vector<std::pair<MatchId, Result<AppendOutcome>>> results;
  auto record = [&](MatchId id) {
    return [&, id](Result<AppendOutcome> r) { results.emplace_back(id, std::move(r)); };
  };
  (*committer)
      ->submit(AppendRequest::of(a, 0, {game.events.begin(), game.events.begin() + 2}), record(a));
  (*committer)->submit(AppendRequest::of(b, 5, {game.events[0]}), record(b));  // stale: conflict
  (*committer)
      ->submit(AppendRequest::of(b, 0, {game.events.begin(), game.events.begin() + 3}), record(b));
  (*committer)->submit(AppendRequest::of(a, 2, {game.events[2]}), record(a));
  (*committer)->flush();
  (*committer)->deliver_completions();
  ASSERT_EQ(results.size(), 4u);
  EXPECT_TRUE(results[0].second);
  ASSERT_FALSE(results[1].second);
  EXPECT_EQ(results[1].second.error().code, StoreCode::Conflict);
  EXPECT_EQ(results[2].second.value(), (AppendOutcome{1, 3, false}));
  EXPECT_EQ(results[3].second.value(), (AppendOutcome{3, 3, false}));

  (*committer)->stop();
  (*committer)->submit(AppendRequest::of(a, 3, {game.events[3]}), record(a));
  (*committer)->deliver_completions();
  ASSERT_EQ(results.size(), 5u);
  EXPECT_EQ(results[4].second.error().code, StoreCode::Stopped);

  SqliteStore check = testing::open_store(path);
  EXPECT_EQ(check.last_seq(a).value(), 3);
  EXPECT_EQ(check.last_seq(b).value(), 3);
}

// A lease renewal (run_on_writer_first) overtakes the look-ups waiting on the
// writer, and every job's completion is ready as soon as it ran.
TEST(GroupCommitTest, AJobRunFirstOvertakesTheWaitingJobs) {
  TempDir dir;
  CompletionLoop loop;
  auto committer = GroupCommitter::start(dir.file("eryantis.db"), {}, loop.notify());
  ASSERT_TRUE(committer);
  std::mutex mutex;
  std::vector<std::string> ran;
  std::vector<std::string> delivered;
  auto job = [&](std::string name) {
    return [&, name](EventStore&) {
      std::lock_guard lock(mutex);
      ran.push_back(name);
      return std::function<void()>([&, name] { delivered.push_back(name); });
    };
  };
  // The writer is held inside a first job while the others queue.
  std::promise<void> started, release;
  std::shared_future<void> go = release.get_future().share();
  (*committer)->run_on_writer([&, go](EventStore&) {
    started.set_value();
    go.wait();
    std::lock_guard lock(mutex);
    ran.push_back("busy");
    return std::function<void()>([&] { delivered.push_back("busy"); });
  });
  started.get_future().wait();
  (*committer)->run_on_writer(job("lookup 1"));
  (*committer)->run_on_writer(job("lookup 2"));
  (*committer)->run_on_writer_first(job("renewal"));
  release.set_value();
  (*committer)->stop();  // runs what was queued, then returns
  (*committer)->deliver_completions();
  const std::vector<std::string> expected{"busy", "renewal", "lookup 1", "lookup 2"};
  EXPECT_EQ(ran, expected);
  EXPECT_EQ(delivered, expected);
}

}  // namespace
}  // namespace eryantis::store
