// Two real eryantis-server nodes on one throwaway PostgreSQL (docs/cluster.md):
// a match created on node A is joined from node B through a redirect; a node
// SIGKILLed mid-match has its match adopted by the other, where it finishes with
// every acknowledged command stored; a node SIGSTOPped past its lease cannot
// append once resumed (its clients are cut off, the other node serves the match).
#include <gtest/gtest.h>
#include <signal.h>

#include <iostream>
#include <random>
#include <thread>

#include "games/handles.hpp"
#include "eryantis/store/pg_store.hpp"
#include "fixture.hpp"
#include "support/network.hpp"
#include "support/polling.hpp"
#include "support/postgres_cluster.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;

constexpr int kLeaseMs = 1000;

struct Node {
  std::string name;
  int port = 0;
  std::unique_ptr<ServerProcess> process;
  std::string address() const { return "127.0.0.1:" + std::to_string(port); }
};

// Whether `text` shows up in the node's log within `timeout` (its output is read
// by another thread, so a line written just before a reply may come after it).
bool log_shows(ServerProcess& node, std::string_view text,
               std::chrono::milliseconds timeout = std::chrono::seconds(2)) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (node.log().find(text) == std::string::npos) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

class ClusterTest : public ServerFixture {
 protected:
  void SetUp() override {
    std::string why_not;
    cluster_ = test::PostgresCluster::shared(&why_not);
    if (!cluster_) {
      if (test::PostgresCluster::required())
        FAIL() << "CI is set, so PostgreSQL must be: " << why_not;
      GTEST_SKIP() << "cluster not tested: " << why_not;
    }
    uri_ = cluster_->fresh_uri();
  }

  // A node on a fixed free port (its public address must be known in advance).
  Node start_node(const std::string& name, int lease_ms = kLeaseMs,
                  int abandon_after_ms = 600'000) {
    Node node{name, test::free_port(), nullptr};
    TestConfig config;
    config.snapshot_every = 8;
    const std::string db = dir_.file(name + ".db");  // unused on PostgreSQL but its admin socket
    std::string toml = test::read_file(write_config(dir_, name + "-base.toml", db, config));
    const std::string section = "[storage]\n";
    toml.insert(toml.find(section) + section.size(),
                "backend = \"postgresql\"\npostgresql = \"" + uri_ + "\"\n");
    const std::string abandon = "abandon_after_ms = 600000";
    toml.replace(toml.find(abandon), abandon.size(),
                 "abandon_after_ms = " + std::to_string(abandon_after_ms));
    toml += "\n[cluster]\nnode = \"" + name + "\"\npublic_address = \"" + node.address() +
            "\"\nlease_ms = " + std::to_string(lease_ms) + "\n";
    const std::string path = dir_.file(name + ".toml");
    test::write_file(path, toml);
    node.process = std::make_unique<ServerProcess>(path, db, node.port);
    EXPECT_TRUE(node.process->start()) << node.process->log_tail();
    return node;
  }

  static std::unique_ptr<Client> logged_in(int port, const std::string& nickname,
                                           const std::string& token = {}) {
    auto c = Client::connect(port, nickname);
    EXPECT_TRUE(c && c->hello());
    if (!c) return c;
    auto reply = c->login(nickname, token);
    EXPECT_TRUE(reply && reply->type == "logged_in") << (reply ? reply->line : "no reply");
    return c;
  }

  // ada creates a 2-player match on the node at `port` and hangs up: its id, once
  // the node answered `joined` (0 after a failed assertion).
  static store::MatchId created_and_left(int port) {
    auto ada = logged_in(port, "ada");
    if (::testing::Test::HasFatalFailure()) return 0;
    auto created = ada->create(2, "simple");
    EXPECT_TRUE(created && created->type == "joined") << (created ? created->line : "no reply");
    return created ? created->i64("match") : 0;
  }

  test::PostgresCluster* cluster_ = nullptr;
  std::string uri_;
};

