// The server's logic driven directly: a fake transport records what each
// connection is sent, a fake store completes writes when the test says so.
#include "eryantis/server/server.hpp"

#include <gtest/gtest.h>

#include "eryantis/json/json.hpp"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <deque>
#include <map>
#include <random>
#include <sstream>

#include "eryantis/codec/codec.hpp"
#include "eryantis/eriantys/game/game.hpp"
#include "eryantis/server/token.hpp"
#include "fake_secret_source.hpp"
#include "fakes.hpp"
#include "games/handles.hpp"

namespace eryantis::server {
namespace {

// Routes the default logger into a string while it lives.
class LogCapture {
 public:
  LogCapture() : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out_);
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("capture", sink));
  }
  ~LogCapture() { spdlog::set_default_logger(previous_); }
  int count(std::string_view needle) const {
    const std::string text = out_.str();
    int n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
  }

 private:
  std::ostringstream out_;
  std::shared_ptr<spdlog::logger> previous_;
};

class ServerTest : public ::testing::Test {
 protected:
  ServerTest()
      : server(
            config(), transport, store, [this] { return now; }, secrets) {}
  static ServerConfig config() {
    ServerConfig c;
    c.games = &test::games();  // the tests' registry: the games handles.hpp makes handles of
    c.turn_grace_ms = 1000;
    c.forfeit_after_ms = 5000;
    c.heartbeat_interval_ms = 2000;
    c.heartbeat_timeout_ms = 6000;
    c.limits.commands_per_second = 1000;
    return c;
  }
  // Sends a line and returns everything the connection received because of it.
  std::vector<std::string> say(ConnectionId c, const std::string& line) {
    const std::size_t before = transport.sent[c].size();
    server.on_line(c, line);
    store.complete_all();
    return {transport.sent[c].begin() + static_cast<long>(before), transport.sent[c].end()};
  }
  std::string reply(ConnectionId c, const std::string& line) {
    auto lines = say(c, line);
    return lines.empty() ? "" : lines.front();
  }
  void connect(ConnectionId c, const std::string& nickname, const std::string& token = {}) {
    server.on_open(c, "127.0.0.1:1");
    ASSERT_EQ(type_of(reply(c, R"({"type":"hello","protocol":1,"updates":"events"})")), "welcome");
    std::string login = R"({"type":"login","nickname":")" + nickname + "\"";
    if (!token.empty()) login += R"(,"token":")" + token + "\"";
    auto r = reply(c, login + "}");
    ASSERT_EQ(type_of(r), "logged_in") << r;
    tokens[c] = parse(r)["token"].GetString();
  }
  store::MatchId create(ConnectionId c, int players, const char* mode = "simple") {
    auto lines = say(c, R"({"type":"create_match","players":)" + std::to_string(players) +
                            R"(,"mode":")" + mode + "\"}");
    EXPECT_EQ(type_of(lines.at(0)), "joined") << lines.at(0);
    return parse(lines.at(0))["match"].GetInt64();
  }
  // Plays one legal command for whoever must act; returns false at game over.
  bool step(store::MatchId m, std::map<rules::Seat, ConnectionId> conns, std::mt19937_64& rng) {
    const Room* room = server.room(m);
    if (!room || test::eriantys_state(room->state).phase == rules::Phase::GameOver) return false;
    auto seats = rules::seats_to_act(test::eriantys_state(room->state));
    if (seats.empty()) return false;
    const rules::Seat seat = seats[rng() % seats.size()];
    auto legal = rules::legal_commands(test::eriantys_state(room->state), seat);
    const auto& cmd = legal[rng() % legal.size()];
    auto r = reply(conns[seat],
                   R"({"type":"play","id":1,"command":)" + codec::command_to_json(cmd) + "}");
    EXPECT_EQ(type_of(r), "ack") << r;
    return true;
  }

  // Connections 1..players seated in a new match, setup done: planning, all connected.
  store::MatchId running_match(int players) {
    static const char* kNames[] = {"a", "b", "c", "d"};
    static const char* kColors[] = {"black", "white", "grey"};
    for (int p = 0; p < players; ++p) connect(static_cast<ConnectionId>(p + 1), kNames[p]);
    const auto m = create(1, players);
    for (int p = 1; p < players; ++p)
      reply(static_cast<ConnectionId>(p + 1),
            R"({"type":"join_match","match":)" + std::to_string(m) + "}");
    for (int p = 0; p < players; ++p) {
      const auto c = static_cast<ConnectionId>(p + 1);
      reply(c, R"({"type":"play","command":{"type":"choose_wizard","wizard":)" + std::to_string(p) +
                   "}}");
      // 4 players: teammates (seats 0+2, 1+3) choose the same colour.
      reply(c, R"({"type":"play","command":{"type":"choose_tower_color","color":")" +
                   std::string(kColors[players == 4 ? p % 2 : p]) + "\"}}");
    }
    EXPECT_EQ(test::eriantys_state(server.room(m)->state).phase, rules::Phase::Planning);
    return m;
  }
  void tick() {
    server.tick();
    store.complete_all();
  }
  // Match `source` of `server` as a restart would load it, under the id `id`.
  LoadedMatch loaded(store::MatchId source, store::MatchId id, Deadline deadline) {
    const Room* room = server.room(source);
    LoadedMatch rm;
    rm.id = id;
    rm.status = room->status;
    rm.last_seq = room->seq;
    rm.game = room->game;
    rm.state = room->state;
    for (int i = 0; i < room->players(); ++i)
      rm.seats.push_back(store::SeatRecord{id, i, room->seats[i]->nickname,
                                           room->seats[i]->token_hash, std::nullopt, std::nullopt,
                                           std::nullopt});
    rm.deadline = deadline;
    store.seqs[id] = room->seq;
    return rm;
  }
  // A player coming back to `s` on connection `c` with the token `server` issued.
  void come_back(Server& s, ConnectionId c, const std::string& nickname, const std::string& token) {
    s.on_open(c, "p");
    s.on_line(c, R"({"type":"hello","protocol":1})");
    s.on_line(c, R"({"type":"login","nickname":")" + nickname + R"(","token":")" + token + "\"}");
    store.complete_all();
  }

  std::int64_t now = 1'000'000;
  FakeTransport transport;
  FakePersistence store;
  FakeSecretSource secrets;
  Server server;
  std::map<ConnectionId, std::string> tokens;
};

TEST_F(ServerTest, HelloComesFirstAndProtocolIsChecked) {
  server.on_open(1, "peer");
  EXPECT_EQ(type_of(reply(1, R"({"type":"login","nickname":"a"})")), "error");
  auto bad = parse(reply(1, R"({"type":"hello","protocol":99})"));
  EXPECT_STREQ(bad["code"].GetString(), "UNSUPPORTED_PROTOCOL");
  auto ok = parse(reply(1, R"({"type":"hello","protocol":1,"id":"h"})"));
  EXPECT_STREQ(ok["type"].GetString(), "welcome");
  EXPECT_STREQ(ok["id"].GetString(), "h");
}

TEST_F(ServerTest, WelcomeListsTheGamesAndCreateMatchNamesOneWithItsOptions) {
  server.on_open(1, "peer");
  auto welcome = parse(reply(1, R"({"type":"hello","protocol":1})"));
  ASSERT_TRUE(welcome["games"].IsArray());
  // Every game of its registry, the default first.
  ASSERT_EQ(welcome["games"].Size(), test::games().games().size());
  for (rapidjson::SizeType i = 0; i < welcome["games"].Size(); ++i)
    EXPECT_EQ(welcome["games"][i]["name"].GetString(), test::game_names().at(i));
  EXPECT_STREQ(welcome["games"][0]["name"].GetString(), "eriantys");
  EXPECT_STREQ(welcome["games"][0]["title"].GetString(), "Eriantys");
  EXPECT_EQ(welcome["games"][0]["min_players"].GetInt(), 2);
  EXPECT_EQ(welcome["games"][0]["max_players"].GetInt(), 4);
  reply(1, R"({"type":"login","nickname":"alice"})");

  auto unknown = parse(reply(1, R"({"type":"create_match","players":2,"game":"chess"})"));
  EXPECT_STREQ(unknown["code"].GetString(), "UNKNOWN_GAME");
  EXPECT_NE(std::string(unknown["message"].GetString()).find("eriantys"), std::string::npos);
  auto quick = parse(reply(1, R"({"type":"quick_join","game":"chess"})"));
  EXPECT_STREQ(quick["code"].GetString(), "UNKNOWN_GAME");
  auto bad = parse(reply(1, R"({"type":"create_match","players":2,"options":{"mode":"blitz"}})"));
  EXPECT_STREQ(bad["code"].GetString(), "BAD_OPTIONS");
  EXPECT_NE(std::string(bad["message"].GetString()).find("mode"), std::string::npos);
  auto extra = parse(reply(1, R"({"type":"create_match","players":2,"options":{"speed":2}})"));
  EXPECT_STREQ(extra["code"].GetString(), "BAD_OPTIONS");
  EXPECT_NE(std::string(extra["message"].GetString()).find("speed"), std::string::npos);
  EXPECT_EQ(server.room(1), nullptr) << "a refused create_match made a match";

  // The game's options decide: expert from the options object.
  auto joined = parse(reply(
      1, R"({"type":"create_match","players":2,"game":"eriantys","options":{"mode":"expert"}})"));
  ASSERT_STREQ(joined["type"].GetString(), "joined");
  const store::MatchId m = joined["match"].GetInt64();
  EXPECT_EQ(test::eriantys_state(server.room(m)->state).options.mode, rules::Mode::Expert);
  auto list = parse(reply(1, R"({"type":"list_matches"})"));
  ASSERT_EQ(list["open"].Size(), 1u);
  EXPECT_STREQ(list["open"][0]["game"].GetString(), "eriantys");
  EXPECT_STREQ(list["open"][0]["mode"].GetString(), "expert");
}

// Every game of the server's registry is played through the engine's interface:
// created with its own options, its state pushed in its own view, listed by name.
TEST_F(ServerTest, EveryGameOfItsRegistryCanBeCreatedAndIsListedWithItsGame) {
  ConnectionId c = 1;
  std::map<std::int64_t, std::string> created;
  for (const std::string& name : test::game_names()) {
    connect(c, "player" + std::to_string(c));
    const auto lines = say(c, R"({"type":"create_match","players":2,"game":")" + name + "\"}");
    ASSERT_GE(lines.size(), 2u) << name;
    auto joined = parse(lines.at(0));
    ASSERT_STREQ(joined["type"].GetString(), "joined") << name << ": " << lines.at(0);
    auto state = parse(lines.at(1));
    ASSERT_STREQ(state["type"].GetString(), "state") << name;
    EXPECT_EQ(state["game"].GetString(), name);
    EXPECT_TRUE(state["view"].IsObject()) << name;
    created[joined["match"].GetInt64()] = name;
    ++c;
  }
  auto list = parse(reply(1, R"({"type":"list_matches"})"));
  std::map<std::int64_t, std::string> listed;
  for (const auto& m : list["open"].GetArray()) listed[m["match"].GetInt64()] = m["game"].GetString();
  EXPECT_EQ(listed, created);
  // A quick join looks for a match of the game asked for.
  connect(c, "late");
  auto quick = parse(reply(c, R"({"type":"quick_join","game":"goofspiel"})"));
  ASSERT_STREQ(quick["type"].GetString(), "joined");
  EXPECT_EQ(created.at(quick["match"].GetInt64()), "goofspiel");
}

