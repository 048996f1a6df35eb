// Endings kept for players who were away (migration 0005): written with the
// request that ends a match, deleted by the one that records their delivery, and
// read back newest-last at start-up.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace eryantis::store {
namespace {

std::string line(MatchId match) {
  return R"({"type":"game_over","match":)" + std::to_string(match) + R"(,"result":{}})";
}

AppendRequest ending(MatchId match, Seq seq, std::vector<std::string> away) {
  AppendRequest r;
  r.match_id = match;
  r.expected_seq = seq;
  r.status = MatchStatus::Finished;
  for (std::string& n : away)
    r.keep_endings.push_back(UnseenEnding{std::move(n), match, line(match)});
  return r;
}

AppendRequest delivered(MatchId match, std::string nickname) {
  AppendRequest r;
  r.match_id = match;
  r.expected_seq = 999;  // whatever it says: a delivery changes nothing of the match
  r.delivered_endings.push_back(std::move(nickname));
  return r;
}

TEST(UnseenEndings, KeptWithTheEndingDeletedWhenDeliveredNewestReplacesOlder) {
  testing::TempDir dir;
  Store store = testing::open_store(dir.file("e.db"));
  const MatchId a = store.create_match({{2, rules::Mode::Simple}, MatchStatus::Running}).value();
  const MatchId b = store.create_match({{2, rules::Mode::Simple}, MatchStatus::Running}).value();
  std::vector<AppendRequest> batch{ending(a, 0, {"bob", "carol"})};
  for (auto& r : store.append_batch(batch)) ASSERT_TRUE(r) << r.error().message;
  auto kept = store.unseen_endings(100).value();
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0], (UnseenEnding{"bob", a, line(a)}));
  EXPECT_EQ(kept[1], (UnseenEnding{"carol", a, line(a)}));

  // A failed ending (a stale seq) keeps nothing: all or nothing.
  std::vector<AppendRequest> stale{ending(b, 5, {"dave"})};
  EXPECT_FALSE(store.append_batch(stale)[0]);
  EXPECT_EQ(store.unseen_endings(100).value().size(), 2u);

  // carol's newer ending replaces the older one; a delivery of the older one then
  // leaves the newer in place.
  std::vector<AppendRequest> newer{ending(b, 0, {"carol"}), delivered(a, "carol"),
                                   delivered(a, "bob")};
  for (auto& r : store.append_batch(newer)) ASSERT_TRUE(r) << r.error().message;
  kept = store.unseen_endings(100).value();
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0], (UnseenEnding{"carol", b, line(b)}));
  EXPECT_EQ(store.last_seq(a).value(), 0);  // the deliveries touched no match
  EXPECT_EQ(store.list_matches().value()[0].status, MatchStatus::Finished);
}

TEST(UnseenEndings, StartUpReadsTheNewestUpToTheLimit) {
  testing::TempDir dir;
  Store store = testing::open_store(dir.file("e.db"));
  for (int i = 0; i < 5; ++i) {
    const MatchId m = store.create_match({{2, rules::Mode::Simple}, MatchStatus::Running}).value();
    std::string nickname = "p";  // appended: g++ 12 warns (-Wrestrict) about "p" + string
    nickname.append(std::to_string(i));
    std::vector<AppendRequest> batch{ending(m, 0, {nickname})};
    ASSERT_TRUE(store.append_batch(batch)[0]);
    // Distinct times: the rows are ordered by when they were written.
    std::string sql = "UPDATE unseen_endings SET time = ";
    sql.append(std::to_string(1000 + i)).append(" WHERE nickname = '").append(nickname).append("'");
    testing::exec(store, sql);
  }
  auto kept = store.unseen_endings(3).value();
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_EQ(kept[0].nickname, "p2");  // oldest of the newest three first
  EXPECT_EQ(kept[2].nickname, "p4");
}

}  // namespace
}  // namespace eryantis::store
