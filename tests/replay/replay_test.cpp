// Runs the real eryantis-replay binary against databases written through the
// store API (random games appended as the server would) and checks its output
// and exit codes for every subcommand.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "eryantis/codec/codec.hpp"
#include "eryantis/rules/random_game.hpp"
#include "eryantis/store/chat.hpp"
#include "eryantis/store/sqlite_store.hpp"
#include "games/handles.hpp"
#include "support/child_process.hpp"
#include "support/temp_dir.hpp"

namespace eryantis::replay {
namespace {

namespace fs = std::filesystem;
using namespace eryantis::rules;

const std::string kBinary = ERYANTIS_REPLAY_BINARY;

struct Outcome {
  int code = -1;
  std::string out;
  std::string err;
};

using test::read_file;
using test::TempDir;

// The replay binary with `input` on stdin, stdout and stderr to files.
Outcome run(const TempDir& dir, const std::vector<std::string>& args,
            const std::string& input = "") {
  const std::string in = dir.file("stdin"), out = dir.file("stdout"), err = dir.file("stderr");
  test::write_file(in, input);
  std::vector<std::string> argv = {kBinary};
  argv.insert(argv.end(), args.begin(), args.end());
  test::ChildProcess child(
      test::Spawn{.argv = argv, .stdin_file = in, .stdout_file = out, .stderr_file = err});
  Outcome r;
  r.code = child.wait_exit(std::chrono::seconds(120)).value_or(-1);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

std::string describe(const Outcome& r) {
  return "exit " + std::to_string(r.code) + "\n--- stdout:\n" + r.out + "\n--- stderr:\n" + r.err;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

void exec_sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
  EXPECT_EQ(rc, SQLITE_OK) << (message ? message : "");
  sqlite3_free(message);
  sqlite3_close(db);
}

struct Game {
  MatchOptions options;
  std::uint64_t seed;
};
const std::vector<Game> kGames = {
    {{2, Mode::Simple}, 1}, {{3, Mode::Expert}, 2}, {{4, Mode::Expert}, 3}};
const std::array<std::string, 4> kNames = {"alice", "bob", "carol", "dana"};

// Matches 1..3 (the games above), finished, seats named alice, bob, ...
class ReplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    spdlog::set_level(spdlog::level::warn);  // no "applied migration" chatter
    db_ = dir_.file("matches.db");
    auto store = store::SqliteStore::open(db_, test::with_games<store::Options>());
    ASSERT_TRUE(store) << store.error().message;
    store::MatchId id = 0;
    for (const Game& g : kGames) {
      ++id;
      std::vector<std::uint64_t> hashes;
      RandomGame game = play_random_game(
          g.options, g.seed, [&](const Event&, const State& s) { hashes.push_back(hash(s)); });
      games_.push_back(game);
      std::vector<store::NewEvent> events;
      for (std::size_t i = 0; i < game.events.size(); ++i) {
        store::NewEvent e;
        e.actor = i == 0 ? store::Actor::server() : store::Actor::player(game.events[i].seat);
        e.event = test::handle(game.events[i]);
        e.state_hash = hashes[i];
        events.push_back(std::move(e));
      }
      store::AppendRequest r = store::AppendRequest::of(id, 0, std::move(events),
                                                         test::handle(game.state));
      r.create = store::NewMatch{test::handle(g.options), store::MatchStatus::Running};
      for (int p = 0; p < g.options.players; ++p) {
        store::SeatRecord seat;
        seat.seat = p;
        seat.nickname = kNames[static_cast<std::size_t>(p)];
        seat.resume_token_hash = store::hash_to_hex(static_cast<std::uint64_t>(p));
        r.seats.push_back(seat);
      }
      r.status = store::MatchStatus::Finished;
      r.result_json = R"({"type":"result"})";
      auto done = store->append_batch(std::span(&r, 1));
      ASSERT_TRUE(done.at(0)) << done.at(0).error().message;
    }
  }  // the store closes here: the WAL is checkpointed, the file can be copied

  // A copy of the database to damage.
  std::string copy(const std::string& name) {
    const std::string path = dir_.file(name);
    fs::copy_file(db_, path);
    return path;
  }

