// The server as a cluster node (docs/cluster.md), driven directly: a fake cluster
// holds every lease call until the test answers it, the fake store fences a write
// when told. Leases taken on create and adoption, every write fenced, renewals
// batched, redirects for matches another node serves, a FENCED write never retried.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "eryantis/json/json.hpp"
#include "eryantis/server/server.hpp"
#include "eryantis/server/token.hpp"
#include "fake_secret_source.hpp"
#include "fakes.hpp"
#include "games/handles.hpp"

namespace eryantis::server {
namespace {

// Every call waits in its queue until the test answers it (in order).
struct FakeCluster : Cluster {
  std::string name = "a";
  std::int64_t lease = 3000;
  std::deque<NewMatchDone> creates;
  std::deque<std::pair<store::MatchId, LocateDone>> locates;
  std::deque<std::pair<std::string, SeatDone>> seat_lookups;
  std::deque<std::pair<std::vector<store::HeldLease>, RenewDone>> renewals;
  std::deque<std::pair<std::size_t, LobbyDone>> lobby_reads;
  std::deque<std::pair<std::vector<store::HeldLease>, ReleaseDone>> releases;
  struct OrphanRead {
    std::int64_t due_before_ms;
    std::size_t limit;
  };
  std::deque<std::pair<OrphanRead, OrphansDone>> orphan_reads;
  // Nickname claims are answered at once with `claim_holder` (nullopt: granted)
  // unless `hold_claims`, then they wait in `claims` like the other calls.
  bool hold_claims = false;
  std::optional<std::string> claim_holder;
  std::vector<std::string> claimed;
  std::deque<std::pair<std::string, ClaimDone>> claims;
  std::vector<std::string> released_nicknames;
  // Endings stored by any node, read at once (and left: the delivery's write deletes).
  std::map<std::string, store::UnseenEnding> stored_endings;
  std::vector<std::string> ending_reads;

  const std::string& node() const override { return name; }
  std::int64_t lease_ms() const override { return lease; }
  void new_match(NewMatchDone done) override { creates.push_back(std::move(done)); }
  void locate(store::MatchId id, LocateDone done) override {
    locates.emplace_back(id, std::move(done));
  }
  void seat_of(const std::string& nickname, SeatDone done) override {
    seat_lookups.emplace_back(nickname, std::move(done));
  }
  void renew(std::vector<store::HeldLease> held, RenewDone done) override {
    renewals.emplace_back(std::move(held), std::move(done));
  }
  void release(std::vector<store::HeldLease> held, ReleaseDone done) override {
    releases.emplace_back(std::move(held), std::move(done));
  }
  void claim_nickname(const std::string& nickname, ClaimDone done) override {
    claimed.push_back(nickname);
    if (hold_claims)
      claims.emplace_back(nickname, std::move(done));
    else
      done(claim_holder);
  }
  void release_nickname(const std::string& nickname) override {
    released_nicknames.push_back(nickname);
  }
  void unseen_ending(const std::string& nickname, EndingDone done) override {
    ending_reads.push_back(nickname);
    auto it = stored_endings.find(nickname);
    done(it == stored_endings.end() ? std::optional<store::UnseenEnding>{}
                                    : std::optional<store::UnseenEnding>(it->second));
  }
  void due_orphans(std::int64_t due_before_ms, std::size_t limit, OrphansDone done) override {
    orphan_reads.emplace_back(OrphanRead{due_before_ms, limit}, std::move(done));
  }
  void open_matches(std::size_t limit, LobbyDone done) override {
    lobby_reads.emplace_back(limit, std::move(done));
  }
  template <class Queue, class... Args>
  static void answer(Queue& queue, Args&&... args) {
    ASSERT_FALSE(queue.empty());
    auto call = std::move(queue.front());
    queue.pop_front();
    if constexpr (requires { call.second; })
      call.second(std::forward<Args>(args)...);
    else
      call(std::forward<Args>(args)...);
  }
};

rapidjson::Document parse(const std::string& line) {
  rapidjson::Document d;
  d.Parse(line.c_str());
  EXPECT_FALSE(d.HasParseError()) << line;
  return d;
}
std::string type_of(const std::string& line) {
  auto d = parse(line);
  return d.HasMember("type") && d["type"].IsString() ? d["type"].GetString() : "";
}

class ClusterTest : public ::testing::Test {
 protected:
  ClusterTest()
      : server(
            test_server_config(), transport, store, [this] { return now; }, secrets) {
    server.set_cluster(&cluster);
  }
  bool got_type(ConnectionId c, std::string_view type) {
    for (const auto& l : transport.sent[c])
      if (type_of(l) == type) return true;
    return false;
  }
  std::string last(ConnectionId c) {
    return transport.sent[c].empty() ? "" : transport.sent[c].back();
  }
  void say(ConnectionId c, const std::string& line) {
    server.on_line(c, line);
    store.complete_all();
  }
  void hello(ConnectionId c) {
    server.on_open(c, "127.0.0.1:1");
    say(c, R"({"type":"hello","protocol":1})");
  }
  // A login that holds no seat anywhere: the cluster is asked and says so.
  void connect(ConnectionId c, const std::string& nickname) {
    hello(c);
    say(c, R"({"type":"login","nickname":")" + nickname + "\"}");
    ASSERT_EQ(cluster.seat_lookups.size(), 1u);
    EXPECT_EQ(cluster.seat_lookups.front().first, nickname);
    FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
    ASSERT_EQ(type_of(last(c)), "logged_in") << last(c);
  }
  // create_match answered with the cluster's id and lease.
  store::MatchId create(ConnectionId c, store::MatchId id, std::int64_t epoch) {
    say(c, R"({"type":"create_match","players":2})");
    EXPECT_TRUE(transport.sent[c].empty() || type_of(last(c)) != "joined");
    FakeCluster::answer(cluster.creates, store::HeldLease{id, epoch});
    store.complete_all();
    EXPECT_TRUE(got_type(c, "joined"));
    return id;
  }
  // A lobby match of 2 with `ada` in seat 0, as the store folds it.
  static LoadedMatch lobby_match(store::MatchId id) {
    auto created = rules::create_match({2, rules::Mode::Simple}, 5);
    LoadedMatch m;
    m.id = id;
    m.status = store::MatchStatus::Lobby;
    m.last_seq = 1;
    m.game = &test::eriantys();
    m.state = test::handle(rules::apply(rules::State{}, *created));
    m.seats = {store::SeatRecord{id, 0, "ada", token_hash("tok-ada"), std::nullopt, std::nullopt,
                                 std::nullopt}};
    return m;
  }
  static Located adopted(LoadedMatch m, std::int64_t epoch) {
    Located found;
    found.kind = Located::Kind::Adopted;
    found.adopted = Adopted{epoch, std::move(m)};
    return found;
  }
  static Located elsewhere() {
    Located found;
    found.kind = Located::Kind::Elsewhere;
    found.holder = NodeAddress{"127.0.0.1:7002", std::string("ws://127.0.0.1:8002/ws")};
    return found;
  }