TEST_F(ServerTest, BadLinesGetErrorsAndTheSessionLivesOn) {
  server.on_open(1, "peer");
  for (const char* line : {"garbage", "[]", R"({"type":5})", R"({"type":"nope"})", R"({"id":1})"}) {
    auto r = parse(reply(1, line));
    EXPECT_STREQ(r["type"].GetString(), "error") << line;
    EXPECT_TRUE(r.HasMember("code"));
    EXPECT_TRUE(r.HasMember("message"));
  }
  server.on_line_too_long(1);
  EXPECT_STREQ(parse(transport.sent[1].back())["code"].GetString(), "LINE_TOO_LONG");
  EXPECT_EQ(type_of(reply(1, R"({"type":"ping","id":2})")), "pong");
  EXPECT_TRUE(transport.closed.empty());
}

TEST_F(ServerTest, NicknamesAreValidatedAndUnique) {
  server.on_open(1, "p");
  reply(1, R"({"type":"hello","protocol":1})");
  EXPECT_STREQ(parse(reply(1, R"({"type":"login","nickname":"bad name!"})"))["code"].GetString(),
               "INVALID_NICKNAME");
  EXPECT_STREQ(parse(reply(1, R"({"type":"login","nickname":""})"))["code"].GetString(),
               "INVALID_NICKNAME");
  for (int length : {25, 300})  // too long: the same code whatever the length
    EXPECT_STREQ(parse(reply(1, R"({"type":"login","nickname":")" + std::string(length, 'x') +
                                    "\"}"))["code"]
                     .GetString(),
                 "INVALID_NICKNAME");
  EXPECT_EQ(type_of(reply(1, R"({"type":"login","nickname":")" + std::string(24, 'x') + "\"}")),
            "logged_in");
  server.on_closed(1);
  server.on_open(1, "p");
  reply(1, R"({"type":"hello","protocol":1})");
  connect(2, "alice");
  EXPECT_STREQ(parse(reply(1, R"({"type":"login","nickname":"alice"})"))["code"].GetString(),
               "NICKNAME_TAKEN");
}

TEST_F(ServerTest, PersistThenTell) {
  connect(1, "alice");
  server.on_line(1, R"({"type":"create_match","players":2,"id":7})");
  // Nothing is acknowledged before the write completes.
  EXPECT_EQ(transport.sent[1].size(), 2u);
  ASSERT_EQ(store.pending.size(), 1u);
  EXPECT_TRUE(store.pending.front().first.create.has_value());
  EXPECT_EQ(store.pending.front().first.events.size(), 1u);
  store.complete_all();
  EXPECT_EQ(type_of(transport.sent[1][2]), "joined");
  EXPECT_EQ(type_of(transport.sent[1][3]), "state");
}

TEST_F(ServerTest, FullGameOverTheProtocol) {
  for (int players : {2, 3, 4})
    for (const char* mode : {"simple", "expert"}) {
      SCOPED_TRACE(std::to_string(players) + " " + mode);
      std::map<rules::Seat, ConnectionId> conns;
      const ConnectionId base =
          static_cast<ConnectionId>(players * 10 + (mode[0] == 'e' ? 100 : 0));
      for (int p = 0; p < players; ++p) {
        std::string nickname = "p";  // appended: g++ 12 warns (-Wrestrict) about "p" + string
        nickname += std::to_string(base + p);
        connect(base + p, nickname);
      }
      const store::MatchId m = create(base, players, mode);
      for (int p = 1; p < players; ++p) {
        auto r = reply(base + p, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
        ASSERT_EQ(type_of(r), "joined") << r;
      }
      for (int p = 0; p < players; ++p) conns[static_cast<rules::Seat>(p)] = base + p;
      std::mt19937_64 rng(players);
      int steps = 0;
      while (step(m, conns, rng)) ASSERT_LT(++steps, 3000);
      // Everyone saw the game end and is back in the lobby.
      for (int p = 0; p < players; ++p)
        EXPECT_EQ(type_of(transport.sent[base + p].back()), "game_over");
      EXPECT_EQ(store.written.back().status, store::MatchStatus::Finished);
      EXPECT_TRUE(store.written.back().result_json.has_value());
      auto again = reply(base, R"({"type":"create_match","players":2})");
      EXPECT_EQ(type_of(again), "joined") << again;
    }
}

// A State copy per command only when the store will snapshot it: exactly the writes
// whose events cross a multiple of snapshot_every carry state_after, and it is the
// state the last event's hash describes.
TEST_F(ServerTest, StateAfterTravelsOnlyWhenASnapshotFallsDue) {
  store.snapshot_interval = 4;
  const store::MatchId m = running_match(2);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 40 && step(m, {{0, 1}, {1, 2}}, rng); ++i) {
  }
  int carried = 0;
  for (const MatchWrite& w : store.written) {
    if (w.events.empty() || w.create) continue;  // creating a match is the lobby's write
    const store::Seq after = w.expected_seq + static_cast<store::Seq>(w.events.size());
    const bool due = w.expected_seq / 4 != after / 4;
    EXPECT_EQ(w.state_after.has_value(), due) << "write ending at seq " << after;
    if (w.state_after) {
      ++carried;
      EXPECT_EQ(rules::hash(test::eriantys_state(*w.state_after)), w.events.back().state_hash);
    }
  }
  EXPECT_GE(carried, 5);
}

// Every viewer's event line is written from one shared part: its fields keep the
// protocol's order, a full-views watcher's line ends with its view, and the
// seats' lines differ only in what is theirs.
TEST_F(ServerTest, EventLinesKeepTheirFieldsInOrder) {
  const store::MatchId m = running_match(2);
  server.on_open(9, "127.0.0.1:9");
  ASSERT_EQ(type_of(reply(9, R"({"type":"hello","protocol":1})")), "welcome");
  ASSERT_EQ(type_of(say(9, R"({"type":"spectate","match":)" + std::to_string(m) + "}").at(0)),
            "spectating");
  std::mt19937_64 rng(3);
  ASSERT_TRUE(step(m, {{0, 1}, {1, 2}}, rng));
  const std::vector<std::string> seat_keys = {"type", "match",  "seq",     "hash",  "event",
                                              "text", "to_act", "allowed", "legal", "deadline"};
  std::vector<std::string> watcher_keys = seat_keys;
  watcher_keys.push_back("view");
  for (ConnectionId c : {ConnectionId{1}, ConnectionId{2}, ConnectionId{9}}) {
    const auto ev = parse(transport.sent[c].back());
    ASSERT_TRUE(ev.IsObject());
    std::vector<std::string> keys;
    for (const auto& member : ev.GetObject()) keys.emplace_back(member.name.GetString());
    EXPECT_EQ(keys, c == 9 ? watcher_keys : seat_keys) << transport.sent[c].back();
    EXPECT_STREQ(ev["type"].GetString(), "event");
  }
  // What is shared is the same text in every line, up to the viewer's own moves.
  const std::string& a = transport.sent[1].back();
  const std::string& b = transport.sent[2].back();
  const auto shared = a.substr(0, a.find(",\"allowed\":"));
  EXPECT_EQ(b.substr(0, b.find(",\"allowed\":")), shared);
}

