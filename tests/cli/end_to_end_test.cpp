// eryantis-cli end to end: the real client binary with piped stdin against the
// real server (a child process, a fresh database in a temp dir). Whole scripted
// games, a client killed and started again, and the server killed and restarted
// under two clients that must find their way back by themselves.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "support/child_process.hpp"
#include "support/network.hpp"
#include "support/polling.hpp"
#include "support/server_process.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using eryantis::test::ChildProcess;
using eryantis::test::eventually;
using eryantis::test::free_port;
using eryantis::test::read_file;
using eryantis::test::ServerProcess;
using eryantis::test::Spawn;
using eryantis::test::TempDir;
using eryantis::test::write_file;

// The last `n` characters of a file, for failure messages.
std::string tail(const fs::path& p, std::size_t n = 3000) {
  const std::string text = read_file(p);
  return "--- " + p.filename().string() + " (last " + std::to_string(n) + " chars) ---\n" +
         (text.size() > n ? text.substr(text.size() - n) : text);
}

bool contains(const fs::path& p, const std::string& needle) {
  return read_file(p).find(needle) != std::string::npos;
}

// The highest "#SEQ " event line a client printed (0 if none yet).
long long last_event(const fs::path& p) {
  static const std::regex line(R"((^|\n)#(\d+) )");
  const std::string text = read_file(p);
  long long best = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator();
       ++it)
    best = std::max(best, std::stoll((*it)[2]));
  return best;
}

enum class Stdin { File, Pipe };

class CliEndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    ::signal(SIGPIPE, SIG_IGN);  // writing to a killed client's stdin must not kill the test
    db_ = dir_ / "cli.db";
    config_ = dir_ / "server.toml";
    // A disconnected player's turn is skipped after 5 s and a lone player wins after
    // 60 s: long enough never to cut into a reconnect, short enough to end a stuck game.
    write_file(config_,
               "[network]\nlisten = \"127.0.0.1\"\n"
               "[heartbeat]\ninterval_ms = 1000\ntimeout_ms = 4000\n"
               "[matches]\nturn_grace_ms = 5000\nforfeit_after_ms = 60000\n"
               "[log]\nlevel = \"info\"\n");
  }

  void TearDown() override {
    if (HasFailure()) {
      for (const auto& entry : fs::directory_iterator(dir_))
        if (entry.path().extension() == ".out") std::cerr << tail(entry.path()) << "\n";
      if (server_) std::cerr << "--- server log ---\n" << server_->log_tail(40) << "\n";
    }
    clients_.clear();
    server_.reset();
  }

  // Starts the server (port 0 = any) and waits until it listens; the same port and
  // database again after a kill.
  void start_server(int port = 0) {
    if (!server_) server_ = std::make_unique<ServerProcess>(config_.string(), db_.string(), port);
    ASSERT_TRUE(server_->start()) << "the server did not start listening\n" << server_->log_tail();
    port_ = server_->port();
  }

  // Starts eryantis-cli as `nickname` (its token file: NICKNAME.tokens; output: NAME.out).
  ChildProcess& start_cli(const std::string& nickname, const std::string& name, Stdin how,
                          const std::string& script, std::vector<std::string> extra = {}) {
    const fs::path input = dir_ / (name + ".in");
    if (how == Stdin::File) write_file(input, script);
    std::vector<std::string> argv = {
        ERYANTIS_CLI_BIN, "--host",   "127.0.0.1", "--port", std::to_string(port_), "--nickname",
        nickname,         "--tokens", (dir_ / (nickname + ".tokens")).string(),   "--no-color"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    clients_.push_back(std::make_unique<ChildProcess>(
        Spawn{.argv = std::move(argv),
              .stdin_file = input.string(),
              .stdin_pipe = how == Stdin::Pipe,
              .stdout_file = out(name).string(),
              .stderr_file = (dir_ / (name + ".err")).string(),
              .append_stderr = true}));
    ChildProcess& p = *clients_.back();
    EXPECT_TRUE(p.started());
    if (how == Stdin::Pipe) {
      EXPECT_TRUE(p.write_stdin(script));
    }
    return p;
  }

  fs::path out(const std::string& name) const { return dir_ / (name + ".out"); }

  // Waits for "joined match N" in a client's output; returns N (0 on timeout).
  long long joined_match(const std::string& name) {
    static const std::regex joined(R"(joined match (\d+) as seat)");
    long long match = 0;
    eventually(10s, [&] {
      std::smatch m;
      const std::string text = read_file(out(name));
      if (!std::regex_search(text, m, joined)) return false;
      match = std::stoll(m[1]);
      return true;
    });
    return match;
  }

  // The status column of every match in the database, in id order.
  std::vector<std::string> match_statuses() {
    std::vector<std::string> out;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(db_.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
      sqlite3_close(db);
      return {"(cannot open the database)"};
    }
    sqlite3_busy_timeout(db, 2000);
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT status FROM matches ORDER BY id", -1, &stmt, nullptr) ==
        SQLITE_OK) {
      while (sqlite3_step(stmt) == SQLITE_ROW)
        out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    } else {
      out.emplace_back(std::string("(") + sqlite3_errmsg(db) + ")");
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return out;
  }

  // Every match in the database is finished (the status is written with the last event; polled
  // anyway).
  void expect_all_finished(std::size_t matches) {
    std::vector<std::string> statuses;
    eventually(5s, [&] {
      statuses = match_statuses();
      return statuses == std::vector<std::string>(matches, "finished");
    });
    ASSERT_EQ(statuses.size(), matches);
    for (const auto& s : statuses) EXPECT_EQ(s, "finished");
  }

  // A client ends by itself with exit code 0 after "*** game over".
  void expect_finishes(ChildProcess& p, const std::string& name) {
    const auto code = p.wait_exit(30s);
    ASSERT_TRUE(code.has_value()) << name << " did not end\n" << tail(out(name));
    EXPECT_EQ(*code, 0) << name << "\n" << tail(out(name));
    EXPECT_TRUE(contains(out(name), "*** game over: ")) << name << "\n" << tail(out(name));
  }

  // The "*** game over: ... ***" line of a client's output.
  std::string result_line(const std::string& name) {
    const std::string text = read_file(out(name));
    const auto at = text.find("*** game over: ");
    if (at == std::string::npos) return {};
    return text.substr(at, text.find('\n', at) - at);
  }

  TempDir temp_{"eryantis-cli-e2e"};
  fs::path dir_ = temp_.path();
  fs::path db_, config_;
  std::unique_ptr<ServerProcess> server_;
  std::vector<std::unique_ptr<ChildProcess>> clients_;
  int port_ = 0;
};

// (a) Two scripted clients play a whole expert game and quit at the end of their input.
TEST_F(CliEndToEnd, ScriptedFullGame) {
  ASSERT_NO_FATAL_FAILURE(start_server());
  ChildProcess& alice = start_cli("alice", "alice", Stdin::File, "create 2 expert\nautoplay\n");
  const long long match = joined_match("alice");
  ASSERT_GT(match, 0) << tail(out("alice"));
  ChildProcess& bob =
      start_cli("bob", "bob", Stdin::File, "join " + std::to_string(match) + "\nautoplay\n");

  ASSERT_NO_FATAL_FAILURE(expect_finishes(alice, "alice"));
  ASSERT_NO_FATAL_FAILURE(expect_finishes(bob, "bob"));
  EXPECT_EQ(result_line("alice"), result_line("bob"));
  EXPECT_TRUE(std::regex_match(
      result_line("alice"),
      std::regex(R"(\*\*\* game over: \S.* (won|share the victory) \(\w+\) \*\*\*)")))
      << result_line("alice");

  const std::string a = read_file(out("alice"));
  EXPECT_NE(a.find("logged in as alice. Type help for the commands."), std::string::npos);
  EXPECT_NE(a.find("joined match " + std::to_string(match) + " as seat 0"), std::string::npos);
  EXPECT_NE(a.find("bob took seat 1"), std::string::npos);
  EXPECT_NE(a.find("ERYANTIS | 2 players, expert"), std::string::npos);  // the board
  EXPECT_EQ(a.find("\033["), std::string::npos);                         // --no-color
  EXPECT_GT(last_event(out("alice")), 20);
  EXPECT_EQ(last_event(out("alice")), last_event(out("bob")));
  EXPECT_NE(a.find("GAME OVER"), std::string::npos);  // the last event, in words
  EXPECT_EQ(a.find("connection lost"), std::string::npos);
  expect_all_finished(1);
}

