// PostgreSQL only: what the nodes of a cluster share beside one lease (docs/cluster.md):
// the batched renewal, where nodes are reached, the match id sequence, where a
// nickname's unfinished seat is.
#include <spdlog/fmt/fmt.h>

#include <thread>

#include "backend_fixture.hpp"
#include "eryantis/store/migrations.hpp"

namespace eryantis::store::testing {
namespace {

using namespace std::chrono_literals;

constexpr rules::MatchOptions kTwoPlayers{2, rules::Mode::Simple};

class ClusterStoreTest : public BackendTest {
 protected:
  void SetUp() override {
    location_ = make_location(Backend::Postgresql);
    if (IsSkipped() || HasFatalFailure()) return;
    auto opened = PgStore::open(location_.target, test::with_games(Options{}));
    ASSERT_TRUE(opened) << opened.error().message;
    store_ = std::make_unique<PgStore>(std::move(*opened));
  }
  MatchId new_match(MatchStatus status = MatchStatus::Running) {
    return store_->create_match(NewMatch{test::handle(kTwoPlayers), status}).value();
  }
  std::unique_ptr<PgStore> store_;
};

TEST_F(ClusterStoreTest, RenewLeasesRenewsWhatIsHeldAndNamesWhatIsLost) {
  const MatchId kept = new_match();
  const MatchId taken = new_match();
  const MatchId expired = new_match();
  const auto a_kept = store_->acquire_lease(kept, "a", 10s).value();
  const auto a_taken = store_->acquire_lease(taken, "a", 1ms).value();
  const auto a_expired = store_->acquire_lease(expired, "a", 1ms).value();
  std::this_thread::sleep_for(20ms);
  ASSERT_TRUE(store_->acquire_lease(taken, "b", 10s));  // b took it once it expired
  const std::vector<HeldLease> held = {
      {kept, a_kept.epoch}, {taken, a_taken.epoch}, {expired, a_expired.epoch}};
  auto lost = store_->renew_leases("a", held, 10s);
  ASSERT_TRUE(lost) << lost.error().message;
  EXPECT_EQ(*lost, (std::vector<MatchId>{taken, expired}));
  auto row = store_->lease(kept).value();
  ASSERT_TRUE(row);
  EXPECT_EQ(row->epoch, a_kept.epoch);  // a renewal keeps the epoch
  EXPECT_GT(row->expires_at_ms, a_kept.expires_at_ms);
  EXPECT_EQ(store_->lease(taken).value()->node, "b");
  // A stale epoch renews nothing, even on the node that holds the row now.
  auto stale = store_->renew_leases("b", std::vector<HeldLease>{{taken, a_taken.epoch}}, 10s);
  ASSERT_TRUE(stale);
  EXPECT_EQ(*stale, std::vector<MatchId>{taken});
  EXPECT_TRUE(store_->renew_leases("a", {}, 10s).value().empty());
}

TEST_F(ClusterStoreTest, AcquireLeasesAnswersEachMatchAsAcquireLeaseWould) {
  const MatchId free = new_match();
  const MatchId own = new_match();      // this node's already: a restart takes it again
  const MatchId live = new_match();     // another node's, running
  const MatchId expired = new_match();  // another node's, run out
  ASSERT_TRUE(store_->acquire_lease(own, "a", 10s));
  ASSERT_TRUE(store_->acquire_lease(live, "b", 10s));
  ASSERT_TRUE(store_->acquire_lease(expired, "b", 1ms));
  std::this_thread::sleep_for(20ms);
  const std::vector<MatchId> ids = {live, free, expired, own};
  auto taken = store_->acquire_leases(ids, "a", 10s);
  ASSERT_TRUE(taken) << taken.error().message;
  ASSERT_EQ(taken->size(), ids.size());
  const auto& refused = (*taken)[0];
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, StoreCode::Conflict);
  EXPECT_NE(refused.error().message.find("node b"), std::string::npos) << refused.error().message;
  EXPECT_EQ(store_->lease(live).value()->node, "b");  // untouched
  const std::vector<std::pair<MatchId, std::int64_t>> epochs = {
      {free, 1}, {expired, 2}, {own, 2}};  // every take raises the epoch
  for (std::size_t i = 1; i < ids.size(); ++i) {
    const auto& lease = (*taken)[i];
    ASSERT_TRUE(lease) << ids[i] << ": " << lease.error().message;
    EXPECT_EQ(lease->match_id, ids[i]);
    EXPECT_EQ(lease->node, "a");
    EXPECT_EQ(lease->epoch, epochs[i - 1].second) << ids[i];
    EXPECT_EQ(store_->lease(ids[i]).value()->epoch, lease->epoch);
  }
  EXPECT_TRUE(store_->acquire_leases({}, "a", 10s).value().empty());
  // The statuses of many matches in one statement, missing ones included.
  ASSERT_TRUE(store_->set_status(own, MatchStatus::Finished));
  auto statuses = store_->match_statuses(std::vector<MatchId>{own, free, free + 100});
  ASSERT_TRUE(statuses);
  EXPECT_EQ(*statuses, (std::vector<std::optional<MatchStatus>>{
                           MatchStatus::Finished, MatchStatus::Running, std::nullopt}));
}

// What a node adopting matches reads: load_matches must give, for every match,
// what fold + seats + recent_command_ids + deadline give one at a time, including
// a match whose newest snapshot the fold rejects (read back from the database)
// and one whose log diverges (reported, not hidden, and no harm to the others).
TEST_F(ClusterStoreTest, ABatchedLoadReadsWhatOneAtATimeReads) {
  Options options = test::with_games(Options{});
  options.snapshot_every = 8;  // several snapshots per match
  auto opened = PgStore::open(location_.target, options);
  ASSERT_TRUE(opened) << opened.error().message;
  PgStore& db = *opened;
  std::vector<MatchId> ids;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Game game = play_random_game(kTwoPlayers, 100 + seed, 20 + static_cast<int>(seed) * 9);
    ids.push_back(store_game(db, game, seed));
  }
  ids.push_back(db.create_match(NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby}).value());  // no event
  // Seats and a timer on some of them.
  for (std::size_t i = 0; i < ids.size(); i += 2) {
    ASSERT_TRUE(db.upsert_seat({ids[i], 0, "ada", "h0", "white", 2, {}}));
    ASSERT_TRUE(db.upsert_seat({ids[i], 1, "c1", "", std::nullopt, std::nullopt, "greedy"}));
    AppendRequest timer;
    timer.match_id = ids[i];
    timer.expected_seq = db.last_seq(ids[i]).value();
    timer.deadline =
        DeadlineRecord{"turn_grace", 1, 1'700'000'000'000 + static_cast<std::int64_t>(i)};
    // And an invite (schema 10): the batch reads privacy as privacy() does.
    timer.invites = {MatchInvite{std::string(64, static_cast<char>('a' + i)), ids[i], 1000, 2000,
                                 100, static_cast<int>(i), i == 2}};
    auto set = db.append_batch(std::span(&timer, 1));
    ASSERT_TRUE(set.front()) << set.front().error().message;
    raw_exec(db, fmt::format("UPDATE matches SET is_private = true WHERE id = {}", ids[i]));
  }
  const MatchId bad_snapshot = ids[1];
  const MatchId diverging = ids[3];
  raw_exec(db, fmt::format("UPDATE snapshots SET state = '\\x00' WHERE match_id = {} AND seq = "
                           "(SELECT max(seq) FROM snapshots WHERE match_id = {})",
                           bad_snapshot, bad_snapshot));
  raw_exec(db, fmt::format("UPDATE events SET state_hash = '0000000000000000' WHERE match_id = "
                           "{} AND seq = (SELECT last_seq FROM matches WHERE id = {})",
                           diverging, diverging));
  const MatchId missing = ids.back() + 100;
  std::vector<MatchId> batch = ids;
  batch.insert(batch.begin() + 2, missing);

  const FoldPolicy policy{FoldStart::NewestSnapshot, HashCheck::Last};
  std::vector<MatchId> visited;
  auto loaded = db.load_matches(batch, policy, 5, [&](MatchId id, Result<FoldedMatch> match) {
    visited.push_back(id);
    if (id == missing) {
      ASSERT_FALSE(match);
      EXPECT_EQ(match.error().code, StoreCode::NotFound);
      return;
    }
    ASSERT_TRUE(match) << id << ": " << match.error().message;
    auto one = db.fold(id, policy);
    ASSERT_TRUE(one) << one.error().message;
    EXPECT_EQ(match->id, id);
    EXPECT_EQ(match->folded.played, one->played) << id;
    // (An empty state after a divergence is FoldTest.ADivergedFoldKeepsTheLastTrustedPrefix's.)
    ASSERT_EQ(match->folded.state.empty(), one->state.empty()) << id;
    if (!one->state.empty()) {
      EXPECT_EQ(test::eriantys_state(match->folded.state), test::eriantys_state(one->state)) << id;
    }
    EXPECT_EQ(match->folded.seq, one->seq) << id;
    EXPECT_EQ(match->folded.snapshot_seq, one->snapshot_seq) << id;
    EXPECT_EQ(match->folded.divergence.has_value(), one->divergence.has_value()) << id;
    EXPECT_EQ(match->folded.divergence.has_value(), id == diverging) << id;
    if (one->divergence) {
      EXPECT_EQ(match->folded.divergence->reason, one->divergence->reason);
    }
    EXPECT_EQ(match->status, db.match_status(id).value().value());
    EXPECT_EQ(match->seats, db.seats(id).value()) << id;
    EXPECT_EQ(match->recent_commands, db.recent_command_ids(id, 5).value()) << id;
    EXPECT_EQ(match->deadline, db.deadline(id).value()) << id;
    EXPECT_EQ(match->privacy, db.privacy(id).value()) << id;
  });
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(visited, batch);  // each once, in the order asked
  // The damaged snapshot sent that fold to an older one; the others started from their newest.
  auto newest = db.fold(ids[0], policy).value();
  EXPECT_GT(newest.snapshot_seq, 0);
  auto older = db.fold(bad_snapshot, policy).value();
  EXPECT_TRUE(older.ok());
  EXPECT_LT(older.snapshot_seq, db.last_seq(bad_snapshot).value() / 8 * 8);
}