  std::int64_t now = 1'000'000;
  FakeTransport transport;
  FakePersistence store;
  FakeSecretSource secrets;
  FakeCluster cluster;
  Server server;
};

TEST(ClusterOff, WritesCarryNoFence) {
  FakeTransport transport;
  FakePersistence store;
  FakeSecretSource secrets;
  Server server(
      test_server_config(), transport, store, [] { return std::int64_t{1}; }, secrets);
  server.on_open(1, "p");
  server.on_line(1, R"({"type":"hello","protocol":1})");
  server.on_line(1, R"({"type":"login","nickname":"ada"})");
  server.on_line(1, R"({"type":"create_match","players":2})");
  store.complete_all();
  ASSERT_EQ(store.written.size(), 1u);
  EXPECT_EQ(store.written[0].match, 1);
  EXPECT_FALSE(store.written[0].fence);
  server.tick();  // no cluster: nothing to renew, nothing asked
}

TEST_F(ClusterTest, ACreatedMatchTakesTheClustersIdAndEveryWriteCarriesTheFence) {
  connect(1, "ada");
  const store::MatchId mid = create(1, 41, 7);
  ASSERT_NE(server.room(mid), nullptr);
  EXPECT_EQ(server.room(mid)->epoch, 7);
  connect(2, "bob");
  say(2, R"({"type":"join_match","match":41})");
  EXPECT_TRUE(got_type(2, "joined"));
  ASSERT_EQ(store.written.size(), 2u);
  for (const MatchWrite& w : store.written) {
    EXPECT_EQ(w.match, 41);
    EXPECT_EQ(w.fence, (store::LeaseFence{"a", 7}));
  }
  EXPECT_TRUE(cluster.locates.empty());  // a match held here is never looked up
}

TEST_F(ClusterTest, OneRenewalForAllLeasesEveryThirdOfTheLease) {
  connect(1, "ada");
  connect(2, "bob");
  create(1, 41, 7);
  create(2, 42, 3);
  server.tick();
  ASSERT_EQ(cluster.renewals.size(), 1u);
  auto held = cluster.renewals.front().first;
  std::sort(held.begin(), held.end(), [](auto& x, auto& y) { return x.match_id < y.match_id; });
  EXPECT_EQ(held, (std::vector<store::HeldLease>{{41, 7}, {42, 3}}));
  now += cluster.lease / 3;
  server.tick();  // the previous renewal has not answered: no second one meanwhile
  EXPECT_EQ(cluster.renewals.size(), 1u);
  FakeCluster::answer(cluster.renewals, std::vector<store::MatchId>{});
  server.tick();  // due since the skipped tick
  ASSERT_EQ(cluster.renewals.size(), 1u);
  FakeCluster::answer(cluster.renewals, std::vector<store::MatchId>{});
  now += cluster.lease / 3 - 1;
  server.tick();
  EXPECT_EQ(cluster.renewals.size(), 0u);
  now += 1;
  server.tick();
  EXPECT_EQ(cluster.renewals.size(), 1u);
}

TEST_F(ClusterTest, AShutdownReleasesEveryLeaseOnceTheLastWriteCommitted) {
  connect(1, "ada");
  connect(2, "bob");
  create(1, 41, 7);
  create(2, 42, 3);
  connect(3, "cy");
  server.on_line(3, R"({"type":"join_match","match":41})");  // a write still in flight
  ASSERT_FALSE(store.pending.empty());
  server.begin_shutdown("bye");
  EXPECT_FALSE(server.leases_released());
  EXPECT_TRUE(cluster.releases.empty());  // not before the last write committed
  store.complete_all();
  EXPECT_FALSE(server.leases_released());
  ASSERT_EQ(cluster.releases.size(), 1u);
  auto held = cluster.releases.front().first;
  std::sort(held.begin(), held.end(), [](auto& x, auto& y) { return x.match_id < y.match_id; });
  EXPECT_EQ(held, (std::vector<store::HeldLease>{{41, 7}, {42, 3}}));
  EXPECT_FALSE(server.leases_released());  // one release, still in flight
  EXPECT_EQ(cluster.releases.size(), 1u);
  now += cluster.lease;
  server.tick();  // released leases are not renewed
  EXPECT_TRUE(cluster.renewals.empty());
  FakeCluster::answer(cluster.releases, std::size_t{2});
  EXPECT_TRUE(server.leases_released());
  EXPECT_TRUE(cluster.releases.empty());
}

TEST_F(ClusterTest, AShutdownWaitsForACreationInFlightAndReleasesItsLeaseToo) {
  connect(1, "ada");
  say(1, R"({"type":"create_match","players":2})");
  ASSERT_EQ(cluster.creates.size(), 1u);
  server.begin_shutdown("bye");
  EXPECT_FALSE(server.leases_released());  // the creation may still take a lease
  EXPECT_TRUE(cluster.releases.empty());
  FakeCluster::answer(cluster.creates, store::HeldLease{41, 7});
  store.complete_all();
  EXPECT_FALSE(server.leases_released());
  ASSERT_EQ(cluster.releases.size(), 1u);
  EXPECT_EQ(cluster.releases.front().first, (std::vector<store::HeldLease>{{41, 7}}));
  FakeCluster::answer(cluster.releases, store::Result<std::size_t>(store::fail(
                                            store::StoreCode::Io, "the database is away")));
  EXPECT_TRUE(server.leases_released());  // a failed release: the leases run out instead
}

TEST_F(ClusterTest, TheSweeperAdoptsAMatchNobodyServesAndItsTimerFires) {
  server.tick();  // the first tick sweeps at once
  ASSERT_EQ(cluster.orphan_reads.size(), 1u);
  EXPECT_EQ(cluster.orphan_reads.front().first.due_before_ms, now + cluster.lease);
  EXPECT_EQ(cluster.orphan_reads.front().first.limit, 50u);
  FakeCluster::answer(cluster.orphan_reads, std::vector<store::MatchId>{41});
  // Adopted through the ordinary look-up, where the lease decides.
  ASSERT_EQ(cluster.locates.size(), 1u);
  EXPECT_EQ(cluster.locates.front().first, 41);
  LoadedMatch orphan = lobby_match(41);  // ada left it, and its node died
  store.seqs[41] = orphan.last_seq;        // what the database holds
  orphan.deadline = Deadline{DeadlineKind::Abandon, rules::kNoSeat, now + 400};
  FakeCluster::answer(cluster.locates, adopted(std::move(orphan), 9));
  ASSERT_NE(server.room(41), nullptr);
  EXPECT_EQ(server.room(41)->epoch, 9);
  server.tick();
  store.complete_all();
  EXPECT_TRUE(store.written.empty());  // the stored time is kept, not restarted
  now += 400;
  server.tick();
  store.complete_all();
  // Abandoned by this node with nobody connected anywhere, under its new lease.
  ASSERT_EQ(store.written.size(), 1u);
  EXPECT_EQ(store.written[0].match, 41);
  EXPECT_EQ(store.written[0].status, std::optional(store::MatchStatus::Abandoned));
  EXPECT_EQ(store.written[0].fence, (store::LeaseFence{"a", 9}));
}

TEST_F(ClusterTest, TheSweeperRunsOnceALeaseSkipsWhatItHoldsAndStopsAtShutdown) {
  connect(1, "ada");
  create(1, 41, 7);
  server.tick();
  ASSERT_EQ(cluster.orphan_reads.size(), 1u);
  now += cluster.lease;
  server.tick();  // one sweep in flight at a time
  EXPECT_EQ(cluster.orphan_reads.size(), 1u);
  // A match served here already, and one another sweep is adopting: no second look-up.
  connect(2, "bob");
  say(2, R"({"type":"spectate","match":43})");
  ASSERT_EQ(cluster.locates.size(), 1u);
  FakeCluster::answer(cluster.orphan_reads, std::vector<store::MatchId>{41, 43});
  EXPECT_EQ(cluster.locates.size(), 1u);
  server.tick();  // due since the skipped tick
  ASSERT_EQ(cluster.orphan_reads.size(), 1u);
  FakeCluster::answer(cluster.orphan_reads, store::Result<std::vector<store::MatchId>>(store::fail(
                                                store::StoreCode::Io, "the database is away")));
  now += cluster.lease - 1;
  server.tick();
  EXPECT_TRUE(cluster.orphan_reads.empty());  // not before lease_ms
  server.begin_shutdown("bye");
  now += 1;
  server.tick();
  EXPECT_TRUE(cluster.orphan_reads.empty());  // a stopping node adopts nothing
}

TEST_F(ClusterTest, ALoginClaimsItsNicknameAndALiveClaimElsewhereRefusesIt) {
  connect(1, "ada");
  EXPECT_EQ(cluster.claimed, std::vector<std::string>{"ada"});
  // bob is logged in on node b: refused with the single server's code.
  cluster.lease = 1000;
  cluster.claim_holder = "b";
  hello(2);
  say(2, R"({"type":"login","nickname":"bob"})");
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  // Asked again at each of the next 12 ticks (one lease of 100 ms ticks and two:
  // b may have died, or bob closed on b a moment ago), each time from the seat's
  // lookup, then refused: b renewed its claim all along.
  for (int i = 0; i < 12; ++i) {
    EXPECT_TRUE(transport.sent[2].empty() || type_of(last(2)) == "welcome") << last(2);
    server.tick();
    FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  }
  EXPECT_EQ(cluster.claimed.size(), 14u);  // ada once, bob 13 times
  auto refused = parse(last(2));
  EXPECT_STREQ(refused["type"].GetString(), "error");
  EXPECT_STREQ(refused["code"].GetString(), "NICKNAME_TAKEN");
  EXPECT_NE(std::string(refused["message"].GetString()).find("node b"), std::string::npos);
  EXPECT_TRUE(cluster.released_nicknames.empty());  // not ours: nothing to give back
  // A second connection as ada here asks no claim (this node holds it); the
  // single server's own rule refuses it (ada is connected, no token).
  cluster.claim_holder.reset();
  hello(3);
  say(3, R"({"type":"login","nickname":"ada"})");
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  EXPECT_EQ(cluster.claimed.size(), 14u);  // no claim for the second ada
  EXPECT_EQ(type_of(last(3)), "error");
  // Only the close of ada's own connection gives the claim back.
  server.on_closed(3);
  EXPECT_TRUE(cluster.released_nicknames.empty());
  server.on_closed(1);
  EXPECT_EQ(cluster.released_nicknames, std::vector<std::string>{"ada"});
}

TEST_F(ClusterTest, AClaimOfANodeThatDiedIsAskedAgainUntilItRanOutNotRefused) {
  // b was SIGKILLed a moment ago: its claim of ada runs out within one lease of
  // its last renewal (1000 ms here, as in the integration tests), not within 5
  // ticks. ada, logging in again here at once, waits for it instead of being
  // told NICKNAME_TAKEN by a dead node.
  cluster.lease = 1000;
  cluster.claim_holder = "b";
  hello(1);
  say(1, R"({"type":"login","nickname":"ada"})");
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  // One lease of 100 ms ticks (10) plus one: still refused each time, still waiting.
  for (int i = 0; i < 11; ++i) {
    server.tick();
    FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
    ASSERT_TRUE(transport.sent[1].empty() || type_of(last(1)) == "welcome")
        << "after " << i + 1 << " retries: " << last(1);
  }
  cluster.claim_holder.reset();  // b's claim ran out
  server.tick();
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  EXPECT_EQ(type_of(last(1)), "logged_in") << last(1);
  EXPECT_EQ(cluster.claimed.size(), 13u);  // the login and 12 retries
}

TEST_F(ClusterTest, AClaimWhoseConnectionClosedMeanwhileIsGivenBack) {
  cluster.hold_claims = true;
  hello(1);
  say(1, R"({"type":"login","nickname":"ada"})");
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  ASSERT_EQ(cluster.claims.size(), 1u);
  EXPECT_TRUE(transport.sent[1].empty() || type_of(last(1)) != "logged_in");
  server.on_closed(1);
  EXPECT_TRUE(cluster.released_nicknames.empty());  // the claim in flight gives it back
  FakeCluster::answer(cluster.claims, std::optional<std::string>{});
  EXPECT_EQ(cluster.released_nicknames, std::vector<std::string>{"ada"});
}

TEST_F(ClusterTest, AClaimFreedMeanwhileLetsTheLoginIn) {
  cluster.claim_holder = "b";
  hello(1);
  say(1, R"({"type":"login","nickname":"ada"})");
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  say(1, R"({"type":"list_matches"})");  // held behind the login
  server.tick();
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  cluster.claim_holder.reset();  // b saw ada's connection close and gave it back
  server.tick();
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  ASSERT_GE(transport.sent[1].size(), 2u);
  EXPECT_EQ(type_of(transport.sent[1][transport.sent[1].size() - 2]), "logged_in");
  EXPECT_EQ(type_of(last(1)), "match_list");
  EXPECT_EQ(cluster.claimed.size(), 3u);
}

TEST_F(ClusterTest, AClaimFreedAfterTheHolderSeatedThemThereRedirectsTheLogin) {
  cluster.claim_holder = "b";
  hello(1);
  say(1, R"({"type":"login","nickname":"ada"})");
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  // Meanwhile ada sat down in match 9 on b and left b: the retry finds the seat.
  cluster.claim_holder.reset();
  server.tick();
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{9});
  ASSERT_EQ(cluster.locates.size(), 1u);
  Located there;
  there.kind = Located::Kind::Elsewhere;
  there.holder = NodeAddress{"127.0.0.1:7002", std::nullopt};
  FakeCluster::answer(cluster.locates, there);
  EXPECT_EQ(type_of(last(1)), "redirect") << last(1);
  EXPECT_EQ(cluster.claimed.size(), 1u);  // nothing claimed here for a redirected login
}

