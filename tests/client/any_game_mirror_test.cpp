// The client side knows a game only through game::Game: a mirror of Goofspiel
// (the tests' game, with hidden bids) fed exactly what a server sends a seat —
// the view and hash of view(state, seat), the event as event_for(event, seat) —
// produced by the game itself; the random pick and the request lines of any game.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "eryantis/client/client_protocol.hpp"
#include "eryantis/client/match_mirror.hpp"
#include "eryantis/client/random_choice.hpp"
#include "eryantis/game/prng.hpp"
#include "games/games.hpp"

namespace eryantis::client {
namespace {

const game::Game& goofspiel() {
  const game::Game* g = test::games().find("goofspiel");
  EXPECT_NE(g, nullptr);
  return *g;
}

// What the server sends one seat after one event.
struct Push {
  std::int64_t seq = 0;
  game::Seat actor = game::kNoSeat;
  std::string event_json;  // event_for(event, viewer)
  std::string view_json;   // view_to_json(view(state, viewer), viewer): "updates":"full"
  std::string hash;        // of that view
  game::State view;        // view(state, viewer) after the event
  std::vector<game::Seat> to_act;
  std::vector<game::Command> legal;  // the viewer's, on the real state
};

struct Match {
  game::State created;  // after create_match (seq 1)
  std::vector<Push> pushes;
  game::State final_state;
};

std::string view_hash(const game::Game& g, const game::State& s, game::Seat viewer) {
  return hash_hex(g.hash(g.view(s, viewer)));
}

// A whole match of random legal bids (the seats to act in seat order), as `viewer` is told it.
Match play(const game::Game& g, game::Seat viewer, std::uint64_t seed) {
  auto options = g.options_from_request(2, nullptr);
  EXPECT_TRUE(options.has_value());
  auto created = g.create_match(*options, game::Seed{seed, ~seed});
  EXPECT_TRUE(created.has_value());
  Match m;
  game::State s = g.apply(g.empty_state(), *created);
  m.created = s;
  game::Prng prng(seed);
  std::int64_t seq = 1;
  for (int guard = 0; guard < 1000 && g.stage(s) != game::Stage::Over; ++guard) {
    const auto to_act = g.to_act(s);
    if (to_act.empty()) break;
    const game::Seat actor = to_act.front().seat;
    const auto legal = g.legal_commands(s, actor);
    if (legal.empty()) break;
    auto d = g.decide(s, actor, pick_random_command(g, legal, prng));
    EXPECT_TRUE(d.has_value());
    if (!d) break;
    s = d->next;
    Push p;
    p.seq = ++seq;
    p.actor = actor;
    p.event_json = g.event_to_json(g.event_for(d->event, viewer));
    p.view = g.view(s, viewer);
    p.view_json = g.view_to_json(p.view, viewer);
    p.hash = view_hash(g, s, viewer);
    for (const auto& t : g.to_act(s)) p.to_act.push_back(t.seat);
    p.legal = g.legal_commands(s, viewer);
    m.pushes.push_back(std::move(p));
  }
  m.final_state = s;
  return m;
}

void load(MatchMirror& mirror, const game::Game& g, const game::State& s, std::int64_t seq,
          game::Seat seat) {
  const game::State v = g.view(s, seat);
  ASSERT_TRUE(mirror.load_state(7, seq, seat, g.view_to_json(v, seat), view_hash(g, s, seat),
                                g.name()))
      << mirror.problem();
}

// With full updates (what a client of a game with hidden information asks for),
// the mirror follows every event of the match for a player and for a spectator.
TEST(AnyGameMirror, FollowsAGoofspielMatchWithFullUpdates) {
  const game::Game& g = goofspiel();
  ASSERT_FALSE(g.views_are_public());
  for (const game::Seat seat : {game::Seat{0}, game::Seat{1}, game::kNoSeat}) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      SCOPED_TRACE(testing::Message() << "seat " << int{seat} << ", seed " << seed);
      const Match match = play(g, seat, seed);
      ASSERT_FALSE(match.pushes.empty());
      MatchMirror m(test::games());
      load(m, g, match.created, 1, seat);
      ASSERT_EQ(m.game(), &g);
      EXPECT_EQ(m.seat(), seat);
      for (const Push& p : match.pushes) {
        ASSERT_EQ(m.on_event(7, p.seq, p.event_json, p.hash, p.view_json),
                  MatchMirror::Update::Applied)
            << "seq " << p.seq << ": " << m.problem();
        ASSERT_EQ(m.seq(), p.seq);
        EXPECT_EQ(m.state(), p.view);
        EXPECT_EQ(m.to_act(), p.to_act);
        const bool mine = std::find(p.to_act.begin(), p.to_act.end(), seat) != p.to_act.end();
        ASSERT_EQ(m.my_turn(), mine && seat != game::kNoSeat);
        // What the mirror offers is exactly what the rules allow the seat on the real state.
        if (m.my_turn()) {
          EXPECT_EQ(m.legal_commands(), p.legal);
        }
      }
      EXPECT_TRUE(m.game_over());
      EXPECT_EQ(m.state(), g.view(match.final_state, seat));
      EXPECT_EQ(m.events_applied(), match.pushes.size());
      EXPECT_EQ(m.syncs_needed(), 0u);
    }
  }
}