  TempDir dir_{"eryantis-replay"};
  std::string db_;
  std::vector<RandomGame> games_;
};

TEST_F(ReplayTest, List) {
  const Outcome r = run(dir_, {db_, "list"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("last activity"), std::string::npos);
  EXPECT_EQ(count(r.out, "finished"), 3) << r.out;
  EXPECT_EQ(count(r.out, "eriantys v1"), 3) << r.out;  // each match's game and rules version
  EXPECT_NE(r.out.find("alice, bob, carol, dana"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("expert"), std::string::npos);
  EXPECT_NE(r.out.find(std::to_string(games_[2].events.size())), std::string::npos);
  EXPECT_NE(r.out.find("3 match(es)"), std::string::npos);
}

TEST_F(ReplayTest, Log) {
  const Outcome r = run(dir_, {db_, "log", "3"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(count(r.out, "\n"), static_cast<int>(games_[2].events.size()));
  // seq, the time it was stored (UTC), the round, the event in words.
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex("^    1  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  setup \u00b7 match "
                        "created: 4 players, expert, characters ")))
      << r.out.substr(0, 300);
  EXPECT_NE(r.out.find("round 1 \u00b7 "), std::string::npos);
  EXPECT_NE(r.out.find(" moved Mother Nature "), std::string::npos);
  EXPECT_NE(r.out.find("played assistant"), std::string::npos);
  EXPECT_NE(r.out.find("GAME OVER"), std::string::npos);
}

// The match's chat, both channels, interleaved by time: each message after the
// events stored before it; a deleted one marked with who deleted it and when;
// control bytes a hand-edited file holds print as '?'.
TEST_F(ReplayTest, LogShowsTheChatAmongTheEvents) {
  std::int64_t last_time = 0;
  {
    auto store = store::SqliteStore::open(db_, test::with_games<store::Options>());
    ASSERT_TRUE(store) << store.error().message;
    last_time = store->load_events(3).value().back().time_ms;
    const std::vector<store::NewChatMessage> chat = {
        {3, store::ChatChannel::Players, "alice", last_time + 1000, "good game"},
        {3, store::ChatChannel::Spectators, "eve", last_time + 2000, "rude"},
        {3, store::ChatChannel::Players, "bob", last_time + 3000, "thanks <b>"},
    };
    auto ids = store->append_chat(chat).value();
    ASSERT_TRUE(store->delete_chat(*ids[1], "operator", last_time + 4000));
  }
  exec_sql(db_, "UPDATE chat_messages SET text = 'x' || char(27) || '[2J' WHERE sender_name = 'bob'");
  const Outcome r = run(dir_, {db_, "log", "3"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(count(r.out, "\n"), static_cast<int>(games_[2].events.size()) + 3);
  const std::size_t over = r.out.find("GAME OVER");
  const std::size_t good = r.out.find(" chat  ");
  ASSERT_NE(good, std::string::npos) << r.out;
  EXPECT_LT(over, good) << "the chat came after the last event";
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex(" chat  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  players \u00b7 "
                        "alice: good game\n chat  [^\n]*  spectators \u00b7 eve: \\[deleted by "
                        "operator at [^\\]]*\\] rude\n chat  [^\n]*  players \u00b7 bob: x\\?\\[2J\n$")))
      << r.out.substr(r.out.size() > 600 ? r.out.size() - 600 : 0);
  // One round: the chat goes with the event stored before it (the last one).
  const Outcome setup = run(dir_, {db_, "log", "3", "--round", "0"});
  ASSERT_EQ(setup.code, 0) << describe(setup);
  EXPECT_EQ(count(setup.out, " chat  "), 0) << setup.out;
  // Another match has none.
  EXPECT_EQ(count(run(dir_, {db_, "log", "1"}).out, " chat  "), 0);
}

// --round R keeps that round's events only, in order; 0 is the setup.
TEST_F(ReplayTest, LogOfOneRound) {
  for (const int round : {0, 1, 2}) {
    const Outcome r = run(dir_, {db_, "log", "3", "--round", std::to_string(round)});
    ASSERT_EQ(r.code, 0) << describe(r);
    const std::string label = round == 0 ? "setup" : "round " + std::to_string(round);
    std::istringstream lines(r.out);
    int n = 0;
    long long previous = 0;
    for (std::string line; std::getline(lines, line); ++n) {
      EXPECT_NE(line.find("  " + label + " \u00b7 "), std::string::npos) << line;
      const long long seq = std::stoll(line.substr(0, 5));
      EXPECT_GT(seq, previous) << line;
      previous = seq;
    }
    EXPECT_GT(n, 0) << label;
    // The whole log has the same lines for this round.
    const Outcome all = run(dir_, {db_, "log", "3"});
    EXPECT_EQ(count(all.out, "  " + label + " \u00b7 "), n) << label;
  }
  const Outcome none = run(dir_, {db_, "log", "3", "--round", "999"});
  EXPECT_EQ(none.code, 2) << describe(none);
  EXPECT_NE(none.err.find("no events in round 999"), std::string::npos) << none.err;
}

// --at N is the state after event N for every subcommand, 0 being before any
// event: export prints it, show draws it (at 0 there is nothing to draw: it says
// so), and apply takes export's state at 0, so create_match (event 1) applied to
// it gives exactly the state at 1. (show --at 0 drew the board after event 1
// while export --at 0 printed the empty state, which apply refused.)
TEST_F(ReplayTest, AtNIsTheStateAfterEventNEverywhere) {
  const auto& events = games_[2].events;
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5}, events.size()}) {
    const std::string at = std::to_string(n);
    const Outcome exported = run(dir_, {db_, "export", "3", "--at", at});
    ASSERT_EQ(exported.code, 0) << describe(exported);
    auto state = codec::state_from_json(exported.out);
    ASSERT_TRUE(state) << state.error().message;
    EXPECT_EQ(*state, fold(std::span(events).first(n))) << "export --at " << n;

    const Outcome shown = run(dir_, {db_, "show", "3", "--at", at, "--no-color"});
    ASSERT_EQ(shown.code, 0) << describe(shown);
    EXPECT_EQ(shown.out.rfind("match 3 at seq " + at + " of " + std::to_string(events.size()) +
                                  "\n",
                              0),
              0u)
        << shown.out;
    if (n == 0) {
      EXPECT_NE(shown.out.find("before any event: no board yet; event 1 (create_match) sets it "
                               "up: show 3 --at 1"),
                std::string::npos)
          << shown.out;
      EXPECT_EQ(shown.out.find("ERYANTIS"), std::string::npos) << "a board at 0:\n" << shown.out;
    } else {
      // The event that led there, as `log` words it, then its board.
      const Outcome log = run(dir_, {db_, "log", "3"});
      std::istringstream lines(log.out);
      std::string line;
      for (std::size_t i = 0; i < n; ++i) std::getline(lines, line);
      const std::string words = line.substr(line.find("  ", 7) + 2);  // after seq and time
      EXPECT_NE(shown.out.find(words), std::string::npos) << words << "\n" << shown.out;
      EXPECT_NE(shown.out.find("ERYANTIS | 4 players, expert"), std::string::npos) << shown.out;
    }
  }