TEST_F(ClusterStoreTest, ReleaseLeasesFreesWhatIsHeldAtOnceAndLeavesTheRest) {
  const MatchId mine = new_match();
  const MatchId taken = new_match();
  const auto a_mine = store_->acquire_lease(mine, "a", 10s).value();
  const auto a_taken = store_->acquire_lease(taken, "a", 1ms).value();
  std::this_thread::sleep_for(20ms);
  const auto b_taken = store_->acquire_lease(taken, "b", 10s).value();
  auto released = store_->release_leases(
      "a", std::vector<HeldLease>{{mine, a_mine.epoch}, {taken, a_taken.epoch}});
  ASSERT_TRUE(released) << released.error().message;
  EXPECT_EQ(*released, 1u);  // only the lease a still held
  // Another node takes the released match at once (not after the 10 s), one epoch on.
  auto adopted = store_->acquire_lease(mine, "b", 10s);
  ASSERT_TRUE(adopted) << adopted.error().message;
  EXPECT_EQ(adopted->epoch, a_mine.epoch + 1);
  // b's running lease on `taken` was not touched by a's stale epoch.
  auto row = store_->lease(taken).value();
  ASSERT_TRUE(row);
  EXPECT_EQ(row->node, "b");
  EXPECT_EQ(row->expires_at_ms, b_taken.expires_at_ms);
  EXPECT_EQ(store_->release_leases("a", {}).value(), 0u);
}

