// PostgreSQL only: a batch of appends in one statement, one round trip
// (docs/cluster.md, "Appends in one round trip"), and the same answers and rows
// as the request-by-request path (ERYANTIS_PG_APPEND=requests) for any batch.
#include <cstdlib>
#include <map>
#include <random>

#include "backend_fixture.hpp"

namespace eryantis::store::testing {
namespace {

using namespace std::chrono_literals;

constexpr rules::MatchOptions kTwoPlayers{2, rules::Mode::Simple};

// Opens `conninfo` with the append path `path` ("" = the default), with the
// tests' games unless `options` names others.
std::unique_ptr<PgStore> open_pg(const std::string& conninfo, const char* path,
                                 Options options = {}) {
  if (*path) {
    ::setenv("ERYANTIS_PG_APPEND", path, 1);
  } else {
    ::unsetenv("ERYANTIS_PG_APPEND");
  }
  if (!options.games) options.games = &test::games();
  auto opened = PgStore::open(conninfo, options);
  ::unsetenv("ERYANTIS_PG_APPEND");
  if (!opened) {
    ADD_FAILURE() << opened.error().message;
    return nullptr;
  }
  return std::make_unique<PgStore>(std::move(*opened));
}

std::string describe(const Result<AppendOutcome>& r) {
  if (!r) {
    return std::string(store_code_name(r.error().code)) + " (" + r.error().message + ") last_seq " +
           std::to_string(r.error().last_seq);
  }
  return std::to_string(r->first_seq) + ".." + std::to_string(r->last_seq) +
         (r->replayed ? " replayed" : "");
}

// Every row a write may touch, times left out (each path reads its own clock).
std::string dump(PgStore& store) {
  static constexpr const char* kTables[] = {
      "SELECT id, options, status, last_seq, result, quarantine_reason, deadline_kind, "
      "deadline_seat, deadline_at FROM matches ORDER BY id",
      "SELECT match_id, seq, actor, command_id, type, schema_version, payload, state_hash "
      "FROM events ORDER BY match_id, seq",
      "SELECT match_id, seq, version, md5(state) FROM snapshots ORDER BY match_id, seq",
      "SELECT match_id, seat, nickname, resume_token_hash, tower_color, wizard, computer "
      "FROM seats ORDER BY match_id, seat",
      "SELECT nickname, match_id, line FROM unseen_endings ORDER BY nickname",
  };
  std::string out;
  for (const char* sql : kTables) {
    auto rows = store.connection().query(sql);
    if (!rows) return "error: " + rows.error().message;
    for (int r = 0; r < rows->size(); ++r) {
      for (int c = 0; c < PQnfields(rows->raw()); ++c)
        out.append(rows->is_null(r, c) ? "NULL" : std::string(rows->text(r, c))).append("|");
      out += '\n';
    }
    out += "--\n";
  }
  return out;
}

class AppendBatchTest : public BackendTest {
 protected:
  void SetUp() override {
    location_ = make_location(Backend::Postgresql);
    if (IsSkipped() || HasFatalFailure()) return;
    store_ = open_pg(location_.target, "");
    ASSERT_TRUE(store_);
  }

  std::unique_ptr<PgStore> store_;
};

// The goal of docs/cluster.md: whatever the batch holds (appends with their
// fence, a retry, a stale write, a fenced one, a status, seats), it costs one
// round trip once its statement is prepared on the connection.
TEST_F(AppendBatchTest, ABatchOfFencedAppendsIsOneRoundTrip) {
  constexpr int kMatches = 30;
  std::vector<Game> games;
  std::vector<Lease> leases;
  std::vector<AppendRequest> creates;
  for (int i = 0; i < kMatches; ++i) {
    games.push_back(play_random_game(kTwoPlayers, 100 + static_cast<std::uint64_t>(i), 12));
    auto lease = store_->acquire_lease(i + 1, "node-a", 60s);
    ASSERT_TRUE(lease) << lease.error().message;
    leases.push_back(*lease);
    AppendRequest create = AppendRequest::of(i + 1, 0, {games[i].events[0]});
    create.create = NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby};
    create.seats = {
        SeatRecord{0, 0, "p" + std::to_string(i), "h", std::nullopt, std::nullopt, std::nullopt}};
    create.fence = lease->fence();
    creates.push_back(std::move(create));
  }
  pg::Connection& conn = store_->connection();
  for (const auto& r : store_->append_batch(creates)) ASSERT_TRUE(r) << r.error().message;

  std::vector<AppendRequest> batch;
  for (int i = 0; i < kMatches; ++i) {
    AppendRequest r = AppendRequest::of(i + 1, 1, {games[i].events[1]});
    r.game = &test::eriantys();  // as the server says it: what one round trip needs
    r.fence = leases[i].fence();
    batch.push_back(std::move(r));
  }
  std::uint64_t before = conn.round_trips();
  auto results = store_->append_batch(batch);
  EXPECT_EQ(conn.round_trips() - before, 1u) << "round trips for a batch of " << kMatches;
  for (const auto& r : results) {
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(*r, (AppendOutcome{2, 2, false}));
  }

