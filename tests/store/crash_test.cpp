// The durability claim under process death: a child appends random games with
// group commit and reports every acknowledged seq through a pipe; the parent
// SIGKILLs it at a random moment, reopens the file and checks that every
// acknowledged event is there, nothing is quarantined and every match verifies.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <random>

#include "eryantis/store/group_committer.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

struct Ack {
  MatchId match;
  Seq last_seq;
};

constexpr int kGamesInFlight = 8;

// The child: continues the unfinished games it finds, starts new ones, and
// never returns (it is killed, or exits when every game is over).
[[noreturn]] void run_child(const std::string& path, std::uint64_t seed, int ack_fd) {
  std::mt19937_64 rng(seed);
  struct Live {
    MatchId id;
    rules::MatchOptions options;
    Seq last_seq;
    rules::State state;
  };
  std::vector<Live> games;
  {
    auto setup = SqliteStore::open(path, test::with_games(Options{}));
    if (!setup) _exit(2);
    auto report = setup->load_unfinished();
    if (!report || !report->quarantined.empty() || !report->unserved.empty()) _exit(3);
    // A match killed before its first event has no state yet: its options are in its row.
    std::map<MatchId, rules::MatchOptions> options;
    const auto rows = setup->list_matches().value();
    for (const MatchSummary& row : rows) {
      options[row.id] = {static_cast<std::uint8_t>(row.players),
                         row.mode == "expert" ? rules::Mode::Expert : rules::Mode::Simple};
    }
    for (LoadedMatch& loaded : report->restored) {
      const rules::State& state = test::eriantys_state(loaded.state);
      if (state.phase == rules::Phase::GameOver) {
        (void)setup->set_status(loaded.id, MatchStatus::Finished);
      } else if (static_cast<int>(games.size()) < kGamesInFlight) {
        games.push_back(
            Live{loaded.id, options[loaded.id], loaded.last_seq, state});
      }
    }
    while (static_cast<int>(games.size()) < kGamesInFlight) {
      const rules::MatchOptions options{static_cast<std::uint8_t>(2 + rng() % 3),
                                        rng() % 2 ? rules::Mode::Expert : rules::Mode::Simple};
      auto id = setup->create_match(NewMatch{test::handle(options), MatchStatus::Running});
      if (!id) _exit(4);
      games.push_back(Live{*id, options, 0, rules::State{}});
    }
  }

  std::mutex mutex;
  std::condition_variable wake;
  bool ready = false;
  auto committer = GroupCommitter::start(
      path, {.store = test::with_games(Options{.snapshot_every = 16})}, [&] {
    std::lock_guard lock(mutex);
    ready = true;
    wake.notify_one();
  });
  if (!committer) _exit(5);

  // One request in flight per game; its completion acks and submits the next.
  int in_flight = 0;
  std::function<void(std::size_t)> submit_next = [&](std::size_t g) {
    Live& game = games[g];
    std::optional<rules::Event> event;
    Actor actor = Actor::server();
    if (game.last_seq == 0) {
      event = rules::create_match(game.options, rng()).value();
    } else {
      if (game.state.phase == rules::Phase::GameOver) return;
      auto seats = rules::seats_to_act(game.state);
      if (seats.empty()) return;
      const rules::Seat seat = seats[rng() % seats.size()];
      auto legal = rules::legal_commands(game.state, seat);
      if (legal.empty()) return;
      event = rules::check(game.state, seat, legal[rng() % legal.size()]).value();
      actor = Actor::player(seat);
    }
    rules::State next = rules::apply(game.state, *event);
    AppendRequest request = AppendRequest::of(
        game.id, game.last_seq,
        {NewEvent{actor, std::nullopt, test::handle(*event), rules::hash(next)}},
        test::handle(next));
    ++in_flight;
    (*committer)->submit(std::move(request), [&, g, next](Result<AppendOutcome> result) {
      --in_flight;
      if (!result) _exit(6);
      Ack ack{games[g].id, result->last_seq};
      if (write(ack_fd, &ack, sizeof ack) != sizeof ack) _exit(7);
      games[g].last_seq = result->last_seq;
      games[g].state = next;
      submit_next(g);
    });
  };
  for (std::size_t g = 0; g < games.size(); ++g) submit_next(g);
  while (in_flight > 0) {
    {
      std::unique_lock lock(mutex);
      wake.wait(lock, [&] { return ready; });
      ready = false;
    }
    (*committer)->deliver_completions();
  }
  _exit(0);
}