// A private match (docs/accounts.md): alice creates it and is shown its invite code;
// carol's `list` does not show it and `join` without the code finds no such match; bob
// starts with --join and the invite link, and the two play it to the end.
TEST_F(CliEndToEnd, APrivateMatchIsJoinedWithItsInviteLink) {
  ASSERT_NO_FATAL_FAILURE(start_server());
  ChildProcess& alice = start_cli("alice", "alice", Stdin::File, "create 2 --private\nautoplay\n");
  const long long match = joined_match("alice");
  ASSERT_GT(match, 0) << tail(out("alice"));
  static const std::regex invited(R"(invite with its code ([A-Za-z0-9_-]{22}):)");
  std::string code;
  eventually(10s, [&] {
    std::smatch m;
    const std::string text = read_file(out("alice"));
    if (!std::regex_search(text, m, invited)) return false;
    code = m[1];
    return true;
  });
  ASSERT_FALSE(code.empty()) << tail(out("alice"));
  ChildProcess& carol = start_cli("carol", "carol", Stdin::File,
                                  "list\njoin " + std::to_string(match) + "\nquit\n");
  const auto carol_code = carol.wait_exit(15s);
  ASSERT_TRUE(carol_code.has_value()) << tail(out("carol"));
  const std::string seen = read_file(out("carol"));
  EXPECT_NE(seen.find("✗ NO_SUCH_MATCH: "), std::string::npos) << seen;
  EXPECT_EQ(seen.find("#" + std::to_string(match) + " "), std::string::npos) << seen;
  ChildProcess& bob = start_cli(
      "bob", "bob", Stdin::File, "autoplay\n",
      {"--join", "http://127.0.0.1:8080/#join=" + std::to_string(match) + "&code=" + code});
  ASSERT_NO_FATAL_FAILURE(expect_finishes(alice, "alice"));
  ASSERT_NO_FATAL_FAILURE(expect_finishes(bob, "bob"));
  EXPECT_TRUE(contains(out("bob"), "joined match " + std::to_string(match) + " as seat 1"))
      << tail(out("bob"));
  expect_all_finished(1);
}

