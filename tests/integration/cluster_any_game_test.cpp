// Issue 24: a game the platform does not know, played through the cluster. Goofspiel
// (tests/games: hidden bids, a shuffled deck) on two real eryantis-test-server nodes
// sharing one throwaway PostgreSQL (docs/cluster.md), with a third node that is the
// release eryantis-server, which has no Goofspiel:
//   - two players bid through real TCP clients; every message a player is sent is
//     checked to carry only that player's view: the other's bid, the cards still in
//     the other's hand and the deck below the top are never in it before they are
//     revealed;
//   - one player hangs up mid-match and resumes on the other test node (redirected
//     back to the node serving the match), the serving node is SIGKILLed and the
//     other adopts the match, where it is played to the end;
//   - the stored match names its game and version, and the store's fold and
//     eryantis-replay-test-games's verify over the tests' registry reach the hash
//     the clients were sent last;
//   - the release node never crashes on it: it does not list the game, refuses to
//     create one (UNKNOWN_GAME), redirects a spectator to the test node serving
//     the match, never adopts it while it is orphaned (the sweeper skips it) and
//     refuses a client asking for it then, saying why; the release replay tool
//     refuses it (exit 2) rather than judging it by another game's rules.
#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <iostream>
#include <random>
#include <thread>

#include "client.hpp"
#include "eryantis/store/pg_store.hpp"
#include "games/handles.hpp"
#include "support/child_process.hpp"
#include "support/cluster_nodes.hpp"
#include "support/polling.hpp"
#include "support/postgres_cluster.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;

constexpr int kLeaseMs = 1000;
constexpr int kCards = 6;
constexpr int kA = 0, kB = 1, kRelease = 2;  // node indexes: two test servers, one release

// Whether `text` shows up in the node's log within `timeout` (read by another thread).
bool log_shows(test::ServerProcess& node, std::string_view text,
               std::chrono::milliseconds timeout = 3s) {
  return test::eventually(timeout, [&] { return node.log().find(text) != std::string::npos; });
}

// A Goofspiel player over one real TCP connection: bids a random card of its own
// legal list whenever it has one and no bid of its own is in flight, remembers the
// newest seq and hash it was sent, and checks each message for the other's secrets.
struct Bidder {
  std::string nickname;
  std::string token;
  int seat = -1;
  std::unique_ptr<Client> client;
  std::string in_flight;  // the id of a play not answered yet
  // A play was in flight when the connection was dropped: the server may still
  // accept it after the next login's `state` (persist, then tell), so the first bid
  // from that state may be refused for a card already played. Not a server fault.
  bool unsure = false;
  bool over = false;
  std::int64_t last_seq = 0;
  std::string last_hash;
  int round = 0;              // resolved rounds, as the newest view shows them
  std::size_t checked = 0;    // messages checked for leaks
  std::map<std::int64_t, std::string> events;  // seq -> the event as sent to this seat
};

std::vector<int> ints(const rapidjson::Value& array) {
  std::vector<int> out;
  if (array.IsArray())
    for (const auto& v : array.GetArray()) out.push_back(v.IsInt() ? v.GetInt() : -99);
  return out;
}

