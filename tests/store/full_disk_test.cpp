// A full disk under the group committer, on a real file system: a tmpfs of a
// few MiB mounted in a mount namespace of this test process alone (it vanishes
// with the process, whatever happens). Before issue 23 the WAL kept the space it
// had taken and swallowed whatever was freed: writes resumed for a moment, then
// failed again until the disk grew. Now the first write after the space returns
// moves the WAL into the database and truncates it first.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>

#include "eryantis/store/group_committer.hpp"
#include "eryantis/store/sqlite.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

using testing::Game;
using testing::TempDir;

// A tmpfs of `bytes` at a fresh folder, in a private mount namespace: nothing
// outside this process sees it. `why_not` says why there is none (mount(2)
// needs CAP_SYS_ADMIN).
class SmallDisk {
 public:
  explicit SmallDisk(std::size_t bytes) {
    if (unshare(CLONE_NEWNS) != 0) {
      why_not_ = std::string("unshare(CLONE_NEWNS): ") + std::strerror(errno);
      return;
    }
    // Private, so the mount below does not propagate to the rest of the machine.
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
      why_not_ = std::string("making / private: ") + std::strerror(errno);
      return;
    }
    const std::string options = "size=" + std::to_string(bytes) + ",mode=0700";
    if (mount("tmpfs", dir_.path().c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) != 0) {
      why_not_ = std::string("mount -t tmpfs: ") + std::strerror(errno);
      return;
    }
    mounted_ = true;
  }
  ~SmallDisk() {
    if (mounted_) umount2(dir_.path().c_str(), MNT_DETACH);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  bool mounted() const { return mounted_; }
  const std::string& why_not() const { return why_not_; }
  std::string file(const std::string& name) const { return dir_.file(name); }

 private:
  TempDir dir_;
  bool mounted_ = false;
  std::string why_not_;
};