TEST_F(ClusterTest, ASeatWhoseMatchCannotBeLocatedRefusesTheLogin) {
  hello(1);
  say(1, R"({"type":"login","nickname":"ada"})");
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{9});
  Located failed;
  failed.kind = Located::Kind::Failed;
  failed.message = "connection lost";
  FakeCluster::answer(cluster.locates, failed);
  auto refused = parse(last(1));
  EXPECT_STREQ(refused["code"].GetString(), "STORE_FAILURE");
  EXPECT_TRUE(cluster.claimed.empty());  // not logged in: no second match for ada here
}

// No live node serves the match of the seat, and this node's build lacks its
// game (it never takes the lease): the login is refused for good with a code
// clients do not resend on, naming the match and its game; no seat anywhere else
// and no claim here. Spectating and joining it are refused the same way.
TEST_F(ClusterTest, ASeatInAMatchOfAGameThisNodeDoesNotServeRefusesTheLoginForGood) {
  const std::string why = "match 9 plays goofspiel version 1, which this node does not serve";
  auto unserved = [&] {
    Located found;
    found.kind = Located::Kind::Unserved;
    found.message = why;
    return found;
  };
  hello(1);
  say(1, R"({"type":"login","id":"l","nickname":"ada","token":"tok-ada"})");
  say(1, R"({"type":"create_match","id":"c","players":2})");  // pipelined behind the login
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{9});
  ASSERT_EQ(cluster.locates.size(), 1u);
  EXPECT_EQ(cluster.locates.front().first, 9);
  FakeCluster::answer(cluster.locates, unserved());
  ASSERT_GE(transport.sent[1].size(), 2u);
  auto refused = parse(transport.sent[1][1]);
  EXPECT_STREQ(refused["type"].GetString(), "error") << transport.sent[1][1];
  EXPECT_STREQ(refused["id"].GetString(), "l");
  EXPECT_STREQ(refused["code"].GetString(), "UNSERVED_GAME") << transport.sent[1][1];
  const std::string message = refused["message"].GetString();
  EXPECT_NE(message.find(why), std::string::npos) << message;
  EXPECT_NE(message.find("log in on a node that serves it"), std::string::npos) << message;
  EXPECT_TRUE(cluster.claimed.empty());  // not logged in here: no claim
  // The create held behind it runs unlogged: no second match for ada.
  EXPECT_NE(last(1).find("NOT_LOGGED_IN"), std::string::npos) << last(1);
  EXPECT_TRUE(cluster.creates.empty());
  EXPECT_EQ(server.room(9), nullptr);

  connect(2, "bob");
  say(2, R"({"type":"spectate","id":"s","match":9})");
  FakeCluster::answer(cluster.locates, unserved());
  auto watch = parse(last(2));
  EXPECT_STREQ(watch["code"].GetString(), "UNSERVED_GAME") << last(2);
  EXPECT_STREQ(watch["id"].GetString(), "s");
  EXPECT_EQ(std::string(watch["message"].GetString()),
            why + "; connect to a node that serves it");
  say(2, R"({"type":"join_match","id":"j","match":9})");
  FakeCluster::answer(cluster.locates, unserved());
  EXPECT_STREQ(parse(last(2))["code"].GetString(), "UNSERVED_GAME") << last(2);
  EXPECT_EQ(server.room(9), nullptr);
}