TEST_F(ClusterTest, AMatchCreatedOnOneNodeIsJoinedFromAnotherThroughARedirect) {
  Node a = start_node("a");
  Node b = start_node("b");
  ASSERT_FALSE(HasFatalFailure());
  auto ada = logged_in(a.port, "ada");
  auto created = ada->create(2, "simple");
  ASSERT_TRUE(created && created->type == "joined") << (created ? created->line : "no reply");
  const std::int64_t match = created->i64("match");

  auto bob = logged_in(b.port, "bob");
  auto answer = bob->join(match);
  ASSERT_TRUE(answer) << b.process->log_tail();
  ASSERT_EQ(answer->type, "redirect") << answer->line;
  EXPECT_EQ(answer->str("address"), a.address());
  EXPECT_EQ(answer->i64("match"), match);
  // Followed as a client does: it closes, and repeats the request on the node named.
  bob.reset();
  auto bob_on_a = logged_in(a.port, "bob");
  auto joined = bob_on_a->join(match);
  ASSERT_TRUE(joined && joined->type == "joined") << (joined ? joined->line : "no reply");
  // Both nodes took their ids from one sequence: a match created on B is new.
  auto cy = logged_in(b.port, "cy");
  auto other = cy->create(2, "simple");
  ASSERT_TRUE(other && other->type == "joined");
  EXPECT_NE(other->i64("match"), match);
}

// Plays `game` on `port` until `commands` are acknowledged.
void play_some(Game& game, std::size_t commands) {
  drive({&game}, 20s, [&] { return game.acked().size() >= commands; });
}

TEST_F(ClusterTest, AKilledNodesMatchIsAdoptedByAnotherAndFinishes) {
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  std::mt19937_64 rng(seed);
  Node a = start_node("a");
  Node b = start_node("b");
  ASSERT_FALSE(HasFatalFailure());
  GameOptions options{2, rules::Mode::Expert};
  options.tolerate_command_errors = false;
  Game game("failover", options, rng());
  game.connect_all(a.port);
  ASSERT_FALSE(HasFatalFailure());
  game.create_and_join();
  ASSERT_FALSE(HasFatalFailure());
  play_some(game, 5 + rng() % 20);
  ASSERT_FALSE(game.over());

  a.process->kill_hard();
  game.pump();
  game.lost_server();
  // A's lease runs out after at most lease_ms; the players' resuming logins on B
  // then make B adopt the match (before that, B would redirect them to dead A).
  std::this_thread::sleep_for(std::chrono::milliseconds(kLeaseMs + 300));
  for (int i = 0; i < game.players(); ++i)
    ASSERT_TRUE(game.reconnect(i, b.port)) << "player " << i << ":\n" << b.process->log_tail();
  EXPECT_TRUE(log_shows(*b.process, "adopted by node b")) << b.process->log_tail();
  ASSERT_TRUE(drive({&game}, 30s)) << "the game did not end on node b";

  std::string error;
  auto db = read_db(uri_, &error);
  ASSERT_TRUE(error.empty()) << error;
  expect_finished_in_db(db, game);
}

TEST_F(ClusterTest, AGracefullyStoppedNodesMatchIsAdoptedAtOnceNotAfterItsLease) {
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  std::mt19937_64 rng(seed);
  // A lease far longer than the test: only a released lease can move this fast.
  constexpr int kLongLeaseMs = 10'000;
  Node a = start_node("a", kLongLeaseMs);
  Node b = start_node("b", kLongLeaseMs);
  ASSERT_FALSE(HasFatalFailure());
  GameOptions options{2, rules::Mode::Simple};
  options.tolerate_command_errors = true;
  Game game("released", options, rng());
  game.connect_all(a.port);
  ASSERT_FALSE(HasFatalFailure());
  game.create_and_join();
  ASSERT_FALSE(HasFatalFailure());
  play_some(game, 3);
  game.options().paused = true;
  ASSERT_TRUE(drive({&game}, 5s, [&] { return game.idle(); }));
  const std::size_t acked = game.acked().size();

  const auto stopped_at = std::chrono::steady_clock::now();
  a.process->signal_term();
  // The players hang up (they were told "shutdown"), so A's closing does not wait
  // for them.
  game.lost_server();
  ASSERT_TRUE(a.process->wait_exit(5s)) << a.process->log_tail();
  EXPECT_TRUE(log_shows(*a.process, "released 1 of 1 lease")) << a.process->log_tail();
  ASSERT_TRUE(game.reconnect(0, b.port)) << b.process->log_tail();
  const auto moved = std::chrono::steady_clock::now() - stopped_at;
  EXPECT_LT(moved, std::chrono::milliseconds(kLongLeaseMs / 2))
      << "the match moved only after its lease ran out";
  EXPECT_TRUE(log_shows(*b.process, "adopted by node b")) << b.process->log_tail();
  ASSERT_TRUE(game.reconnect(1, b.port)) << b.process->log_tail();
  // The match goes on from where A left it: nothing acknowledged there is missing.
  game.options().paused = false;
  play_some(game, acked + 2);
  std::string error;
  auto db = read_db(uri_, &error);
  ASSERT_TRUE(error.empty()) << error;
  for (const auto& [seq, times] : game.acked())
    EXPECT_TRUE(db[game.match()].seqs.count(seq)) << "acknowledged seq " << seq << " is missing";
}