TEST_F(ClusterStoreTest, DueOrphansAreUnfinishedMatchesNobodyServesWithATimerDueSoonOrNoTimer) {
  auto arm = [&](MatchId id, std::int64_t at_ms) {
    auto done = store_->connection().query(
        "UPDATE matches SET deadline_kind = 'abandon', deadline_seat = -1, deadline_at = $2 "
        "WHERE id = $1",
        pg::Params().add(id).add(at_ms));
    ASSERT_TRUE(done) << done.error().message;
  };
  const MatchId never_leased = new_match(MatchStatus::Running);
  const MatchId expired = new_match(MatchStatus::Lobby);
  const MatchId served = new_match();
  const MatchId later = new_match();
  const MatchId no_timer = new_match();
  const MatchId over = new_match(MatchStatus::Abandoned);
  arm(expired, 2000);
  arm(never_leased, 1000);
  arm(served, 1500);
  arm(later, 9000);
  arm(over, 1000);
  ASSERT_TRUE(store_->acquire_lease(expired, "a", 1ms));
  ASSERT_TRUE(store_->acquire_lease(served, "b", 10s));
  ASSERT_TRUE(store_->acquire_lease(no_timer, "a", 1ms));
  std::this_thread::sleep_for(20ms);
  auto due = store_->due_orphans(5000, 10);
  ASSERT_TRUE(due) << due.error().message;
  // Soonest first; a match with no stored timer last (its node died with players
  // connected: adopted so that the desertion rule can arm its clock).
  EXPECT_EQ(*due, (std::vector<MatchId>{never_leased, expired, no_timer}));
  EXPECT_EQ(store_->due_orphans(5000, 1).value(), std::vector<MatchId>{never_leased});
  EXPECT_EQ(store_->due_orphans(9000, 10).value(),
            (std::vector<MatchId>{never_leased, expired, later, no_timer}));
  EXPECT_EQ(store_->due_orphans(999, 10).value(), std::vector<MatchId>{no_timer});
}