TEST_F(ClusterTest, AnEndingStoredByAnyNodeIsToldAtLoginOnceThenForgotten) {
  const std::string line = R"({"type":"game_over","match":9,"winners":[1]})";
  cluster.stored_endings["ada"] = store::UnseenEnding{"ada", 9, line};
  hello(1);
  say(1, R"({"type":"login","nickname":"ada"})");
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  say(1, R"({"type":"list_matches"})");
  const auto& sent = transport.sent[1];
  ASSERT_GE(sent.size(), 3u);
  EXPECT_EQ(type_of(sent[sent.size() - 3]), "logged_in");
  EXPECT_EQ(sent[sent.size() - 2], line);  // after logged_in, before the next reply
  EXPECT_EQ(type_of(sent.back()), "match_list");
  EXPECT_EQ(cluster.ending_reads, std::vector<std::string>{"ada"});
  store.complete_all();
  ASSERT_FALSE(store.written.empty());
  EXPECT_EQ(store.written.back().match, 9);
  EXPECT_EQ(store.written.back().delivered_endings, std::vector<std::string>{"ada"});
  // A login without one reads and tells nothing more.
  connect(2, "bob");
  EXPECT_EQ(cluster.ending_reads, (std::vector<std::string>{"ada", "bob"}));
}

TEST_F(ClusterTest, NicknamesAreRenewedWithTheLeasesEvenWithoutAMatch) {
  connect(1, "ada");
  server.tick();
  ASSERT_EQ(cluster.renewals.size(), 1u);  // no lease, but ada's claim
  EXPECT_TRUE(cluster.renewals.front().first.empty());
}