TEST_F(ClusterTest, AnOrphanedMatchsTimerFiresOnAnotherNodeWithNoClientThere) {
  // A 2-player match on A whose creator left: A arms its abandon timer (1.5 s) and
  // dies before it fires. Nobody ever connects to B.
  constexpr int kAbandonMs = 1500;
  Node a = start_node("a", kLeaseMs, kAbandonMs);
  Node b = start_node("b", kLeaseMs, kAbandonMs);
  ASSERT_FALSE(HasFatalFailure());
  auto db = store::PgStore::open(uri_, test::with_games(store::Options{}));
  ASSERT_TRUE(db) << db.error().message;
  const store::MatchId match = created_and_left(a.port);
  ASSERT_GT(match, 0);
  const auto armed_by = std::chrono::steady_clock::now() + 2s;
  std::optional<store::DeadlineRecord> deadline;
  while (!deadline && std::chrono::steady_clock::now() < armed_by) {
    deadline = db->deadline(match).value_or(std::nullopt);
    if (!deadline) std::this_thread::sleep_for(20ms);
  }
  ASSERT_TRUE(deadline) << a.process->log_tail();
  EXPECT_EQ(deadline->kind, "abandon");
  a.process->kill_hard();
  EXPECT_EQ(db->match_status(match).value(), std::optional(store::MatchStatus::Lobby))
      << "A abandoned it before it died: nothing left to test";

  // B's sweeper finds it once A's lease ran out (<= lease_ms) and its timer is due
  // within lease_ms, adopts it and abandons it at the stored time.
  const auto until = std::chrono::steady_clock::now() + 5s;
  std::optional<store::MatchStatus> status;
  while (std::chrono::steady_clock::now() < until) {
    status = db->match_status(match).value_or(std::nullopt);
    if (status == store::MatchStatus::Abandoned) break;
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_EQ(status, std::optional(store::MatchStatus::Abandoned)) << b.process->log_tail();
  EXPECT_TRUE(log_shows(*b.process, "no node serves it and its timer falls due"))
      << b.process->log_tail();
  EXPECT_TRUE(log_shows(*b.process, "adopted by node b")) << b.process->log_tail();
  EXPECT_EQ(b.process->log().find("connected from"), std::string::npos) << "a client reached B";
  auto lease = db->lease(match).value();
  ASSERT_TRUE(lease);
  EXPECT_EQ(lease->node, "b");
}

TEST_F(ClusterTest, ARunningMatchWhoseNodeDiedWithItsPlayersIsSweptUpAndAbandoned) {
  // Its players were connected when A died: no timer was stored. Nobody comes back,
  // and nobody ever connects to B.
  constexpr int kAbandonMs = 1500;
  Node a = start_node("a", kLeaseMs, kAbandonMs);
  Node b = start_node("b", kLeaseMs, kAbandonMs);
  ASSERT_FALSE(HasFatalFailure());
  std::mt19937_64 rng(test_seed());
  GameOptions options{2, rules::Mode::Simple};
  options.tolerate_command_errors = true;
  Game game("deserted", options, rng());
  game.connect_all(a.port);
  ASSERT_FALSE(HasFatalFailure());
  game.create_and_join();
  ASSERT_FALSE(HasFatalFailure());
  play_some(game, 12);  // past setup: running
  ASSERT_FALSE(game.over());
  auto db = store::PgStore::open(uri_, test::with_games(store::Options{}));
  ASSERT_TRUE(db) << db.error().message;
  const store::MatchId match = game.match();
  EXPECT_EQ(db->match_status(match).value(), std::optional(store::MatchStatus::Running));
  a.process->kill_hard();
  game.lost_server();

  // B's sweeper adopts it once A's lease ran out; nobody is connected there, so its
  // desertion is armed and stored, and it is abandoned kAbandonMs later.
  const auto until = std::chrono::steady_clock::now() + 8s;
  std::optional<store::MatchStatus> status;
  while (std::chrono::steady_clock::now() < until) {
    status = db->match_status(match).value_or(std::nullopt);
    if (status == store::MatchStatus::Abandoned) break;
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_EQ(status, std::optional(store::MatchStatus::Abandoned)) << b.process->log_tail();
  EXPECT_TRUE(log_shows(*b.process, "adopted by node b")) << b.process->log_tail();
  EXPECT_TRUE(log_shows(*b.process, "abandoned: no player connected")) << b.process->log_tail();
  std::string error;
  auto stored = read_db(uri_, &error);
  ASSERT_TRUE(error.empty()) << error;
  ASSERT_FALSE(stored[match].seqs.empty());
}

// A login as `nickname` on `port`: its reply, retried every 50 ms for `within`
// while it is refused with NICKNAME_TAKEN (a claim given back or running out).
std::optional<Message> login_once_free(int port, const std::string& nickname,
                                       std::chrono::milliseconds within) {
  const auto until = std::chrono::steady_clock::now() + within;
  for (;;) {
    auto c = Client::connect(port, nickname);
    if (!c || !c->hello()) return std::nullopt;
    auto reply = c->login(nickname, {});
    if (!reply || reply->type != "error" || reply->str("code") != "NICKNAME_TAKEN" ||
        std::chrono::steady_clock::now() >= until)
      return reply;
    std::this_thread::sleep_for(50ms);
  }
}

TEST_F(ClusterTest, ANicknameIsLoggedInOnOneNodeAtATime) {
  Node a = start_node("a");
  Node b = start_node("b");
  ASSERT_FALSE(HasFatalFailure());
  auto ada = logged_in(a.port, "ada");
  ASSERT_FALSE(HasFatalFailure());
  auto on_b = Client::connect(b.port, "ada-on-b");
  ASSERT_TRUE(on_b && on_b->hello());
  auto refused = on_b->login("ada", {});
  ASSERT_TRUE(refused) << b.process->log_tail();
  EXPECT_EQ(refused->type, "error") << refused->line;
  EXPECT_EQ(refused->str("code"), "NICKNAME_TAKEN") << refused->line;
  // ada logs out on A (closes): B lets her in at once, well before a lease ran out.
  ada.reset();
  const auto closed_at = std::chrono::steady_clock::now();
  auto moved = login_once_free(b.port, "ada", 2s);
  ASSERT_TRUE(moved) << b.process->log_tail();
  EXPECT_EQ(moved->type, "logged_in") << moved->line;
  EXPECT_LT(std::chrono::steady_clock::now() - closed_at, std::chrono::milliseconds(kLeaseMs));
  // bob on A, which dies: his claim runs out after lease_ms and B takes it over.
  auto bob = logged_in(a.port, "bob");
  ASSERT_FALSE(HasFatalFailure());
  a.process->kill_hard();
  const auto killed_at = std::chrono::steady_clock::now();
  auto taken_over = login_once_free(b.port, "bob", 3s);
  ASSERT_TRUE(taken_over) << b.process->log_tail();
  EXPECT_EQ(taken_over->type, "logged_in") << taken_over->line;
  EXPECT_LT(std::chrono::steady_clock::now() - killed_at, std::chrono::milliseconds(3 * kLeaseMs));
}

TEST_F(ClusterTest, ALoginRightAfterTheHoldersNodeDiedWaitsForItsClaimToRunOut) {
  // bob on A, which dies; he logs in on B at once, ONE login (no retry of ours):
  // A's claim has up to lease_ms left, and B asks again until it ran out rather
  // than refusing him NICKNAME_TAKEN for a dead node (the failover test's bots
  // were, with 5 retries of 100 ms against a 1000 ms claim).
  Node a = start_node("a");
  Node b = start_node("b");
  ASSERT_FALSE(HasFatalFailure());
  auto bob = logged_in(a.port, "bob");
  ASSERT_FALSE(HasFatalFailure());
  a.process->kill_hard();
  const auto killed_at = std::chrono::steady_clock::now();
  auto on_b = Client::connect(b.port, "bob-on-b");
  ASSERT_TRUE(on_b && on_b->hello());
  auto reply = on_b->login("bob", {});
  ASSERT_TRUE(reply) << b.process->log_tail();
  EXPECT_EQ(reply->type, "logged_in") << reply->line << "\n" << b.process->log_tail();
  EXPECT_LT(std::chrono::steady_clock::now() - killed_at, std::chrono::milliseconds(3 * kLeaseMs));
}

TEST_F(ClusterTest, AnEndingKeptOnOneNodeIsToldOnceAtALoginOnAnother) {
  // ada's lobby match on A is abandoned (1.5 s) after she hung up: A keeps its
  // ending for her in the database; she comes back on B.
  constexpr int kAbandonMs = 1500;
  Node a = start_node("a", kLeaseMs, kAbandonMs);
  Node b = start_node("b", kLeaseMs, kAbandonMs);
  ASSERT_FALSE(HasFatalFailure());
  auto db = store::PgStore::open(uri_, test::with_games(store::Options{}));
  ASSERT_TRUE(db) << db.error().message;
  const store::MatchId match = created_and_left(a.port);
  ASSERT_GT(match, 0);
  std::optional<store::UnseenEnding> kept;
  const auto kept_by = std::chrono::steady_clock::now() + 4s;
  while (!kept && std::chrono::steady_clock::now() < kept_by) {
    kept = db->unseen_ending_of("ada").value_or(std::nullopt);
    if (!kept) std::this_thread::sleep_for(50ms);
  }
  ASSERT_TRUE(kept) << a.process->log_tail();
  EXPECT_EQ(kept->match_id, match);

  auto ada = logged_in(b.port, "ada");
  ASSERT_FALSE(HasFatalFailure());
  auto told = ada->next(2s);  // the push right after logged_in
  ASSERT_TRUE(told) << b.process->log_tail();
  EXPECT_EQ(told->type, "match_abandoned") << told->line;
  EXPECT_EQ(told->i64("match"), match);
  EXPECT_EQ(told->line, kept->line);
  // Told once: deleted from the database, so A (where it happened) does not tell it again.
  const auto forgotten_by = std::chrono::steady_clock::now() + 2s;
  while (db->unseen_ending_of("ada").value_or(kept) &&
         std::chrono::steady_clock::now() < forgotten_by)
    std::this_thread::sleep_for(20ms);
  EXPECT_EQ(db->unseen_ending_of("ada").value(), std::nullopt);
  ada.reset();
  auto on_a = logged_in(a.port, "ada");
  ASSERT_FALSE(HasFatalFailure());
  auto extra = on_a->next(300ms);
  EXPECT_FALSE(extra && extra->type == "match_abandoned") << extra->line;
}

// How often `text` appears in the node's log.
std::size_t log_count(ServerProcess& node, std::string_view text) {
  const std::string log = node.log();
  std::size_t n = 0;
  for (auto at = log.find(text); at != std::string::npos; at = log.find(text, at + 1)) ++n;
  return n;
}

// Whether a lobby push listing `match` reaches `watcher` within `timeout`.
bool pushed_listing(Client& watcher, std::int64_t match, std::chrono::milliseconds timeout) {
  const std::string listed = "\"match\":" + std::to_string(match);
  return watcher
      .wait_for(
          [&](const Message& m) {
            if (m.type != "match_list") return false;
            const std::string open = m.json("open");
            return open.find(listed + ",") != std::string::npos ||
                   open.find(listed + "}") != std::string::npos;
          },
          timeout)
      .has_value();
}

TEST_F(ClusterTest, AMatchCreatedOnOneNodeIsPushedToAnotherNodesLobbyAtOnce) {
  Node a = start_node("a");
  Node b = start_node("b");
  ASSERT_FALSE(HasFatalFailure());
  ASSERT_TRUE(log_shows(*b.process, "listening for lobby changes")) << b.process->log_tail();
  auto ada = logged_in(a.port, "ada");
  auto bob = logged_in(b.port, "bob");
  ASSERT_FALSE(HasFatalFailure());
  auto watching = bob->request(R"("type":"watch_lobby")");
  ASSERT_TRUE(watching && watching->type == "match_list") << (watching ? watching->line : "none");
  // Pushes to one watcher are 250 ms apart at least: this one is not held back by that.
  std::this_thread::sleep_for(300ms);

  auto created_at = std::chrono::steady_clock::now();
  auto created = ada->create(2, "simple");
  ASSERT_TRUE(created && created->type == "joined") << (created ? created->line : "no reply");
  // While notices flow the poll runs every 10 s, so a listing within 2 s is the push. How
  // fast it is (well under 100 ms on a quiet machine) is printed, not asserted: a timed
  // assertion failed here once on a loaded 2-core machine (a benchmark's job, not a test's).
  ASSERT_TRUE(pushed_listing(*bob, created->i64("match"), 2s)) << b.process->log_tail();
  const auto listed_after = std::chrono::steady_clock::now() - created_at;
  std::cout << "[ lobby    ] created on A, pushed on B after "
            << std::chrono::duration_cast<std::chrono::microseconds>(listed_after).count()
            << " us\n";

  // Its LISTEN connection killed (a PostgreSQL restart, a proxy's timeout): B polls
  // again, so the next match is still listed, and reconnects within a second or so.
  auto db = store::PgStore::open(uri_, test::with_games(store::Options{}));
  ASSERT_TRUE(db) << db.error().message;
  auto killed = db->connection().query(
      "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
      "WHERE datname = current_database() AND query LIKE 'LISTEN%'");
  ASSERT_TRUE(killed) << killed.error().message;
  ASSERT_GE(killed->integer(0, 0), 2);  // one per node
  ASSERT_TRUE(log_shows(*b.process, "lobby changes no longer arrive")) << b.process->log_tail();
  auto cy = logged_in(a.port, "cy");
  ASSERT_FALSE(HasFatalFailure());
  auto polled = cy->create(2, "simple");
  ASSERT_TRUE(polled && polled->type == "joined") << (polled ? polled->line : "no reply");
  // Polled every 500 ms until the LISTEN connection is back: bounded generously (load).
  EXPECT_TRUE(pushed_listing(*bob, polled->i64("match"), 5s)) << b.process->log_tail();
  const auto reconnected_by = std::chrono::steady_clock::now() + 10s;
  while (log_count(*b.process, "listening for lobby changes") < 2 &&
         std::chrono::steady_clock::now() < reconnected_by)
    std::this_thread::sleep_for(20ms);
  ASSERT_EQ(log_count(*b.process, "listening for lobby changes"), 2u) << b.process->log_tail();
  // The last push (the polled one) was long enough ago: the push gap holds nothing back.
  auto dee = logged_in(a.port, "dee");
  ASSERT_FALSE(HasFatalFailure());
  created_at = std::chrono::steady_clock::now();
  auto again = dee->create(2, "simple");
  ASSERT_TRUE(again && again->type == "joined") << (again ? again->line : "no reply");
  ASSERT_TRUE(pushed_listing(*bob, again->i64("match"), 2s)) << b.process->log_tail();
  std::cout << "[ lobby    ] after the reconnect, pushed on B after "
            << std::chrono::duration_cast<std::chrono::microseconds>(
                   std::chrono::steady_clock::now() - created_at)
                   .count()
            << " us\n";
}

// A private match (docs/accounts.md) in a cluster: another node's lobby never lists it
// (its shared lobby is read from PostgreSQL), and its code, checked by the node that
// serves it, opens it from a client that started on another node. Known limit: the other
// node redirects a join before the code is checked (it cannot tell a private match
// without reading it), so the redirect itself says the match exists somewhere.
TEST_F(ClusterTest, APrivateMatchIsNotInAnotherNodesLobbyAndItsCodeOpensItThroughARedirect) {
  Node a = start_node("a");
  Node b = start_node("b");
  ASSERT_FALSE(HasFatalFailure());
  ASSERT_TRUE(log_shows(*b.process, "listening for lobby changes")) << b.process->log_tail();
  auto ada = logged_in(a.port, "ada");
  auto cy = logged_in(a.port, "cy");
  auto bob = logged_in(b.port, "bob");
  ASSERT_FALSE(HasFatalFailure());
  auto watching = bob->request(R"("type":"watch_lobby")");
  ASSERT_TRUE(watching && watching->type == "match_list") << (watching ? watching->line : "none");
  auto created = ada->request(R"("type":"create_match","players":2,"private":true)");
  ASSERT_TRUE(created && created->type == "joined") << (created ? created->line : "no reply");
  const std::int64_t secret = created->i64("match");
  auto invite = ada->wait_type("invite", 5s);
  ASSERT_TRUE(invite);
  const std::string code = invite->str("code");
  auto open = cy->create(2, "simple");  // after the private one: a listing that has it has both
  ASSERT_TRUE(open && open->type == "joined") << (open ? open->line : "no reply");
  const std::string listed = "\"match\":" + std::to_string(open->i64("match"));
  auto list = bob->wait_for(
      [&](const Message& m) {
        return m.type == "match_list" && m.json("open").find(listed) != std::string::npos;
      },
      5s);
  ASSERT_TRUE(list) << b.process->log_tail();
  const std::string hidden = "\"match\":" + std::to_string(secret);
  EXPECT_EQ(list->line.find(hidden + ","), std::string::npos) << list->line;

  auto redirected =
      bob->request(R"("type":"join_match","match":)" + std::to_string(secret) + R"(,"code":")" +
                   code + "\"");
  ASSERT_TRUE(redirected) << b.process->log_tail();
  ASSERT_EQ(redirected->type, "redirect") << redirected->line;
  EXPECT_EQ(redirected->str("address"), a.address());
  bob.reset();
  auto bob_on_a = logged_in(a.port, "bob");
  ASSERT_FALSE(HasFatalFailure());
  const std::string ask = R"("type":"join_match","match":)" + std::to_string(secret);
  auto refused = bob_on_a->request(ask);
  ASSERT_TRUE(refused && refused->type == "error") << (refused ? refused->line : "no reply");
  EXPECT_EQ(refused->str("code"), "NO_SUCH_MATCH");
  auto joined = bob_on_a->request(ask + R"(,"code":")" + code + "\"");
  ASSERT_TRUE(joined && joined->type == "joined") << (joined ? joined->line : "no reply");
}

