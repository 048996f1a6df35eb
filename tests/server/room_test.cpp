// A Room alone, without a Server: its three links (Outbox, MatchWrites,
// RoomOwner) faked, so what the room owns is tested where it lives: one write
// at a time, persist then tell, each viewer's own copy of an event, a failed
// write that changes nothing, and its deadlines. The tests' card game
// (Goofspiel: hidden bids) is played, so nothing here is Eriantys's.
#include <gtest/gtest.h>

#include <cstdio>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "eryantis/server/room.hpp"
#include "fakes.hpp"
#include "games/handles.hpp"

namespace eryantis::server {
namespace {

struct FakeLinks : Outbox, MatchWrites, RoomOwner {
  // Outbox
  std::map<ConnectionId, std::vector<std::string>> sent;
  std::set<ConnectionId> full_views;
  void send(ConnectionId conn, std::string line) override { sent[conn].push_back(std::move(line)); }
  void send_error(ConnectionId conn, const std::string& id, std::string_view code,
                  std::string_view message, const Room*) override {
    sent[conn].push_back("error " + id + " " + std::string(code) + " " + std::string(message));
  }
  bool wants_views(ConnectionId conn) const override { return full_views.contains(conn); }
  // MatchWrites: completed by the test, in order.
  std::deque<std::pair<MatchWrite, WriteDone>> pending;
  bool damaged = false;
  void write(Room&, MatchWrite w, WriteDone done) override {
    pending.emplace_back(std::move(w), std::move(done));
  }
  int snapshot_every() const override { return 1; }
  bool writable() const override { return !damaged; }
  void complete(bool ok = true) {
    auto [w, done] = std::move(pending.front());
    pending.pop_front();
    if (!ok) {
      done(std::unexpected(store::StoreError{store::StoreCode::Io, "disk full"}));
      return;
    }
    store::AppendOutcome out;
    out.last_seq = w.expected_seq + static_cast<store::Seq>(w.events.size());
    done(out);
  }
  // RoomOwner
  std::vector<std::pair<std::optional<store::MatchStatus>, store::MatchStatus>> moves;
  int accepted_count = 0;
  int endings = 0;
  Ending ending(const Room&, const game::Outcome&) override {
    ++endings;
    return {"{\"type\":\"game_over\"}", {}};
  }
  void moved(Room& room, std::optional<store::MatchStatus> from, store::MatchStatus to) override {
    moves.emplace_back(from, to);
    room.status = to;
  }
  void accepted(Room&, const std::vector<store::UnseenEnding>&) override { ++accepted_count; }

