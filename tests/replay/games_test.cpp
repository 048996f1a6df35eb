// eryantis-replay knows games only through the engine's interface (issue 24): a
// Goofspiel match (the tests' game, tests/games/goofspiel), played with the game's
// own create_match and decide and stored by a store opened on the tests' registry,
// is listed, logged, shown, stepped, verified, exported, applied to and served by
// the same tool built over that registry (eryantis-replay-test-games), and its
// words, boards, JSON and hashes are Goofspiel's own. The release binary, built
// over the catalogue, lists the match and says it does not serve its game; and it
// reads the matches eryantis-selfplay --db wrote of every game of the catalogue.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "eryantis/json/json.hpp"
#include "eryantis/rules/random_game.hpp"
#include "eryantis/store/sqlite_store.hpp"
#include "games/handles.hpp"
#include "support/child_process.hpp"
#include "support/polling.hpp"
#include "support/temp_dir.hpp"
#include "support/websocket_client.hpp"

namespace eryantis::replay {
namespace {

namespace fs = std::filesystem;

struct Ran {
  int code = -1;
  std::string out;
  std::string err;
};

std::string describe(const Ran& r) {
  return "exit " + std::to_string(r.code) + "\n--- stdout:\n" + r.out + "\n--- stderr:\n" + r.err;
}

// `binary` with `args`, `input` on stdin, stdout and stderr to files.
Ran run(const test::TempDir& dir, const std::string& binary, const std::vector<std::string>& args,
        const std::string& input = "") {
  const std::string in = dir.file("stdin"), out = dir.file("stdout"), err = dir.file("stderr");
  test::write_file(in, input);
  std::vector<std::string> argv = {binary};
  argv.insert(argv.end(), args.begin(), args.end());
  test::ChildProcess child(
      test::Spawn{.argv = argv, .stdin_file = in, .stdout_file = out, .stderr_file = err});
  Ran r;
  r.code = child.wait_exit(std::chrono::seconds(120)).value_or(-1);
  r.out = test::read_file(out);
  r.err = test::read_file(err);
  return r;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

const game::Game& goofspiel() {
  return *test::games().find("goofspiel");
}

// A Goofspiel match played to its end by random legal commands from the seats the
// game says must act, as the server would: each event from the game's own
// create_match and decide, with the state it leads to.
struct Played {
  game::Options options;
  std::vector<game::Event> events;
  std::vector<game::Seat> actors;   // kNoSeat for create_match
  std::vector<game::State> states;  // states[0] empty, states[k] after k events
};

Played play_goofspiel(int cards, std::uint64_t seed) {
  const game::Game& g = goofspiel();
  Played p;
  p.options = g.options_from_json(R"({"players":2,"cards":)" + std::to_string(cards) + "}").value();
  p.states.push_back(g.empty_state());
  const game::Event created = g.create_match(p.options, game::Seed{seed, ~seed}).value();
  p.events.push_back(created);
  p.actors.push_back(game::kNoSeat);
  p.states.push_back(g.apply(p.states.back(), created));
  std::mt19937_64 rng(seed);
  while (g.stage(p.states.back()) != game::Stage::Over && p.events.size() < 100) {
    const std::vector<game::ToAct> to_act = g.to_act(p.states.back());
    if (to_act.empty()) break;
    const game::Seat seat = to_act[rng() % to_act.size()].seat;
    const std::vector<game::Command> legal = g.legal_commands(p.states.back(), seat);
    if (legal.empty()) break;
    auto decided = g.decide(p.states.back(), seat, legal[rng() % legal.size()]);
    EXPECT_TRUE(decided) << decided.error().message;
    if (!decided) break;
    p.events.push_back(decided->event);
    p.actors.push_back(seat);
    p.states.push_back(decided->next);
  }
  return p;
}

// The port a started `eryantis-replay DB serve --port 0` prints (0 when it printed none).
int serve(test::ChildProcess& server) {
  static constexpr std::string_view kServing = "on http://127.0.0.1:";
  int port = 0;
  EXPECT_TRUE(test::eventually(std::chrono::seconds(10), [&] {
    const std::string out = server.output();
    const std::size_t at = out.find(kServing);
    if (at == std::string::npos || out.find('/', at + kServing.size()) == std::string::npos)
      return false;
    port = std::atoi(out.c_str() + at + kServing.size());
    return true;
  })) << server.output();
  return port;
}

test::HttpReply http_get(int port, const std::string& target) {
  auto c = test::WsClient::connect(port);
  EXPECT_TRUE(c);
  if (!c) return test::HttpReply{};
  return c->get(target, "", "GET").value_or(test::HttpReply{});
}

const game::Names kNames = {"alice", "bob", "", ""};

// Match 1 is Goofspiel (5 cards, finished); match 2 an Eriantys match beside it.
class GamesReplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    spdlog::set_level(spdlog::level::warn);
    played_ = play_goofspiel(5, 24);
    ASSERT_EQ(goofspiel().stage(played_.states.back()), game::Stage::Over);
    ASSERT_EQ(played_.events.size(), 11u) << "create_match and 2 x 5 bids";
    db_ = dir_.file("matches.db");
    auto store = store::SqliteStore::open(db_, test::with_games<store::Options>());
    ASSERT_TRUE(store) << store.error().message;

    const game::Game& g = goofspiel();
    std::vector<store::NewEvent> events;
    for (std::size_t i = 0; i < played_.events.size(); ++i)
      events.emplace_back(
          played_.actors[i] == game::kNoSeat ? store::Actor::server()
                                             : store::Actor::player(played_.actors[i]),
          i == 0 ? std::nullopt : std::optional<std::string>("cmd-" + std::to_string(i)),
          played_.events[i], g.hash(played_.states[i + 1]));
    store::AppendRequest r =
        store::AppendRequest::of(1, 0, std::move(events), played_.states.back());
    r.create =
        store::NewMatch{played_.options, store::MatchStatus::Running, "goofspiel", g.version()};
    for (int seat = 0; seat < 2; ++seat)
      r.seats.push_back(store::SeatRecord{0, seat, kNames[static_cast<std::size_t>(seat)],
                                          store::hash_to_hex(static_cast<std::uint64_t>(seat)),
                                          std::nullopt, std::nullopt, std::nullopt});
    r.status = store::MatchStatus::Finished;
    auto done = store->append_batch(std::span(&r, 1));
    ASSERT_TRUE(done.at(0)) << done.at(0).error().message;

    // An Eriantys match in the same database.
    std::vector<std::uint64_t> hashes;
    const rules::MatchOptions options{2, rules::Mode::Simple};
    const rules::RandomGame eriantys = rules::play_random_game(
        options, 3,
        [&](const rules::Event&, const rules::State& s) { hashes.push_back(rules::hash(s)); });
    std::vector<store::NewEvent> more;
    for (std::size_t i = 0; i < eriantys.events.size(); ++i)
      more.emplace_back(
          i == 0 ? store::Actor::server() : store::Actor::player(eriantys.events[i].seat),
          std::nullopt, test::handle(eriantys.events[i]), hashes[i]);
    store::AppendRequest e =
        store::AppendRequest::of(2, 0, std::move(more), test::handle(eriantys.state));
    e.create = store::NewMatch{test::handle(options), store::MatchStatus::Running};
    e.status = store::MatchStatus::Finished;
    done = store->append_batch(std::span(&e, 1));
    ASSERT_TRUE(done.at(0)) << done.at(0).error().message;
    eriantys_events_ = eriantys.events.size();
  }