// A game whose views blank what a seat may not see (Masters of Renaissance: the decks below
// their tops, other seats' leaders, the token stack) is mirrored from those views: the check a
// view passes is the game's view_violation, not the invariants of a full state (which a view's
// blanks break: "a deck position without a card").
TEST(AnyGameMirror, FollowsARenaissanceMatchFromItsBlankedViews) {
  const game::Game* g = test::games().find("renaissance");
  ASSERT_NE(g, nullptr);
  for (const game::Seat seat : {game::Seat{0}, game::Seat{1}, game::kNoSeat}) {
    SCOPED_TRACE(testing::Message() << "seat " << int{seat});
    const Match match = play(*g, seat, 11);
    ASSERT_GE(match.pushes.size(), 20u);
    MatchMirror m(test::games());
    load(m, *g, match.created, 1, seat);
    // The first pushes: setup and the first turns, each with full updates, then a sync.
    for (std::size_t i = 0; i < 40 && i < match.pushes.size(); ++i) {
      const Push& p = match.pushes[i];
      ASSERT_EQ(m.on_event(7, p.seq, p.event_json, p.hash, p.view_json),
                MatchMirror::Update::Applied)
          << "seq " << p.seq << ": " << m.problem();
      EXPECT_EQ(m.state(), p.view);
      if (m.my_turn()) {
        EXPECT_EQ(m.legal_commands(), p.legal);
      }
    }
    const Push& last = match.pushes[std::min<std::size_t>(39, match.pushes.size() - 1)];
    ASSERT_TRUE(m.load_state(7, last.seq, seat, last.view_json, last.hash, "renaissance"))
        << m.problem();
  }
}

// Without the view, the events a seat sees are folded: its own bid folds, the
// other's hidden bid (card 0: made, not shown) cannot, and the mirror asks for a
// sync rather than guess; the sync's state repairs it.
TEST(AnyGameMirror, AHiddenEventWithoutTheViewNeedsASync) {
  const game::Game& g = goofspiel();
  const Match match = play(g, 0, 5);
  ASSERT_GE(match.pushes.size(), 3u);
  ASSERT_EQ(match.pushes[0].actor, 0);  // seat 0 bids first: shown to seat 0
  ASSERT_EQ(match.pushes[1].actor, 1);  // then seat 1: hidden from seat 0
  MatchMirror m(test::games());
  load(m, g, match.created, 1, 0);
  EXPECT_EQ(m.on_event(7, 2, match.pushes[0].event_json, match.pushes[0].hash),
            MatchMirror::Update::Applied)
      << m.problem();
  EXPECT_EQ(m.on_event(7, 3, match.pushes[1].event_json, match.pushes[1].hash),
            MatchMirror::Update::NeedsSync);
  // (Goofspiel's codec does not even read a hidden bid back: "card" 0 is out of its
  // range. Either way the mirror does not guess.)
  EXPECT_NE(m.problem().find("event 3"), std::string::npos) << m.problem();
  EXPECT_FALSE(m.synced());
  EXPECT_TRUE(m.legal_commands().empty());
  ASSERT_TRUE(m.load_state(7, 3, 0, match.pushes[1].view_json, match.pushes[1].hash, "goofspiel"))
      << m.problem();
  EXPECT_TRUE(m.synced());
  EXPECT_EQ(m.state(), match.pushes[1].view);
}