  std::int64_t now = 1'000'000;
  RoomLinks links{*this, *this, *this, [this] { return now; }, timers::Settings{}, 2};
};

std::string hex(std::uint64_t v) {
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(v));
  return out;
}

const game::Game& goofspiel() { return *test::games().find("goofspiel"); }

// A 2-player Goofspiel match, both seats taken by people on connections 1 and 2,
// spectator on 3.
std::unique_ptr<Room> started_room(FakeLinks& f) {
  const game::Game& g = goofspiel();
  auto options = g.options_from_request(2, nullptr);
  EXPECT_TRUE(options.has_value());
  auto created = g.create_match(*options, game::Seed{7, 11});
  EXPECT_TRUE(created.has_value());
  auto room = std::make_unique<Room>(f.links);
  room->id = 5;
  room->game = &g;
  room->state = g.apply(g.empty_state(), *created);
  room->seat_count = g.seats(room->state);
  room->seq = 1;
  room->status = store::MatchStatus::Running;
  room->seats[0] = SeatHolder{"alice", "", 1, std::nullopt};
  room->seats[1] = SeatHolder{"bob", "", 2, std::nullopt};
  room->spectators.insert(3);
  return room;
}

game::Command first_legal(const Room& room, game::Seat seat) {
  auto legal = room.game->legal_commands(room.state, seat);
  EXPECT_FALSE(legal.empty());
  return legal.front();
}

std::vector<std::string> of_type(const FakeLinks& f, ConnectionId c, const std::string& type) {
  std::vector<std::string> out;
  if (auto it = f.sent.find(c); it != f.sent.end())
    for (const std::string& l : it->second)
      if (l.rfind("error", 0) != 0 && type_of(l) == type) out.push_back(l);
  return out;
}

TEST(Room, TellsNothingUntilTheWriteIsDurableThenAcksAndBroadcasts) {
  FakeLinks f;
  auto room = started_room(f);
  room->submit(0, first_legal(*room, 0), game::Authority::Player, 1, R"("r1")", std::nullopt);
  ASSERT_EQ(f.pending.size(), 1u);
  EXPECT_TRUE(room->busy);
  EXPECT_TRUE(f.sent.empty()) << "nothing is told before the write is durable";
  EXPECT_EQ(room->seq, 1);
  f.complete();
  EXPECT_FALSE(room->busy);
  EXPECT_EQ(room->seq, 2);
  EXPECT_EQ(f.accepted_count, 1);
  ASSERT_EQ(of_type(f, 1, "ack").size(), 1u);
  EXPECT_EQ(parse(of_type(f, 1, "ack")[0])["seq"].GetInt64(), 2);
  for (ConnectionId c : {1, 2, 3}) EXPECT_EQ(of_type(f, c, "event").size(), 1u) << c;
}

TEST(Room, EachViewerGetsTheEventAsTheyMaySeeIt) {
  FakeLinks f;
  auto room = started_room(f);
  const game::Game& g = *room->game;
  ASSERT_FALSE(g.views_are_public());
  const game::Command bid = first_legal(*room, 0);
  room->submit(0, bid, game::Authority::Player, 1, R"("r1")", std::nullopt);
  f.complete();
  const std::string own = of_type(f, 1, "event")[0];
  const std::string other = of_type(f, 2, "event")[0];
  const std::string watcher = of_type(f, 3, "event")[0];
  EXPECT_NE(own, other) << "alice's bid is hers alone until it is revealed";
  EXPECT_EQ(parse(other)["event"], parse(watcher)["event"]);
  // Each line's hash is that viewer's view's, and the ack's is the sender's.
  EXPECT_EQ(parse(own)["hash"], parse(of_type(f, 1, "ack")[0])["hash"]);
  EXPECT_EQ(std::string(parse(other)["hash"].GetString()),
            hex(g.hash(g.view(room->state, 1))));
  EXPECT_FALSE(parse(own).HasMember("view"));
  // A viewer who asked for full views gets its own view with the next event.
  f.full_views.insert(2);
  room->submit(1, first_legal(*room, 1), game::Authority::Player, 2, R"("r2")", std::nullopt);
  f.complete();
  const auto next = parse(of_type(f, 2, "event").back());
  ASSERT_TRUE(next.HasMember("view"));
  EXPECT_FALSE(parse(of_type(f, 1, "event").back()).HasMember("view"));
}

TEST(Room, RequestsWaitForThePendingWriteAndRunInOrder) {
  FakeLinks f;
  auto room = started_room(f);
  std::vector<int> ran;
  room->submit(0, first_legal(*room, 0), game::Authority::Player, 1, R"("r1")", std::nullopt);
  room->enqueue(2, R"("q1")", [&] { ran.push_back(1); });
  room->enqueue(2, R"("q2")", [&] { ran.push_back(2); });
  EXPECT_TRUE(ran.empty()) << "queued behind the write in flight";
  // Beyond RoomLinks::max_queued (2): refused, and the op is dropped.
  room->enqueue(2, R"("q3")", [&] { ran.push_back(3); });
  ASSERT_FALSE(f.sent[2].empty());
  EXPECT_NE(f.sent[2].back().find("error \"q3\" RATE_LIMITED"), std::string::npos);
  f.complete();
  EXPECT_EQ(ran, (std::vector<int>{1, 2}));
  EXPECT_TRUE(room->idle());
}

TEST(Room, AFailedWriteChangesNothingAndTellsOnlyTheSender) {
  FakeLinks f;
  auto room = started_room(f);
  const std::uint64_t before = room->game->hash(room->state);
  room->submit(0, first_legal(*room, 0), game::Authority::Player, 1, R"("r1")", std::nullopt);
  f.complete(/*ok=*/false);
  EXPECT_EQ(room->seq, 1);
  EXPECT_EQ(room->game->hash(room->state), before);
  EXPECT_EQ(f.accepted_count, 0);
  ASSERT_EQ(f.sent[1].size(), 1u);
  EXPECT_NE(f.sent[1][0].find("error \"r1\" STORE_FAILURE"), std::string::npos);
  EXPECT_TRUE(f.sent[2].empty());
  EXPECT_TRUE(f.sent[3].empty());
}

TEST(Room, ARefusedCommandWritesNothing) {
  FakeLinks f;
  auto room = started_room(f);
  // A 5-card match: nobody holds a 9.
  auto bad = room->game->command_from_json(R"({"type":"bid","card":9})");
  ASSERT_TRUE(bad.has_value());
  room->submit(1, *bad, game::Authority::Player, 2, R"("r1")", std::nullopt);
  EXPECT_TRUE(f.pending.empty());
  ASSERT_EQ(f.sent[2].size(), 1u);
  EXPECT_EQ(f.sent[2][0].rfind("error \"r1\" ", 0), 0u);
}

TEST(Room, AWriteCompletingAfterTheRoomIsGoneTouchesNothing) {
  FakeLinks f;
  auto room = started_room(f);
  bool after_ran = false;
  Room* seen = reinterpret_cast<Room*>(1);
  MatchWrite w;
  w.expected_seq = room->seq;
  room->persist(std::move(w), [&](store::Result<store::AppendOutcome>, Room* r) {
    after_ran = true;
    seen = r;
  });
  room.reset();  // dropped meanwhile (another node took the match)
  f.complete();
  EXPECT_TRUE(after_ran);
  EXPECT_EQ(seen, nullptr);
}

TEST(Room, AnOperationThatDropsTheRoomStopsTheQueue) {
  FakeLinks f;
  auto room = started_room(f);
  int later = 0;
  room->submit(0, first_legal(*room, 0), game::Authority::Player, 1, R"("r1")", std::nullopt);
  room->enqueue(2, R"("q1")", [&] { room.reset(); });
  room->enqueue(2, R"("q2")", [&] { ++later; });
  f.complete();
  EXPECT_EQ(room, nullptr);
  EXPECT_EQ(later, 0);
}

TEST(Room, TheTimersOfAnAbsentPlayerAreStoredAfterThePendingWriteAndFallDue) {
  FakeLinks f;
  auto room = started_room(f);
  room->seats[1]->connection = 0;  // bob is away: alice is the only player left
  room->update_deadlines(f.now);
  ASSERT_EQ(f.pending.size(), 1u) << "the stored timer (bob's turn grace) is written";
  ASSERT_TRUE(f.pending.front().first.deadline.has_value());
  EXPECT_EQ(f.pending.front().first.deadline->kind, DeadlineKind::TurnGrace);
  // Announced: what acts first, alice's win by forfeit (no turn is skipped with one player there).
  EXPECT_EQ(room->next_deadline().kind, DeadlineKind::Forfeit);
  const auto deadline = parse(room->deadline_json(f.now));
  EXPECT_EQ(std::string(deadline["action"].GetString()), "forfeit");
  EXPECT_EQ(std::string(deadline["nickname"].GetString()), "alice");
  EXPECT_EQ(deadline["in_ms"].GetInt64(), timers::Settings{}.forfeit_after_ms);
  f.complete();
  EXPECT_EQ(room->due(f.now).due, timers::Due::Nothing);
  f.now += timers::Settings{}.forfeit_after_ms;
  const timers::Action act = room->due(f.now);
  EXPECT_EQ(act.due, timers::Due::Forfeit);
  EXPECT_EQ(act.seat, 0);
}

TEST(Room, ADamagedStoreStopsItsTimers) {
  FakeLinks f;
  auto room = started_room(f);
  f.damaged = true;
  room->seats[1]->connection = 0;
  room->update_deadlines(f.now);
  EXPECT_TRUE(f.pending.empty());
  f.now += 10 * timers::Settings{}.abandon_after_ms;
  EXPECT_EQ(room->due(f.now).due, timers::Due::Nothing);
}

TEST(Room, TheEndingIsWrittenWithTheLastEventAndTheOwnerTold) {
  FakeLinks f;
  auto room = started_room(f);
  room->submit(0, room->game->end_match(), game::Authority::Server, 0, "", std::nullopt);
  ASSERT_EQ(f.pending.size(), 1u);
  EXPECT_EQ(f.endings, 1);
  ASSERT_TRUE(f.pending.front().first.status.has_value());
  EXPECT_EQ(*f.pending.front().first.status, store::MatchStatus::Finished);
  EXPECT_TRUE(f.pending.front().first.result_json.has_value());
  f.complete();
  ASSERT_EQ(f.moves.size(), 1u);
  EXPECT_EQ(f.moves[0].second, store::MatchStatus::Finished);
  EXPECT_EQ(room->status, store::MatchStatus::Finished);
  EXPECT_EQ(f.accepted_count, 1);
  EXPECT_EQ(room->game->stage(room->state), game::Stage::Over);
}

}  // namespace
}  // namespace eryantis::server