  // The state before any event, straight from export, takes create_match (the
  // server's command, for no seat) and gives the state after event 1.
  const std::string before = dir_.file("before.json");
  std::ofstream(before) << run(dir_, {db_, "export", "3", "--at", "0"}).out;
  const std::string create = codec::command_to_json(events[0].command);
  Outcome r = run(dir_, {"apply", "--state", before, "--seat", "-1", "--server", "--command",
                         create});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(r.out, run(dir_, {db_, "export", "3", "--at", "1"}).out);
  // Without --server the rules say whose command it is; any other command is refused
  // by the rules (the match does not exist yet), not by the state file check.
  r = run(dir_, {"apply", "--state", before, "--seat", "-1", "--command", create});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(r.out.find("SERVER_ONLY"), std::string::npos) << r.out;
  r = run(dir_, {"apply", "--state", before, "--seat", "0", "--command",
                 R"({"type":"choose_wizard","wizard":1})"});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(r.out.find("The match has not been created yet."), std::string::npos) << r.out;
}

TEST_F(ReplayTest, Show) {
  Outcome r = run(dir_, {db_, "show", "1", "--at", "5"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("match 1 at seq 5 of"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("MN> "), std::string::npos);
  EXPECT_NE(r.out.find("alice"), std::string::npos);
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);  // stdout is not a terminal

  r = run(dir_, {db_, "show", "2", "--as", "1", "--color"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("bob (you)"), std::string::npos);
  EXPECT_NE(r.out.find('\x1b'), std::string::npos);
  EXPECT_NE(r.out.find("Game over"), std::string::npos);

  r = run(dir_, {db_, "show", "1", "--at", "100000"});
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("no seq 100000"), std::string::npos) << r.err;
  r = run(dir_, {db_, "show", "1", "--as", "3"});
  EXPECT_EQ(r.code, 2) << describe(r);
}

TEST_F(ReplayTest, StepWithPipedCommands) {
  const Outcome r = run(dir_, {db_, "step", "3"}, "n\nn\np\nj 5\nq\n");
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(count(r.out, "== match 3, event "), 5) << r.out;
  const std::string total = std::to_string(games_[2].events.size());
  std::vector<std::size_t> at;
  for (int seq : {1, 2, 3, 2, 5}) {
    const std::string header = "== match 3, event " + std::to_string(seq) + " of " + total + " ==";
    const std::size_t from = at.empty() ? 0 : at.back() + 1;
    at.push_back(r.out.find(header, from));
    ASSERT_NE(at.back(), std::string::npos) << header << "\n" << r.out;
  }
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);

  // End of input without q, and commands it does not know.
  const Outcome eof = run(dir_, {db_, "step", "1"}, "p\nbogus\nj 0\nn\n");
  ASSERT_EQ(eof.code, 0) << describe(eof);
  EXPECT_NE(eof.out.find("already at the first event"), std::string::npos);
  EXPECT_NE(eof.out.find("commands: n/next"), std::string::npos);
  EXPECT_NE(eof.out.find("jump needs a seq"), std::string::npos);
  EXPECT_EQ(count(eof.out, "== match 1, event "), 2);
}