// An account (docs/accounts.md, "The terminal client"): --register with the password
// from --password-file creates a match; the session secret is kept in a 0600 file, so
// the next start with --login and no password is back in that match; `logout all`
// forgets it, and a start with neither a session nor a password is refused, as is a
// wrong password (BAD_LOGIN).
TEST_F(CliEndToEnd, AnAccountLogsInByPasswordThenByItsSavedSession) {
  {
    std::ofstream(config_, std::ios::app) << "[accounts]\npasses = 1\nmemory_kib = 8\n";
  }
  ASSERT_NO_FATAL_FAILURE(start_server());
  const fs::path sessions = dir_ / "dana.sessions";
  const fs::path password = dir_ / "password";
  write_file(password, "correct horse\n");
  auto start = [&](const std::string& name, const std::string& script,
                   std::vector<std::string> account) -> ChildProcess& {
    write_file(dir_ / (name + ".in"), script);
    std::vector<std::string> argv = {ERYANTIS_CLI_BIN, "--host", "127.0.0.1", "--port",
                                     std::to_string(port_), "--sessions", sessions.string(),
                                     "--tokens", (dir_ / "dana.tokens").string(), "--no-color"};
    argv.insert(argv.end(), account.begin(), account.end());
    clients_.push_back(std::make_unique<ChildProcess>(
        Spawn{.argv = std::move(argv),
              .stdin_file = (dir_ / (name + ".in")).string(),
              .stdout_file = out(name).string(),
              .stderr_file = (dir_ / (name + ".err")).string(),
              .append_stderr = true}));
    EXPECT_TRUE(clients_.back()->started());
    return *clients_.back();
  };
  ChildProcess& first = start("register", "create 2\nquit\n",
                              {"--register", "Dana", "--password-file", password.string()});
  auto code = first.wait_exit(20s);
  ASSERT_TRUE(code.has_value()) << tail(out("register"));
  EXPECT_EQ(*code, 0) << tail(out("register"));
  const long long match = joined_match("register");
  ASSERT_GT(match, 0) << tail(out("register"));
  EXPECT_TRUE(contains(out("register"), "registered account Dana")) << tail(out("register"));
  ASSERT_TRUE(fs::exists(sessions));
  EXPECT_EQ(fs::status(sessions).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(read_file(sessions).find("correct horse"), std::string::npos);

  // No password: the saved session logs in, and the seat is back.
  ChildProcess& second = start("session", "logout all\n", {"--login", "dana"});
  code = second.wait_exit(20s);
  ASSERT_TRUE(code.has_value()) << tail(out("session"));
  EXPECT_EQ(*code, 0) << tail(out("session"));
  EXPECT_TRUE(contains(out("session"), "logged in as Dana, back in match " + std::to_string(match)))
      << tail(out("session"));
  EXPECT_TRUE(contains(out("session"), "logged out of account Dana")) << tail(out("session"));

  // Logged out: no session and no password (no terminal to type it) is refused.
  ChildProcess& third = start("none", "quit\n", {"--login", "dana"});
  code = third.wait_exit(20s);
  ASSERT_TRUE(code.has_value()) << tail(out("none"));
  EXPECT_EQ(*code, 3) << tail(out("none"));
  EXPECT_TRUE(contains(out("none"), "no saved session")) << tail(out("none"));

  // A wrong password.
  write_file(password, "battery staple\n");
  ChildProcess& wrong =
      start("wrong", "quit\n", {"--login", "dana", "--password-file", password.string()});
  code = wrong.wait_exit(20s);
  ASSERT_TRUE(code.has_value()) << tail(out("wrong"));
  EXPECT_EQ(*code, 3) << tail(out("wrong"));
  EXPECT_TRUE(contains(out("wrong"), "BAD_LOGIN")) << tail(out("wrong"));
}

// A bad line is answered in words and the script goes on.
TEST_F(CliEndToEnd, MistakesAreExplainedAndTheScriptGoesOn) {
  ASSERT_NO_FATAL_FAILURE(start_server());
  ChildProcess& carol =
      start_cli("carol", "carol", Stdin::File, "fly away\nplay 3\njoin 99\nlist\nquit\n");
  const auto code = carol.wait_exit(15s);
  ASSERT_TRUE(code.has_value()) << tail(out("carol"));
  EXPECT_EQ(*code, 0);
  const std::string text = read_file(out("carol"));
  EXPECT_NE(text.find("? unknown command \"fly\""), std::string::npos) << text;
  EXPECT_NE(text.find("? you are not in a match"), std::string::npos) << text;
  EXPECT_NE(text.find("✗ NO_SUCH_MATCH: "), std::string::npos) << text;
  // `list` after the refused join: the reply came back before quit.
  const auto first = text.find("matches you can join:");
  ASSERT_NE(first, std::string::npos) << text;
  EXPECT_NE(text.find("matches you can join:", first + 1), std::string::npos) << text;
}

// More requests than the per-connection rate limit (50 a second): the server drops
// the extra lines unread and answers RATE_LIMITED. That answer ends the wait for
// the reply: the client goes on with its script instead of hanging.
TEST_F(CliEndToEnd, RateLimitedRequestsDoNotHangTheClient) {
  ASSERT_NO_FATAL_FAILURE(start_server());
  std::string script;
  for (int i = 0; i < 150; ++i) script += "list\n";
  ChildProcess& dave = start_cli("dave", "dave", Stdin::File, script + "quit\n");
  const auto code = dave.wait_exit(15s);
  ASSERT_TRUE(code.has_value()) << "the client hung\n" << tail(out("dave"));
  EXPECT_EQ(*code, 0);
  EXPECT_TRUE(contains(out("dave"), "✗ RATE_LIMITED: ")) << tail(out("dave"));
}

// (b) A client killed mid-game; a new one with the same nickname and token file is
// back in the match and plays it to the end.
TEST_F(CliEndToEnd, KilledClientComesBackWithItsToken) {
  ASSERT_NO_FATAL_FAILURE(start_server());
  // stdin stays open: this client would never quit by itself.
  ChildProcess& alice = start_cli("alice", "alice-1", Stdin::Pipe, "create 2\nautoplay\n");
  const long long match = joined_match("alice-1");
  ASSERT_GT(match, 0) << tail(out("alice-1"));
  ChildProcess& bob =
      start_cli("bob", "bob", Stdin::File, "join " + std::to_string(match) + "\nautoplay\n");

  ASSERT_TRUE(eventually(15s, [&] { return last_event(out("alice-1")) >= 15; }))
      << tail(out("alice-1"));
  alice.kill_hard();
  ASSERT_FALSE(contains(out("alice-1"), "*** game over"))
      << "the game ended before the client was killed";
  EXPECT_TRUE(fs::exists(dir_ / "alice.tokens"));

  ChildProcess& alice2 = start_cli("alice", "alice-2", Stdin::File, "autoplay\n");
  ASSERT_NO_FATAL_FAILURE(expect_finishes(alice2, "alice-2"));
  ASSERT_NO_FATAL_FAILURE(expect_finishes(bob, "bob"));
  EXPECT_TRUE(contains(out("alice-2"),
                       "logged in as alice, back in match " + std::to_string(match) + " (seat 0)"))
      << tail(out("alice-2"));
  EXPECT_EQ(result_line("alice-2"), result_line("bob"));
  EXPECT_TRUE(contains(out("bob"), "alice disconnected")) << tail(out("bob"));
  EXPECT_TRUE(contains(out("bob"), "alice is back")) << tail(out("bob"));
  EXPECT_FALSE(contains(out("bob"), "connection lost"));
  EXPECT_FALSE(contains(out("alice-2"), "✗ BAD_TOKEN"));
  expect_all_finished(1);
}

// (c) The server is killed mid-game and restarted on the same port and database:
// both clients notice, reconnect by themselves, land back in the match and finish it.
// A spectator (carol) watches again by herself and sees the rest of the game.
TEST_F(CliEndToEnd, ServerRestartMidGame) {
  const int port = free_port();
  ASSERT_GT(port, 0);
  ASSERT_NO_FATAL_FAILURE(start_server(port));
  ChildProcess& alice = start_cli("alice", "alice", Stdin::File, "create 2\nautoplay\n");
  const long long match = joined_match("alice");
  ASSERT_GT(match, 0) << tail(out("alice"));
  // stdin stays open: the spectator would never quit by itself.
  ChildProcess& carol =
      start_cli("carol", "carol", Stdin::Pipe, "watch " + std::to_string(match) + "\n");
  ASSERT_TRUE(eventually(5s, [&] { return contains(out("carol"), "watching match "); }))
      << tail(out("carol"));
  ChildProcess& bob =
      start_cli("bob", "bob", Stdin::File, "join " + std::to_string(match) + "\nautoplay\n");

  ASSERT_TRUE(eventually(
      15s, [&] { return last_event(out("alice")) >= 15 && last_event(out("bob")) >= 15; }))
      << tail(out("alice")) << tail(out("bob"));
  server_->kill_hard();
  ASSERT_FALSE(contains(out("alice"), "*** game over"))
      << "the game ended before the server was killed";
  ASSERT_TRUE(eventually(5s,
                         [&] {
                           return contains(out("alice"), "connection lost (") &&
                                  contains(out("bob"), "connection lost (");
                         }))
      << tail(out("alice")) << tail(out("bob"));
  EXPECT_TRUE(alice.running());
  EXPECT_TRUE(bob.running());

  ASSERT_NO_FATAL_FAILURE(start_server(port));
  ASSERT_NO_FATAL_FAILURE(expect_finishes(alice, "alice"));
  ASSERT_NO_FATAL_FAILURE(expect_finishes(bob, "bob"));
  const std::string back = "back in match " + std::to_string(match);
  EXPECT_TRUE(contains(out("alice"), "logged in as alice, " + back + " (seat 0)"))
      << tail(out("alice"));
  EXPECT_TRUE(contains(out("bob"), "logged in as bob, " + back + " (seat 1)")) << tail(out("bob"));
  EXPECT_TRUE(contains(out("alice"), "reconnecting in 250 ms"));
  EXPECT_EQ(result_line("alice"), result_line("bob"));
  EXPECT_EQ(last_event(out("alice")), last_event(out("bob")));
  expect_all_finished(1);

  // The spectator: back by itself, and up to the last event.
  ASSERT_TRUE(eventually(10s, [&] { return last_event(out("carol")) == last_event(out("alice")); }))
      << tail(out("carol"));
  EXPECT_TRUE(contains(out("carol"),
                       "logged in as carol, watching match " + std::to_string(match) + " again"))
      << tail(out("carol"));
  EXPECT_TRUE(contains(out("carol"), "GAME OVER")) << tail(out("carol"));
  EXPECT_TRUE(carol.running());
}

// Many clients of one user start at the same moment with different nicknames and
// one shared token file (the default under ~/.local/share/eryantis for everyone):
// every token must be in the file afterwards, every time. Before the file was
// locked and merged, about one start in three lost a token and that player was
// refused forever (NICKNAME_TAKEN). Then each starts again with the file and must
// be let in with its saved token (a lost or stale token would be refused).
TEST_F(CliEndToEnd, ConcurrentStartsKeepEveryToken) {
  constexpr int kClients = 16;
  constexpr int kRounds = 2;
  ASSERT_NO_FATAL_FAILURE(start_server());
  const fs::path tokens = dir_ / "shared.tokens";
  write_file(dir_ / "quit.in", "quit\n");
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::unique_ptr<ChildProcess>> clients;
    for (int i = 0; i < kClients; ++i) {
      std::string nickname = "p";  // built step by step: g++ 12 warns wrongly about "p" + ...
      nickname += std::to_string(i);
      clients.push_back(std::make_unique<ChildProcess>(
          Spawn{.argv = {ERYANTIS_CLI_BIN, "--host", "127.0.0.1", "--port", std::to_string(port_),
                         "--nickname", nickname, "--tokens", tokens.string(), "--no-color"},
                .stdin_file = (dir_ / "quit.in").string()}));
    }
    for (int i = 0; i < kClients; ++i) {
      const auto code = clients[static_cast<std::size_t>(i)]->wait_exit(20s);
      ASSERT_TRUE(code.has_value()) << "p" << i << " did not end";
      const std::string text = clients[static_cast<std::size_t>(i)]->output();
      EXPECT_EQ(*code, 0) << "round " << round << ", p" << i << ":\n" << text;
      EXPECT_NE(text.find("logged in as p" + std::to_string(i) + "."), std::string::npos) << text;
    }
    const std::string saved = read_file(tokens);
    for (int i = 0; i < kClients; ++i)
      EXPECT_NE(saved.find("\tp" + std::to_string(i) + '\t'), std::string::npos)
          << "round " << round << ": the token of p" << i << " was lost\n"
          << saved;
  }
}

}  // namespace