namespace eryantis::server {
namespace {

TEST(Room, TheEventThatMovesTheMatchOnCarriesItsNewStatus) {
  FakeLinks f;
  auto room = started_room(f);
  room->status = store::MatchStatus::Lobby;  // full, nothing played yet: Goofspiel has no setup
  room->submit(0, first_legal(*room, 0), game::Authority::Player, 1, R"("r1")", std::nullopt);
  f.complete();
  ASSERT_EQ(f.moves.size(), 1u);
  EXPECT_EQ(room->status, store::MatchStatus::Running);
  for (ConnectionId c : {1, 2, 3}) {
    const auto event = parse(of_type(f, c, "event").back());
    ASSERT_TRUE(event.HasMember("status")) << c;
    EXPECT_EQ(std::string(event["status"].GetString()), "running");
  }
  room->submit(1, first_legal(*room, 1), game::Authority::Player, 2, R"("r2")", std::nullopt);
  f.complete();
  EXPECT_FALSE(parse(of_type(f, 3, "event").back()).HasMember("status"))
      << "only the event that changed it";
}

TEST(Room, NothingIsOfferedWhileASeatIsFree) {
  FakeLinks f;
  auto room = started_room(f);
  room->status = store::MatchStatus::Lobby;
  room->seats[1].reset();
  // The game would accept a bid, but the server refuses every command until the
  // match is full: `legal` says what will be accepted.
  ASSERT_FALSE(room->game->legal_commands(room->state, 0).empty());
  EXPECT_EQ(room->moves(0).legal, "[]");
  EXPECT_EQ(room->moves(0).allowed, "[]");
  room->seats[1] = SeatHolder{"bob", "", 2, std::nullopt};
  EXPECT_NE(room->moves(0).legal, "[]");
  EXPECT_EQ(room->moves(game::kNoSeat).legal, "[]");
}

}  // namespace
}  // namespace eryantis::server