// Matches of a game this node does not serve (not in its registry, a version its
// game does not read, or left out by Options::serves) are neither adopted, listed
// nor loaded: they wait, untouched, for a node that has the game.
TEST_F(ClusterStoreTest, AMatchOfAGameThisNodeDoesNotServeIsNeverAdoptedListedOrLoaded) {
  const game::Game& goofspiel = *test::games().find("goofspiel");
  auto new_goofspiel_match = [&](MatchStatus status) {
    NewMatch match{goofspiel.options_from_request(2, nullptr).value(), status};
    match.game = std::string(goofspiel.name());
    match.game_version = goofspiel.version();
    return store_->create_match(match).value();
  };
  const MatchId running = new_match(MatchStatus::Running);
  const MatchId other_running = new_match(MatchStatus::Running);
  const MatchId lobby = new_match(MatchStatus::Lobby);
  const MatchId other_lobby = new_match(MatchStatus::Lobby);
  const MatchId newer_lobby = new_match(MatchStatus::Lobby);
  const MatchId goofspiel_running = new_goofspiel_match(MatchStatus::Running);
  const MatchId goofspiel_lobby = new_goofspiel_match(MatchStatus::Lobby);
  raw_exec(*store_, fmt::format("UPDATE matches SET game = 'nosuchgame' WHERE id IN ({}, {})",
                                other_running, other_lobby));
  raw_exec(*store_,
           fmt::format("UPDATE matches SET game_version = 99 WHERE id = {}", newer_lobby));

  // A node that serves Eriantys alone (Options::serves), though its registry has more.
  Options eriantys_only = test::with_games(Options{});
  eriantys_only.serves.push_back(GameVersion{"eriantys", 1});
  auto node = PgStore::open(location_.target, eriantys_only);
  ASSERT_TRUE(node) << node.error().message;
  EXPECT_EQ(node->due_orphans(5000, 10).value(), (std::vector<MatchId>{running, lobby}));
  // The limit counts served matches only: unserved ones never crowd them out.
  EXPECT_EQ(node->due_orphans(5000, 1).value(), std::vector<MatchId>{running});
  auto open = node->open_matches(10);
  ASSERT_TRUE(open) << open.error().message;
  ASSERT_EQ(open->size(), 1u);
  EXPECT_EQ((*open)[0].id, lobby);
  EXPECT_EQ((*open)[0].game, "eriantys");
  EXPECT_EQ((*open)[0].game_version, 1);
  const std::vector<MatchId> ids{running, other_running, newer_lobby, goofspiel_running};
  std::vector<MatchId> visited;
  auto loaded = node->load_matches(ids, FoldPolicy{}, 5, [&](MatchId id, Result<FoldedMatch> m) {
    visited.push_back(id);
    if (id == running) {
      ASSERT_TRUE(m) << m.error().message;
      EXPECT_EQ(m->game, "eriantys");
      EXPECT_EQ(m->game_version, 1);
      return;
    }
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, StoreCode::Unserved);
    const char* named = id == other_running ? "nosuchgame version 1"
                        : id == newer_lobby ? "eriantys version 99"
                                            : "goofspiel version 1";
    EXPECT_NE(m.error().message.find(named), std::string::npos) << m.error().message;
  });
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(visited, ids);

  // A node that serves every game of its registry takes the Goofspiel matches like
  // any other, and folds them by Goofspiel's rules; the others still wait.
  EXPECT_EQ(store_->due_orphans(5000, 10).value(),
            (std::vector<MatchId>{running, lobby, goofspiel_running, goofspiel_lobby}));
  auto all_open = store_->open_matches(10);
  ASSERT_TRUE(all_open) << all_open.error().message;
  ASSERT_EQ(all_open->size(), 2u);
  EXPECT_EQ((*all_open)[1].id, goofspiel_lobby);
  EXPECT_EQ((*all_open)[1].game, "goofspiel");
  const std::vector<MatchId> goofspiel_ids{goofspiel_running, other_lobby};
  visited.clear();
  loaded = store_->load_matches(goofspiel_ids, FoldPolicy{}, 5,
                                [&](MatchId id, Result<FoldedMatch> m) {
                                  visited.push_back(id);
                                  if (id == other_lobby) {
                                    ASSERT_FALSE(m);
                                    EXPECT_EQ(m.error().code, StoreCode::Unserved);
                                    return;
                                  }
                                  ASSERT_TRUE(m) << m.error().message;
                                  EXPECT_EQ(m->game, "goofspiel");
                                  EXPECT_EQ(m->folded.played, &goofspiel);
                                  EXPECT_EQ(m->folded.state, goofspiel.empty_state());
                                });
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(visited, goofspiel_ids);
}