// Everything in `m` that `me` must not know yet: a failure per leak.
void expect_nothing_hidden(const Message& m, Bidder& me) {
  if (!m.valid || !m.doc->IsObject()) return;
  const auto& doc = *m.doc;
  const int other = 1 - me.seat;
  ++me.checked;
  if (doc.HasMember("view") && doc["view"].IsObject()) {
    const auto& view = doc["view"];
    EXPECT_EQ(view.HasMember("viewer") ? view["viewer"].GetInt() : -2, me.seat)
        << me.nickname << " was sent another seat's view: " << m.line;
    if (view.HasMember("state") && view["state"].IsObject()) {
      const auto& s = view["state"];
      const int cards = s["cards"].GetInt();
      const int round = s["round"].GetInt();
      me.round = round;
      const auto bids = ints(s["bids"]);
      const auto hands = ints(s["hands"]);
      const auto prizes = ints(s["prizes"]);
      if (cards > 0) {
        ASSERT_EQ(bids.size(), 2u) << m.line;
        ASSERT_EQ(hands.size(), 2u) << m.line;
        EXPECT_LE(bids[static_cast<std::size_t>(other)], 0)
            << me.nickname << " was sent the other's bid: " << m.line;
        // The other's hand as the view shows it: every card not yet revealed in a
        // resolved round (a bid made is put back), never the hand without the bid.
        EXPECT_EQ(std::popcount(static_cast<unsigned>(hands[static_cast<std::size_t>(other)])),
                  cards - round)
            << me.nickname << " was sent the other's hand: " << m.line;
        for (std::size_t i = static_cast<std::size_t>(round) + 1; i < prizes.size(); ++i)
          EXPECT_EQ(prizes[i], 0) << me.nickname << " was sent the deck below the top: " << m.line;
      }
    }
  }
  if (m.type == "event" && doc.HasMember("event") && doc["event"].IsObject()) {
    const auto& e = doc["event"];
    const std::string type = e["type"].GetString();
    const auto& command = e["command"];
    if (type == "bid" && e["seat"].GetInt() == other) {
      EXPECT_EQ(command["card"].GetInt(), 0) << me.nickname << " was sent the other's card: "
                                             << m.line;
      // Its sentence names the cards only once the round resolved (both shown).
      const std::string text = m.str("text");
      if (text.find(" against ") == std::string::npos) {
        EXPECT_EQ(text.find_first_of("0123456789"), std::string::npos)
            << me.nickname << " was told a number of the other's bid: " << m.line;
      }
    }
    if (type == "create_match") {
      EXPECT_EQ(std::string(command["seed"].GetString()), std::string(32, '0'))
          << me.nickname << " was sent the deck's seed: " << m.line;
      const auto prizes = ints(e["prizes"]);
      for (std::size_t i = 1; i < prizes.size(); ++i)
        EXPECT_EQ(prizes[i], 0) << me.nickname << " was sent the deck: " << m.line;
    }
  }
}

class ClusterAnyGameTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why_not;
    if (!test::PostgresCluster::shared(&why_not)) {
      if (test::PostgresCluster::required())
        FAIL() << "CI is set, so PostgreSQL must be: " << why_not;
      GTEST_SKIP() << "a test game on the cluster not tested: " << why_not;
    }
    test::ClusterOptions options;
    options.nodes = 3;
    options.lease_ms = kLeaseMs;
    options.config.durability = "full";
    options.config.snapshot_every = 4;  // the adoption folds from a Goofspiel snapshot
    options.binaries = {ERYANTIS_TEST_SERVER_BINARY, ERYANTIS_TEST_SERVER_BINARY,
                        test::server_binary()};
    nodes_ = test::ClusterNodes::start(options, &why_not);
    ASSERT_TRUE(nodes_) << why_not;
    ASSERT_TRUE(nodes_->cluster_section()) << "this server does not take a [cluster] section";
  }

  void TearDown() override {
    if (HasFailure() && nodes_)
      for (int i = 0; i < nodes_->size(); ++i)
        std::cerr << "---- node " << test::ClusterNodes::name(i) << " (tail) ----\n"
                  << nodes_->node(i).log_tail(40);
  }

  // A connection to node `i`, greeted (full views: every event carries the seat's view).
  std::unique_ptr<Client> greeted(int i, const std::string& name) {
    auto c = Client::connect(nodes_->port(i), name);
    EXPECT_TRUE(c) << "cannot connect to node " << test::ClusterNodes::name(i);
    if (!c) return c;
    auto welcome = c->hello(true);
    EXPECT_TRUE(welcome && welcome->type == "welcome") << (welcome ? welcome->line : "no reply");
    return c;
  }

  // Logs `b` in on node `i` with its token: the reply (logged_in, or a redirect).
  std::optional<Message> log_in(Bidder& b, int i) {
    b.client = greeted(i, b.nickname);
    b.unsure = b.unsure || !b.in_flight.empty();
    b.in_flight.clear();
    if (!b.client) return std::nullopt;
    auto reply = b.client->login(b.nickname, b.token);
    EXPECT_TRUE(reply) << b.nickname << ": no reply to login on node "
                       << test::ClusterNodes::name(i);
    if (reply && reply->type == "logged_in") b.token = reply->str("token");
    return reply;
  }

  // One pass over every bidder's inbox: checks, remembers and bids (when `bidding`).
  void step(std::vector<Bidder*> bidders, std::mt19937_64& rng, bool bidding) {
    for (Bidder* b : bidders) {
      if (!b->client || b->client->closed()) continue;
      b->client->pump(0ms);
      while (!b->client->inbox().empty()) {
        Message m = std::move(b->client->inbox().front());
        b->client->inbox().pop_front();
        expect_nothing_hidden(m, *b);
        if (::testing::Test::HasFatalFailure()) return;
        if (!b->in_flight.empty() && m.id == b->in_flight) {
          if (b->unsure && m.type == "error")
            std::cout << "[ resumed  ] " << b->nickname
                      << "'s first bid after a resume raced the one in flight: " << m.line << "\n";
          else
            EXPECT_EQ(m.type, "ack") << b->nickname << "'s bid was refused: " << m.line;
          b->unsure = false;
          b->in_flight.clear();
        }
        if (m.type == "game_over") b->over = true;
        if ((m.type == "event" || m.type == "state" || m.type == "ack") && m.has("hash") &&
            m.i64("seq") >= b->last_seq) {
          b->last_seq = m.i64("seq");
          b->last_hash = m.str("hash");
        }
        if (m.type == "event") b->events[m.i64("seq")] = m.json("event");
        if (m.type == "state") {
          EXPECT_EQ(m.i64("seat"), b->seat) << m.line;
        }
        if (!bidding || !b->in_flight.empty() || (m.type != "event" && m.type != "state"))
          continue;
        const auto* legal = m.get("legal");
        if (!legal || !legal->IsArray() || legal->Empty()) continue;
        const auto& pick = (*legal)[static_cast<rapidjson::SizeType>(rng() % legal->Size())];
        rapidjson::StringBuffer text;
        rapidjson::Writer<rapidjson::StringBuffer> writer(text);
        pick.Accept(writer);
        b->in_flight = b->client->send_play(text.GetString(), std::nullopt);
      }
    }
  }

  // Plays until `done` or `timeout`; whether `done` held.
  bool play(std::vector<Bidder*> bidders, std::mt19937_64& rng, std::chrono::milliseconds timeout,
            const std::function<bool()>& done, bool bidding = true) {
    const auto until = std::chrono::steady_clock::now() + test::scaled(timeout);
    while (std::chrono::steady_clock::now() < until) {
      step(bidders, rng, bidding);
      if (::testing::Test::HasFatalFailure()) return false;
      if (done()) return true;
      std::this_thread::sleep_for(5ms);
    }
    return done();
  }

  std::unique_ptr<test::ClusterNodes> nodes_;
};