TEST_F(ClusterTest, ANodePausedPastItsLeaseCannotAppendOnceResumed) {
  const std::uint64_t seed = test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  std::mt19937_64 rng(seed);
  Node a = start_node("a");
  Node b = start_node("b");
  ASSERT_FALSE(HasFatalFailure());
  GameOptions options{2, rules::Mode::Simple};
  options.tolerate_command_errors = true;
  Game game("fenced", options, rng());
  game.connect_all(a.port);
  ASSERT_FALSE(HasFatalFailure());
  game.create_and_join();
  ASSERT_FALSE(HasFatalFailure());
  play_some(game, 4);

  // A stops (a long GC pause, a partition) past its lease; B takes the match over
  // for a player who reconnects there.
  ASSERT_EQ(::kill(a.process->pid(), SIGSTOP), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(kLeaseMs + 300));
  const std::string nickname = game.player(0).nickname;
  auto on_b = logged_in(b.port, nickname, game.player(0).token);
  ASSERT_FALSE(HasFatalFailure());
  std::string error;
  auto before = read_db(uri_, &error);
  ASSERT_TRUE(error.empty()) << error;
  const std::size_t events_at_takeover = before[game.match()].seqs.size();

  // A wakes up with the players' old connections: whatever it tries to write is
  // fenced, it drops the match and closes them.
  ASSERT_EQ(::kill(a.process->pid(), SIGCONT), 0);
  Client& stale = *game.player(1).client;
  stale.send_line(R"({"type":"sync"})");
  EXPECT_TRUE(stale.wait_closed(5000ms)) << a.process->log_tail();
  EXPECT_TRUE(log_shows(*a.process, "no longer serves it", 5000ms)) << a.process->log_tail();
  auto after = read_db(uri_, &error);
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_EQ(after[game.match()].seqs.size(), events_at_takeover)
      << "the paused node appended after losing its lease";
  // The resuming player on A is sent to B, which serves the match now.
  auto back_on_a = Client::connect(a.port, "again");
  ASSERT_TRUE(back_on_a && back_on_a->hello());
  auto redirected = back_on_a->login(game.player(1).nickname, game.player(1).token);
  ASSERT_TRUE(redirected) << a.process->log_tail();
  EXPECT_EQ(redirected->type, "redirect") << redirected->line;
  EXPECT_EQ(redirected->str("address"), b.address());
}

}  // namespace
}  // namespace eryantis::integration