// A node asked for a match of a game it does not serve (a client on the release
// build asking for a test game's match) leaves its lease alone: it could neither
// serve the match nor keep the node that can from taking it (that node would be
// told "served by" the first one and redirect its players there).
TEST_F(ClusterStoreTest, ALeaseOfAMatchThisNodeDoesNotServeIsNeverTaken) {
  const game::Game& goofspiel = *test::games().find("goofspiel");
  NewMatch created{goofspiel.options_from_request(2, nullptr).value(), MatchStatus::Running};
  created.game = std::string(goofspiel.name());
  created.game_version = goofspiel.version();
  const MatchId orphaned = store_->create_match(created).value();  // its node died
  const MatchId free = store_->create_match(created).value();      // never leased
  const MatchId served = store_->create_match(created).value();    // its node lives
  const MatchId eriantys = new_match();
  ASSERT_TRUE(store_->acquire_lease(orphaned, "a", 1ms));
  ASSERT_TRUE(store_->acquire_lease(served, "b", 10s));
  std::this_thread::sleep_for(20ms);

  Options eriantys_only = test::with_games(Options{});
  eriantys_only.serves.push_back(GameVersion{"eriantys", 1});
  auto node = PgStore::open(location_.target, eriantys_only);
  ASSERT_TRUE(node) << node.error().message;
  auto expect_unserved = [&](const Result<Lease>& taken, MatchId id) {
    ASSERT_FALSE(taken) << "match " << id << " leased to node c";
    EXPECT_EQ(taken.error().code, StoreCode::Unserved) << taken.error().message;
    EXPECT_NE(taken.error().message.find("goofspiel version 1"), std::string::npos)
        << taken.error().message;
  };
  expect_unserved(node->acquire_lease(orphaned, "c", 10s), orphaned);
  expect_unserved(node->acquire_lease(free, "c", 10s), free);
  const std::vector<MatchId> ids{orphaned, eriantys, free};
  auto batch = node->acquire_leases(ids, "c", 10s);
  ASSERT_TRUE(batch) << batch.error().message;
  ASSERT_EQ(batch->size(), ids.size());
  expect_unserved((*batch)[0], orphaned);
  ASSERT_TRUE((*batch)[1]) << (*batch)[1].error().message;  // its own game: taken
  EXPECT_EQ((*batch)[1]->node, "c");
  expect_unserved((*batch)[2], free);
  // While a node that serves it holds it, the answer names that node: a client
  // asking here is redirected there, as for any other game.
  for (const auto& taken : {node->acquire_lease(served, "c", 10s),
                            node->acquire_leases(std::vector<MatchId>{served}, "c", 10s)->at(0)}) {
    ASSERT_FALSE(taken);
    EXPECT_EQ(taken.error().code, StoreCode::Conflict) << taken.error().message;
    EXPECT_NE(taken.error().message.find("node b"), std::string::npos) << taken.error().message;
  }
  EXPECT_EQ(store_->lease(served).value()->epoch, 1);
  // Untouched: the dead node's expired lease, and no lease at all.
  auto kept = store_->lease(orphaned).value();
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->node, "a");
  EXPECT_EQ(kept->epoch, 1);
  EXPECT_FALSE(store_->lease(free).value());
  // A node that serves Goofspiel takes it next, at the next epoch.
  auto adopted = store_->acquire_lease(orphaned, "b", 10s);
  ASSERT_TRUE(adopted) << adopted.error().message;
  EXPECT_EQ(adopted->epoch, 2);
  // A match id not created yet (a node leases the id it is about to create) is no
  // game's: taken as before.
  EXPECT_TRUE(node->acquire_lease(free + 100, "c", 10s));
}