TEST(CrashTest, EveryAcknowledgedEventSurvivesSigkill) {
  const std::uint64_t seed = testing::test_seed("CrashTest");
  const int kRounds = testing::sanitizer_run() ? 15 : 60;
  testing::TempDir dir;
  const std::string path = dir.file("eryantis.db");
  std::mt19937_64 rng(seed);
  std::map<MatchId, Seq> acked;  // highest acknowledged seq per match
  std::size_t total_acks = 0;
  const auto started = std::chrono::steady_clock::now();

  for (int round = 0; round < kRounds; ++round) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      close(fds[0]);
      run_child(path, seed + static_cast<std::uint64_t>(round) + 1, fds[1]);
    }
    close(fds[1]);

    // Most rounds kill 1-30 ms after the child's first acknowledgement (mid-write);
    // every fifth counts from the fork, so some kills land in open/migrate/restore.
    using Clock = std::chrono::steady_clock;
    const auto delay = std::chrono::milliseconds(1 + rng() % 30);
    const bool from_fork = round % 5 == 0;
    auto kill_at = Clock::now() + (from_fork ? delay : std::chrono::milliseconds(3000));
    bool killed = false;
    std::string buffer;
    for (;;) {
      const auto now = Clock::now();
      if (!killed && now >= kill_at) {
        kill(child, SIGKILL);
        killed = true;
      }
      const int wait_ms =
          killed
              ? -1
              : static_cast<int>(
                    std::chrono::duration_cast<std::chrono::milliseconds>(kill_at - now).count()) +
                    1;
      pollfd readable{fds[0], POLLIN, 0};
      if (poll(&readable, 1, wait_ms) <= 0) continue;
      char chunk[4096];
      const ssize_t got = read(fds[0], chunk, sizeof chunk);
      if (got <= 0) break;  // EOF: the child is gone
      if (!from_fork && buffer.empty()) kill_at = Clock::now() + delay;
      buffer.append(chunk, static_cast<std::size_t>(got));
    }
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == 0))
        << "child failed with exit code " << WEXITSTATUS(status) << " in round " << round;
    for (std::size_t at = 0; at + sizeof(Ack) <= buffer.size(); at += sizeof(Ack)) {
      Ack ack;
      std::memcpy(&ack, buffer.data() + at, sizeof ack);
      acked[ack.match] = std::max(acked[ack.match], ack.last_seq);
      ++total_acks;
    }

    // Reopen as the server would after the crash.
    auto store = SqliteStore::open(path, test::with_games(Options{}));
    ASSERT_TRUE(store) << store.error().message;
    auto report = store->load_unfinished();
    ASSERT_TRUE(report) << report.error().message;
    ASSERT_TRUE(report->quarantined.empty())
        << "round " << round << ": " << report->quarantined[0].reason;
    ASSERT_TRUE(report->unserved.empty()) << "round " << round;
    for (const auto& [match, seq] : acked) {
      auto last = store->last_seq(match);
      ASSERT_TRUE(last) << last.error().message;
      ASSERT_GE(*last, seq) << "match " << match << ": acknowledged seq " << seq
                            << " lost in round " << round;
      ASSERT_EQ(store->load_events(match, seq, seq)->size(), 1u);
    }
  }

  SqliteStore store = testing::open_store(path);
  auto matches = store.list_matches().value();
  for (const MatchSummary& match : matches) {
    auto verified = store.verify(match.id);
    ASSERT_TRUE(verified) << verified.error().message;
    EXPECT_TRUE(verified->ok()) << "match " << match.id << ": " << verified->divergence->reason;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "crash: " << kRounds << " kills, " << total_acks << " acknowledged appends over "
            << matches.size() << " matches, " << seconds << " s" << std::endl;
  EXPECT_GT(total_acks, 0u);
}

}  // namespace
}  // namespace eryantis::store