  Ran tool(const std::vector<std::string>& args, const std::string& input = "") {
    return run(dir_, ERYANTIS_REPLAY_TEST_GAMES_BINARY, args, input);
  }

  std::string copy(const std::string& name) {
    const std::string path = dir_.file(name);
    fs::copy_file(db_, path);
    return path;
  }

  // The log's round label of event `seq`, from the game's round of the state before it.
  std::string round_label(std::size_t seq) const {
    const int round = goofspiel().round(played_.states[seq - 1]);
    return round == 0 ? "setup" : "round " + std::to_string(round);
  }
  std::string sentence(std::size_t seq) const {
    return goofspiel().describe_event(played_.states[seq - 1], played_.events[seq - 1],
                                      played_.states[seq], kNames);
  }

  test::TempDir dir_{"eryantis-replay-games"};
  std::string db_;
  Played played_;
  std::size_t eriantys_events_ = 0;
};

TEST_F(GamesReplayTest, ListNamesEachMatchsGame) {
  const Ran r = tool({db_, "list"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("goofspiel v1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("eriantys v1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("alice, bob"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 match(es)"), std::string::npos) << r.out;
}

TEST_F(GamesReplayTest, LogSaysEveryEventInGoofspielsWords) {
  const Ran r = tool({db_, "log", "1"});
  ASSERT_EQ(r.code, 0) << describe(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), played_.events.size()) << r.out;
  for (std::size_t seq = 1; seq <= lines.size(); ++seq) {
    SCOPED_TRACE(lines[seq - 1]);
    // "    3  2026-11-28 08:40:00  round 1 · alice bid 4 against 2: alice takes the 5"
    const std::regex shape("^ +" + std::to_string(seq) +
                           "  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  (.*)$");
    std::smatch m;
    ASSERT_TRUE(std::regex_match(lines[seq - 1], m, shape));
    EXPECT_EQ(m[1].str(), round_label(seq) + " \u00b7 " + sentence(seq));
  }
  EXPECT_EQ(lines[0].substr(lines[0].find("  setup")),
            "  setup \u00b7 a match of 5 cards was dealt");
  EXPECT_NE(r.out.find(" takes the "), std::string::npos) << r.out;

  // --round 0 is the deal; round 5 the last two bids.
  Ran round = tool({db_, "log", "1", "--round", "0"});
  ASSERT_EQ(round.code, 0) << describe(round);
  EXPECT_EQ(lines_of(round.out).size(), 1u) << round.out;
  round = tool({db_, "log", "1", "--round", "5"});
  ASSERT_EQ(round.code, 0) << describe(round);
  EXPECT_EQ(lines_of(round.out).size(), 2u) << round.out;
}

TEST_F(GamesReplayTest, ShowDrawsGoofspielsBoardAsAnySeatSeesIt) {
  const game::Game& g = goofspiel();
  const std::string last = std::to_string(played_.events.size());
  for (const std::size_t at : {std::size_t{1}, std::size_t{4}, played_.events.size()}) {
    const Ran r = tool({db_, "show", "1", "--at", std::to_string(at), "--color"});
    ASSERT_EQ(r.code, 0) << describe(r);
    game::BoardOptions options;
    options.names = kNames;
    options.color = true;
    EXPECT_EQ(r.out, "match 1 at seq " + std::to_string(at) + " of " + last + "\n" +
                         std::string(at < 10 ? 4 : 3, ' ') + std::to_string(at) + "  " +
                         round_label(at) + " \u00b7 " + sentence(at) + "\n" +
                         g.render_board(played_.states[at], options));
  }
  // After one bid of a round, the other seat sees that a bid was made, not which.
  std::size_t one_bid = 2;
  while (one_bid < played_.events.size() &&
         (g.round(played_.states[one_bid]) != g.round(played_.states[one_bid - 1]) ||
          played_.actors[one_bid - 1] != 0))
    ++one_bid;  // alice bid first: bob's view hides her card
  ASSERT_LT(one_bid, played_.events.size()) << "alice never bid first (another seed)";
  const Ran r = tool({db_, "show", "1", "--at", std::to_string(one_bid), "--as", "1"});
  ASSERT_EQ(r.code, 0) << describe(r);
  game::BoardOptions as_bob;
  as_bob.names = kNames;
  as_bob.viewer = 1;
  const std::string board = g.render_board(g.view(played_.states[one_bid], 1), as_bob);
  EXPECT_NE(r.out.find(board), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bob (you)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", has bid\n"), std::string::npos) << r.out;
  EXPECT_EQ(board.find(", has bid\n"), board.rfind(", has bid\n")) << "bob has not bid yet";

  const Ran no_seat = tool({db_, "show", "1", "--as", "2"});
  EXPECT_EQ(no_seat.code, 2) << describe(no_seat);
  EXPECT_NE(no_seat.err.find("match 1 has seats 0..1"), std::string::npos) << no_seat.err;
}

TEST_F(GamesReplayTest, StepWalksTheMatch) {
  const Ran r = tool({db_, "step", "1"}, "n\nj 11\np\nq\n");
  ASSERT_EQ(r.code, 0) << describe(r);
  for (const int seq : {1, 2, 11, 10})
    EXPECT_NE(r.out.find("== match 1, event " + std::to_string(seq) + " of 11 =="),
              std::string::npos)
        << seq << "\n"
        << r.out;
  EXPECT_NE(r.out.find("Goofspiel, 5 cards, round "), std::string::npos) << r.out;
}

TEST_F(GamesReplayTest, VerifyRefoldsWithGoofspielsRules) {
  Ran r = tool({db_, "verify", "--all"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("verified 2 matches, " +
                       std::to_string(played_.events.size() + eriantys_events_) + " events in "),
            std::string::npos)
      << r.out;
  r = tool({db_, "verify", "1"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("verified 1 match, 11 events"), std::string::npos) << r.out;

  // A stored hash that is not Goofspiel's hash of the state there.
  const std::string bad = copy("bad.db");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(bad.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "UPDATE events SET state_hash = '0123456789abcdef' "
                           "WHERE match_id = 1 AND seq = 4",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  r = tool({bad, "verify", "--all"});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(r.out.find("DIVERGENCE match 1 seq 4: hash mismatch at event 4: stored "
                       "0123456789abcdef, recomputed " +
                       store::hash_to_hex(goofspiel().hash(played_.states[4]))),
            std::string::npos)
      << r.out;
  r = tool({bad, "log", "1"});
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("events 1..3 are trustworthy (run `verify 1`)"), std::string::npos) << r.err;
}

TEST_F(GamesReplayTest, ExportIsGoofspielsJson) {
  const game::Game& g = goofspiel();
  for (const std::size_t at : {std::size_t{0}, std::size_t{3}, played_.events.size()}) {
    const Ran r = tool({db_, "export", "1", "--at", std::to_string(at)});
    ASSERT_EQ(r.code, 0) << describe(r);
    EXPECT_EQ(r.out, g.state_to_json(played_.states[at]) + "\n");
    auto state = g.state_from_json(r.out);
    ASSERT_TRUE(state) << state.error().message;
    EXPECT_EQ(*state, played_.states[at]) << "--at " << at;
  }
  EXPECT_EQ(tool({db_, "export", "1"}).out, g.state_to_json(played_.states.back()) + "\n");

  const Ran r = tool({db_, "export", "1", "--events"});
  ASSERT_EQ(r.code, 0) << describe(r);
  std::vector<game::Event> events;
  for (std::string line : lines_of(r.out)) {
    if (line == "[" || line == "]") continue;
    if (line.back() == ',') line.pop_back();
    EXPECT_EQ(line, g.event_to_json(played_.events[events.size()]));
    auto e = g.event_from_json(line);
    ASSERT_TRUE(e) << e.error().message << ": " << line;
    events.push_back(*e);
  }
  EXPECT_EQ(events, played_.events);
}

// apply reads a state of the game --game names, and decides with its rules.
TEST_F(GamesReplayTest, ApplyDecidesWithTheNamedGame) {
  const game::Game& g = goofspiel();
  const std::string file = dir_.file("state.json");
  std::ofstream(file) << tool({db_, "export", "1", "--at", "1"}).out;
  const game::State& dealt = played_.states[1];
  const game::Command bid = g.legal_commands(dealt, 0).front();
  Ran r = tool({"apply", "--game", "goofspiel", "--state", file, "--seat", "0", "--command",
                g.command_to_json(bid)});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(r.out, g.state_to_json(g.decide(dealt, 0, bid).value().next) + "\n");
  // A seat Goofspiel does not have: its own refusal.
  r = tool({"apply", "--game", "goofspiel", "--state", file, "--seat", "3", "--command",
            g.command_to_json(bid)});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_EQ(r.out.rfind("{\"error\":\"", 0), 0u) << r.out;
  // Without --game the state is read as the default game's (Eriantys): not a state.
  r = tool({"apply", "--state", file, "--seat", "0", "--command", g.command_to_json(bid)});
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("not a state"), std::string::npos) << r.err;
  r = tool({"apply", "--game", "chess", "--state", file, "--seat", "0", "--command", "{}"});
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("--game chess: no such game (this build has: eriantys, goofspiel"),
            std::string::npos)
      << r.err;
}

// The release binary knows the catalogue's games only: it lists the match (no game
// is needed for that) and says plainly that it does not serve Goofspiel.
TEST_F(GamesReplayTest, TheReleaseBinaryDoesNotServeTheTestGame) {
  Ran r = run(dir_, ERYANTIS_REPLAY_BINARY, {db_, "list"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("goofspiel v1"), std::string::npos) << r.out;
  for (const char* sub : {"log", "show", "export", "verify"}) {
    r = run(dir_, ERYANTIS_REPLAY_BINARY, {db_, sub, "1"});
    EXPECT_EQ(r.code, 2) << sub << ": " << describe(r);
    EXPECT_NE(r.err.find("match 1 plays goofspiel version 1, which this build does not serve"),
              std::string::npos)
        << sub << ": " << r.err;
  }
  r = run(dir_, ERYANTIS_REPLAY_BINARY, {db_, "log", "2"});
  EXPECT_EQ(r.code, 0) << describe(r);

  // Its replay API lists the match and answers 501 naming the game for the rest.
  test::ChildProcess server(test::Spawn{
      .argv = {ERYANTIS_REPLAY_BINARY, db_, "serve", "--port", "0", "--static", dir_.file("www")}});
  ASSERT_TRUE(server.started());
  const int port = serve(server);
  ASSERT_NE(port, 0);
  EXPECT_NE(http_get(port, "/api/matches").body.find("\"game\":\"goofspiel\""), std::string::npos);
  for (const char* path : {"/api/matches/1/log", "/api/matches/1/at/3", "/api/matches/1/verify"}) {
    const test::HttpReply reply = http_get(port, path);
    EXPECT_EQ(reply.status, 501) << path << ": " << reply.body;
    EXPECT_NE(reply.body.find("match 1 plays goofspiel version 1, which this build does not serve"),
              std::string::npos)
        << path << ": " << reply.body;
  }
  EXPECT_EQ(http_get(port, "/api/matches/2/at/3").status, 200);
  server.kill_hard();
}

// The replay viewer's API serves Goofspiel's views, sentences and hashes.
TEST_F(GamesReplayTest, ServeAnswersWithGoofspielsViews) {
  test::ChildProcess server(test::Spawn{.argv = {ERYANTIS_REPLAY_TEST_GAMES_BINARY, db_, "serve",
                                                 "--port", "0", "--static", dir_.file("www")}});
  ASSERT_TRUE(server.started());
  const int port = serve(server);
  ASSERT_NE(port, 0);
  auto get = [&](const std::string& target) { return http_get(port, target); };
  auto parse = [](const std::string& body) {
    rapidjson::Document d;
    d.Parse(body.c_str());
    EXPECT_FALSE(d.HasParseError()) << body;
    return d;
  };
  const game::Game& g = goofspiel();

  rapidjson::Document list = parse(get("/api/matches").body);
  ASSERT_TRUE(list.IsArray());
  ASSERT_EQ(list.Size(), 2u);
  EXPECT_STREQ(list[0]["game"].GetString(), "goofspiel");

  rapidjson::Document log = parse(get("/api/matches/1/log").body);
  ASSERT_TRUE(log.IsArray());
  ASSERT_EQ(log.Size(), played_.events.size());
  for (rapidjson::SizeType i = 0; i < log.Size(); ++i) {
    const std::size_t seq = i + 1;
    EXPECT_EQ(log[i]["round"].GetInt(), g.round(played_.states[seq - 1])) << seq;
    EXPECT_EQ(log[i]["text"].GetString(), sentence(seq)) << seq;
    EXPECT_EQ(log[i]["type"].GetString(), std::string(g.event_type(played_.events[i])));
    EXPECT_TRUE(log[i]["trusted"].GetBool());
  }

  // Mid-round: a spectator's view hides the bid; whose turn it is comes from the game.
  std::size_t one_bid = 2;
  while (one_bid < played_.events.size() && g.to_act(played_.states[one_bid]).size() != 1)
    ++one_bid;
  ASSERT_LT(one_bid, played_.events.size());
  for (const std::size_t seq : {one_bid, played_.events.size()}) {
    const test::HttpReply reply = get("/api/matches/1/at/" + std::to_string(seq));
    ASSERT_EQ(reply.status, 200) << reply.body;
    const game::State view = g.view(played_.states[seq], game::kNoSeat);
    EXPECT_NE(reply.body.find("\"view\":" + g.view_to_json(view, game::kNoSeat) + ","),
              std::string::npos)
        << reply.body;
    rapidjson::Document at = parse(reply.body);
    EXPECT_EQ(std::string(at["hash"].GetString()), store::hash_to_hex(g.hash(view)));
    std::vector<int> to_act;
    for (const auto& seat : at["to_act"].GetArray()) to_act.push_back(seat.GetInt());
    std::vector<int> expected;
    for (const game::ToAct& t : g.to_act(played_.states[seq])) expected.push_back(t.seat);
    EXPECT_EQ(to_act, expected) << seq;
    EXPECT_STREQ(at["status"].GetString(), seq == played_.events.size() ? "finished" : "running");
  }
  EXPECT_EQ(get("/api/matches/1/at/12").status, 404);
  rapidjson::Document verified = parse(get("/api/matches/1/verify").body);
  EXPECT_TRUE(verified["ok"].GetBool());
  server.kill_hard();
}

}  // namespace
}  // namespace eryantis::replay

namespace eryantis::replay {
namespace {

// The release binaries end to end for every game of the catalogue: eryantis-selfplay
// --db writes matches of each (as the server would), and eryantis-replay, over the
// catalogue, lists, logs, shows, verifies and exports each with its own game.
TEST(ReleaseReplay, ReadsTheMatchesOfEveryGameOfTheCatalogue) {
  spdlog::set_level(spdlog::level::warn);
  test::TempDir dir("eryantis-replay-catalogue");
  const std::string db = dir.file("selfplay.db");
  const std::vector<std::string> names = {"eriantys", "renaissance"};
  for (const std::string& name : names) {
    const Ran wrote =
        run(dir, ERYANTIS_SELFPLAY_BINARY,
            {"--game", name, "--players", "2", "--games", "2", "--quiet", "--db", db});
    ASSERT_EQ(wrote.code, 0) << name << ": " << describe(wrote);
  }
  const Ran list = run(dir, ERYANTIS_REPLAY_BINARY, {db, "list"});
  ASSERT_EQ(list.code, 0) << describe(list);
  EXPECT_NE(list.out.find("4 match(es)"), std::string::npos) << list.out;
  const Ran verify = run(dir, ERYANTIS_REPLAY_BINARY, {db, "verify", "--all"});
  EXPECT_EQ(verify.code, 0) << describe(verify);
  EXPECT_NE(verify.out.find("verified 4 matches, "), std::string::npos) << verify.out;

  auto store = store::SqliteStore::open(db, test::with_games<store::Options>());
  ASSERT_TRUE(store) << store.error().message;
  const std::vector<store::MatchSummary> matches = store->list_matches().value();
  ASSERT_EQ(matches.size(), 4u);
  for (const store::MatchSummary& m : matches) {
    const std::string id = std::to_string(m.id);
    SCOPED_TRACE("match " + id + ", " + m.game);
    EXPECT_EQ(m.game, names[static_cast<std::size_t>(m.id - 1) / 2]);
    EXPECT_NE(list.out.find(m.game + " v1"), std::string::npos);
    const game::Game& g = *test::games().find(m.game);
    const std::vector<store::StoredEvent> rows = store->load_events(m.id).value();

    const Ran log = run(dir, ERYANTIS_REPLAY_BINARY, {db, "log", id});
    ASSERT_EQ(log.code, 0) << describe(log);
    EXPECT_EQ(lines_of(log.out).size(), rows.size());
    EXPECT_NE(log.out.find("  setup \u00b7 "), std::string::npos) << log.out.substr(0, 400);
    EXPECT_NE(log.out.find("  round 1 \u00b7 "), std::string::npos) << log.out.substr(0, 2000);

    const Ran show = run(dir, ERYANTIS_REPLAY_BINARY, {db, "show", id, "--as", "1"});
    ASSERT_EQ(show.code, 0) << describe(show);
    EXPECT_EQ(show.out.rfind("match " + id + " at seq " + std::to_string(rows.size()) + " of " +
                                 std::to_string(rows.size()) + "\n",
                             0),
              0u)
        << show.out;
    EXPECT_NE(show.out.find("bob"), std::string::npos) << show.out;

    // The state export is the game's JSON; its hash is the one stored with the last event.
    const Ran state = run(dir, ERYANTIS_REPLAY_BINARY, {db, "export", id});
    ASSERT_EQ(state.code, 0) << describe(state);
    auto decoded = g.state_from_json(state.out);
    ASSERT_TRUE(decoded) << decoded.error().message;
    EXPECT_EQ(store::hash_to_hex(g.hash(*decoded)), rows.back().state_hash);
    EXPECT_EQ(g.stage(*decoded), game::Stage::Over);
    const Ran events = run(dir, ERYANTIS_REPLAY_BINARY, {db, "export", id, "--events"});
    ASSERT_EQ(events.code, 0) << describe(events);
    std::size_t seq = 0;
    for (std::string line : lines_of(events.out)) {
      if (line == "[" || line == "]") continue;
      if (line.back() == ',') line.pop_back();
      ASSERT_LT(seq, rows.size());
      EXPECT_EQ(line, rows[seq++].payload);
      EXPECT_TRUE(g.event_from_json(line)) << line;
    }
    EXPECT_EQ(seq, rows.size());
  }
}

}  // namespace
}  // namespace eryantis::replay
