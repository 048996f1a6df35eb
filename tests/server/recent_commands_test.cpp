#include "eryantis/server/recent_commands.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace eryantis::server {
namespace {

std::string id_of(int i) {
  return "0:cmd-" + std::to_string(i);
}

TEST(RecentCommandsTest, FindsARememberedIdWithItsSeq) {
  RecentCommands recent;
  recent.remember("0:a", 7);
  recent.remember("1:a", 8);
  EXPECT_EQ(recent.find("0:a"), 7);
  EXPECT_EQ(recent.find("1:a"), 8);
  EXPECT_EQ(recent.find("2:a"), std::nullopt);
  EXPECT_EQ(recent.find(""), std::nullopt);
}

TEST(RecentCommandsTest, KeepsTheNewestAndForgetsTheOldestOnceFull) {
  RecentCommands recent;
  const int total = static_cast<int>(kRecentCommands) * 2 + 5;  // wraps the ring twice
  for (int i = 1; i <= total; ++i) recent.remember(id_of(i), i);
  EXPECT_EQ(recent.size(), kRecentCommands);
  const int first_kept = total - static_cast<int>(kRecentCommands) + 1;
  for (int i = 1; i < first_kept; ++i) EXPECT_EQ(recent.find(id_of(i)), std::nullopt) << i;
  for (int i = first_kept; i <= total; ++i) EXPECT_EQ(recent.find(id_of(i)), i) << i;
}

TEST(RecentCommandsTest, AssignKeepsTheNewestOfWhatTheStoreGives) {
  std::vector<std::pair<std::string, store::Seq>> stored;
  const int total = static_cast<int>(kRecentCommands) + 10;
  for (int i = 1; i <= total; ++i) stored.emplace_back(id_of(i), i);
  RecentCommands recent;
  recent.remember("0:stale", 1);
  recent.assign(stored);
  EXPECT_EQ(recent.size(), kRecentCommands);
  EXPECT_EQ(recent.find("0:stale"), std::nullopt);
  EXPECT_EQ(recent.find(id_of(10)), std::nullopt);
  EXPECT_EQ(recent.find(id_of(11)), 11);
  EXPECT_EQ(recent.find(id_of(total)), total);
  // After a load the ring goes on from there: the oldest assigned id goes first.
  recent.remember("0:next", total + 1);
  EXPECT_EQ(recent.find(id_of(11)), std::nullopt);
  EXPECT_EQ(recent.find(id_of(12)), 12);
  EXPECT_EQ(recent.find("0:next"), total + 1);
}

}  // namespace
}  // namespace eryantis::server