TEST(AnyGameMirror, AHashMismatchNeedsASync) {
  const game::Game& g = goofspiel();
  const Match match = play(g, 0, 8);
  const Push& p = match.pushes[0];
  ASSERT_EQ(p.actor, 0);  // seat 0's own bid: it folds without the view too
  std::string bad = p.hash;
  bad[0] = bad[0] == '0' ? '1' : '0';
  for (const bool full : {true, false}) {
    SCOPED_TRACE(full ? "full updates" : "events");
    MatchMirror m(test::games());
    load(m, g, match.created, 1, 0);
    EXPECT_EQ(m.on_event(7, p.seq, p.event_json, bad, full ? p.view_json : std::string()),
              MatchMirror::Update::NeedsSync);
    EXPECT_NE(m.problem().find("hash mismatch"), std::string::npos) << m.problem();
    EXPECT_TRUE(m.needs_sync());
    EXPECT_EQ(m.syncs_needed(), 1u);
  }
  // A state whose hash does not match its view is refused too.
  MatchMirror m(test::games());
  const game::State v = g.view(match.created, 0);
  EXPECT_FALSE(m.load_state(7, 1, 0, g.view_to_json(v, 0), "0000000000000000", "goofspiel"));
  EXPECT_NE(m.problem().find("does not match"), std::string::npos) << m.problem();
}

// The `state` message names its game; without `game` (a server older than the
// field) the registry's default game (Eriantys) reads the view; a game this client
// does not have is a clear refusal, never a crash.
TEST(AnyGameMirror, TheStateMessageNamesTheGame) {
  const game::Game& g = goofspiel();
  const Match match = play(g, 0, 9);
  const game::State v = g.view(match.created, 0);
  const std::string line = R"({"type":"state","match":4,"game":"goofspiel","seq":1,"hash":")" +
                           view_hash(g, match.created, 0) + R"(","seat":0,"view":)" +
                           g.view_to_json(v, 0) + "}";
  auto message = parse_server_message(line);
  ASSERT_TRUE(message) << message.error();
  EXPECT_EQ(message->game, "goofspiel");
  MatchMirror m(test::games());
  ASSERT_TRUE(m.load_state(*message)) << m.problem();
  EXPECT_EQ(m.game(), &g);
  EXPECT_EQ(m.match(), 4);

  // The same view without `game`: read as Eriantys's, which it is not.
  ServerMessage older = *message;
  older.game.clear();
  EXPECT_FALSE(m.load_state(older));
  EXPECT_TRUE(m.needs_sync());
  EXPECT_EQ(m.game(), &test::games().default_game());

  ServerMessage unknown = *message;
  unknown.game = "chess";
  EXPECT_FALSE(m.load_state(unknown));
  EXPECT_EQ(m.game(), nullptr);
  EXPECT_NE(m.problem().find("\"chess\""), std::string::npos) << m.problem();
  EXPECT_FALSE(m.synced());
  EXPECT_TRUE(m.to_act().empty());
  EXPECT_TRUE(m.legal_commands().empty());
  EXPECT_EQ(m.on_event(4, 2, match.pushes[0].event_json, match.pushes[0].hash),
            MatchMirror::Update::Ignored);
}

// What eryantis-bot and the terminal client's `auto` play: one of the mirror's
// legal commands, the same for the same seed, sent as the game's JSON; the
// server's `legal` list read back with the match's game.
TEST(AnyGameMirror, ARandomLegalCommandOfGoofspiel) {
  const game::Game& g = goofspiel();
  const Match match = play(g, 0, 11);
  MatchMirror m(test::games());
  load(m, g, match.created, 1, 0);
  const auto legal = m.legal_commands();
  ASSERT_EQ(legal.size(), 5u);  // bid 1..5: the default game of five cards
  std::vector<int> picked(legal.size());
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    game::Prng a(seed), b(seed);
    const game::Command& c = pick_random_command(g, legal, a);
    EXPECT_EQ(c, pick_random_command(g, legal, b)) << "seed " << seed;
    const auto at = std::find(legal.begin(), legal.end(), c);
    ASSERT_NE(at, legal.end());
    ++picked[static_cast<std::size_t>(at - legal.begin())];
    auto decided = g.decide(m.state(), 0, c);
    EXPECT_TRUE(decided.has_value()) << g.command_words(c);
  }
  // One type (bid): uniform among the five, each picked (200 draws: P(a miss) < 1e-18).
  for (std::size_t i = 0; i < picked.size(); ++i) EXPECT_GT(picked[i], 0) << i;

  const std::string line = ClientProtocol::play(g, legal[2], "bob-1", 1, "3");
  EXPECT_NE(line.find(g.command_to_json(legal[2])), std::string::npos) << line;
  EXPECT_EQ(decode_commands(g, g.commands_to_json(legal)), legal);
  // Entries the game cannot read are left out.
  EXPECT_EQ(decode_commands(g, R"([{"type":"fly"},7,{"type":"bid","card":3}])").size(), 1u);
  EXPECT_TRUE(decode_commands(g, "not json").empty());
}

}  // namespace
}  // namespace eryantis::client