TEST_F(ServerTest, EveryEventReachesEverySeatAndSpectator) {
  connect(1, "alice");
  connect(2, "bob");
  connect(3, "carol");
  const auto m = create(1, 2);
  reply(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  auto s = say(3, R"({"type":"spectate","match":)" + std::to_string(m) + "}");
  EXPECT_EQ(type_of(s.at(0)), "spectating");
  EXPECT_EQ(type_of(s.at(1)), "state");
  EXPECT_EQ(parse(s.at(1))["view"]["state"].HasMember("seed"), false);
  const auto before = transport.sent[3].size();
  auto r =
      parse(reply(1, R"({"type":"play","id":3,"command":{"type":"choose_wizard","wizard":2}})"));
  EXPECT_STREQ(r["type"].GetString(), "ack");
  EXPECT_EQ(r["seq"].GetInt64(), 2);
  ASSERT_EQ(transport.sent[3].size(), before + 1);
  auto ev = parse(transport.sent[3].back());
  EXPECT_STREQ(ev["type"].GetString(), "event");
  EXPECT_EQ(ev["seq"].GetInt64(), 2);
  EXPECT_STREQ(ev["event"]["type"].GetString(), "choose_wizard");
  EXPECT_STREQ(type_of(transport.sent[2].back()).c_str(), "event");
  // The spectator cannot act.
  EXPECT_STREQ(
      parse(reply(3, R"({"type":"play","command":{"type":"choose_wizard","wizard":1}})"))["code"]
          .GetString(),
      "NOT_A_PLAYER");
}

TEST_F(ServerTest, RulesErrorsCarryTheRulesCodeAndSeq) {
  connect(1, "alice");
  connect(2, "bob");
  const auto m = create(1, 2);
  auto early = parse(reply(1, R"({"type":"play","command":{"type":"choose_wizard","wizard":0}})"));
  EXPECT_STREQ(early["code"].GetString(), "WRONG_PHASE");  // waiting for the second player
  reply(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  reply(1, R"({"type":"play","command":{"type":"choose_wizard","wizard":0}})");
  auto taken =
      parse(reply(2, R"({"type":"play","id":9,"command":{"type":"choose_wizard","wizard":0}})"));
  EXPECT_STREQ(taken["code"].GetString(), "WIZARD_TAKEN");
  EXPECT_EQ(taken["id"].GetInt(), 9);
  EXPECT_EQ(taken["seq"].GetInt64(), 2);
  auto stale = parse(reply(
      2, R"({"type":"play","expected_seq":1,"command":{"type":"choose_wizard","wizard":1}})"));
  EXPECT_STREQ(stale["code"].GetString(), "STALE_SEQ");
  auto server_only = parse(reply(2, R"({"type":"play","command":{"type":"skip_turn"}})"));
  EXPECT_STREQ(server_only["code"].GetString(), "SERVER_ONLY");
}

TEST_F(ServerTest, RetriedCommandIdIsNotAppliedTwice) {
  connect(1, "alice");
  connect(2, "bob");
  const auto m = create(1, 2);
  reply(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  const std::string cmd =
      R"({"type":"play","command_id":"abc","command":{"type":"choose_wizard","wizard":0}})";
  auto first = parse(reply(1, cmd));
  auto second = parse(reply(1, cmd));
  EXPECT_STREQ(first["type"].GetString(), "ack");
  EXPECT_STREQ(second["type"].GetString(), "ack");
  EXPECT_EQ(first["seq"].GetInt64(), second["seq"].GetInt64());
  EXPECT_TRUE(second["replayed"].GetBool());
  EXPECT_EQ(server.room(m)->seq, 2);
}

TEST_F(ServerTest, ResumeByNicknameNeedsTheToken) {
  connect(1, "alice");
  connect(2, "bob");
  const auto m = create(1, 2);
  reply(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  const std::string token = tokens[1];
  server.on_closed(1);
  EXPECT_EQ(server.room(m)->seats[0]->connection, 0u);
  EXPECT_STREQ(parse(transport.sent[2].back())["type"].GetString(), "seats");  // bob is told

  server.on_open(3, "p");
  reply(3, R"({"type":"hello","protocol":1})");
  EXPECT_STREQ(parse(reply(3, R"({"type":"login","nickname":"alice"})"))["code"].GetString(),
               "NICKNAME_TAKEN");
  EXPECT_STREQ(
      parse(reply(3, R"({"type":"login","nickname":"alice","token":"wrong"})"))["code"].GetString(),
      "BAD_TOKEN");
  EXPECT_EQ(server.room(m)->seats[0]->connection, 0u);  // the failed claims changed nothing
  auto lines = say(3, R"({"type":"login","nickname":"alice","token":")" + token + "\"}");
  auto ok = parse(lines.at(0));
  EXPECT_STREQ(ok["type"].GetString(), "logged_in");
  EXPECT_EQ(ok["match"].GetInt64(), m);
  EXPECT_EQ(type_of(lines.at(1)), "state");
  EXPECT_EQ(server.room(m)->seats[0]->connection, 3u);
}

TEST_F(ServerTest, TakingOverALiveConnectionWithTheToken) {
  connect(1, "alice");
  connect(2, "bob");
  const auto m = create(1, 2);
  reply(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  server.on_open(3, "p");
  reply(3, R"({"type":"hello","protocol":1})");
  auto ok = parse(reply(3, R"({"type":"login","nickname":"alice","token":")" + tokens[1] + "\"}"));
  EXPECT_STREQ(ok["type"].GetString(), "logged_in");
  EXPECT_TRUE(transport.closed.count(1));
  EXPECT_EQ(server.room(m)->seats[0]->connection, 3u);
}

TEST_F(ServerTest, AbsentPlayersTurnIsSkippedAndTheLastOneWinsByForfeit) {
  const auto m = running_match(3);
  const Room* room = server.room(m);
  const rules::Seat absent = test::eriantys_state(room->state).current_seat();
  server.on_closed(static_cast<ConnectionId>(absent + 1));
  server.tick();
  store.complete_all();
  EXPECT_EQ(room->clocks.deadline.kind, DeadlineKind::TurnGrace);
  EXPECT_EQ(store.written.back().deadline->kind, DeadlineKind::TurnGrace);  // persisted
  now += 999;
  server.tick();
  store.complete_all();
  EXPECT_EQ(test::eriantys_state(room->state).current_seat(), absent);
  now += 1;
  server.tick();
  store.complete_all();
  EXPECT_TRUE(test::eriantys_state(room->state).boards[absent].skipped_planning);
  EXPECT_EQ(store.written.back().events.at(0).actor, store::Actor::server());
  EXPECT_TRUE(
      std::holds_alternative<rules::SkipTurn>(
          test::eriantys_event(store.written.back().events.at(0).event).command));

  // Everyone but one leaves: after forfeit_after the last one wins.
  const rules::Seat stays = static_cast<rules::Seat>((absent + 1) % 3);
  for (rules::Seat p = 0; p < 3; ++p)
    if (p != stays && p != absent) server.on_closed(static_cast<ConnectionId>(p + 1));
  server.tick();
  store.complete_all();
  EXPECT_EQ(room->clocks.forfeit.kind, DeadlineKind::Forfeit);
  now += 5000;
  server.tick();
  store.complete_all();
  EXPECT_EQ(type_of(transport.sent[stays + 1].back()), "game_over");
  EXPECT_EQ(store.written.back().status, store::MatchStatus::Finished);
}

TEST_F(ServerTest, HeartbeatPingsThenCloses) {
  connect(1, "alice");
  now += 2000;
  server.tick();
  EXPECT_EQ(type_of(transport.sent[1].back()), "ping");
  EXPECT_TRUE(transport.closed.empty());
  now += 4000;
  server.tick();
  EXPECT_TRUE(transport.closed.count(1));
}

TEST_F(ServerTest, RateLimit) {
  ServerConfig c = config();
  c.limits.commands_per_second = 5;
  Server slow(
      c, transport, store, [this] { return now; }, secrets);
  slow.on_open(9, "p");
  int limited = 0;
  for (int i = 0; i < 20; ++i) {
    slow.on_line(9, R"({"type":"ping"})");
    if (type_of(transport.sent[9].back()) == "error") ++limited;
  }
  EXPECT_EQ(limited, 15);
  // The refusal carries the request's id when it could be read (docs/protocol.md, Rate limit).
  slow.on_line(9, R"({"type":"ping","id":"late"})");
  EXPECT_STREQ(parse(transport.sent[9].back())["code"].GetString(), "RATE_LIMITED");
  EXPECT_STREQ(parse(transport.sent[9].back())["id"].GetString(), "late");
  now += 1000;
  slow.on_line(9, R"({"type":"ping"})");
  EXPECT_EQ(type_of(transport.sent[9].back()), "pong");
}

TEST_F(ServerTest, StoreFailureIsReportedAndNothingChanges) {
  connect(1, "alice");
  connect(2, "bob");
  const auto m = create(1, 2);
  reply(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  store.fail_next = true;
  auto r = parse(reply(1, R"({"type":"play","command":{"type":"choose_wizard","wizard":0}})"));
  EXPECT_STREQ(r["code"].GetString(), "STORE_FAILURE");
  EXPECT_FALSE(test::eriantys_state(server.room(m)->state).boards[0].wizard.has_value());
  EXPECT_EQ(type_of(reply(1, R"({"type":"play","command":{"type":"choose_wizard","wizard":0}})")),
            "ack");
}

TEST_F(ServerTest, LobbyListQuickJoinAndLeave) {
  connect(1, "alice");
  connect(2, "bob");
  connect(3, "carol");
  const auto m = create(1, 3, "expert");
  auto list = parse(reply(2, R"({"type":"list_matches"})"));
  ASSERT_EQ(list["open"].Size(), 1u);
  EXPECT_EQ(list["open"][0]["match"].GetInt64(), m);
  EXPECT_STREQ(list["open"][0]["mode"].GetString(), "expert");
  auto q = parse(reply(2, R"({"type":"quick_join","players":3})"));
  EXPECT_EQ(q["match"].GetInt64(), m);
  EXPECT_STREQ(parse(reply(2, R"({"type":"create_match","players":2})"))["code"].GetString(),
               "ALREADY_IN_MATCH");
  EXPECT_EQ(type_of(reply(2, R"({"type":"leave_match"})")), "left");
  EXPECT_EQ(server.room(m)->seated(), 1);
  auto other =
      parse(reply(3, R"({"type":"quick_join","players":2})"));  // nothing fits: a new match
  EXPECT_NE(other["match"].GetInt64(), m);
}

TEST_F(ServerTest, RestoredMatchesWaitForTheirPlayers) {
  auto created = rules::create_match({2, rules::Mode::Simple}, 5);
  LoadedMatch rm;
  rm.id = 41;
  rm.status = store::MatchStatus::Lobby;
  rm.last_seq = 1;
  rm.game = &test::eriantys();
  rm.state = test::handle(rules::apply(rules::State{}, *created));
  rm.seats = {store::SeatRecord{41, 0, "alice", token_hash("tok-a"), std::nullopt, std::nullopt,
                                std::nullopt},
              store::SeatRecord{41, 1, "bob", token_hash("tok-b"), std::nullopt, std::nullopt,
                                std::nullopt}};
  store.seqs[41] = 1;
  server.load_matches({rm}, 42);
  connect(1, "alice", "tok-a");
  EXPECT_EQ(server.room(41)->seats[0]->connection, 1u);
  EXPECT_STREQ(parse(reply(1, R"({"type":"create_match","players":2})"))["code"].GetString(),
               "ALREADY_IN_MATCH");
  connect(2, "carol");
  auto created_id = parse(reply(2, R"({"type":"create_match","players":2})"))["match"].GetInt64();
  EXPECT_EQ(created_id, 42);
}

// The store records each match's game: a new match's first write names it, and a
// restored match lists the game its record names (not the server's default).
TEST_F(ServerTest, EachMatchsGameIsStoredWithItAndListedFromItsRecord) {
  connect(1, "alice");
  const auto m = create(1, 2);
  store.complete_all();
  const auto first = std::find_if(store.written.begin(), store.written.end(),
                                  [](const MatchWrite& w) { return w.create.has_value(); });
  ASSERT_NE(first, store.written.end());
  EXPECT_EQ(first->match, m);
  EXPECT_EQ(first->create->game, "eriantys");
  EXPECT_EQ(first->create->game_version, 1);

  // Loaded matches: the one of a served game is listed with it; one of a game
  // this server does not play (another registry's: a store opened with other
  // games) is never loaded, even when handed over (the store leaves those out
  // already: Options::games and Options::serves).
  auto created = rules::create_match({2, rules::Mode::Simple}, 5);
  game::Registry other;
  other.add(eriantys::make_game());
  auto loaded_as = [&](store::MatchId id, const game::Game* played) {
    LoadedMatch rm;
    rm.id = id;
    rm.game = played;
    rm.status = store::MatchStatus::Lobby;
    rm.last_seq = 1;
    rm.state = test::handle(rules::apply(rules::State{}, *created));
    store.seqs[id] = 1;
    return rm;
  };
  server.load_matches({loaded_as(41, &test::eriantys()), loaded_as(42, &other.default_game()),
                       loaded_as(43, nullptr)},
                      44);
  EXPECT_NE(server.room(41), nullptr);
  EXPECT_EQ(server.room(42), nullptr);
  EXPECT_EQ(server.room(43), nullptr);
  connect(2, "bob");
  auto list = parse(reply(2, R"({"type":"list_matches"})"));
  ASSERT_TRUE(list.HasMember("open"));
  std::map<std::int64_t, std::string> games;
  for (const auto& listed : list["open"].GetArray())
    games[listed["match"].GetInt64()] = listed["game"].GetString();
  EXPECT_EQ(games, (std::map<std::int64_t, std::string>{{m, "eriantys"}, {41, "eriantys"}}));
}

TEST_F(ServerTest, PongNeedsNoReply) {
  connect(1, "alice");
  EXPECT_TRUE(say(1, R"({"type":"pong"})").empty());
  server.on_open(2, "p");
  EXPECT_TRUE(say(2, R"({"type":"pong"})").empty());  // even before hello
}

TEST_F(ServerTest, CommandIdsArePerSeat) {
  connect(1, "alice");
  connect(2, "bob");
  const auto m = create(1, 2);
  reply(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  EXPECT_EQ(
      type_of(reply(
          1, R"({"type":"play","command_id":"x","command":{"type":"choose_wizard","wizard":0}})")),
      "ack");
  auto bob = parse(reply(
      2, R"({"type":"play","command_id":"x","command":{"type":"choose_wizard","wizard":1}})"));
  EXPECT_STREQ(bob["type"].GetString(), "ack");
  EXPECT_FALSE(bob.HasMember("replayed"));
  EXPECT_EQ(test::eriantys_state(server.room(m)->state).boards[1].wizard, 1);
  EXPECT_EQ(*store.written.back().events.at(0).command_id, "1:x");
}

TEST_F(ServerTest, JoinAChosenSeat) {
  connect(1, "a");
  connect(2, "b");
  connect(3, "c");
  const auto m = create(1, 4);
  auto two = parse(reply(2, R"({"type":"join_match","seat":2,"match":)" + std::to_string(m) + "}"));
  EXPECT_EQ(two["seat"].GetInt(), 2);  // alice's teammate
  EXPECT_STREQ(
      parse(reply(3, R"({"type":"join_match","seat":2,"match":)" + std::to_string(m) + "}"))["code"]
          .GetString(),
      "MATCH_FULL");
  EXPECT_EQ(parse(reply(3, R"({"type":"join_match","match":)" + std::to_string(m) + "}"))["seat"]
                .GetInt(),
            1);
}

TEST_F(ServerTest, SpectatorsLeaveAndLoggingInKeepsWatching) {
  connect(1, "alice");
  connect(2, "bob");
  const auto m = create(1, 2);
  server.on_open(3, "p");
  reply(3, R"({"type":"hello","protocol":1})");
  EXPECT_EQ(type_of(reply(3, R"({"type":"spectate","match":)" + std::to_string(m) + "}")),
            "spectating");
  EXPECT_EQ(type_of(reply(3, R"({"type":"leave_match"})")), "left");  // no login needed
  EXPECT_TRUE(server.room(m)->spectators.empty());
  reply(3, R"({"type":"spectate","match":)" + std::to_string(m) + "}");
  reply(3, R"({"type":"login","nickname":"carol"})");  // no seat to take back: still watching
  EXPECT_EQ(server.room(m)->spectators.count(3), 1u);
}

TEST_F(ServerTest, AFullMatchStuckInSetupIsAbandoned) {
  ServerConfig c = config();
  c.abandon_after_ms = 3000;
  Server s2(
      c, transport, store, [this] { return now; }, secrets);
  for (ConnectionId id : {11, 12}) {
    s2.on_open(id, "p");
    s2.on_line(id, R"({"type":"hello","protocol":1})");
    s2.on_line(id, std::string(R"({"type":"login","nickname":"n)") + std::to_string(id) + "\"}");
  }
  s2.on_line(11, R"({"type":"create_match","players":2})");
  store.complete_all();
  const auto m = parse(transport.sent[11][2])["match"].GetInt64();
  s2.on_line(12, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  store.complete_all();
  s2.on_closed(12);
  s2.tick();
  store.complete_all();
  EXPECT_EQ(s2.room(m)->clocks.deadline.kind, DeadlineKind::Abandon);
  now += 3000;
  s2.tick();
  store.complete_all();
  EXPECT_EQ(type_of(transport.sent[11].back()), "match_abandoned");
  EXPECT_EQ(store.written.back().status, store::MatchStatus::Abandoned);
  s2.tick();
  EXPECT_EQ(s2.room(m), nullptr);
  s2.on_line(11, R"({"type":"create_match","players":2})");  // free to play again
  store.complete_all();
  // The new match's state, then its (empty) chat history.
  const auto& after = transport.sent[11];
  EXPECT_EQ(type_of(after[after.size() - 2]), "state");
  EXPECT_EQ(type_of(after.back()), "chat_history");
}

TEST_F(ServerTest, FailedLeaveKeepsTheSeat) {
  connect(1, "alice");
  const auto m = create(1, 3);
  store.fail_next = true;
  EXPECT_STREQ(parse(reply(1, R"({"type":"leave_match"})"))["code"].GetString(), "STORE_FAILURE");
  EXPECT_EQ(server.room(m)->seated(), 1);
  EXPECT_EQ(server.room(m)->seats[0]->connection, 1u);
}

TEST_F(ServerTest, GarbageCountsAgainstTheRateLimit) {
  ServerConfig c = config();
  c.limits.commands_per_second = 3;
  Server slow(
      c, transport, store, [this] { return now; }, secrets);
  slow.on_open(9, "p");
  for (int i = 0; i < 5; ++i) slow.on_line(9, "garbage");
  EXPECT_STREQ(parse(transport.sent[9].back())["code"].GetString(), "RATE_LIMITED");
}

TEST_F(ServerTest, JoinsQueuedBehindAFailedCreationAreAnswered) {
  connect(1, "alice");
  connect(2, "bob");
  connect(3, "carol");
  server.on_line(1, R"({"type":"create_match","players":3,"id":"c"})");
  ASSERT_EQ(store.pending.size(), 1u);  // the creation is in flight: the room is busy
  const store::MatchId m = store.pending.front().first.match;
  server.on_line(2, R"({"type":"join_match","id":"j2","match":)" + std::to_string(m) + "}");
  server.on_line(3, R"({"type":"join_match","id":"j3","match":)" + std::to_string(m) + "}");
  store.fail_next = true;
  store.complete_all();
  EXPECT_EQ(server.room(m), nullptr);
  for (ConnectionId c : {1, 2, 3}) {
    auto r = parse(transport.sent[c].back());
    EXPECT_STREQ(r["type"].GetString(), "error") << c;
    EXPECT_STREQ(r["code"].GetString(), "STORE_FAILURE") << c;
    EXPECT_NE(std::string(r["message"].GetString()).find("could not be saved"), std::string::npos);
  }
  EXPECT_STREQ(parse(transport.sent[2].back())["id"].GetString(), "j2");
  EXPECT_STREQ(parse(transport.sent[3].back())["id"].GetString(), "j3");
  // Nobody holds a seat in the match that does not exist.
  EXPECT_EQ(type_of(reply(2, R"({"type":"create_match","players":2})")), "joined");
}

TEST_F(ServerTest, RequestsBeyondTheQueueBoundAreRefused) {
  ServerConfig c = config();
  c.limits.max_queued_per_match = 2;
  Server s2(
      c, transport, store, [this] { return now; }, secrets);
  for (ConnectionId id : {21, 22, 23, 24}) {
    s2.on_open(id, "p");
    s2.on_line(id, R"({"type":"hello","protocol":1})");
    s2.on_line(id, "{\"type\":\"login\",\"nickname\":\"n" + std::to_string(id) + "\"}");
  }
  s2.on_line(21, R"({"type":"create_match","players":4})");
  const store::MatchId m = store.pending.front().first.match;
  for (ConnectionId id : {22, 23, 24})
    s2.on_line(id, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  EXPECT_STREQ(parse(transport.sent[24].back())["code"].GetString(), "RATE_LIMITED");
  store.complete_all();
  EXPECT_EQ(s2.room(m)->seated(), 3);
}

TEST_F(ServerTest, ASilentPeerIsToldAndLoggedOnceWhileItsCloseTakes) {
  LogCapture log;
  connect(1, "alice");
  now += 6000;
  server.tick();
  // The transport may take seconds to close a peer that does not read: meanwhile
  // later ticks neither log nor send again.
  for (int i = 0; i < 30; ++i) {
    now += 100;
    server.tick();
  }
  EXPECT_EQ(log.count("no heartbeat"), 1);
  EXPECT_EQ(transport.close_calls, 1);
  int shutdowns = 0;
  for (const auto& line : transport.sent[1]) shutdowns += type_of(line) == "shutdown";
  EXPECT_EQ(shutdowns, 1);
  server.on_closed(1);
  EXPECT_EQ(server.stats().connections, 0u);
}

TEST_F(ServerTest, TheForfeitClockStopsWhenTheLastPlayerLeavesToo) {
  const auto m = running_match(2);
  const Room* room = server.room(m);
  const std::string alice = tokens[1];
  server.on_closed(2);  // bob leaves: alice's forfeit clock starts
  tick();
  EXPECT_EQ(room->clocks.forfeit.kind, DeadlineKind::Forfeit);
  EXPECT_EQ(room->clocks.forfeit.at_ms, now + 5000);
  now += 1000;
  server.on_closed(1);  // alice leaves too: nobody waits any more
  tick();
  EXPECT_EQ(room->clocks.forfeit.kind, DeadlineKind::None);
  now += 100'000;  // long past the old forfeit time
  connect(3, "a", alice);
  tick();
  EXPECT_NE(test::eriantys_state(room->state).phase, rules::Phase::GameOver);  // no win for coming back
  EXPECT_EQ(room->clocks.forfeit.at_ms, now + 5000);            // a full forfeit time from now
  now += 4999;
  tick();
  EXPECT_NE(test::eriantys_state(room->state).phase, rules::Phase::GameOver);
  now += 1;
  tick();
  EXPECT_EQ(type_of(transport.sent[3].back()), "game_over");
}

TEST_F(ServerTest, ARestoredTurnGraceDeadlineSurvivesPlayersComingBackOneAtATime) {
  // A 3-player match saved with the absent seat's grace ending at t0 + 3000.
  const auto m = running_match(3);
  const Room* before = server.room(m);
  const rules::Seat absent = test::eriantys_state(before->state).current_seat();
  const std::int64_t t0 = now;
  Server restarted(
      config(), transport, store, [this] { return now; }, secrets);
  restarted.load_matches({loaded(m, m, {DeadlineKind::TurnGrace, absent, t0 + 3000})}, m + 1);
  auto back = [&](ConnectionId c, int seat) {
    come_back(restarted, c, before->seats[seat]->nickname,
              tokens[static_cast<ConnectionId>(seat + 1)]);
    ASSERT_EQ(restarted.room(m)->seats[seat]->connection, c);
  };
  auto tick2 = [&] {
    restarted.tick();
    store.complete_all();
  };
  const int first = (absent + 1) % 3;
  const int second = (absent + 2) % 3;
  const std::size_t writes = store.written.size();
  now = t0 + 1000;
  back(11, first);  // alone: the forfeit clock runs, the grace deadline stays
  tick2();
  EXPECT_EQ(restarted.room(m)->clocks.forfeit.kind, DeadlineKind::Forfeit);
  EXPECT_EQ(restarted.room(m)->clocks.deadline.at_ms, t0 + 3000);
  now = t0 + 2000;
  back(12, second);
  tick2();
  EXPECT_EQ(restarted.room(m)->clocks.deadline.at_ms, t0 + 3000);
  EXPECT_EQ(restarted.room(m)->clocks.forfeit.kind, DeadlineKind::None);
  now = t0 + 2999;
  tick2();
  EXPECT_EQ(test::eriantys_state(restarted.room(m)->state).current_seat(), absent);
  EXPECT_EQ(store.written.size(), writes);  // nothing re-armed
  now = t0 + 3000;
  tick2();
  EXPECT_TRUE(test::eriantys_state(restarted.room(m)->state).boards[absent].skipped_planning);
}

TEST_F(ServerTest, AStaleForfeitDeadlineFromBeforeARestartWinsNothing) {
  const auto m = running_match(2);
  Server restarted(
      config(), transport, store, [this] { return now; }, secrets);
  // Written by an older build (forfeit clocks are no longer stored), long expired.
  restarted.load_matches({loaded(m, m, {DeadlineKind::Forfeit, 0, now - 1})}, m + 1);
  come_back(restarted, 11, "a", tokens[1]);
  restarted.tick();
  store.complete_all();
  EXPECT_NE(test::eriantys_state(restarted.room(m)->state).phase, rules::Phase::GameOver);
  EXPECT_EQ(restarted.room(m)->clocks.forfeit.at_ms, now + 5000);
}

// The match's writes of one command type ("abandon_match", ...).
int events_of(const FakePersistence& store, std::string_view type) {
  int n = 0;
  for (const MatchWrite& w : store.written)
    for (const store::NewEvent& e : w.events)
      n += rules::command_type(test::eriantys_event(e.event).command) == type;
  return n;
}

TEST_F(ServerTest, AMatchNobodyIsConnectedToIsAbandonedAndItsLogSaysWhy) {
  const auto m = running_match(2);
  const Room* room = server.room(m);
  const std::string a = tokens[1];
  connect(5, "watcher");
  reply(5, R"({"type":"spectate","match":)" + std::to_string(m) + "}");
  server.on_closed(1);
  now += 100;
  server.on_closed(2);  // the last person leaves: a spectator plays nobody's turn
  tick();
  const std::int64_t left = now;
  ASSERT_TRUE(store.written.back().deadline.has_value());
  EXPECT_EQ(store.written.back().deadline->kind, DeadlineKind::Abandon);  // stored
  EXPECT_EQ(store.written.back().deadline->at_ms, left + 600'000);         // abandon_after_ms
  EXPECT_TRUE(transport.got(5, R"("deadline":{"action":"abandon","seat":null)"));
  now = left + 599'999;
  tick();
  EXPECT_EQ(events_of(store, "abandon_match"), 0);
  now = left + 600'000;
  tick();
  // One server event ends it: game over, nobody wins, status abandoned.
  ASSERT_EQ(events_of(store, "abandon_match"), 1);
  const MatchWrite& ending = store.written.back();
  EXPECT_EQ(ending.events.at(0).actor, store::Actor::server());
  EXPECT_EQ(ending.status, store::MatchStatus::Abandoned);
  ASSERT_TRUE(ending.result_json.has_value());
  EXPECT_NE(ending.result_json->find(R"("reason":"abandoned")"), std::string::npos);
  ASSERT_EQ(ending.keep_endings.size(), 2u);  // both players away: told at their next login
  EXPECT_EQ(type_of(ending.keep_endings[0].line), "match_abandoned");
  EXPECT_TRUE(transport.got(5, R"("type":"abandon_match")"));
  EXPECT_EQ(type_of(transport.sent[5].back()), "match_abandoned");
  EXPECT_EQ(room->status, store::MatchStatus::Abandoned);
  tick();
  EXPECT_EQ(server.room(m), nullptr);
  connect(6, "a", a);
  EXPECT_TRUE(transport.got(6, "nobody was connected to play it"));
}

TEST_F(ServerTest, SomeoneComingBackEndsTheDesertion) {
  const auto m = running_match(2);
  const std::string a = tokens[1];
  server.on_closed(1);
  server.on_closed(2);
  tick();
  ASSERT_EQ(server.room(m)->clocks.deserted.kind, DeadlineKind::Abandon);
  now += 300'000;
  connect(7, "a", a);
  tick();
  EXPECT_EQ(server.room(m)->clocks.deserted.kind, DeadlineKind::None);
  // The stored timer is the match's own again (none, or a turn grace clock).
  ASSERT_TRUE(store.written.back().deadline.has_value());
  EXPECT_NE(store.written.back().deadline->kind, DeadlineKind::Abandon);
  now += 400'000;  // past the old desertion's time; alice is alone: she wins by forfeit
  tick();
  EXPECT_EQ(events_of(store, "abandon_match"), 0);
  EXPECT_EQ(events_of(store, "award_forfeit"), 1);
}

TEST_F(ServerTest, TheDesertionAndTheTurnGraceClockSurviveARestart) {
  // 3 players: the seat to act leaves (its grace clock starts), then the others.
  const auto m = running_match(3);
  const rules::Seat absent = test::eriantys_state(server.room(m)->state).current_seat();
  const std::int64_t t0 = now;
  server.on_closed(static_cast<ConnectionId>(absent + 1));
  tick();
  ASSERT_EQ(server.room(m)->clocks.deadline.at_ms, t0 + 1000);
  now = t0 + 200;
  for (rules::Seat p = 0; p < 3; ++p)
    if (p != absent) server.on_closed(static_cast<ConnectionId>(p + 1));
  tick();
  const Deadline stored = *store.written.back().deadline;
  EXPECT_EQ(stored, (Deadline{DeadlineKind::Abandon, absent, t0 + 200 + 600'000}));

  // A restart 5 minutes later, nobody comes back: abandoned at the stored time.
  now = t0 + 300'000;
  Server restarted(
      config(), transport, store, [this] { return now; }, secrets);
  restarted.load_matches({loaded(m, m, stored)}, m + 1);
  auto tick2 = [&] {
    restarted.tick();
    store.complete_all();
  };
  tick2();
  EXPECT_EQ(restarted.room(m)->clocks.deserted.at_ms, t0 + 200 + 600'000);
  // The grace clock ran from before the desertion: over, at the latest, 1 s after its start.
  EXPECT_EQ(restarted.room(m)->clocks.deadline,
            (Deadline{DeadlineKind::TurnGrace, absent, t0 + 200 + 1000}));
  now = t0 + 200 + 599'999;
  tick2();
  EXPECT_EQ(events_of(store, "abandon_match"), 0);
  now = t0 + 200 + 600'000;
  tick2();
  EXPECT_EQ(events_of(store, "abandon_match"), 1);
  EXPECT_EQ(store.written.back().status, store::MatchStatus::Abandoned);
}

TEST_F(ServerTest, TwoPlayersBackAfterARestartOfADesertedMatchSkipTheAbsentTurn) {
  const auto m = running_match(3);
  const rules::Seat absent = test::eriantys_state(server.room(m)->state).current_seat();
  Server restarted(
      config(), transport, store, [this] { return now; }, secrets);
  // Stored while deserted, the absent seat's grace clock running.
  restarted.load_matches({loaded(m, m, {DeadlineKind::Abandon, absent, now + 500'000})}, m + 1);
  const rules::Seat first = static_cast<rules::Seat>((absent + 1) % 3);
  const rules::Seat second = static_cast<rules::Seat>((absent + 2) % 3);
  come_back(restarted, 11, server.room(m)->seats[first]->nickname,
            tokens[static_cast<ConnectionId>(first + 1)]);
  come_back(restarted, 12, server.room(m)->seats[second]->nickname,
            tokens[static_cast<ConnectionId>(second + 1)]);
  restarted.tick();
  store.complete_all();
  EXPECT_EQ(restarted.room(m)->clocks.deserted.kind, DeadlineKind::None);
  // 600 s after the desertion began its grace (1 s) is long over: the turn is skipped now.
  EXPECT_TRUE(test::eriantys_state(restarted.room(m)->state).boards[absent].skipped_planning);
}

TEST_F(ServerTest, AMatchRestoredWithNobodyConnectedIsDesertedFromTheStart) {
  const auto m = running_match(2);
  Server restarted(
      config(), transport, store, [this] { return now; }, secrets);
  restarted.load_matches({loaded(m, m, Deadline{})}, m + 1);
  now += 50;
  restarted.tick();
  store.complete_all();
  ASSERT_TRUE(store.written.back().deadline.has_value());
  EXPECT_EQ(*store.written.back().deadline,
            (Deadline{DeadlineKind::Abandon, rules::kNoSeat, now + 600'000}));
}

TEST_F(ServerTest, ARateLimitedConnectionIsLoggedOncePerBurstAndCounted) {
  LogCapture log;
  ServerConfig c = config();
  c.limits.commands_per_second = 5;
  Server slow(
      c, transport, store, [this] { return now; }, secrets);
  slow.on_open(9, "10.1.2.3:4444");
  for (int i = 0; i < 20; ++i) slow.on_line(9, R"({"type":"ping"})");
  EXPECT_EQ(log.count("rate limited"), 1);
  EXPECT_EQ(log.count("conn 9 (not logged in, 10.1.2.3:4444): rate limited"), 1);
  EXPECT_EQ(slow.admin_sessions().at(0).rate_limited, 15u);
  // Still refused 5 s later: the same burst, counted and not logged.
  now += 5000;
  for (int i = 0; i < 20; ++i) slow.on_line(9, R"({"type":"ping"})");
  EXPECT_EQ(log.count("rate limited"), 1);
  EXPECT_EQ(slow.admin_sessions().at(0).rate_limited, 30u);
  // 10 s without a refusal end the burst: the next one is logged again.
  now += 10'000;
  for (int i = 0; i < 20; ++i) slow.on_line(9, R"({"type":"ping"})");
  EXPECT_EQ(log.count("rate limited"), 2);
  EXPECT_EQ(slow.admin_sessions().at(0).rate_limited, 45u);
}

TEST_F(ServerTest, AFullDiskDoesNotFloodTheLog) {
  LogCapture log;
  const auto m = running_match(2);
  store.fail_all = true;
  const rules::Seat seat = test::eriantys_state(server.room(m)->state).current_seat();
  const auto conn = static_cast<ConnectionId>(seat + 1);
  const std::int64_t first = now;
  for (int i = 0; i < 300; ++i) {
    auto r = parse(reply(conn, R"({"type":"play","command":{"type":"play_assistant","value":)" +
                                   std::to_string(1 + i % 10) + "}}"));
    ASSERT_STREQ(r["code"].GetString(), "STORE_FAILURE");  // every request is still answered
    now += 10;
    server.tick();
  }
  EXPECT_EQ(log.count("write failed"), 1);
  now = first + 10'000;
  server.tick();
  EXPECT_EQ(log.count("write failed"), 2);
  EXPECT_EQ(log.count("(repeated 299 times in the last 10 s)"), 1);
}

TEST_F(ServerTest, AMatchReleasedAfterItsPlayersMovedOnWaitsForThem) {
  // Match 41 was quarantined, alice and bob then played match 42; 41 is released.
  const auto m = running_match(2);
  LogCapture log;
  Server restarted(
      config(), transport, store, [this] { return now; }, secrets);
  // Their timers are stale by the time 41 resumes.
  const Deadline stale{DeadlineKind::TurnGrace, 0, now - 1};
  LoadedMatch newer = loaded(m, 42, stale);
  newer.seats.pop_back();  // only alice moved on: bob is free meanwhile
  restarted.load_matches({loaded(m, 41, stale), std::move(newer)}, 43);
  EXPECT_EQ(restarted.waiting_matches(), std::vector<store::MatchId>{41});
  EXPECT_EQ(restarted.room(41), nullptr);
  EXPECT_EQ(log.count("match 41: not resumed yet"), 1);
  // alice is in match 42 alone; bob stays away and she wins it by forfeit.
  come_back(restarted, 11, "a", tokens[1]);
  EXPECT_EQ(parse(transport.sent[11].at(1))["match"].GetInt64(), 42);
  // Somebody logs in as the free "b" (no seat asks for a token).
  restarted.on_open(12, "p");
  restarted.on_line(12, R"({"type":"hello","protocol":1})");
  restarted.on_line(12, R"({"type":"login","nickname":"b"})");
  EXPECT_EQ(type_of(transport.sent[12].back()), "logged_in");
  restarted.on_line(11, R"({"type":"leave_match","id":"l"})");  // running: the seat stays hers
  EXPECT_STREQ(parse(transport.sent[11].back())["code"].GetString(), "ALREADY_IN_MATCH");
  restarted.tick();
  store.complete_all();
  now += 5000;
  restarted.tick();
  store.complete_all();
  // 42 is over: 41 is loaded at once, alice (online) is seated back and told.
  EXPECT_TRUE(restarted.waiting_matches().empty());
  ASSERT_NE(restarted.room(41), nullptr);
  EXPECT_EQ(restarted.room(41)->seats[0]->connection, 11u);
  const auto& sent = transport.sent[11];
  ASSERT_GE(sent.size(), 2u);
  // ... then the chat history read after the state (it answers after the writes).
  EXPECT_EQ(type_of(sent[sent.size() - 4]), "game_over");
  auto state = parse(sent[sent.size() - 3]);
  EXPECT_STREQ(state["type"].GetString(), "state");
  EXPECT_EQ(state["match"].GetInt64(), 41);
  EXPECT_EQ(type_of(sent[sent.size() - 2]), "seats");
  EXPECT_EQ(type_of(sent.back()), "chat_history");
  // Timers start again: the stale one is gone, any new one counts from now.
  EXPECT_NE(restarted.room(41)->clocks.deadline, stale);
  EXPECT_TRUE(restarted.room(41)->clocks.deadline.kind == DeadlineKind::None ||
              restarted.room(41)->clocks.deadline.at_ms > now);
  EXPECT_EQ(store.written.back().match, 41u);
  EXPECT_EQ(store.written.back().deadline, restarted.room(41)->clocks.deadline);
  // Whoever logged in as "b" meanwhile is not seated in bob's place.
  EXPECT_EQ(restarted.room(41)->seats[1]->connection, 0u);
  // bob gets his seat back with his token.
  come_back(restarted, 13, "b", tokens[2]);
  EXPECT_EQ(parse(transport.sent[13].at(1))["match"].GetInt64(), 41);
  EXPECT_EQ(restarted.room(41)->connected(), 2);
}

TEST_F(ServerTest, TokensAndSeedsComeFromTheSecretSource) {
  // The same stream, replayed: login draws a token, create_match a 128-bit seed.
  FakeSecretSource replay;
  connect(1, "alice");
  EXPECT_EQ(tokens[1], draw_token(replay));
  EXPECT_TRUE(token_shaped(tokens[1])) << tokens[1];
  EXPECT_EQ(secrets.bytes, kTokenBytes);

  const auto m = create(1, 2);
  const auto seed = draw_seed(replay);
  EXPECT_EQ(secrets.bytes, kTokenBytes + 16);
  const auto& created =
      std::get<rules::CreateMatch>(test::eriantys_event(store.written.at(0).events.at(0).event).command);
  EXPECT_EQ(created.seed.lo, seed[0]);
  EXPECT_EQ(created.seed.hi, seed[1]);
  EXPECT_NE(server.room(m), nullptr);

  // Another source: other secrets (nothing is derived from the clock or the ids).
  FakeSecretSource other_secrets(7);
  FakeTransport other_transport;
  FakePersistence other_store;
  Server other(
      config(), other_transport, other_store, [this] { return now; }, other_secrets);
  other.on_open(1, "p");
  other.on_line(1, R"({"type":"hello","protocol":1})");
  other.on_line(1, R"({"type":"login","nickname":"alice"})");
  auto logged = parse(other_transport.sent[1].back());
  ASSERT_STREQ(logged["type"].GetString(), "logged_in");
  EXPECT_NE(std::string(logged["token"].GetString()), tokens[1]);
}

TEST_F(ServerTest, AClientTokenOfTheOldShortShapeIsReplaced) {
  // 32 hex digits were 128 bits of a Mersenne Twister: never kept again.
  connect(1, "alice", std::string(32, 'a'));
  EXPECT_NE(tokens[1], std::string(32, 'a'));
  EXPECT_TRUE(token_shaped(tokens[1]));
  const std::string own(kTokenChars, 'b');
  connect(2, "bob", own);
  EXPECT_EQ(tokens[2], own);  // a stored token of today's shape stays valid
}

TEST_F(ServerTest, ADamagedDatabaseDegradesTheServerOnce) {
  connect(1, "alice");
  connect(2, "bob");
  const auto m = create(1, 2);
  reply(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  ASSERT_FALSE(server.degraded());
  const store::Seq seq = server.room(m)->seq;

  store.fail_next = true;
  store.fail_code = store::StoreCode::Corrupt;
  const rules::Seat seat = rules::seats_to_act(test::eriantys_state(server.room(m)->state)).at(0);
  const ConnectionId conn = seat == 0 ? 1 : 2;
  const auto cmd = rules::legal_commands(test::eriantys_state(server.room(m)->state), seat).at(0);
  auto failed =
      parse(reply(conn, R"({"type":"play","id":1,"command":)" + codec::command_to_json(cmd) + "}"));
  EXPECT_STREQ(failed["code"].GetString(), "STORE_FAILURE");
  EXPECT_TRUE(server.degraded());

  // Nothing that writes is accepted any more, nothing is submitted; reads still work.
  const std::size_t written = store.written.size();
  auto refused =
      parse(reply(conn, R"({"type":"play","id":2,"command":)" + codec::command_to_json(cmd) + "}"));
  EXPECT_STREQ(refused["code"].GetString(), "SERVER_DEGRADED");
  EXPECT_STREQ(parse(reply(2, R"({"type":"leave_match","id":3})"))["code"].GetString(),
               "SERVER_DEGRADED");
  connect(3, "carol");
  EXPECT_STREQ(parse(reply(3, R"({"type":"create_match","players":2})"))["code"].GetString(),
               "SERVER_DEGRADED");
  EXPECT_STREQ(parse(reply(3, R"({"type":"quick_join","players":2})"))["code"].GetString(),
               "SERVER_DEGRADED");
  EXPECT_EQ(type_of(reply(3, R"({"type":"ping","id":4})")), "pong");
  EXPECT_EQ(type_of(reply(3, R"({"type":"list_matches","id":5})")), "match_list");
  // Timers decide nothing either: the absent player's turn is not skipped.
  server.on_closed(conn);
  now += 60'000;
  server.tick();
  store.complete_all();
  EXPECT_EQ(store.written.size(), written);
  EXPECT_TRUE(store.pending.empty());
  EXPECT_EQ(server.room(m)->seq, seq);
}

// --- issue 11: what a client needs to play without the rules, and nobody held hostage ---

// The last message of `type` connection `c` received, parsed (fails if none).
rapidjson::Document last_of(FakeTransport& t, ConnectionId c, std::string_view type) {
  for (auto it = t.sent[c].rbegin(); it != t.sent[c].rend(); ++it)
    if (type_of(*it) == type) return parse(*it);
  ADD_FAILURE() << "connection " << c << " got no " << type;
  return parse("{}");
}

TEST_F(ServerTest, StatesAndEventsCarryTheLegalCommandsTheDeadlineAndASentence) {
  const auto m = running_match(2);
  const rules::Seat first = test::eriantys_state(server.room(m)->state).current_seat();
  const ConnectionId actor = static_cast<ConnectionId>(first + 1);
  const ConnectionId other = static_cast<ConnectionId>(2 - first);
  auto state = parse(say(actor, R"({"type":"sync","id":1})").at(0));
  ASSERT_TRUE(state["legal"].IsArray());
  const auto legal = rules::legal_commands(test::eriantys_state(server.room(m)->state), first);
  ASSERT_EQ(state["legal"].Size(), legal.size());
  rapidjson::StringBuffer text;
  rapidjson::Writer<rapidjson::StringBuffer> writer(text);
  state["legal"][0].Accept(writer);
  EXPECT_EQ(text.GetString(), codec::command_to_json(legal[0]));  // exactly `play`'s command
  EXPECT_TRUE(state["deadline"].IsNull());
  EXPECT_EQ(parse(say(other, R"({"type":"sync"})").at(0))["legal"].Size(), 0u);  // not your turn

  say(actor, R"({"type":"play","command":)" + codec::command_to_json(legal[0]) + "}");
  auto event = last_of(transport, other, "event");
  const std::string sentence = event["text"].GetString();
  EXPECT_EQ(sentence.rfind(first == 0 ? "a played assistant" : "b played assistant", 0), 0u)
      << sentence;
  EXPECT_GT(event["legal"].Size(), 0u);  // the other seat plays next
  EXPECT_TRUE(event["deadline"].IsNull());
}

TEST_F(ServerTest, ADeadlineIsPushedWhenItStartsAndSaysWhatHappensToWhom) {
  const auto m = running_match(3);
  const rules::Seat absent = test::eriantys_state(server.room(m)->state).current_seat();
  const ConnectionId watcher = absent == 0 ? 2 : 1;
  server.on_closed(static_cast<ConnectionId>(absent + 1));
  store.complete_all();
  // The seats push that says the player left already carries the deadline it starts.
  auto seats = last_of(transport, watcher, "seats");
  EXPECT_FALSE(seats["seats"][absent]["connected"].GetBool());
  ASSERT_TRUE(seats["deadline"].IsObject());
  EXPECT_STREQ(seats["deadline"]["action"].GetString(), "skip_turn");
  EXPECT_EQ(seats["deadline"]["seat"].GetInt(), absent);
  EXPECT_STREQ(seats["deadline"]["nickname"].GetString(),
               std::string(1, char('a' + absent)).c_str());
  EXPECT_EQ(seats["deadline"]["in_ms"].GetInt64(), 1000);
  const std::size_t pushes = transport.sent[watcher].size();
  now += 100;
  tick();
  now += 300;
  tick();  // the same deadline: not pushed again, but a sync shows the time left
  EXPECT_EQ(transport.sent[watcher].size(), pushes);
  EXPECT_EQ(parse(say(watcher, R"({"type":"sync"})").at(0))["deadline"]["in_ms"].GetInt64(), 600);
}

TEST_F(ServerTest, AResignationEndsTheMatchAndAnAwayPartnerIsToldAtLogin) {
  const auto m = running_match(4);
  server.on_closed(3);  // seat 2, seat 0's partner, is away
  say(1, R"({"type":"play","id":"r","command":{"type":"resign"}})");
  auto over = last_of(transport, 2, "game_over");
  EXPECT_STREQ(over["result"]["reason"].GetString(), "resign");
  ASSERT_EQ(over["result"]["winners"].Size(), 2u);
  EXPECT_EQ(over["result"]["winners"][0].GetInt(), 1);
  EXPECT_EQ(over["result"]["winners"][1].GetInt(), 3);
  EXPECT_NE(std::string(last_of(transport, 2, "event")["text"].GetString()).find("a resigned"),
            std::string::npos);
  tick();
  EXPECT_EQ(server.room(m), nullptr);
  server.on_open(13, "p");
  say(13, R"({"type":"hello","protocol":1})");
  auto lines = say(13, R"({"type":"login","nickname":"c","token":")" + tokens[3] + "\"}");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(type_of(lines[0]), "logged_in");
  EXPECT_EQ(lines[1], transport.sent[2].back());  // the same game_over, once
  server.on_closed(13);
  server.on_open(14, "p");
  say(14, R"({"type":"hello","protocol":1})");
  EXPECT_EQ(say(14, R"({"type":"login","nickname":"c"})").size(), 1u);
}

TEST_F(ServerTest, ResignIsRefusedBeforePlayStarts) {
  connect(1, "a");
  connect(2, "b");
  const auto m = create(1, 2);
  reply(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  EXPECT_STREQ(
      parse(reply(1, R"({"type":"play","command":{"type":"resign"}})"))["code"].GetString(),
      "WRONG_PHASE");
}

TEST_F(ServerTest, ASeatThatDoesNotChooseInSetupIsFreed) {
  ServerConfig c = config();
  c.setup_choice_ms = 4000;
  Server s2(
      c, transport, store, [this] { return now; }, secrets);
  for (ConnectionId id : {21, 22, 23}) {
    s2.on_open(id, "p");
    s2.on_line(id, R"({"type":"hello","protocol":1})");
    s2.on_line(id, std::string(R"({"type":"login","nickname":"n)") + std::to_string(id) + "\"}");
  }
  s2.on_line(21, R"({"type":"create_match","players":2})");
  store.complete_all();
  const auto m = parse(transport.sent[21][2])["match"].GetInt64();
  s2.on_line(22, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  store.complete_all();
  s2.on_line(21, R"({"type":"play","command":{"type":"choose_wizard","wizard":0}})");
  s2.on_line(21, R"({"type":"play","command":{"type":"choose_tower_color","color":"black"}})");
  store.complete_all();
  // The clock started when the last seat was taken: the seats push of that join says
  // so, and the event of each choice names the first seat still choosing.
  EXPECT_STREQ(last_of(transport, 21, "seats")["deadline"]["action"].GetString(), "remove");
  auto event = last_of(transport, 21, "event");
  EXPECT_STREQ(event["deadline"]["action"].GetString(), "remove");
  EXPECT_EQ(event["deadline"]["seat"].GetInt(), 1);
  EXPECT_EQ(event["deadline"]["in_ms"].GetInt64(), 4000);
  const std::size_t pushes = transport.sent[21].size();
  s2.tick();
  store.complete_all();
  EXPECT_EQ(transport.sent[21].size(), pushes);  // nothing new to say
  now += 4000;
  s2.tick();
  store.complete_all();
  auto left = last_of(transport, 22, "left");
  EXPECT_STREQ(left["reason"].GetString(), "setup_timeout");
  EXPECT_FALSE(left.HasMember("id"));
  EXPECT_TRUE(last_of(transport, 21, "seats")["seats"][1]["nickname"].IsNull());
  EXPECT_EQ(store.written.back().remove_seats, std::vector<int>{1});
  // The freed player may play elsewhere; a newcomer takes the seat (and its choices so far).
  s2.on_line(22, R"({"type":"create_match","id":5,"players":2})");
  store.complete_all();
  EXPECT_EQ(type_of(transport.sent[22][transport.sent[22].size() - 2]), "state");
  EXPECT_EQ(type_of(transport.sent[22].back()), "chat_history");
  s2.on_line(23, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  store.complete_all();
  EXPECT_EQ(s2.room(m)->seats[1]->nickname, "n23");
}

TEST_F(ServerTest, ASeatFreedWhileItsPlayerWasAwayIsToldAtLogin) {
  ServerConfig c = config();
  c.setup_choice_ms = 4000;
  Server s2(
      c, transport, store, [this] { return now; }, secrets);
  for (ConnectionId id : {51, 52}) {
    s2.on_open(id, "p");
    s2.on_line(id, R"({"type":"hello","protocol":1})");
    s2.on_line(id, std::string(R"({"type":"login","nickname":"n)") + std::to_string(id) + "\"}");
  }
  s2.on_line(51, R"({"type":"create_match","players":2})");
  store.complete_all();
  const auto m = parse(transport.sent[51][2])["match"].GetInt64();
  s2.on_line(52, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  store.complete_all();
  s2.on_closed(52);
  s2.tick();
  store.complete_all();
  now += 4000;
  s2.tick();
  store.complete_all();
  EXPECT_EQ(s2.room(m)->seated(), 0);  // n51 did not choose either: both freed, match given up
  s2.on_open(53, "p");
  s2.on_line(53, R"({"type":"hello","protocol":1})");
  s2.on_line(53, R"({"type":"login","nickname":"n52"})");  // no seat any more: no token needed
  ASSERT_GE(transport.sent[53].size(), 2u);
  EXPECT_EQ(type_of(transport.sent[53][transport.sent[53].size() - 2]), "logged_in");
  EXPECT_STREQ(parse(transport.sent[53].back())["reason"].GetString(), "setup_timeout");
}

TEST_F(ServerTest, APlayerMayLeaveAFullMatchInSetupButNotAStartedOne) {
  connect(1, "a");
  connect(2, "b");
  const auto m = create(1, 2);
  reply(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  ASSERT_TRUE(server.room(m)->full());
  auto left = parse(reply(2, R"({"type":"leave_match","id":3})"));
  EXPECT_STREQ(left["type"].GetString(), "left");
  EXPECT_EQ(server.room(m)->seated(), 1);
  EXPECT_EQ(type_of(reply(2, R"({"type":"create_match","players":2})")), "joined");  // free
}

TEST_F(ServerTest, AStartedMatchCannotBeLeft) {
  running_match(2);
  EXPECT_STREQ(parse(reply(1, R"({"type":"leave_match"})"))["code"].GetString(),
               "ALREADY_IN_MATCH");
}

TEST_F(ServerTest, AMatchNobodyJoinsIsGivenUpAfterLobbyIdle) {
  ServerConfig c = config();
  c.lobby_idle_ms = 10000;
  Server s2(
      c, transport, store, [this] { return now; }, secrets);
  s2.on_open(31, "p");
  s2.on_line(31, R"({"type":"hello","protocol":1})");
  s2.on_line(31, R"({"type":"login","nickname":"solo"})");
  s2.on_line(31, R"({"type":"create_match","players":3})");
  store.complete_all();
  auto state = last_of(transport, 31, "state");
  EXPECT_STREQ(state["deadline"]["action"].GetString(), "abandon");
  EXPECT_TRUE(state["deadline"]["seat"].IsNull());
  EXPECT_EQ(state["deadline"]["in_ms"].GetInt64(), 10000);
  now += 10000;
  s2.tick();
  store.complete_all();
  EXPECT_EQ(type_of(transport.sent[31].back()), "match_abandoned");
}

TEST_F(ServerTest, JoiningOrWatchingAMatchThatJustEndedSaysSo) {
  const auto m = running_match(2);
  reply(1, R"({"type":"play","command":{"type":"resign"}})");
  ASSERT_NE(server.room(m), nullptr);  // dropped at the next tick
  connect(5, "e");
  for (const char* type : {"join_match", "spectate"}) {
    auto r = parse(
        reply(5, std::string(R"({"type":")") + type + R"(","match":)" + std::to_string(m) + "}"));
    EXPECT_STREQ(r["code"].GetString(), "NO_SUCH_MATCH") << type;
    EXPECT_NE(std::string(r["message"].GetString()).find("has ended"), std::string::npos);
  }
}

TEST_F(ServerTest, ASpectatorIsNotAPlayerLoggedInOrNot) {
  connect(1, "a");
  const auto m = create(1, 2);
  server.on_open(3, "p");
  reply(3, R"({"type":"hello","protocol":1})");
  reply(3, R"({"type":"spectate","match":)" + std::to_string(m) + "}");
  EXPECT_STREQ(
      parse(reply(3, R"({"type":"play","command":{"type":"resign"}})"))["code"].GetString(),
      "NOT_A_PLAYER");
  reply(3, R"({"type":"login","nickname":"w"})");
  EXPECT_STREQ(
      parse(reply(3, R"({"type":"play","command":{"type":"resign"}})"))["code"].GetString(),
      "NOT_A_PLAYER");
}

TEST_F(ServerTest, WithoutRequiredTokensTheNewTokenIsBoundToTheSeat) {
  const auto m = running_match(2);
  ServerConfig lax = config();
  lax.require_resume_token = false;
  Server restarted(
      lax, transport, store, [this] { return now; }, secrets);
  restarted.load_matches({loaded(m, m, {})}, m + 1);
  restarted.on_open(41, "p");
  restarted.on_line(41, R"({"type":"hello","protocol":1})");
  restarted.on_line(41, R"({"type":"login","nickname":"b"})");  // no token: let in
  store.complete_all();
  auto in = last_of(transport, 41, "logged_in");
  const std::string fresh = in["token"].GetString();
  EXPECT_EQ(in["seat"].GetInt(), 1);
  EXPECT_EQ(restarted.room(m)->seats[1]->token_hash, token_hash(fresh));
  ASSERT_FALSE(store.written.empty());
  ASSERT_EQ(store.written.back().seats.size(), 1u);
  EXPECT_EQ(store.written.back().seats[0].resume_token_hash, token_hash(fresh));
  // Switched back to required tokens: the token handed out works.
  Server strict(
      config(), transport, store, [this] { return now; }, secrets);
  LoadedMatch back = loaded(m, m, {});
  back.seats[1].resume_token_hash = store.written.back().seats[0].resume_token_hash;
  strict.load_matches({std::move(back)}, m + 1);
  come_back(strict, 42, "b", fresh);
  EXPECT_EQ(last_of(transport, 42, "logged_in")["seat"].GetInt(), 1);
}

TEST_F(ServerTest, AnOperatorReissuesASeatsToken) {
  const auto m = running_match(2);
  server.on_closed(2);
  std::optional<std::expected<ReissuedToken, std::string>> got;
  server.reissue_token("b", [&](auto r) { got = std::move(r); });
  EXPECT_FALSE(got.has_value());  // only once durable
  store.complete_all();
  ASSERT_TRUE(got && got->has_value());
  EXPECT_EQ((*got)->match, m);
  EXPECT_EQ((*got)->seat, 1);
  EXPECT_EQ(store.written.back().seats.at(0).resume_token_hash, token_hash((*got)->token));
  server.on_open(12, "p");
  reply(12, R"({"type":"hello","protocol":1})");
  EXPECT_STREQ(
      parse(reply(12, R"({"type":"login","nickname":"b","token":")" + tokens[2] + "\"}"))["code"]
          .GetString(),
      "BAD_TOKEN");  // the old one is dead
  EXPECT_EQ(parse(reply(
                12, R"({"type":"login","nickname":"b","token":")" + (*got)->token + "\"}"))["seat"]
                .GetInt(),
            1);
  server.reissue_token("nobody", [&](auto r) { got = std::move(r); });
  ASSERT_FALSE(got->has_value());
  EXPECT_NE(got->error().find("holds no seat"), std::string::npos);
  store.fail_next = true;
  server.reissue_token("a", [&](auto r) { got = std::move(r); });
  store.complete_all();
  EXPECT_FALSE(got->has_value());
  EXPECT_EQ(server.room(m)->seats[0]->token_hash, token_hash(tokens[1]));  // unchanged
}

}  // namespace
}  // namespace eryantis::server

// --- issue 11, second pass: endings that survive a restart, deadlines set with their event ---

namespace eryantis::server {
namespace {

// The ending writes `store` received, by nickname: kept minus delivered, as the
// unseen_endings table would hold them.
std::map<std::string, store::UnseenEnding> stored_endings(const FakePersistence& store) {
  std::map<std::string, store::UnseenEnding> out;
  for (const MatchWrite& w : store.written) {
    for (const store::UnseenEnding& e : w.keep_endings) out[e.nickname] = e;
    for (const std::string& n : w.delivered_endings)
      if (auto it = out.find(n); it != out.end() && it->second.match_id == w.match) out.erase(it);
  }
  return out;
}

TEST_F(ServerTest, AnEndingMissedIsStoredWithTheEndingAndToldOnceAfterARestart) {
  const auto m = running_match(4);
  server.on_closed(3);  // seat 2 ("c"), seat 0's partner, is away
  say(1, R"({"type":"play","id":"r","command":{"type":"resign"}})");
  // The write that ends the match also keeps c's game_over, and only c's.
  const MatchWrite* ending = nullptr;
  for (const MatchWrite& w : store.written)
    if (w.status == store::MatchStatus::Finished) ending = &w;
  ASSERT_NE(ending, nullptr);
  ASSERT_EQ(ending->keep_endings.size(), 1u);
  EXPECT_EQ(ending->keep_endings[0].nickname, "c");
  EXPECT_EQ(ending->keep_endings[0].match_id, m);
  EXPECT_EQ(ending->keep_endings[0].line, transport.sent[1].back());  // the game_over a got
  tick();

  // A restart: a new server loads what the store holds.
  Server restarted(
      config(), transport, store, [this] { return now; }, secrets);
  auto kept = stored_endings(store);
  ASSERT_EQ(kept.size(), 1u);
  restarted.load_unseen_endings({kept.begin()->second});
  come_back(restarted, 13, "c", tokens[3]);
  ASSERT_EQ(transport.sent[13].size(), 3u);  // welcome, logged_in, the game_over
  EXPECT_EQ(transport.sent[13][2], transport.sent[1].back());
  // Delivered: forgotten in the store too, so neither this server nor the next tells it again.
  EXPECT_EQ(store.written.back().match, m);
  EXPECT_EQ(store.written.back().delivered_endings, std::vector<std::string>{"c"});
  EXPECT_TRUE(stored_endings(store).empty());
  restarted.on_closed(13);
  come_back(restarted, 14, "c", tokens[3]);
  EXPECT_EQ(transport.sent[14].size(), 2u);
}

TEST_F(ServerTest, APlayerBackWhileTheEndingIsWrittenIsToldLiveAndTheRecordIsCleared) {
  running_match(2);
  server.on_closed(2);  // b away
  // a resigns; b logs back in while that write is in flight.
  server.on_line(1, R"({"type":"play","id":"r","command":{"type":"resign"}})");
  ASSERT_EQ(store.pending.size(), 1u);
  server.on_open(12, "p");
  server.on_line(12, R"({"type":"hello","protocol":1})");
  server.on_line(12, R"({"type":"login","nickname":"b","token":")" + tokens[2] + "\"}");
  store.complete_all();
  EXPECT_EQ(type_of(transport.sent[12].back()), "game_over");
  EXPECT_TRUE(stored_endings(store).empty());  // stored as away, cleared once told
}

TEST_F(ServerTest, APlayerAwayWhenAnAbandonmentIsWrittenIsToldAtLoginOnce) {
  connect(1, "a");
  connect(2, "b");
  const auto m = create(1, 2);
  reply(2, R"({"type":"join_match","match":)" + std::to_string(m) + "}");
  server.on_closed(1);
  server.on_closed(2);  // nobody left: the match is given up after abandon_after
  tick();
  now += ServerConfig{}.abandon_after_ms;
  tick();
  tick();
  EXPECT_EQ(server.room(m), nullptr);
  auto kept = stored_endings(store);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(type_of(kept["b"].line), "match_abandoned");
  server.on_open(12, "p");
  EXPECT_EQ(say(12, R"({"type":"hello","protocol":1})").size(), 1u);
  auto lines = say(12, R"({"type":"login","nickname":"b","token":")" + tokens[2] + "\"}");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1], kept["b"].line);
  EXPECT_EQ(stored_endings(store).count("b"), 0u);
  EXPECT_EQ(stored_endings(store).count("a"), 1u);  // a's is still waiting for a
}

// A timer starts with the change that calls for it: the event that hands the turn
// to an absent seat already carries the skip_turn deadline (no seats push follows).
TEST_F(ServerTest, TheEventThatStartsATimerCarriesItsDeadline) {
  const auto m = running_match(3);
  const Room* room = server.room(m);
  // Whoever plays after the current seat leaves before their turn comes.
  ASSERT_EQ(test::eriantys_state(room->state).phase, rules::Phase::Planning);
  const rules::Seat first = test::eriantys_state(room->state).current_seat();
  const auto next = static_cast<rules::Seat>((first + 1) % 3);  // planning goes clockwise
  server.on_closed(static_cast<ConnectionId>(next + 1));
  store.complete_all();
  const auto legal = rules::legal_commands(test::eriantys_state(room->state), first);
  say(static_cast<ConnectionId>(first + 1),
      R"({"type":"play","command":)" + codec::command_to_json(legal[0]) + "}");
  auto event = last_of(transport, static_cast<ConnectionId>(first + 1), "event");
  ASSERT_TRUE(event["deadline"].IsObject());
  EXPECT_STREQ(event["deadline"]["action"].GetString(), "skip_turn");
  EXPECT_EQ(event["deadline"]["seat"].GetInt(), next);
  EXPECT_EQ(event["deadline"]["in_ms"].GetInt64(), config().turn_grace_ms);
  EXPECT_EQ(room->clocks.deadline.kind, DeadlineKind::TurnGrace);
  EXPECT_EQ(store.written.back().deadline, room->clocks.deadline);  // and stored
  const std::size_t pushes = transport.sent[first + 1].size();
  now += 100;
  tick();
  EXPECT_EQ(transport.sent[first + 1].size(), pushes);  // nothing late to announce
}

// When the forfeit clock runs out, the lone player gets the award_forfeit event and
// game_over, with no seats push announcing the spent deadline in between.
TEST_F(ServerTest, AForfeitIsToldByItsEventAlone) {
  running_match(2);
  server.on_closed(2);
  store.complete_all();
  auto seats = last_of(transport, 1, "seats");
  EXPECT_STREQ(seats["deadline"]["action"].GetString(), "forfeit");  // with the departure
  EXPECT_EQ(seats["deadline"]["in_ms"].GetInt64(), config().forfeit_after_ms);
  const std::size_t before = transport.sent[1].size();
  now += config().forfeit_after_ms;
  server.tick();
  server.tick();  // a second turn of the timers while the award is being written
  store.complete_all();
  std::vector<std::string> after;
  for (auto it = transport.sent[1].begin() + static_cast<long>(before);
       it != transport.sent[1].end(); ++it)
    if (type_of(*it) != "ping") after.push_back(*it);  // heartbeats go on meanwhile
  ASSERT_EQ(after.size(), 2u) << ::testing::PrintToString(after);
  auto event = parse(after[0]);
  EXPECT_STREQ(event["type"].GetString(), "event");
  EXPECT_STREQ(event["event"]["type"].GetString(), "award_forfeit");
  EXPECT_EQ(type_of(after[1]), "game_over");
}

// --- move_log: the whole match in words, however the client arrived ------------

// The `text` of every event push `c` received, by seq.
std::map<store::Seq, std::string> pushed_texts(const FakeTransport& t, ConnectionId c) {
  std::map<store::Seq, std::string> out;
  for (const std::string& line : t.sent.at(c)) {
    auto d = parse(line);
    if (d.HasMember("type") && std::string(d["type"].GetString()) == "event")
      out[d["seq"].GetInt64()] = d["text"].GetString();
  }
  return out;
}

// A spectator who starts watching mid-match, and a player back on a new
// connection, get every sentence since the match was created: the same words the
// event pushes carried, the creation (never pushed) first.
TEST_F(ServerTest, MoveLogGivesEverySentenceSinceTheStart) {
  const store::MatchId m = running_match(2);
  std::mt19937_64 rng(11);
  for (int i = 0; i < 30 && step(m, {{0, 1}, {1, 2}}, rng); ++i) {
  }
  const store::Seq seq = server.room(m)->seq;
  ASSERT_GT(seq, 30);
  const auto pushed = pushed_texts(transport, 1);  // alice saw every event from seq 2
  ASSERT_EQ(pushed.size(), static_cast<std::size_t>(seq - 1));

  server.on_open(9, "127.0.0.1:9");  // eve, not logged in
  reply(9, R"({"type":"hello","protocol":1})");
  reply(9, R"({"type":"spectate","match":)" + std::to_string(m) + "}");
  const std::string answer = reply(9, R"({"type":"move_log","id":"log"})");
  auto log = parse(answer);
  ASSERT_STREQ(log["type"].GetString(), "move_log") << answer;
  std::vector<std::string> keys;
  for (const auto& member : log.GetObject()) keys.emplace_back(member.name.GetString());
  EXPECT_EQ(keys, (std::vector<std::string>{"type", "id", "match", "seq", "lines", "more"}));
  EXPECT_EQ(log["match"].GetInt64(), m);
  EXPECT_EQ(log["seq"].GetInt64(), seq);
  EXPECT_FALSE(log["more"].GetBool());
  const auto& lines = log["lines"];
  ASSERT_EQ(lines.Size(), static_cast<rapidjson::SizeType>(seq));
  EXPECT_EQ(lines[0]["seq"].GetInt64(), 1);
  EXPECT_EQ(std::string(lines[0]["text"].GetString()).rfind("match created: 2 players", 0), 0u)
      << lines[0]["text"].GetString();
  for (rapidjson::SizeType i = 1; i < lines.Size(); ++i) {
    const store::Seq at = lines[i]["seq"].GetInt64();
    EXPECT_EQ(at, static_cast<store::Seq>(i + 1));
    EXPECT_EQ(lines[i]["text"].GetString(), pushed.at(at)) << "seq " << at;
  }
  // From a seq on (what a client missed), and past the end: nothing.
  auto tail = parse(reply(9, R"({"type":"move_log","from":)" + std::to_string(seq - 2) + "}"));
  ASSERT_EQ(tail["lines"].Size(), 3u);
  EXPECT_EQ(tail["lines"][0]["seq"].GetInt64(), seq - 2);
  EXPECT_EQ(tail["lines"][2]["text"].GetString(), pushed.at(seq));
  EXPECT_EQ(store.reads.size(), 0u);
  auto none = parse(reply(9, R"({"type":"move_log","from":)" + std::to_string(seq + 1) + "}"));
  EXPECT_EQ(none["lines"].Size(), 0u);
  EXPECT_FALSE(none["more"].GetBool());

  // bob comes back on a new connection (a reloaded page): the same lines.
  server.on_closed(2);
  store.complete_all();
  come_back(server, 12, "b", tokens[2]);
  auto again = parse(reply(12, R"({"type":"move_log","id":7})"));
  ASSERT_EQ(again["lines"].Size(), static_cast<rapidjson::SizeType>(seq));
  EXPECT_EQ(again["lines"][seq - 1]["text"].GetString(), pushed.at(seq));
}

// Lines are paged by size: no answer holds more than kMoveLogPageBytes of them, and
// asking from the next seq gives the rest.
TEST_F(ServerTest, MoveLogIsPagedBySize) {
  const store::MatchId m = running_match(2);
  const store::Seq seq = server.room(m)->seq;
  std::vector<MoveLogLine> big;
  for (store::Seq s = 1; s <= seq; ++s) big.push_back({s, std::string(3000, 'a' + s % 26)});
  store.read_answer = big;
  std::vector<store::Seq> got;
  std::int64_t from = 1;
  for (int page = 0; page < 20; ++page) {
    const std::string line = reply(1, R"({"type":"move_log","from":)" + std::to_string(from) + "}");
    EXPECT_LT(line.size(), kMoveLogPageBytes + 200);
    auto d = parse(line);
    ASSERT_STREQ(d["type"].GetString(), "move_log") << line;
    ASSERT_GT(d["lines"].Size(), 0u);
    for (const auto& l : d["lines"].GetArray()) got.push_back(l["seq"].GetInt64());
    if (!d["more"].GetBool()) break;
    from = got.back() + 1;
    // The fake answers every read with the whole log: keep only what was asked.
    big.erase(big.begin(), big.begin() + static_cast<long>(d["lines"].Size()));
    store.read_answer = big;
  }
  ASSERT_EQ(got.size(), static_cast<std::size_t>(seq));
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], static_cast<store::Seq>(i + 1));
}

TEST_F(ServerTest, MoveLogRefusals) {
  connect(1, "alice");
  EXPECT_EQ(parse(reply(1, R"({"type":"move_log","id":1})"))["code"].GetString(),
            std::string("NOT_IN_MATCH"));
  EXPECT_EQ(parse(reply(1, R"({"type":"move_log","from":0})"))["code"].GetString(),
            std::string("INVALID_FIELD"));
  const store::MatchId m = create(1, 2);
  // One read per connection at a time.
  server.on_line(1, R"({"type":"move_log","id":2})");
  server.on_line(1, R"({"type":"move_log","id":3})");
  EXPECT_EQ(parse(transport.sent[1].back())["code"].GetString(), std::string("RATE_LIMITED"));
  EXPECT_EQ(parse(transport.sent[1].back())["id"].GetInt(), 3);
  store.complete_all();
  EXPECT_EQ(type_of(transport.sent[1].back()), "move_log");
  // The store cannot read: said so, and the next ask is read again.
  store.fail_reads = store::StoreCode::Io;
  auto failed = parse(reply(1, R"({"type":"move_log","id":4})"));
  EXPECT_STREQ(failed["code"].GetString(), "STORE_FAILURE");
  EXPECT_NE(std::string(failed["message"].GetString()).find("the reader is on fire"),
            std::string::npos);
  store.fail_reads = store::StoreCode::Busy;
  EXPECT_STREQ(parse(reply(1, R"({"type":"move_log","id":5})"))["code"].GetString(),
               "RATE_LIMITED");
  store.fail_reads.reset();
  EXPECT_EQ(type_of(reply(1, R"({"type":"move_log","id":6})")), "move_log");
  // A connection gone before its read came back gets nothing, and nothing breaks.
  server.on_line(1, R"({"type":"move_log","id":7})");
  const std::size_t sent = transport.sent[1].size();
  server.on_closed(1);
  store.complete_all();
  EXPECT_EQ(transport.sent[1].size(), sent);
  (void)m;
}

}  // namespace
}  // namespace eryantis::server