TEST_F(ClusterAnyGameTest, GoofspielIsPlayedAcrossTestNodesAndRefusedByARelease) {
  const std::uint64_t seed = test::test_seed();
  std::cout << "[ seed     ] ERYANTIS_TEST_SEED=" << seed << "\n";
  std::mt19937_64 rng(seed);
  const std::string a_address = nodes_->public_address(kA);
  const std::string b_address = nodes_->public_address(kB);
  test::ServerProcess& release = nodes_->node(kRelease);

  // ada creates the match on A; bob, on B, is redirected there and joins.
  Bidder ada, bob;
  ada.nickname = "ada";
  bob.nickname = "bob";
  auto logged = log_in(ada, kA);
  ASSERT_TRUE(logged && logged->type == "logged_in") << (logged ? logged->line : "no reply");
  auto created = ada.client->request(R"("type":"create_match","players":2,"game":"goofspiel",)"
                                     R"("options":{"cards":)" +
                                     std::to_string(kCards) + "}");
  ASSERT_TRUE(created);
  ASSERT_EQ(created->type, "joined") << created->line;
  const std::int64_t match = created->i64("match");
  ada.seat = static_cast<int>(created->i64("seat"));
  bob.seat = 1 - ada.seat;
  logged = log_in(bob, kB);
  ASSERT_TRUE(logged && logged->type == "logged_in") << (logged ? logged->line : "no reply");
  auto answer = bob.client->join(match);
  ASSERT_TRUE(answer);
  ASSERT_EQ(answer->type, "redirect") << answer->line;
  EXPECT_EQ(answer->str("address"), a_address);
  logged = log_in(bob, kA);
  ASSERT_TRUE(logged && logged->type == "logged_in") << (logged ? logged->line : "no reply");
  auto joined = bob.client->join(match);
  ASSERT_TRUE(joined && joined->type == "joined") << (joined ? joined->line : "no reply");
  EXPECT_EQ(joined->i64("seat"), bob.seat);

  // The release node: no Goofspiel in its welcome, none created there, and a
  // spectator of the match is sent to the node serving it.
  auto watcher = Client::connect(nodes_->port(kRelease), "cy");
  ASSERT_TRUE(watcher);
  auto welcome = watcher->hello(true);
  ASSERT_TRUE(welcome && welcome->type == "welcome") << (welcome ? welcome->line : "no reply");
  EXPECT_EQ(welcome->json("games").find("goofspiel"), std::string::npos) << welcome->line;
  auto cy = watcher->login("cy");
  ASSERT_TRUE(cy && cy->type == "logged_in") << (cy ? cy->line : "no reply");
  auto refused = watcher->request(R"("type":"create_match","players":2,"game":"goofspiel")");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->type, "error") << refused->line;
  EXPECT_EQ(refused->str("code"), "UNKNOWN_GAME") << refused->line;
  auto sent_on = watcher->spectate(match);
  ASSERT_TRUE(sent_on);
  EXPECT_EQ(sent_on->type, "redirect") << sent_on->line;
  EXPECT_EQ(sent_on->str("address"), a_address) << sent_on->line;

  // Two rounds on A, then bob hangs up and resumes on B: sent back to A, which
  // still serves the match, where he sits in his seat again.
  ASSERT_TRUE(play({&ada, &bob}, rng, 10s, [&] { return ada.round >= 2 && bob.round >= 2; }))
      << "two rounds were not played on A";
  bob.client.reset();
  logged = log_in(bob, kB);
  ASSERT_TRUE(logged);
  ASSERT_EQ(logged->type, "redirect") << logged->line;
  EXPECT_EQ(logged->str("address"), a_address);
  EXPECT_EQ(logged->i64("match"), match);
  logged = log_in(bob, kA);
  ASSERT_TRUE(logged && logged->type == "logged_in") << (logged ? logged->line : "no reply");
  EXPECT_EQ(logged->i64("match"), match) << logged->line;

  // Four rounds in, A dies mid-round (a bid may be in flight). B is paused so the
  // orphaned match stays orphaned while the release node is asked for it.
  ASSERT_TRUE(play({&ada, &bob}, rng, 10s, [&] { return ada.round >= 4 && bob.round >= 4; }))
      << "four rounds were not played";
  nodes_->stop(kB);
  nodes_->kill_hard(kA);
  ada.client.reset();
  bob.client.reset();
  std::this_thread::sleep_for(std::chrono::milliseconds(kLeaseMs + 300));
  // The release node's sweeper looks for orphans every lease: it never takes this one.
  std::this_thread::sleep_for(std::chrono::milliseconds(kLeaseMs));
  EXPECT_EQ(release.log().find("adopting it"), std::string::npos) << release.log_tail();
  EXPECT_EQ(release.log().find("adopted by node c"), std::string::npos) << release.log_tail();
  auto asked = watcher->spectate(match);
  ASSERT_TRUE(asked) << release.log_tail();
  EXPECT_EQ(asked->type, "error") << asked->line;
  std::cout << "[ release  ] spectating the orphaned match: " << asked->line << "\n";
  // Not STORE_FAILURE ("send again"): asking this node again can never help.
  EXPECT_EQ(asked->str("code"), "UNSERVED_GAME") << asked->line;
  EXPECT_EQ(asked->str("message"), "match " + std::to_string(match) +
                                       " plays goofspiel version 1, which this node does not "
                                       "serve; connect to a node that serves it")
      << asked->line;
  auto join = watcher->request(R"("type":"join_match","match":)" + std::to_string(match));
  ASSERT_TRUE(join) << release.log_tail();
  EXPECT_EQ(join->str("code"), "UNSERVED_GAME") << join->line;
  // A player of the match logging in there is told the same (no seat can be
  // given there, and no redirect: no node serves the match).
  auto bob_on_release = greeted(kRelease, "bob");
  ASSERT_TRUE(bob_on_release);
  auto not_here = bob_on_release->login("bob", bob.token);
  ASSERT_TRUE(not_here) << release.log_tail();
  EXPECT_EQ(not_here->type, "error") << not_here->line;
  EXPECT_EQ(not_here->str("code"), "UNSERVED_GAME") << not_here->line;
  EXPECT_NE(not_here->str("message").find("goofspiel"), std::string::npos) << not_here->line;
  EXPECT_NE(not_here->str("message").find("log in on a node that serves it"), std::string::npos)
      << not_here->line;
  std::cout << "[ release  ] its player logging in: " << not_here->line << "\n";
  bob_on_release.reset();
  // It said why in its log, and it never took the match's lease: A's lease is
  // still the last one, so the node that serves the game takes it next.
  EXPECT_TRUE(log_shows(release, "plays goofspiel version 1, which this node does not serve"))
      << release.log_tail();
  {
    auto db = store::PgStore::open(nodes_->uri(), test::with_games(store::Options{}));
    ASSERT_TRUE(db) << db.error().message;
    auto lease = db->lease(match);
    ASSERT_TRUE(lease) << lease.error().message;
    ASSERT_TRUE(*lease);
    EXPECT_EQ((*lease)->node, "a");
    EXPECT_EQ((*lease)->epoch, 1);
  }
  EXPECT_TRUE(release.running()) << release.log_tail();

  // B goes on and adopts the match for the first player who resumes there.
  nodes_->cont(kB);
  logged = log_in(ada, kB);
  ASSERT_TRUE(logged && logged->type == "logged_in") << (logged ? logged->line : "no reply");
  EXPECT_EQ(logged->i64("match"), match) << logged->line;
  EXPECT_TRUE(log_shows(nodes_->node(kB), "adopted by node b (lease epoch 2"));
  logged = log_in(bob, kB);
  ASSERT_TRUE(logged && logged->type == "logged_in") << (logged ? logged->line : "no reply");
  EXPECT_EQ(logged->i64("match"), match) << logged->line;
  // The spectator on the release node is now sent to B.
  auto to_b = watcher->spectate(match);
  ASSERT_TRUE(to_b);
  EXPECT_EQ(to_b->type, "redirect") << to_b->line;
  EXPECT_EQ(to_b->str("address"), b_address) << to_b->line;

  ASSERT_TRUE(play({&ada, &bob}, rng, 15s, [&] { return ada.over && bob.over; }))
      << "the match did not end on B";
  EXPECT_GT(ada.checked + bob.checked, 20u);
  // Hidden information stayed hidden: some events differ between the two seats.
  int differing = 0;
  for (const auto& [seq, text] : ada.events)
    if (auto other = bob.events.find(seq); other != bob.events.end() && other->second != text)
      ++differing;
  EXPECT_GT(differing, 0) << "every event was the same for both seats: nothing hidden";
  ASSERT_EQ(ada.last_seq, bob.last_seq);
  ASSERT_EQ(ada.last_hash, bob.last_hash);
  ASSERT_FALSE(ada.last_hash.empty());

  // The stored match: its game and version, folded by the tests' registry to the
  // hash the clients were sent last.
  auto db = store::PgStore::open(nodes_->uri(), test::with_games(store::Options{}));
  ASSERT_TRUE(db) << db.error().message;
  auto list = db->list_matches();
  ASSERT_TRUE(list) << list.error().message;
  const auto stored = std::find_if(list->begin(), list->end(),
                                   [&](const store::MatchSummary& s) { return s.id == match; });
  ASSERT_NE(stored, list->end());
  EXPECT_EQ(stored->game, "goofspiel");
  EXPECT_EQ(stored->game_version, test::games().find("goofspiel")->version());
  EXPECT_EQ(stored->status, store::MatchStatus::Finished);
  EXPECT_EQ(stored->events, ada.last_seq);
  auto folded = db->fold(match, store::FoldPolicy{.start = store::FoldStart::FirstEvent});
  ASSERT_TRUE(folded) << folded.error().message;
  ASSERT_TRUE(folded->ok()) << folded->divergence->reason;
  EXPECT_EQ(folded->seq, ada.last_seq);
  EXPECT_EQ(store::hash_to_hex(folded->played->hash(folded->state)), ada.last_hash);
  std::string output;
  EXPECT_EQ(test::run_program({ERYANTIS_REPLAY_TEST_GAMES_BINARY, nodes_->uri(), "verify",
                               std::to_string(match)},
                              &output),
            0)
      << output;
#ifdef ERYANTIS_REPLAY_BINARY
  // The release tool has no Goofspiel: it says so rather than judging the match.
  if (std::filesystem::exists(ERYANTIS_REPLAY_BINARY)) {
    EXPECT_EQ(test::run_program({ERYANTIS_REPLAY_BINARY, nodes_->uri(), "verify",
                                 std::to_string(match)},
                                &output),
              2)
        << output;
    EXPECT_NE(output.find("does not serve"), std::string::npos) << output;
  }
#endif
  EXPECT_TRUE(release.running()) << release.log_tail();
}

}  // namespace
}  // namespace eryantis::integration
