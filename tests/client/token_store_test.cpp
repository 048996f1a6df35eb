#include "eryantis/client/token_store.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>

namespace eryantis::client {
namespace {

class TokenStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/eryantis-tokens-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
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
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir_ / "sub")) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
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

}  // namespace
}  // namespace eryantis::client