  // A mixed batch: each request gets its own answer, still in one round trip.
  std::vector<AppendRequest> mixed;
  AppendRequest retry = batch[0];  // its command id is stored: the original seqs
  ASSERT_TRUE(retry.events.front().command_id);
  mixed.push_back(retry);
  AppendRequest stale = AppendRequest::of(2, 1, {games[1].events[2]});
  stale.game = &test::eriantys();
  stale.fence = leases[1].fence();
  mixed.push_back(stale);
  AppendRequest fenced = AppendRequest::of(3, 2, {games[2].events[2]});
  fenced.game = &test::eriantys();
  fenced.fence = LeaseFence{"node-a", leases[2].epoch + 1};
  mixed.push_back(fenced);
  AppendRequest ok = AppendRequest::of(4, 2, {games[3].events[2], games[3].events[3]});
  ok.game = &test::eriantys();
  ok.fence = leases[3].fence();
  ok.status = MatchStatus::Running;
  ok.seats = {SeatRecord{0, 1, "q4", "h", "white", 2, std::nullopt}};
  ok.deadline = DeadlineRecord{"turn_grace", 1, 123};
  mixed.push_back(ok);
  before = conn.round_trips();
  results = store_->append_batch(mixed);
  EXPECT_EQ(conn.round_trips() - before, 1u) << "round trips for a mixed batch";
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(describe(results[0]), "2..2 replayed");
  ASSERT_FALSE(results[1]);
  EXPECT_EQ(results[1].error().code, StoreCode::Conflict);
  EXPECT_EQ(results[1].error().last_seq, 2);
  ASSERT_FALSE(results[2]);
  EXPECT_EQ(results[2].error().code, StoreCode::Fenced) << results[2].error().message;
  EXPECT_EQ(describe(results[3]), "3..4");
  EXPECT_EQ(store_->last_seq(4).value(), 4);
  EXPECT_EQ(store_->last_seq(3).value(), 2);
  EXPECT_EQ(store_->seats(4).value().size(), 2u);
  EXPECT_EQ(store_->deadline(4).value(), (DeadlineRecord{"turn_grace", 1, 123}));
}

// The one-statement path and the pipeline against the request-by-request one:
// the same random batches (creates, appends, retries, stale and fenced writes,
// quarantined and missing matches, seats written and removed, statuses, timers,
// endings kept and delivered, snapshots, batches that must fall back) on three
// databases give the same answers and the same rows.
TEST_F(AppendBatchTest, OneStatementAnswersAndWritesWhatRequestByRequestDoes) {
  const std::uint64_t seed = test_seed("OneStatementAnswersAndWritesWhatRequestByRequestDoes");
  std::mt19937_64 rng(seed);
  auto chance = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
  const Options options{.snapshot_every = 4};
  auto fast = open_pg(location_.target, "", options);
  auto pipe = open_pg(make_location(Backend::Postgresql).target, "pipeline", options);
  auto slow = open_pg(make_location(Backend::Postgresql).target, "requests", options);
  ASSERT_TRUE(fast && pipe && slow);

  constexpr int kMatches = 8;
  struct Match {
    Game game;
    std::size_t next = 0;  // events stored
    bool created = false;
    std::int64_t epoch = 0;
    std::optional<AppendRequest> last;
  };
  std::map<MatchId, Match> matches;
  for (MatchId id = 1; id <= kMatches; ++id) {
    matches[id].game = play_random_game(kTwoPlayers, rng(), 60);
    for (PgStore* store : {fast.get(), pipe.get(), slow.get()}) {
      auto lease = store->acquire_lease(id, "node-a", 600s);
      ASSERT_TRUE(lease) << lease.error().message;
      matches[id].epoch = lease->epoch;
    }
  }
  const std::vector<std::string> nicknames{"ada", "bob", "cy", "dee"};

  for (int round = 0; round < 120; ++round) {
    std::vector<AppendRequest> batch;
    const int size = 1 + static_cast<int>(rng() % 6);
    for (int k = 0; k < size; ++k) {
      const MatchId id = 1 + static_cast<MatchId>(rng() % (kMatches + 1));  // kMatches + 1: missing
      AppendRequest r;
      r.match_id = id;
      // The server names the match's game (one round trip); without it the store
      // finds the game by the match's row, request by request.
      if (chance(90)) r.game = &test::eriantys();
      Match* m = matches.count(id) ? &matches[id] : nullptr;
      if (m && m->last && chance(10)) {
        batch.push_back(*m->last);  // a retry (or a duplicate in the batch)
        continue;
      }
      const std::size_t next = m ? m->next : 0;
      r.expected_seq = static_cast<Seq>(next) + (chance(8) ? 1 : 0);
      if (m && !m->created) r.create = NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby};
      if (m && next < m->game.events.size() && (chance(85) || r.create)) {
        const std::size_t count =
            std::min<std::size_t>(1 + rng() % 3, m->game.events.size() - next);
        r.events.assign(m->game.events.begin() + static_cast<long>(next),
                        m->game.events.begin() + static_cast<long>(next + count));
        if (chance(90)) r.state_after = m->game.after(next + count - 1);
      } else if (!m) {
        r.events = {matches[1].game.events[0]};
      }
      if (chance(85)) r.fence = LeaseFence{"node-a", m ? m->epoch : 1};
      if (r.fence && chance(6)) r.fence->epoch += 1;
      // A seat of a missing match: one path answers NOT_FOUND, the other the
      // foreign key's error (no caller writes one; not a promise of either).
      if (m && chance(15))
        r.seats.push_back(
            SeatRecord{0, static_cast<int>(rng() % 2), nicknames[rng() % nicknames.size()],
                       "h" + std::to_string(rng() % 9),
                       chance(50) ? std::optional<std::string>("black") : std::nullopt,
                       chance(50) ? std::optional(1) : std::nullopt, std::nullopt});
      if (chance(8)) r.remove_seats.push_back(static_cast<int>(rng() % 2));
      if (chance(10)) r.status = chance(50) ? MatchStatus::Running : MatchStatus::Finished;
      if (r.status && chance(50)) r.result_json = R"({"winner":0})";
      if (chance(12))
        r.deadline = chance(50) ? DeadlineRecord{} : DeadlineRecord{"abandon", -1, 1000 + round};
      if (chance(8) && m && m->created)
        r.keep_endings.push_back(
            UnseenEnding{nicknames[rng() % nicknames.size()], id, R"({"type":"game_over"})"});
      if (chance(8)) r.delivered_endings.push_back(nicknames[rng() % nicknames.size()]);
      if (chance(4)) {  // only delivers endings: no seq check
        AppendRequest endings;
        endings.match_id = id;
        endings.fence = r.fence;
        endings.delivered_endings = {nicknames[rng() % nicknames.size()]};
        r = std::move(endings);
      }
      batch.push_back(r);
    }
    if (chance(5)) {
      // A quarantined match refuses every write.
      const MatchId id = 1 + static_cast<MatchId>(rng() % kMatches);
      for (PgStore* store : {fast.get(), pipe.get(), slow.get()})
        ASSERT_TRUE(store->connection().exec(
            "UPDATE matches SET status = 'quarantined' WHERE id = " + std::to_string(id)));
    }
    const auto a = fast->append_batch(batch);
    const auto p = pipe->append_batch(batch);
    const auto b = slow->append_batch(batch);
    ASSERT_EQ(a.size(), b.size());
    ASSERT_EQ(p.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(describe(a[i]), describe(b[i])) << "one statement, round " << round << ", request "
                                                << i << " (match " << batch[i].match_id << ")";
      ASSERT_EQ(describe(p[i]), describe(b[i])) << "pipeline, round " << round << ", request " << i
                                                << " (match " << batch[i].match_id << ")";
    }
    // The model follows what was stored.
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!a[i] || a[i]->replayed) continue;
      auto it = matches.find(batch[i].match_id);
      if (it == matches.end()) continue;
      if (batch[i].create) it->second.created = true;
      if (batch[i].events.empty()) continue;
      it->second.next = static_cast<std::size_t>(a[i]->last_seq);
      it->second.last = batch[i];
    }
  }
  EXPECT_EQ(dump(*fast), dump(*slow));
  EXPECT_EQ(dump(*pipe), dump(*slow));
}

// A pipeline sends a whole batch before reading any answer: with more than the
// socket holds in flight both ways (here ~3 MB out, ~0.5 MB of answers), a
// blocking send waited for a server that waited for us to read (bench/cluster.sh
// p's pipeline node stopped acknowledging after a few seconds).
TEST_F(AppendBatchTest, APipelineLargerThanTheSocketsBuffersIsAnswered) {
  auto pipe = open_pg(make_location(Backend::Postgresql).target, "pipeline");
  ASSERT_TRUE(pipe);
  constexpr int kMatches = 2000;
  const Game game = play_random_game(kTwoPlayers, 5, 2);
  std::vector<AppendRequest> batch;
  for (int i = 0; i < kMatches; ++i) {
    AppendRequest create = AppendRequest::of(i + 1, 0, {game.events[0]});
    create.create = NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby};
    create.events.front().payload.append(1500 - create.events.front().payload.size() % 1500, ' ');
    batch.push_back(std::move(create));
  }
  const auto results = pipe->append_batch(batch);
  for (const auto& r : results) ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(pipe->last_seq(kMatches).value(), 1);
}

}  // namespace
}  // namespace eryantis::store::testing