TEST(ClusterOff, NoLeasesToRelease) {
  FakeTransport transport;
  FakePersistence store;
  FakeSecretSource secrets;
  Server server(
      test_server_config(), transport, store, [] { return std::int64_t{1}; }, secrets);
  server.begin_shutdown("bye");
  EXPECT_TRUE(server.leases_released());
}

TEST_F(ClusterTest, AFencedWriteDropsTheMatchClosesItsClientsAndIsNeverRetried) {
  connect(1, "ada");
  connect(2, "bob");
  create(1, 41, 7);
  const std::size_t writes = store.written.size();
  store.fail_next = true;
  store.fail_code = store::StoreCode::Fenced;
  say(2, R"({"type":"join_match","match":41})");
  EXPECT_EQ(server.room(41), nullptr);
  EXPECT_TRUE(transport.closed.count(1));   // the creator, seated in it
  EXPECT_FALSE(transport.closed.count(2));  // bob was not seated yet
  EXPECT_EQ(store.written.size(), writes);
  EXPECT_TRUE(store.pending.empty());
  // Nothing of it is left here: ada may sit down elsewhere, and a new request for
  // match 41 asks the cluster again.
  say(2, R"({"type":"spectate","match":41})");
  ASSERT_EQ(cluster.locates.size(), 1u);
  EXPECT_EQ(cluster.locates.front().first, 41);
}

