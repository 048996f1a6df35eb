#include "eryantis/client/token_store.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "support/temp_dir.hpp"

namespace eryantis::client {
namespace {

class TokenStoreTest : public ::testing::Test {
 protected:
  test::TempDir temp_{"eryantis-tokens"};
  std::filesystem::path dir_ = temp_.path();
};

TEST_F(TokenStoreTest, PutGetOverwriteErase) {
  TokenStore store(dir_ / "sub" / "tokens");  // the folder is created
  EXPECT_FALSE(store.get("h:1", "alice"));
  ASSERT_TRUE(store.put("h:1", "alice", "t1"));
  ASSERT_TRUE(store.put("h:1", "bob", "t2"));
  ASSERT_TRUE(store.put("h:2", "alice", "t3"));
  EXPECT_EQ(store.get("h:1", "alice"), "t1");
  EXPECT_EQ(store.get("h:1", "bob"), "t2");
  EXPECT_EQ(store.get("h:2", "alice"), "t3");
  ASSERT_TRUE(store.put("h:1", "alice", "t4"));
  EXPECT_EQ(store.get("h:1", "alice"), "t4");
  // Another instance (another process later) sees the same file.
  EXPECT_EQ(TokenStore(store.path()).get("h:2", "alice"), "t3");
  ASSERT_TRUE(store.erase("h:1", "alice"));
  EXPECT_FALSE(store.get("h:1", "alice"));
  EXPECT_EQ(store.get("h:1", "bob"), "t2");
  ASSERT_TRUE(store.erase("h:1", "nobody"));
  // Private to the user, and no temporary file left behind.
  struct stat st {};
  ASSERT_EQ(::stat(store.path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  std::vector<std::string> files;
  for (auto& e : std::filesystem::directory_iterator(dir_ / "sub"))
    files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"tokens", "tokens.lock"}));
}

TEST_F(TokenStoreTest, RefusesSeparatorsAndSurvivesDamage) {
  TokenStore store(dir_ / "tokens");
  EXPECT_FALSE(store.put("h", "al\tice", "t"));
  EXPECT_FALSE(store.put("h", "alice", "t\n"));
  {
    std::FILE* f = std::fopen(store.path().c_str(), "w");
    std::fputs("garbage without tabs\nh\tbob\ttok\n", f);
    std::fclose(f);
  }
  EXPECT_EQ(store.get("h", "bob"), "tok");
  ASSERT_TRUE(store.put("h", "carol", "c"));
  EXPECT_EQ(store.get("h", "bob"), "tok");
}

TEST_F(TokenStoreTest, DefaultPathFollowsXdg) {
  const char* old_xdg = std::getenv("XDG_DATA_HOME");
  const std::string saved = old_xdg ? old_xdg : "";
  ::setenv("XDG_DATA_HOME", dir_.c_str(), 1);
  auto p = TokenStore::default_path();
  ASSERT_TRUE(p);
  EXPECT_EQ(*p, dir_ / "eryantis" / "tokens");
  ::unsetenv("XDG_DATA_HOME");
  if (std::getenv("HOME")) {
    auto h = TokenStore::default_path();
    ASSERT_TRUE(h);
    EXPECT_EQ(*h, std::filesystem::path(std::getenv("HOME")) / ".local/share/eryantis/tokens");
  }
  if (old_xdg) ::setenv("XDG_DATA_HOME", saved.c_str(), 1);
}

// Every writer adds its own nickname to one file at the same moment; without the
// lock about one in three lost its token (issue 11).
constexpr int kWriters = 16;

std::string nickname_of(int writer) {
  return "player" + std::to_string(writer);
}
std::string token_of(int writer) {
  return "token-" + std::to_string(writer * 7919);
}

void expect_every_token(const std::filesystem::path& file, int rounds) {
  TokenStore store(file);
  for (int w = 0; w < kWriters; ++w)
    EXPECT_EQ(store.get("h:1", nickname_of(w)), token_of(w) + "-" + std::to_string(rounds - 1))
        << nickname_of(w);
}

TEST_F(TokenStoreTest, ConcurrentThreadsKeepEveryToken) {
  constexpr int kRounds = 20;
  const auto file = dir_ / "tokens";
  std::atomic<int> ready{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w)
    threads.emplace_back([&, w] {
      TokenStore store(file);  // each its own instance, as separate clients would have
      ready.fetch_add(1);
      while (ready.load() < kWriters) std::this_thread::yield();
      for (int r = 0; r < kRounds; ++r)
        if (!store.put("h:1", nickname_of(w), token_of(w) + "-" + std::to_string(r)))
          failures.fetch_add(1);
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  expect_every_token(file, kRounds);
}

TEST_F(TokenStoreTest, ConcurrentProcessesKeepEveryToken) {
  constexpr int kRounds = 5;
  const auto file = dir_ / "tokens";
  // The children block on a pipe until every one of them is forked, then all start at once.
  int gate[2];
  ASSERT_EQ(::pipe(gate), 0);
  std::vector<pid_t> children;
  for (int w = 0; w < kWriters; ++w) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(gate[1]);
      char byte;
      while (::read(gate[0], &byte, 1) < 0 && errno == EINTR) {
      }
      TokenStore store(file);
      int code = 0;
      for (int r = 0; r < kRounds; ++r)
        if (!store.put("h:1", nickname_of(w), token_of(w) + "-" + std::to_string(r))) code = 1;
      ::_exit(code);
    }
    children.push_back(pid);
  }
  ::close(gate[0]);
  ::close(gate[1]);  // end of file for every child: go
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "writer failed: " << status;
  }
  expect_every_token(file, kRounds);
  // No temporary file left behind by any writer.
  for (auto& e : std::filesystem::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

}  // namespace
}  // namespace eryantis::client