// Schema 8 on a PostgreSQL database that holds matches: each existing row becomes
// eriantys version 1 (the database as schema 7 left it: no game columns; its
// summary view is recreated by 0008 with them).
TEST_F(ClusterStoreTest, MigrationEightMakesEveryStoredMatchEriantysVersionOne) {
  const MatchId running = new_match(MatchStatus::Running);
  const MatchId lobby = new_match(MatchStatus::Lobby);
  raw_exec(*store_,
           "ALTER TABLE seats DROP COLUMN account_id, DROP COLUMN left_by; "  // schema 14's
           "DROP TABLE password_resets; DROP TABLE sessions; DROP TABLE accounts; "  // schema 11's
           "DROP VIEW chat; DROP TABLE chat_messages; "  // schema 9's, applied again
           "DROP TABLE invites; ALTER TABLE matches DROP COLUMN is_private; "  // schema 10's
           "DROP TABLE clock_steps; ALTER TABLE matches DROP COLUMN clock, "     // schema 13's
           "DROP COLUMN on_timeout; "
           "ALTER TABLE matches DROP COLUMN takeover; "                        // schema 12's
           "DROP VIEW match_summary; ALTER TABLE matches DROP COLUMN game, DROP COLUMN "
           "game_version; UPDATE eryantis_schema SET version = 7");
  store_.reset();
  auto migrated = PgStore::open(location_.target, test::with_games(Options{}));
  ASSERT_TRUE(migrated) << migrated.error().message;
  EXPECT_EQ(migrated->schema_version(), latest_pg_schema_version());
  const std::vector<MatchSummary> listed = migrated->list_matches().value();
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].id, running);
  EXPECT_EQ(listed[1].id, lobby);
  for (const MatchSummary& m : listed) {
    EXPECT_EQ(m.game, "eriantys");
    EXPECT_EQ(m.game_version, 1);
  }
  auto report = migrated->load_unfinished();
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->unserved.empty());
  EXPECT_EQ(report->restored.size(), 2u);
}

TEST_F(ClusterStoreTest, ANicknameIsClaimedByOneLiveNodeAtATime) {
  EXPECT_EQ(store_->claim_nickname("ada", "a", 10s).value(), std::nullopt);
  EXPECT_EQ(store_->claim_nickname("ada", "a", 10s).value(), std::nullopt);  // again: ours
  EXPECT_EQ(store_->claim_nickname("ada", "b", 10s).value(), std::optional<std::string>("a"));
  // A logout gives it back: b takes it at once; a's release of b's claim does nothing.
  ASSERT_TRUE(store_->release_nickname("ada", "a"));
  EXPECT_EQ(store_->claim_nickname("ada", "b", 10s).value(), std::nullopt);
  ASSERT_TRUE(store_->release_nickname("ada", "a"));
  EXPECT_EQ(store_->claim_nickname("ada", "a", 10s).value(), std::optional<std::string>("b"));
  // A dead node's claim runs out unless renewed; a renewed one does not.
  EXPECT_EQ(store_->claim_nickname("bob", "c", 50ms).value(), std::nullopt);
  EXPECT_EQ(store_->claim_nickname("cy", "d", 50ms).value(), std::nullopt);
  ASSERT_TRUE(store_->renew_nicknames("d", 10s));
  std::this_thread::sleep_for(80ms);
  EXPECT_EQ(store_->claim_nickname("bob", "a", 10s).value(), std::nullopt);  // taken over
  EXPECT_EQ(store_->claim_nickname("cy", "a", 10s).value(), std::optional<std::string>("d"));
  // A graceful stop, or a node's start, gives back all of its claims.
  ASSERT_TRUE(store_->release_nicknames("d"));
  EXPECT_EQ(store_->claim_nickname("cy", "a", 10s).value(), std::nullopt);
  EXPECT_EQ(store_->claim_nickname("dee", "a", 10s).value(), std::nullopt);
  ASSERT_TRUE(store_->register_node({"a", "127.0.0.1:7001", std::nullopt}));
  EXPECT_EQ(store_->claim_nickname("dee", "b", 10s).value(), std::nullopt);
}