TEST_F(ClusterTest, TheLobbyListsOpenMatchesOfEveryNode) {
  connect(1, "ada");
  create(1, 41, 7);
  server.tick();
  ASSERT_EQ(cluster.lobby_reads.size(), 1u);
  // The database's open matches: 40 and 42 on other nodes, 41 (served here, listed
  // from memory, once), 43 full but still in the lobby status.
  std::vector<ListedMatch> listed = {
      {40, 2, "expert", {store::SeatRecord{40, 0, "bob", "", {}, {}, {}}}, "as-stored"},
      {41, 2, "simple", {store::SeatRecord{41, 0, "ada", "", {}, {}, {}}}, "eriantys"},
      {42,
       3,
       "simple",
       {store::SeatRecord{42, 1, "Computer 1", "", {}, {}, "greedy"}},
       "eriantys"},
      {43,
       2,
       "simple",
       {store::SeatRecord{43, 0, "cy", "", {}, {}, {}},
        store::SeatRecord{43, 1, "dee", "", {}, {}, {}}},
       "eriantys"}};
  FakeCluster::answer(cluster.lobby_reads, listed);
  say(1, R"({"type":"list_matches"})");
  auto d = parse(last(1));
  ASSERT_TRUE(d["open"].IsArray());
  std::vector<std::int64_t> open;
  for (const auto& m : d["open"].GetArray()) open.push_back(m["match"].GetInt64());
  EXPECT_EQ(open, (std::vector<std::int64_t>{40, 41, 42}));  // 41 once, from memory
  ASSERT_EQ(d["running"].Size(), 1u);
  EXPECT_EQ(d["running"][0]["match"].GetInt64(), 43);
  const auto& bobs = d["open"][0];
  EXPECT_STREQ(bobs["mode"].GetString(), "expert");
  // The game as the match's row names it (a marker here: not the server's default).
  EXPECT_STREQ(bobs["game"].GetString(), "as-stored");
  EXPECT_STREQ(d["open"][1]["game"].GetString(), "eriantys");
  EXPECT_STREQ(bobs["status"].GetString(), "lobby");
  EXPECT_STREQ(bobs["seats"][0]["nickname"].GetString(), "bob");
  EXPECT_TRUE(bobs["seats"][1]["nickname"].IsNull());
  EXPECT_TRUE(d["open"][1]["seats"][0]["connected"].GetBool());  // ada, here
  EXPECT_EQ(d["open"][2]["computers"].GetInt(), 1);
  EXPECT_STREQ(d["open"][2]["seats"][1]["computer"].GetString(), "greedy");
  // Not read again before kClusterLobbyMs (500 ms).
  now += 499;
  server.tick();
  EXPECT_TRUE(cluster.lobby_reads.empty());
  now += 1;
  server.tick();
  EXPECT_EQ(cluster.lobby_reads.size(), 1u);
}

