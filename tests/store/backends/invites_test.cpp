// Private matches and their invite rows (schema 10), on both backends: written with
// the match's creation, a use and a revocation upserted by digest, and read back by
// privacy() and load_unfinished() as a restarted server sees them; a public match
// has none; the PostgreSQL lobby of a cluster never lists a private match.
#include "backend_fixture.hpp"

namespace eryantis::store::testing {
namespace {

constexpr rules::MatchOptions kTwoPlayers{2, rules::Mode::Simple};

class InviteStoreTest : public BackendTest {
 protected:
  static MatchInvite invite(MatchId match, char fill, int uses = 0, bool revoked = false) {
    return MatchInvite{std::string(64, fill), match, 1000, 2000, 100, uses, revoked};
  }
};

TEST_P(InviteStoreTest, APrivateMatchAndItsInvitesAreReadBackAfterAReopen) {
  auto store = open();
  ASSERT_TRUE(store);
  const Game a = play_random_game(kTwoPlayers, 31, 1);
  const Game b = play_random_game(kTwoPlayers, 32, 1);
  AppendRequest secret = AppendRequest::of(1, 0, {a.events.begin(), a.events.end()});
  secret.create = NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby};
  secret.create->private_match = true;
  secret.seats = {SeatRecord{0, 0, "ada", "h0", std::nullopt, std::nullopt, std::nullopt}};
  secret.invites = {invite(0, 'a')};
  AppendRequest open_match = AppendRequest::of(2, 0, {b.events.begin(), b.events.end()});
  open_match.create = NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby};
  const std::vector<AppendRequest> created{secret, open_match};
  for (const auto& done : store->append_batch(created)) ASSERT_TRUE(done) << done.error().message;

  // A join's use and a revocation with a new code: upserts by digest.
  AppendRequest joined;
  joined.match_id = 1;
  joined.expected_seq = static_cast<Seq>(a.events.size());
  joined.seats = {SeatRecord{0, 1, "bob", "h1", std::nullopt, std::nullopt, std::nullopt}};
  joined.invites = {invite(1, 'a', 1)};
  AppendRequest revoked;
  revoked.match_id = 1;
  revoked.expected_seq = joined.expected_seq;
  revoked.invites = {invite(1, 'a', 1, true), invite(1, 'b')};
  for (const AppendRequest& r : {joined, revoked}) {
    const std::vector<AppendRequest> one{r};
    auto done = store->append_batch(one);
    ASSERT_TRUE(done[0]) << done[0].error().message;
  }

  auto reopened = open();
  ASSERT_TRUE(reopened);
  const MatchPrivacy expected{true, {invite(1, 'a', 1, true), invite(1, 'b')}};
  EXPECT_EQ(reopened->privacy(1).value(), expected);
  EXPECT_EQ(reopened->privacy(2).value(), MatchPrivacy{});
  EXPECT_EQ(reopened->privacy(9).error().code, StoreCode::NotFound);
  auto report = reopened->load_unfinished();
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(report->restored.size(), 2u);
  EXPECT_TRUE(report->restored[0].private_match);
  EXPECT_EQ(report->restored[0].invites, expected.invites);
  EXPECT_FALSE(report->restored[1].private_match);
  EXPECT_TRUE(report->restored[1].invites.empty());

  // A cluster's lobby (PostgreSQL) lists the public match only.
  if (auto* pg = dynamic_cast<PgStore*>(reopened.get())) {
    auto listed = pg->open_matches(10);
    ASSERT_TRUE(listed) << listed.error().message;
    ASSERT_EQ(listed->size(), 1u);
    EXPECT_EQ((*listed)[0].id, 2);
  }
}

TEST_P(InviteStoreTest, CreateMatchKeepsThePrivacyFlag) {
  auto store = open();
  ASSERT_TRUE(store);
  NewMatch m{test::handle(kTwoPlayers), MatchStatus::Lobby};
  m.private_match = true;
  const MatchId id = store->create_match(m).value();
  EXPECT_TRUE(store->privacy(id).value().private_match);
}

INSTANTIATE_TEST_SUITE_P(Backends, InviteStoreTest,
                         ::testing::Values(Backend::Sqlite, Backend::Postgresql),
                         backend_test_name);

}  // namespace
}  // namespace eryantis::store::testing