TEST_F(ClusterStoreTest, ClaimNicknamesAnswersEachAsClaimNicknameWould) {
  ASSERT_EQ(store_->claim_nickname("held", "b", 10s).value(), std::nullopt);  // b's, live
  ASSERT_EQ(store_->claim_nickname("ours", "a", 10s).value(), std::nullopt);  // a's already
  ASSERT_EQ(store_->claim_nickname("gone", "b", 1ms).value(), std::nullopt);  // b's, run out
  std::this_thread::sleep_for(20ms);
  // Quotes and backslashes survive the text[] parameter.
  const std::vector<std::string> names = {"held", "free", "ours", "gone", R"(q"u\o)"};
  auto claimed = store_->claim_nicknames(names, "a", 10s);
  ASSERT_TRUE(claimed) << claimed.error().message;
  ASSERT_EQ(claimed->size(), names.size());
  EXPECT_EQ((*claimed)[0].value(), std::optional<std::string>("b"));
  for (std::size_t i = 1; i < names.size(); ++i)
    EXPECT_EQ((*claimed)[i].value(), std::nullopt) << names[i];
  // Each is a's now: b cannot take them, and the live one stayed b's.
  for (std::size_t i = 1; i < names.size(); ++i)
    EXPECT_EQ(store_->claim_nickname(names[i], "b", 10s).value(), std::optional<std::string>("a"));
  EXPECT_EQ(store_->claim_nickname("held", "b", 10s).value(), std::nullopt);
  EXPECT_TRUE(store_->claim_nicknames({}, "a", 10s).value().empty());
}

TEST_F(ClusterStoreTest, UnfinishedSeatsOfManyNicknamesAreFoundInOneStatement) {
  const MatchId done = new_match(MatchStatus::Finished);
  const MatchId older = new_match(MatchStatus::Running);
  const MatchId newer = new_match(MatchStatus::Lobby);
  ASSERT_TRUE(store_->upsert_seat({done, 0, "ada", "h", std::nullopt, std::nullopt, {}}));
  ASSERT_TRUE(store_->upsert_seat({older, 0, "bob", "h", std::nullopt, std::nullopt, {}}));
  ASSERT_TRUE(store_->upsert_seat({newer, 1, "bob", "h", std::nullopt, std::nullopt, {}}));
  ASSERT_TRUE(store_->upsert_seat({older, 1, "cy", "h", std::nullopt, std::nullopt, {}}));
  ASSERT_TRUE(store_->upsert_seat(
      {newer, 0, "computer-1", "", std::nullopt, std::nullopt, std::string("greedy")}));
  const std::vector<std::string> names = {"ada", "bob", "cy", "computer-1", "nobody"};
  auto seats = store_->unfinished_seats_of(names);
  ASSERT_TRUE(seats) << seats.error().message;
  ASSERT_EQ(seats->size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i)
    EXPECT_EQ((*seats)[i], store_->unfinished_seat_of(names[i]).value()) << names[i];
  EXPECT_EQ((*seats)[1], std::optional<MatchId>(newer));  // the newest unfinished one
}

TEST_F(ClusterStoreTest, TheEndingKeptForOneNicknameIsReadByAnyNode) {
  const MatchId match = new_match();
  const std::string line = R"({"type":"match_abandoned","match":)" + std::to_string(match) + "}";
  AppendRequest ended;
  ended.match_id = match;
  ended.expected_seq = 0;
  ended.status = MatchStatus::Abandoned;
  ended.keep_endings.push_back(UnseenEnding{"ada", match, line});
  std::vector<AppendRequest> batch{ended};
  for (auto& r : store_->append_batch(batch)) ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(store_->unseen_ending_of("ada").value(), (UnseenEnding{"ada", match, line}));
  EXPECT_EQ(store_->unseen_ending_of("bob").value(), std::nullopt);
  AppendRequest told;
  told.match_id = match;
  told.delivered_endings.push_back("ada");
  std::vector<AppendRequest> delivery{told};
  for (auto& r : store_->append_batch(delivery)) ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(store_->unseen_ending_of("ada").value(), std::nullopt);
}