TEST_F(ClusterTest, ALobbyNoticeReadsTheLobbyAtOnceAndPushesItToWatchers) {
  connect(1, "ada");
  server.lobby_notices(true);
  server.tick();
  FakeCluster::answer(cluster.lobby_reads, std::vector<ListedMatch>{});
  say(1, R"({"type":"watch_lobby"})");
  // Notices flow: the poll is a safety net (10 s), not every 500 ms.
  now += 9'999;
  server.tick();
  EXPECT_TRUE(cluster.lobby_reads.empty());
  const std::size_t before = transport.sent[1].size();  // after the tick's ping
  // A match created on another node: read at once, pushed without waiting for a tick.
  server.lobby_changed();
  ASSERT_EQ(cluster.lobby_reads.size(), 1u);
  // More commits while it is read: one more read after it, not one per notice.
  server.lobby_changed();
  server.lobby_changed();
  EXPECT_EQ(cluster.lobby_reads.size(), 1u);
  FakeCluster::answer(cluster.lobby_reads,
                      std::vector<ListedMatch>{
                          {40,
                           2,
                           "simple",
                           {store::SeatRecord{40, 0, "bob", "", {}, {}, {}}},
                           "eriantys"}});
  ASSERT_EQ(transport.sent[1].size(), before + 1);
  auto pushed = parse(last(1));
  ASSERT_EQ(pushed["open"].Size(), 1u);
  EXPECT_EQ(pushed["open"][0]["match"].GetInt64(), 40);
  ASSERT_EQ(cluster.lobby_reads.size(), 1u);
  FakeCluster::answer(cluster.lobby_reads, std::vector<ListedMatch>{});
  EXPECT_TRUE(cluster.lobby_reads.empty());
  // The LISTEN connection dropped: polled every 500 ms again.
  server.lobby_notices(false);
  now += 500;
  server.tick();
  EXPECT_EQ(cluster.lobby_reads.size(), 1u);
}

TEST_F(ClusterTest, ARenewalThatLostAMatchDropsOnlyThatMatch) {
  connect(1, "ada");
  connect(2, "bob");
  create(1, 41, 7);
  create(2, 42, 3);
  server.tick();
  FakeCluster::answer(cluster.renewals, std::vector<store::MatchId>{42});
  EXPECT_NE(server.room(41), nullptr);
  EXPECT_EQ(server.room(42), nullptr);
  EXPECT_TRUE(transport.closed.count(2));
  EXPECT_FALSE(transport.closed.count(1));
}

TEST_F(ClusterTest, JoinAndSpectateOfAMatchAnotherNodeServesAreRedirected) {
  connect(1, "ada");
  say(1, R"({"type":"join_match","id":5,"match":99})");
  ASSERT_EQ(cluster.locates.size(), 1u);
  FakeCluster::answer(cluster.locates, elsewhere());
  auto d = parse(last(1));
  EXPECT_STREQ(d["type"].GetString(), "redirect");
  EXPECT_EQ(d["id"].GetInt(), 5);
  EXPECT_STREQ(d["address"].GetString(), "127.0.0.1:7002");
  EXPECT_STREQ(d["web"].GetString(), "ws://127.0.0.1:8002/ws");
  EXPECT_EQ(d["match"].GetInt64(), 99);
  EXPECT_TRUE(d["reason"].IsString());
  EXPECT_EQ(server.room(99), nullptr);

  say(1, R"({"type":"spectate","match":99})");
  Located no_web = elsewhere();
  no_web.holder.web.reset();
  FakeCluster::answer(cluster.locates, no_web);
  EXPECT_TRUE(parse(last(1))["web"].IsNull());

  say(1, R"({"type":"join_match","match":98})");
  FakeCluster::answer(cluster.locates, Located{});  // missing
  EXPECT_STREQ(parse(last(1))["code"].GetString(), "NO_SUCH_MATCH");
}

TEST_F(ClusterTest, AMatchWithAFreeLeaseIsAdoptedOnceAndServedWithItsEpoch) {
  connect(1, "bob");
  connect(2, "cy");
  say(1, R"({"type":"join_match","match":41})");
  say(2, R"({"type":"spectate","match":41})");
  ASSERT_EQ(cluster.locates.size(), 1u);  // both wait for one lookup
  store.seqs[41] = 1;
  FakeCluster::answer(cluster.locates, adopted(lobby_match(41), 9));
  store.complete_all();
  ASSERT_NE(server.room(41), nullptr);
  EXPECT_EQ(server.room(41)->epoch, 9);
  EXPECT_TRUE(got_type(1, "joined"));
  EXPECT_EQ(server.room(41)->seats[1]->nickname, "bob");
  ASSERT_FALSE(store.written.empty());
  EXPECT_EQ(store.written.back().fence, (store::LeaseFence{"a", 9}));
  EXPECT_EQ(store.written.back().expected_seq, 1);
  EXPECT_TRUE(got_type(2, "spectating"));
}