TEST_F(ReplayTest, VerifyPassesThenFindsACorruptHash) {
  Outcome r = run(dir_, {db_, "verify", "--all"});
  ASSERT_EQ(r.code, 0) << describe(r);
  std::size_t events = 0;
  for (const RandomGame& g : games_) events += g.events.size();
  EXPECT_NE(r.out.find("verified 3 matches, " + std::to_string(events) + " events in "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("0 divergences"), std::string::npos);

  r = run(dir_, {db_, "verify", "2"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("verified 1 match, "), std::string::npos) << r.out;
  r = run(dir_, {db_, "verify"});  // no MATCH: every match
  ASSERT_EQ(r.code, 0) << describe(r);

  const std::string bad = copy("bad-hash.db");
  exec_sql(bad, "UPDATE events SET state_hash = '0123456789abcdef' WHERE match_id = 2 AND seq = 7");
  r = run(dir_, {bad, "verify", "--all"});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(
      r.out.find("DIVERGENCE match 2 seq 7: hash mismatch at event 7: stored 0123456789abcdef, "
                 "recomputed "),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1 divergence\n"), std::string::npos) << r.out;
  r = run(dir_, {bad, "verify", "2", "--threads", "1"});
  EXPECT_EQ(r.code, 1) << describe(r);
  r = run(dir_, {bad, "verify", "1"});
  EXPECT_EQ(r.code, 0) << describe(r);
}

TEST_F(ReplayTest, ExportStateAndEvents) {
  Outcome r = run(dir_, {db_, "export", "3"});
  ASSERT_EQ(r.code, 0) << describe(r);
  auto state = codec::state_from_json(r.out);
  ASSERT_TRUE(state) << state.error().message;
  EXPECT_EQ(*state, games_[2].state);

  r = run(dir_, {db_, "export", "3", "--at", "5"});
  ASSERT_EQ(r.code, 0) << describe(r);
  state = codec::state_from_json(r.out);
  ASSERT_TRUE(state) << state.error().message;
  EXPECT_EQ(state->events_applied, 5u);
  EXPECT_EQ(*state, fold(std::span(games_[2].events).first(5)));

  r = run(dir_, {db_, "export", "2", "--events"});
  ASSERT_EQ(r.code, 0) << describe(r);
  ASSERT_EQ(r.out.front(), '[');
  std::istringstream lines(r.out);
  std::vector<Event> events;
  for (std::string line; std::getline(lines, line);) {
    if (line == "[" || line == "]") continue;
    if (line.back() == ',') line.pop_back();
    auto e = codec::event_from_json(line);
    ASSERT_TRUE(e) << e.error().message << ": " << line;
    events.push_back(*e);
  }
  EXPECT_EQ(events, games_[1].events);
  r = run(dir_, {db_, "export", "2", "--events", "--at", "3"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(count(r.out, "\"v\":1"), 3);
}

TEST_F(ReplayTest, ApplyNeedsNoDatabase) {
  // The 4-player game during its first planning phase.
  const auto& events = games_[2].events;
  State s;
  std::size_t i = 0;
  while (s.phase != Phase::Planning) s = apply(s, events[i++]);
  const std::string file = dir_.file("state.json");
  std::ofstream(file) << codec::state_to_json(s);
  const Seat seat = s.current_seat();
  const Command good = legal_commands(s, seat).front();

  Outcome r = run(dir_, {"apply", "--state", file, "--seat", std::to_string(seat), "--command",
                         codec::command_to_json(good)});
  ASSERT_EQ(r.code, 0) << describe(r);
  auto next = codec::state_from_json(r.out);
  ASSERT_TRUE(next) << next.error().message;
  EXPECT_EQ(*next, apply(s, check(s, seat, good).value()));

  const Seat other = static_cast<Seat>((seat + 1) % 4);
  r = run(dir_, {"apply", "--state", file, "--seat", std::to_string(other), "--command",
                 codec::command_to_json(good)});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_EQ(r.out.rfind("{\"error\":\"NOT_YOUR_TURN\",\"message\":\"", 0), 0u) << r.out;

  // Server-only commands need --server.
  r = run(dir_, {"apply", "--state", file, "--seat", std::to_string(seat), "--command",
                 R"({"type":"skip_turn"})"});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(r.out.find("SERVER_ONLY"), std::string::npos) << r.out;
  r = run(dir_, {"apply", "--state", file, "--seat", std::to_string(seat), "--command",
                 R"({"type":"skip_turn"})", "--server"});
  EXPECT_EQ(r.code, 0) << describe(r);

  // The state from stdin; bad inputs are usage errors.
  r = run(dir_,
          {"apply", "--state", "-", "--seat", std::to_string(seat), "--command",
           codec::command_to_json(good)},
          codec::state_to_json(s));
  EXPECT_EQ(r.code, 0) << describe(r);
  r = run(dir_, {"apply", "--state", dir_.file("nope.json"), "--seat", "0", "--command", "{}"});
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("cannot read the state file"), std::string::npos);
  r = run(dir_, {"apply", "--state", file, "--seat", "0", "--command", R"({"type":"fly"})"});
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("not a command"), std::string::npos);

  // A state that decodes but no match can reach is refused before the rules index with it.
  State broken = s;
  broken.order[0] = -1;
  const std::string broken_file = dir_.file("broken.json");
  std::ofstream(broken_file) << codec::state_to_json(broken);
  r = run(dir_, {"apply", "--state", broken_file, "--seat", std::to_string(seat), "--command",
                 codec::command_to_json(good)});
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("not a state of a real match: the turn order holds a seat out of range"),
            std::string::npos)
      << r.err;
}

TEST_F(ReplayTest, Errors) {
  Outcome r = run(dir_, {dir_.file("missing.db"), "list"});
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("no such database file"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_.file("missing.db")));  // never created

  r = run(dir_, {db_, "log", "99"});
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("no match 99"), std::string::npos) << r.err;
  for (const char* sub : {"show", "step", "verify", "export"}) {
    r = run(dir_, {db_, sub, "99"});
    EXPECT_EQ(r.code, 2) << sub << ": " << describe(r);
  }

  r = run(dir_, {"list"});
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("needs the database"), std::string::npos);
  r = run(dir_, {db_, "frobnicate"});
  EXPECT_EQ(r.code, 2) << describe(r);
  r = run(dir_, {db_, "log", "not-a-number"});
  EXPECT_EQ(r.code, 2) << describe(r);

  const std::string corrupt = copy("corrupt.db");
  exec_sql(corrupt,
           R"(UPDATE events SET payload = '{"v":1,"type":"fly"}' WHERE match_id = 1 AND seq = 4)");
  for (const char* sub : {"log", "show", "export"}) {
    r = run(dir_, {corrupt, sub, "1"});
    EXPECT_EQ(r.code, 2) << describe(r);
    EXPECT_NE(r.err.find("match 1: event 4 does not decode: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("events 1..3 are trustworthy (run `verify 1`)"), std::string::npos)
        << r.err;
  }
  // The trusted prefix can still be looked at.
  r = run(dir_, {corrupt, "show", "1", "--at", "3", "--no-color"});
  EXPECT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("match 1 at seq 3 of 3"), std::string::npos) << r.out;
  r = run(dir_, {corrupt, "verify", "1"});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(r.out.find("DIVERGENCE match 1 seq 4: event 4 does not decode"), std::string::npos)
      << r.out;

  // A read-only open never migrates: an older schema is refused, clearly.
  const std::string old = copy("old.db");
  exec_sql(old, "PRAGMA user_version = 1");
  r = run(dir_, {old, "list"});
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("cannot open " + old + " read-only"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("read-write"), std::string::npos) << r.err;

  const std::string junk = dir_.file("junk.db");
  std::ofstream(junk) << "this is not a database, just text that is long enough to be a header..";
  r = run(dir_, {junk, "list"});
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("cannot open"), std::string::npos) << r.err;
}

