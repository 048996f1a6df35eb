// Endings kept for players who were away (migration 0005), read back newest-last at
// start-up. Keeping and delivering them is checked on both backends in
// backends/backend_test.cpp (KeptEndingsAreDeletedWhenDelivered).
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

TEST(UnseenEndings, StartUpReadsTheNewestUpToTheLimit) {
  testing::TempDir dir;
  SqliteStore store = testing::open_store(dir.file("e.db"));
  for (int i = 0; i < 5; ++i) {
    const MatchId m = store
                         .create_match({test::handle(rules::MatchOptions{2, rules::Mode::Simple}),
                                        MatchStatus::Running})
                         .value();
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
