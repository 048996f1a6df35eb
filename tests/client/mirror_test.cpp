// MatchMirror follows whole games produced by the rules library, fed exactly
// what the server sends (views without the seed, public events, view hashes).
#include "eryantis/client/match_mirror.hpp"

#include <gtest/gtest.h>

#include "eryantis/codec/codec.hpp"
#include "eryantis/rules/random_game.hpp"
#include "games/games.hpp"

namespace eryantis::client {
namespace {

// The mirror holds the game's values as opaque handles: Eriantys's are rules'.
const rules::State& typed(const game::State& s) {
  return s.get<rules::State>();
}
std::vector<rules::Command> typed(const std::vector<game::Command>& commands) {
  std::vector<rules::Command> out;
  for (const auto& c : commands) out.push_back(c.get<rules::Command>());
  return out;
}
std::string state_hash_hex(const rules::State& s) {
  return hash_hex(rules::hash(s));
}
MatchMirror mirror() {
  return MatchMirror(test::games());
}

// What the server sends: the event without its secret seed, the hash of the public view.
std::string public_event_json(rules::Event e) {
  if (auto* c = std::get_if<rules::CreateMatch>(&e.command)) c->seed = rules::MatchSeed{};
  return codec::event_to_json(e);
}
std::string view_hash(const rules::State& s) {
  return state_hash_hex(rules::view(s, rules::kNoSeat).state);
}

struct Step {
  std::int64_t seq;
  std::string event_json;
  std::string hash;
  rules::State after;
};

struct Recorded {
  rules::State created;     // after create_match (seq 1)
  std::vector<Step> steps;  // seq 2, 3, ...
  rules::State final_state;
};

Recorded record(rules::MatchOptions options, std::uint64_t seed) {
  Recorded r;
  std::int64_t seq = 0;
  auto game =
      rules::play_random_game(options, seed, [&](const rules::Event& e, const rules::State& s) {
        ++seq;
        if (seq == 1) {
          r.created = s;
          return;
        }
        r.steps.push_back({seq, public_event_json(e), view_hash(s), s});
      });
  r.final_state = game.state;
  return r;
}

void load(MatchMirror& m, const rules::State& s, std::int64_t seq, rules::Seat seat,
          std::int64_t match = 7) {
  const rules::View v = rules::view(s, seat);
  ASSERT_TRUE(m.load_state(match, seq, seat, codec::view_to_json(v), state_hash_hex(v.state)))
      << m.problem();
}

class MirrorFollowsGames : public ::testing::TestWithParam<std::tuple<int, rules::Mode>> {};

TEST_P(MirrorFollowsGames, EveryEventAppliesAndEveryHashMatches) {
  const auto [players, mode] = GetParam();
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(testing::Message() << players << " players, seed " << seed);
    const Recorded r = record({static_cast<std::uint8_t>(players), mode}, seed);
    ASSERT_FALSE(r.steps.empty());
    MatchMirror m = mirror();
    load(m, r.created, 1, 0);
    EXPECT_TRUE(m.synced());
    EXPECT_EQ(m.seat(), 0);
    EXPECT_EQ(typed(m.state()).seed, rules::MatchSeed{});
    for (const Step& s : r.steps) {
      ASSERT_EQ(m.on_event(7, s.seq, s.event_json, s.hash), MatchMirror::Update::Applied)
          << "seq " << s.seq << ": " << m.problem();
      ASSERT_EQ(m.seq(), s.seq);
      // The mirror offers exactly what the rules allow the seat on the real state.
      const auto to_act = rules::seats_to_act(s.after);
      const bool mine = std::find(to_act.begin(), to_act.end(), rules::Seat{0}) != to_act.end();
      ASSERT_EQ(m.my_turn(), mine);
      if (mine) {
        ASSERT_EQ(typed(m.legal_commands()), rules::legal_commands(s.after, 0));
      }
    }
    EXPECT_TRUE(m.game_over());
    EXPECT_EQ(typed(m.state()), rules::view(r.final_state, 0).state);
    EXPECT_EQ(m.events_applied(), r.steps.size());
    EXPECT_EQ(m.syncs_needed(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(AllSizes, MirrorFollowsGames,
                         ::testing::Combine(::testing::Values(2, 3, 4),
                                            ::testing::Values(rules::Mode::Simple,
                                                              rules::Mode::Expert)));

TEST(MatchMirror, JoiningMidGameFromAStateMessage) {
  const Recorded r = record({2, rules::Mode::Expert}, 11);
  const std::size_t mid = r.steps.size() / 2;
  MatchMirror m = mirror();
  load(m, r.steps[mid].after, r.steps[mid].seq, 1);
  for (std::size_t i = mid + 1; i < r.steps.size(); ++i)
    ASSERT_EQ(m.on_event(7, r.steps[i].seq, r.steps[i].event_json, r.steps[i].hash),
              MatchMirror::Update::Applied);
  EXPECT_TRUE(m.game_over());
}

TEST(MatchMirror, ASeqGapNeedsASyncAndAStateRepairsIt) {
  const Recorded r = record({2, rules::Mode::Simple}, 5);
  ASSERT_GT(r.steps.size(), 5u);
  MatchMirror m = mirror();
  load(m, r.created, 1, 0);
  ASSERT_EQ(m.on_event(7, r.steps[0].seq, r.steps[0].event_json, r.steps[0].hash),
            MatchMirror::Update::Applied);
  // steps[1] is lost.
  EXPECT_EQ(m.on_event(7, r.steps[2].seq, r.steps[2].event_json, r.steps[2].hash),
            MatchMirror::Update::NeedsSync);
  EXPECT_TRUE(m.needs_sync());
  EXPECT_FALSE(m.synced());
  EXPECT_NE(m.problem().find("gap"), std::string::npos) << m.problem();
  EXPECT_FALSE(m.my_turn());
  EXPECT_TRUE(m.legal_commands().empty());
  // Until the sync's state arrives, further events are ignored.
  EXPECT_EQ(m.on_event(7, r.steps[3].seq, r.steps[3].event_json, r.steps[3].hash),
            MatchMirror::Update::Ignored);
  load(m, r.steps[3].after, r.steps[3].seq, 0);
  EXPECT_TRUE(m.synced());
  // Old events (already in the state) are ignored, the next one applies.
  EXPECT_EQ(m.on_event(7, r.steps[2].seq, r.steps[2].event_json, r.steps[2].hash),
            MatchMirror::Update::Ignored);
  EXPECT_EQ(m.on_event(7, r.steps[4].seq, r.steps[4].event_json, r.steps[4].hash),
            MatchMirror::Update::Applied);
  EXPECT_EQ(m.syncs_needed(), 1u);
}

TEST(MatchMirror, AWrongHashNeedsASync) {
  const Recorded r = record({3, rules::Mode::Expert}, 8);
  MatchMirror m = mirror();
  load(m, r.created, 1, 2);
  std::string bad = r.steps[0].hash;
  bad[0] = bad[0] == '0' ? '1' : '0';
  EXPECT_EQ(m.on_event(7, r.steps[0].seq, r.steps[0].event_json, bad),
            MatchMirror::Update::NeedsSync);
  EXPECT_NE(m.problem().find("hash"), std::string::npos) << m.problem();
}

TEST(MatchMirror, EventsOfAnotherMatchAreIgnored) {
  const Recorded r = record({2, rules::Mode::Simple}, 9);
  MatchMirror m = mirror();
  load(m, r.created, 1, 0);
  EXPECT_EQ(m.on_event(8, r.steps[0].seq, r.steps[0].event_json, r.steps[0].hash),
            MatchMirror::Update::Ignored);
  EXPECT_TRUE(m.synced());
}

TEST(MatchMirror, UnreadableInputNeedsASync) {
  const Recorded r = record({2, rules::Mode::Simple}, 10);
  MatchMirror m = mirror();
  EXPECT_FALSE(m.load_state(7, 1, 0, R"({"viewer":0})", ""));
  EXPECT_TRUE(m.needs_sync());
  load(m, r.created, 1, 0);
  EXPECT_EQ(m.on_event(7, 2, R"({"v":1,"type":"nope"})", r.steps[0].hash),
            MatchMirror::Update::NeedsSync);
  // A state whose hash does not match its view is refused.
  const rules::View v = rules::view(r.created, 0);
  EXPECT_FALSE(m.load_state(7, 1, 0, codec::view_to_json(v), "0000000000000000"));
}

// A server's event that decodes but is illegal (seat -1, cloud 9, a character not
// in play, an island out of range) is a desync the client recovers from with a
// sync, never a crash (run under ASan + UBSan in the sanitizer build).
TEST(MatchMirror, IllegalEventsFromTheServerNeedASync) {
  const Recorded r = record({2, rules::Mode::Simple}, 13);
  std::size_t at = 0;  // the first move to an island, by whoever moves
  while (!std::holds_alternative<rules::MoveToIsland>(
      codec::event_from_json(r.steps[at].event_json)->command))
    ++at;
  const rules::State& before = at == 0 ? r.created : r.steps[at - 1].after;
  const rules::Event legal = *codec::event_from_json(r.steps[at].event_json);
  std::vector<rules::Event> hostile(4, legal);
  hostile[0].seat = -1;
  hostile[1].command = rules::ChooseCloud{9};
  hostile[2].command = rules::UseFarmer{};  // a simple match has no characters
  std::get<rules::MoveToIsland>(hostile[3].command).island = 200;
  for (const rules::Event& event : hostile) {
    MatchMirror m = mirror();
    load(m, before, r.steps[at].seq - 1, 0);
    EXPECT_EQ(m.on_event(7, r.steps[at].seq, codec::event_to_json(event), r.steps[at].hash),
              MatchMirror::Update::NeedsSync);
    EXPECT_NE(m.problem().find("is refused by the rules"), std::string::npos) << m.problem();
    EXPECT_EQ(typed(m.state()), rules::view(before, 0).state);  // untouched
    EXPECT_TRUE(m.legal_commands().empty());
    // The sync's state repairs it.
    load(m, r.steps[at].after, r.steps[at].seq, 0);
    EXPECT_TRUE(m.synced());
  }
}

TEST(MatchMirror, AViewThatBreaksTheInvariantsNeedsASync) {
  const Recorded r = record({2, rules::Mode::Simple}, 14);
  rules::State broken = r.steps[10].after;
  ASSERT_GT(broken.order_size, 0);
  broken.order[0] = -1;  // decodes (seats are -1..3), but the rules would index with it
  const rules::View v = rules::view(broken, 0);
  MatchMirror m = mirror();
  EXPECT_FALSE(m.load_state(7, 12, 0, codec::view_to_json(v), state_hash_hex(v.state)));
  EXPECT_TRUE(m.needs_sync());
  EXPECT_NE(m.problem().find("invariants"), std::string::npos) << m.problem();
  EXPECT_TRUE(m.to_act().empty());
  EXPECT_TRUE(m.legal_commands().empty());
}

TEST(MatchMirror, ServerMessageOverloadsAndClear) {
  const Recorded r = record({2, rules::Mode::Simple}, 12);
  ServerMessage st;
  st.type = MessageType::State;
  st.match = 3;
  st.seq = 1;
  st.seat = 1;
  st.view_json = codec::view_to_json(rules::view(r.created, 1));
  st.hash = view_hash(r.created);
  MatchMirror m = mirror();
  ASSERT_TRUE(m.load_state(st));
  EXPECT_EQ(m.match(), 3);
  EXPECT_EQ(m.seat(), 1);
  ServerMessage ev;
  ev.type = MessageType::Event;
  ev.match = 3;
  ev.seq = r.steps[0].seq;
  ev.event_json = r.steps[0].event_json;
  ev.hash = r.steps[0].hash;
  EXPECT_EQ(m.on_event(ev), MatchMirror::Update::Applied);
  m.clear();
  EXPECT_FALSE(m.has_match());
  EXPECT_FALSE(m.synced());
}

TEST(MatchMirror, HashHexIsSixteenLowerCaseDigits) {
  EXPECT_EQ(hash_hex(0), "0000000000000000");
  EXPECT_EQ(hash_hex(0xdeadbeef0123abcdULL), "deadbeef0123abcd");
}

}  // namespace
}  // namespace eryantis::client
