// A restart keeps what a running server keeps: a client's retry of one of the
// last server::kRecentCommands commands gets its original ack after the server
// was restarted from the store (the real store, load_matches and Server).
#include "eryantis/main/load.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "eryantis/codec/codec.hpp"
#include "eryantis/main/store_persistence.hpp"
#include "fake_secret_source.hpp"
#include "fakes.hpp"
#include "games/handles.hpp"

namespace eryantis::app {
namespace {

struct Lines final : server::Transport {
  std::map<server::ConnectionId, std::vector<std::string>> sent;
  void send(server::ConnectionId id, std::string line) override {
    sent[id].push_back(std::move(line));
  }
  void close(server::ConnectionId) override {}
};

// The integer or string after "key": in a reply line (the tests' replies are flat).
std::string field(const std::string& line, const std::string& key) {
  const std::string tag = "\"" + key + "\":";
  const auto at = line.find(tag);
  if (at == std::string::npos) return {};
  auto begin = at + tag.size();
  const bool quoted = line[begin] == '"';
  if (quoted) ++begin;
  auto end = line.find_first_of(quoted ? "\"" : ",}", begin);
  return line.substr(begin, end - begin);
}

// One server over a group committer on `path`, driven line by line.
struct Running {
  Lines lines;
  server::FakeSecretSource secrets;
  std::unique_ptr<store::GroupCommitter> committer;
  std::unique_ptr<StorePersistence> persistence;
  std::unique_ptr<server::Server> server;

  explicit Running(const std::string& path) {
    auto started = store::GroupCommitter::start(path, {test::with_games(store::Options{})}, [] {});
    EXPECT_TRUE(started) << started.error().message;
    committer = std::move(*started);
    persistence = std::make_unique<StorePersistence>(
        *committer,
        read_only_opener({store::Backend::Sqlite, path}, test::with_games(store::Options{})));
    server = std::make_unique<server::Server>(
        server::test_server_config(), lines, *persistence, [] { return std::int64_t{1'000'000}; },
        secrets);
  }
  ~Running() { committer->stop(); }

  // Sends a line and returns the connection's first reply once every write it caused committed.
  std::string say(server::ConnectionId c, const std::string& line) {
    const std::size_t before = lines.sent[c].size();
    server->on_line(c, line);
    for (int i = 0; i < 1000 && !server->idle(); ++i) {
      committer->flush();
      persistence->deliver();
    }
    EXPECT_TRUE(server->idle());
    // A join's `chat_history` is read on the store's reader thread and may land during a
    // later line (it did under ASan): it is a push, not this line's reply.
    for (std::size_t i = before; i < lines.sent[c].size(); ++i)
      if (lines.sent[c][i].find(R"("type":"chat_history")") == std::string::npos) return lines.sent[c][i];
    return std::string();
  }
  // hello + login; returns the resume token.
  std::string connect(server::ConnectionId c, const std::string& nickname,
                      const std::string& token = {}) {
    server->on_open(c, "127.0.0.1:1");
    say(c, R"({"type":"hello","protocol":1})");
    std::string login = R"({"type":"login","nickname":")" + nickname + "\"";
    if (!token.empty()) login += R"(,"token":")" + token + "\"";
    const std::string reply = say(c, login + "}");
    EXPECT_EQ(field(reply, "type"), "logged_in") << reply;
    return field(reply, "token");
  }
};

TEST(Restart, ARetryOfAnOlderCommandGetsItsOriginalAck) {
  const std::string dir = ::testing::TempDir() + "eryantis-restart-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/eryantis.db";

  struct Sent {
    server::ConnectionId conn;
    std::string command_id;
    std::string line;
    std::string seq;  // of its ack
  };
  std::vector<Sent> sent;
  std::map<server::ConnectionId, std::string> tokens;
  const std::map<server::ConnectionId, std::string> names = {{1, "alice"}, {2, "bob"}};
  store::MatchId match = 0;
  {
    Running a(path);
    for (const auto& [conn, name] : names) tokens[conn] = a.connect(conn, name);
    match = std::stoll(field(a.say(1, R"({"type":"create_match","players":2})"), "match"));
    a.say(2, R"({"type":"join_match","match":)" + std::to_string(match) + "}");
    // 70 commands with ids, each the first legal one of a seat to act.
    for (int i = 0; i < 70; ++i) {
      const rules::State& state = test::eriantys_state(a.server->room(match)->state);
      ASSERT_NE(state.phase, rules::Phase::GameOver);
      const rules::Seat seat = rules::seats_to_act(state).at(0);
      const std::string command = codec::command_to_json(rules::legal_commands(state, seat).at(0));
      Sent s{static_cast<server::ConnectionId>(seat + 1), "c" + std::to_string(i), {}, {}};
      // Appended piece by piece: g++ 12 misreports -Wrestrict on a chain of operator+.
      s.line = R"({"type":"play","command_id":")";
      s.line.append(s.command_id).append(R"(","command":)").append(command).append("}");
      const std::string ack = a.say(s.conn, s.line);
      ASSERT_EQ(field(ack, "type"), "ack") << ack;
      s.seq = field(ack, "seq");
      sent.push_back(std::move(s));
    }
  }  // the server stops; everything it acknowledged is in the store

  store::SqliteStore db = store::SqliteStore::open(path, test::with_games(store::Options{})).value();
  auto restored = load_matches(db);
  ASSERT_TRUE(restored) << restored.error();
  ASSERT_EQ(restored->matches.size(), 1u);
  EXPECT_EQ(restored->matches[0].recent_commands.size(), server::kRecentCommands);

  Running b(path);
  b.server->load_matches(std::move(restored->matches), restored->next_match_id);
  const Sent& older = sent[sent.size() - 40];  // the 40th from last
  b.connect(older.conn, names.at(older.conn), tokens[older.conn]);
  const std::string ack = b.say(older.conn, older.line);
  EXPECT_EQ(field(ack, "type"), "ack") << ack;
  EXPECT_EQ(field(ack, "seq"), older.seq) << ack;
  EXPECT_EQ(field(ack, "replayed"), "true") << ack;
  EXPECT_EQ(b.server->room(match)->seq, std::stoll(sent.back().seq));  // nothing applied twice

  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace
}  // namespace eryantis::app
