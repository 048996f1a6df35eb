// Clients that never read, watching a busy match and asking for its state again
// and again: the server's resident memory stays under what it used before they
// started plus limits.max_outgoing_bytes_total, because the clients holding the
// most unsent output are cut first.
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <iostream>
#include <thread>

#include "fixture.hpp"
#include "support/file_edit.hpp"
#include "support/process_memory.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;

class MemoryBudgetTest : public ServerFixture {};

TEST_F(MemoryBudgetTest, NeverReadingSpectatorsOfABusyMatchStayWithinTheBudget) {
  constexpr std::size_t kBudget = 8 << 20;
  // A sanitizer build serialises a state ~10x slower: 40 spectators still ask for
  // ~80 MiB, ten times the budget, without queueing a minute of work on the loop.
  const int kSpectators = sanitizer_run() ? 40 : 120;
  constexpr int kSyncsEach = 400;  // ~5 KiB each: ~240 MiB asked for in all
  const std::string path = write_config(dir_, "eryantis.toml", db_, TestConfig{});
  ASSERT_TRUE(test::insert_after(path, "max_outgoing_bytes = 8388608\n",
                                 "max_outgoing_bytes_total = " + std::to_string(kBudget) + "\n"))
      << path;
  start_with(path);

  Game game("busy", GameOptions{}, test_seed());
  game.connect_all(port());
  ASSERT_FALSE(HasFatalFailure());
  game.create_and_join();
  ASSERT_FALSE(HasFatalFailure());
  std::vector<std::unique_ptr<Client>> spectators;
  for (int i = 0; i < kSpectators; ++i) {
    auto c = Client::connect(port(), "spectator");
    ASSERT_TRUE(c);
    const int small = 4096;  // the kernel takes little for them: the server must hold the rest
    setsockopt(c->fd(), SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    ASSERT_TRUE(c->hello(true));
    ASSERT_TRUE(c->spectate(game.match()));
    spectators.push_back(std::move(c));
  }
  std::this_thread::sleep_for(200ms);
  const std::size_t base = test::resident_bytes(server_->pid());
  ASSERT_GT(base, 0u);

  test::PeakResident peak(server_->pid(), base);
  std::string syncs;
  for (int i = 0; i < kSyncsEach; ++i)
    syncs += R"({"type":"sync"})"
             "\n";
  for (auto& c : spectators) c->send_raw(syncs);  // and never read
  drive({&game}, 3s);                             // the match goes on meanwhile
  const std::size_t peak_bytes = peak.stop();

  std::cout << "[ memory   ] resident before " << (base >> 10) << " KiB, peak "
            << (peak_bytes >> 10) << " KiB, budget " << (kBudget >> 10) << " KiB\n";
  // A sanitizer keeps freed memory in quarantine (and shadows all of it): only
  // a plain build's resident size means something.
  // The resident size also holds what the allocator keeps between bursts: one more
  // doubling of a queue's buffer (measured: peaks of base + 8.0 MiB and, depending
  // on the timing of the cuts, base + 9.5 MiB for the same 8 MiB budget).
  constexpr std::size_t kAllocatorSlack = 2 << 20;
  if (!sanitizer_run()) {
    EXPECT_LE(peak_bytes, base + kBudget + kAllocatorSlack);
  }
  const std::string log = server_->log();
  EXPECT_NE(log.find("the most of all connections"), std::string::npos) << server_->log_tail();
  // The players, who read, are never the ones cut. The loop may still be
  // answering the spectators' syncs (up to 48,000 states), so the ping may wait for
  // them: what counts is that it is answered, not how fast.
  EXPECT_TRUE(game.player(0).client && game.player(0).client->ping(std::chrono::seconds(60)));
}

}  // namespace
}  // namespace eryantis::integration