// A row that decodes but is illegal is a divergence for every subcommand, never a crash.
TEST_F(ReplayTest, IllegalRowsAreDivergences) {
  const std::string cloud = copy("cloud-nine.db");
  std::size_t index = 0;
  while (!std::holds_alternative<ChooseCloud>(games_[0].events[index].command)) ++index;
  const std::string seq = std::to_string(index + 1);
  exec_sql(cloud,
           "UPDATE events SET payload = json_set(payload, '$.command.cloud', 9) "
           "WHERE match_id = 1 AND seq = " +
               seq);
  for (const char* sub : {"log", "show", "export", "step"}) {
    Outcome r = run(dir_, {cloud, sub, "1"});
    EXPECT_EQ(r.code, 2) << sub << ": " << describe(r);
    EXPECT_NE(r.err.find("match 1: event " + seq + " is refused by today's rules: NO_SUCH_CLOUD"),
              std::string::npos)
        << r.err;
  }
  Outcome r = run(dir_, {cloud, "verify", "--all"});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(r.out.find("DIVERGENCE match 1 seq " + seq + ": event " + seq +
                       " is refused by today's rules: NO_SUCH_CLOUD"),
            std::string::npos)
      << r.out;

  const std::string seat = copy("seat.db");
  exec_sql(seat,
           "UPDATE events SET payload = json_set(payload, '$.seat', -1) "
           "WHERE match_id = 2 AND seq = 9");
  r = run(dir_, {seat, "verify", "2"});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(r.out.find("DIVERGENCE match 2 seq 9: event 9 is refused by today's rules"),
            std::string::npos)
      << r.out;

  // verify also reads the columns that repeat the payload.
  const std::string type = copy("type.db");
  exec_sql(type, "UPDATE events SET type = 'award_forfeit' WHERE match_id = 3 AND seq = 5");
  r = run(dir_, {type, "verify", "3"});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(r.out.find("DIVERGENCE match 3 seq 5: event 5: the type column says 'award_forfeit'"),
            std::string::npos)
      << r.out;
}

TEST_F(ReplayTest, HelpForEverySubcommand) {
  Outcome r = run(dir_, {"--help"});
  EXPECT_EQ(r.code, 0) << describe(r);
  for (const char* sub : {"list", "log", "show", "step", "verify", "export", "apply"})
    EXPECT_NE(r.out.find(sub), std::string::npos) << sub;
  for (const char* sub : {"list", "log", "show", "step", "verify", "export", "apply"}) {
    r = run(dir_, {sub, "--help"});
    EXPECT_EQ(r.code, 0) << sub << ": " << describe(r);
    EXPECT_NE(r.out.find(sub), std::string::npos) << r.out;
    r = run(dir_, {db_, sub, "--help"});
    EXPECT_EQ(r.code, 0) << sub << ": " << describe(r);
  }
  r = run(dir_, {"show", "--help"});
  EXPECT_NE(r.out.find("--at"), std::string::npos);
  EXPECT_NE(r.out.find("--as"), std::string::npos);
}

}  // namespace
}  // namespace eryantis::replay