// Writes `bytes` of real data (a sparse file would take no space).
bool write_filler(const std::string& path, std::size_t bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  const std::string block(64 * 1024, 'x');
  std::size_t written = 0;
  while (written < bytes) {
    const ssize_t n = ::write(fd, block.data(), std::min(block.size(), bytes - written));
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return written == bytes;
}

std::uintmax_t size_of(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return ec ? 0 : size;
}

struct Writer {
  GroupCommitter& committer;
  std::vector<Game>& games;
  std::vector<MatchId> ids;
  std::vector<std::size_t> acked;  // events durably appended per game
  std::string last_error;

  // One request per game that has events left, one event each; how many succeeded.
  std::size_t round() {
    std::vector<std::pair<std::size_t, Result<AppendOutcome>>> results;
    for (std::size_t g = 0; g < games.size(); ++g) {
      const std::size_t next = acked[g];
      if (next >= games[g].events.size()) continue;
      AppendRequest request = AppendRequest::of(ids[g], static_cast<Seq>(next),
                                                {games[g].events[next]}, games[g].after(next));
      if (next == 0) request.create = NewMatch{test::handle(games[g].options), MatchStatus::Running};
      committer.submit(std::move(request),
                       [&results, g](Result<AppendOutcome> r) { results.emplace_back(g, r); });
    }
    committer.flush();
    committer.deliver_completions();
    std::size_t ok = 0;
    for (auto& [g, result] : results) {
      if (result) {
        ++acked[g];
        ++ok;
      } else {
        last_error = result.error().message;
      }
    }
    return ok;
  }
};

TEST(FullDisk, WritesResumeOnceSpaceIsFreedAndTheWalGivesItsSpaceBack) {
  SmallDisk disk(std::size_t{8} << 20);
  if (!disk.mounted()) GTEST_SKIP() << "no small file system to fill: " << disk.why_not();
  const std::string path = disk.file("eryantis.db");
  const std::string wal = path + "-wal";
  const std::string filler = disk.file("filler");

  const std::uint64_t seed = testing::test_seed("FullDisk");
  std::vector<Game> games;
  for (int g = 0; g < 48; ++g)
    games.push_back(testing::play_random_game({4, rules::Mode::Expert}, seed + g));
  auto committer = GroupCommitter::start(
      path,
      {test::with_games(Options{.durability = Durability::Normal, .snapshot_every = 64}), 64},
      [] {});
  ASSERT_TRUE(committer) << committer.error().message;
  Writer writer{**committer, games, {}, std::vector<std::size_t>(games.size(), 0), {}};
  for (std::size_t g = 0; g < games.size(); ++g) writer.ids.push_back(static_cast<MatchId>(g + 1));
  ASSERT_TRUE(write_filler(filler, std::size_t{3} << 20));

  // Fill the disk: rounds succeed until one fails for lack of space.
  std::size_t before_full = 0;
  for (int r = 0; r < 10'000; ++r) {
    const std::size_t ok = writer.round();
    before_full += ok;
    if (ok == 0) break;
  }
  ASSERT_NE(writer.last_error.find("full"), std::string::npos) << writer.last_error;
  ASSERT_GT(before_full, 100u);
  const auto wal_when_full = size_of(wal);
  // Still full: refused again, and the refusals take no space.
  EXPECT_EQ(writer.round(), 0u);
  EXPECT_LE(size_of(wal), wal_when_full);

  // Space returns: within a second the writer gives the WAL's space back, and the
  // next round is written whole (what is left of the WAL is that round alone).
  std::filesystem::remove(filler);
  EXPECT_TRUE((*committer)->disk_full());
  EXPECT_TRUE(
      test::eventually(std::chrono::seconds(10), [&] { return !(*committer)->disk_full(); }));
  const std::size_t first = writer.round();
  EXPECT_GT(first, 0u) << writer.last_error;
  EXPECT_LT(size_of(wal), std::uintmax_t{512} << 10)
      << "the WAL kept its space: " << size_of(wal) << " bytes, " << wal_when_full
      << " when the disk filled";
  // And writing goes on past the 3 MiB freed: the space the WAL held came back too
  // (an 8 MiB disk never reaches the WAL's 16 MiB checkpoint: it fills again).
  const auto wal_resumed = size_of(wal);
  std::size_t after = first;
  for (int r = 0; r < 10'000; ++r) {
    const std::size_t ok = writer.round();
    if (ok == 0) break;
    after += ok;
  }
  EXPECT_GT(size_of(wal) - wal_resumed, std::uintmax_t{4} << 20)
      << "written after the resume: " << size_of(wal) - wal_resumed << " bytes of WAL, " << after
      << " events; " << writer.last_error;
  std::cout << "[ measured ] full with a " << wal_when_full << "-byte WAL; after 3 MiB were freed "
            << "the database grew to " << size_of(path) << " bytes and the WAL restarted from "
            << wal_resumed << " bytes; " << before_full << " events before the disk filled, "
            << after << " after, " << size_of(wal) << " bytes of WAL when it filled again\n";

  // Every acknowledged event is there and every match refolds.
  (*committer)->stop();
  committer->reset();
  SqliteStore store = testing::open_store(path, Options{.read_only = true});
  for (std::size_t g = 0; g < games.size(); ++g) {
    if (writer.acked[g] == 0) continue;
    SCOPED_TRACE("match " + std::to_string(writer.ids[g]));
    EXPECT_EQ(store.last_seq(writer.ids[g]).value_or(-1), static_cast<Seq>(writer.acked[g]));
    auto verified = store.verify(writer.ids[g]);
    ASSERT_TRUE(verified) << verified.error().message;
    EXPECT_TRUE(verified->ok()) << verified->divergence->reason;
  }
  EXPECT_EQ(store.database()
                .query_int("SELECT count(*) FROM pragma_quick_check WHERE quick_check != 'ok'")
                .value_or(-1),
            0);
}

}  // namespace
}  // namespace eryantis::store