TEST_F(ClusterTest, AResumingLoginIsRedirectedToTheNodeServingItsSeat) {
  hello(1);
  say(1, R"({"type":"login","id":"l","nickname":"ada","token":"tok-ada"})");
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>(41));
  ASSERT_EQ(cluster.locates.size(), 1u);
  FakeCluster::answer(cluster.locates, elsewhere());
  auto d = parse(last(1));
  EXPECT_STREQ(d["type"].GetString(), "redirect");
  EXPECT_STREQ(d["id"].GetString(), "l");
  EXPECT_EQ(d["match"].GetInt64(), 41);
  // Not logged in here: after the redirect the client logs in on the other node.
  say(1, R"({"type":"create_match","players":2})");
  EXPECT_NE(last(1).find("NOT_LOGGED_IN"), std::string::npos) << last(1);
}

TEST_F(ClusterTest, AResumingLoginOfAnOrphanedMatchAdoptsItAndTakesTheSeatBack) {
  hello(1);
  say(1, R"({"type":"login","nickname":"ada","token":"tok-ada"})");
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>(41));
  store.seqs[41] = 1;
  FakeCluster::answer(cluster.locates, adopted(lobby_match(41), 2));
  auto d = parse(transport.sent[1].at(1));
  EXPECT_STREQ(d["type"].GetString(), "logged_in");
  EXPECT_EQ(d["match"].GetInt64(), 41);
  EXPECT_EQ(d["seat"].GetInt(), 0);
  EXPECT_EQ(server.room(41)->seats[0]->connection, 1u);
}

// A client may pipeline: login and create_match in one write. The create waits
// for the cluster's answer to the login instead of failing NOT_LOGGED_IN, and the
// requests run in the order they were sent.
TEST_F(ClusterTest, RequestsPipelinedBehindAClusterLookupRunInOrderOnceItIsAnswered) {
  hello(1);
  say(1, R"({"type":"login","id":"l","nickname":"ada"})");
  say(1, R"({"type":"create_match","id":"c","players":2})");
  say(1, R"({"type":"list_matches","id":"m"})");
  ASSERT_EQ(transport.sent[1].size(), 1u);  // only the welcome: both wait for the login
  EXPECT_TRUE(cluster.creates.empty());
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  ASSERT_EQ(transport.sent[1].size(), 2u);
  EXPECT_EQ(type_of(transport.sent[1][1]), "logged_in");
  ASSERT_EQ(cluster.creates.size(), 1u);  // the create ran and now waits for its id
  FakeCluster::answer(cluster.creates, store::HeldLease{41, 3});
  store.complete_all();
  std::vector<std::string> ids;
  for (std::size_t i = 1; i < transport.sent[1].size(); ++i) {
    auto d = parse(transport.sent[1][i]);
    EXPECT_STRNE(d["type"].GetString(), "error") << transport.sent[1][i];
    if (d.HasMember("id") && d["id"].IsString()) ids.push_back(d["id"].GetString());
  }
  // Run in order: the listing ran after the create, so it shows match 41. (The
  // create's "joined" may come after it: it waits until the match is durable.)
  std::sort(ids.begin() + 1, ids.end());
  EXPECT_EQ(ids, (std::vector<std::string>{"l", "c", "m"}));
  for (const auto& line : transport.sent[1]) {
    const bool listing = type_of(line) == "match_list";
    EXPECT_TRUE(!listing || line.find("\"match\":41") != std::string::npos) << line;
  }
  ASSERT_NE(server.room(41), nullptr);
  EXPECT_EQ(server.room(41)->epoch, 3);
}

// The wait is bounded: past 32 held requests the next is refused, not queued.
TEST_F(ClusterTest, HeldRequestsAreBoundedAndTheRestAreRefused) {
  hello(1);
  say(1, R"({"type":"login","id":"l","nickname":"ada"})");
  for (int i = 0; i < 40; ++i) say(1, R"({"type":"ping","id":"p)" + std::to_string(i) + "\"}");
  int refused = 0;
  for (const auto& line : transport.sent[1])
    if (line.find("previous one is being answered") != std::string::npos) ++refused;
  EXPECT_EQ(refused, 8);
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  int pongs = 0;
  for (const auto& line : transport.sent[1]) pongs += type_of(line) == "pong";
  EXPECT_EQ(pongs, 32);
}

// A client gone while its lookup is out: the answer finds no session and does nothing.
TEST_F(ClusterTest, AnAnswerForAClosedConnectionIsDropped) {
  hello(1);
  say(1, R"({"type":"login","nickname":"ada"})");
  say(1, R"({"type":"create_match","players":2})");
  server.on_closed(1);
  FakeCluster::answer(cluster.seat_lookups, std::optional<store::MatchId>{});
  EXPECT_TRUE(cluster.creates.empty());
  EXPECT_TRUE(store.written.empty());
}

}  // namespace
}  // namespace eryantis::server