TEST_F(ClusterStoreTest, NodesAreFoundByName) {
  ASSERT_TRUE(store_->register_node({"a", "127.0.0.1:7001", "ws://127.0.0.1:8001/ws"}));
  ASSERT_TRUE(store_->register_node({"b", "127.0.0.1:7002", std::nullopt}));
  ASSERT_TRUE(store_->register_node({"a", "127.0.0.1:7011", std::nullopt}));  // restarted
  EXPECT_EQ(store_->node_info("a").value(),
            (std::optional<NodeInfo>(NodeInfo{"a", "127.0.0.1:7011", std::nullopt})));
  EXPECT_EQ(store_->node_info("b").value()->public_address, "127.0.0.1:7002");
  EXPECT_EQ(store_->node_info("c").value(), std::nullopt);
}

TEST_F(ClusterStoreTest, MatchIdsComeFromOneSequencePastEveryStoredId) {
  // A single server's matches (max(id) + 1) before the cluster started.
  new_match();
  const MatchId before = new_match();
  ASSERT_TRUE(store_->register_node({"a", "127.0.0.1:7001", std::nullopt}));
  const MatchId first = store_->next_match_id().value();
  EXPECT_GT(first, before);
  auto other = PgStore::open(location_.target);  // a second node's connection
  ASSERT_TRUE(other);
  const MatchId second = other->next_match_id().value();
  const MatchId third = store_->next_match_id().value();
  EXPECT_LT(first, second);
  EXPECT_LT(second, third);
}

TEST_F(ClusterStoreTest, AResumingLoginFindsItsUnfinishedSeatAndStatus) {
  const MatchId done = new_match(MatchStatus::Finished);
  const MatchId lobby = new_match(MatchStatus::Lobby);
  ASSERT_TRUE(store_->upsert_seat({done, 0, "ada", "h", std::nullopt, std::nullopt, {}}));
  ASSERT_TRUE(store_->upsert_seat({lobby, 1, "ada", "h", std::nullopt, std::nullopt, {}}));
  ASSERT_TRUE(store_->upsert_seat(
      {lobby, 0, "computer-1", "", std::nullopt, std::nullopt, std::string("greedy")}));
  EXPECT_EQ(store_->unfinished_seat_of("ada").value(), std::optional<MatchId>(lobby));
  EXPECT_EQ(store_->unfinished_seat_of("bob").value(), std::nullopt);
  EXPECT_EQ(store_->unfinished_seat_of("computer-1").value(), std::nullopt);
  EXPECT_EQ(store_->match_status(done).value(), std::optional(MatchStatus::Finished));
  EXPECT_EQ(store_->match_status(lobby).value(), std::optional(MatchStatus::Lobby));
  EXPECT_EQ(store_->match_status(lobby + 100).value(), std::nullopt);
}

TEST_F(ClusterStoreTest, OpenMatchesAreTheLobbyMatchesWithTheirSeats) {
  const MatchId running = new_match(MatchStatus::Running);
  const MatchId empty = new_match(MatchStatus::Lobby);
  const MatchId waiting = new_match(MatchStatus::Lobby);
  ASSERT_TRUE(store_->upsert_seat({running, 0, "ada", "h", std::nullopt, std::nullopt, {}}));
  ASSERT_TRUE(store_->upsert_seat({waiting, 1, "bob", "h", std::nullopt, std::nullopt, {}}));
  ASSERT_TRUE(store_->upsert_seat(
      {waiting, 0, "Computer 1", "", std::nullopt, std::nullopt, std::string("strong")}));
  auto open = store_->open_matches(10);
  ASSERT_TRUE(open) << open.error().message;
  ASSERT_EQ(open->size(), 2u);
  EXPECT_EQ((*open)[0].id, empty);
  EXPECT_EQ((*open)[0].players, 2);
  EXPECT_EQ((*open)[0].mode, "simple");
  EXPECT_TRUE((*open)[0].seats.empty());
  EXPECT_EQ((*open)[1].id, waiting);
  ASSERT_EQ((*open)[1].seats.size(), 2u);
  EXPECT_EQ((*open)[1].seats[0].computer, std::optional<std::string>("strong"));
  EXPECT_EQ((*open)[1].seats[1].nickname, "bob");
  EXPECT_EQ(store_->open_matches(1).value().size(), 1u);
}

}  // namespace
}  // namespace eryantis::store::testing
