// eryantis-cli end to end: the real client binary with piped stdin against the
// real server (a child process, a fresh database in a temp dir). Whole scripted
// games, a client killed and started again, and the server killed and restarted
// under two clients that must find their way back by themselves.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Under ASan/UBSan (CI sets ERYANTIS_SANITIZER_RUN) everything is slower: wait longer.
int slow() {
  return std::getenv("ERYANTIS_SANITIZER_RUN") != nullptr ? 5 : 1;
}
std::chrono::milliseconds scaled(std::chrono::milliseconds d) {
  return d * slow();
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The last `n` characters of a file, for failure messages.
std::string tail(const fs::path& p, std::size_t n = 3000) {
  const std::string text = slurp(p);
  return "--- " + p.filename().string() + " (last " + std::to_string(n) + " chars) ---\n" +
         (text.size() > n ? text.substr(text.size() - n) : text);
}

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

// Polls `probe` every 10 ms until it is true or the time is up.
template <class F>
bool eventually(std::chrono::milliseconds timeout, F probe) {
  const auto deadline = Clock::now() + scaled(timeout);
  while (true) {
    if (probe()) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
}

bool contains(const fs::path& p, const std::string& needle) {
  return slurp(p).find(needle) != std::string::npos;
}

// The highest "#SEQ " event line a client printed (0 if none yet).
long long last_event(const fs::path& p) {
  static const std::regex line(R"((^|\n)#(\d+) )");
  const std::string text = slurp(p);
  long long best = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator();
       ++it)
    best = std::max(best, std::stoll((*it)[2]));
  return best;
}

// A free TCP port on 127.0.0.1: bind port 0, read it, close it.
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

// A child process with stdin from a file or a pipe we hold, stdout and stderr to
// files. The destructor kills (SIGKILL) and reaps it if it still runs.
class Process {
 public:
  enum class Stdin { File, Pipe };

  Process(std::vector<std::string> argv, Stdin how, const fs::path& input, const fs::path& output,
          const fs::path& errors) {
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    int pipe_fds[2] = {-1, -1};
    if (how == Stdin::Pipe && ::pipe2(pipe_fds, O_CLOEXEC) != 0) return;
    const int in = how == Stdin::File ? ::open(input.c_str(), O_RDONLY | O_CLOEXEC) : pipe_fds[0];
    const int out = ::open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const int err = ::open(errors.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    pid_ = ::fork();
    if (pid_ == 0) {
      // dup2 clears close-on-exec on the copies: only 0, 1 and 2 reach the program.
      if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(126);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    ::close(in);
    ::close(out);
    ::close(err);
    if (how == Stdin::Pipe) stdin_ = pipe_fds[1];
  }
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  ~Process() {
    close_stdin();
    kill_now();
  }

  bool started() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

  bool write_stdin(const std::string& text) {
    if (stdin_ < 0) return false;
    return ::write(stdin_, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  }
  void close_stdin() {
    if (stdin_ >= 0) ::close(stdin_);
    stdin_ = -1;
  }

  // The exit code once it exits within the time (-signal if a signal ended it), nullopt otherwise.
  std::optional<int> wait_exit(std::chrono::milliseconds timeout) {
    if (status_) return status_;
    eventually(timeout, [&] { return reap(WNOHANG); });
    return status_;
  }
  bool running() { return pid_ > 0 && !status_ && !reap(WNOHANG); }

  void kill_now() {
    if (pid_ <= 0 || status_) return;
    ::kill(pid_, SIGKILL);
    reap(0);
  }

 private:
  bool reap(int flags) {
    if (status_) return true;
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, flags);
    if (r != pid_) return false;
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    return true;
  }

  pid_t pid_ = -1;
  int stdin_ = -1;
  std::optional<int> status_;
};

class CliEndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    ::signal(SIGPIPE, SIG_IGN);  // writing to a killed client's stdin must not kill the test
    char tmpl[] = "/tmp/eryantis-cli-e2e-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
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
    if (HasFailure())
      for (const auto& entry : fs::directory_iterator(dir_))
        if (entry.path().extension() == ".out" || entry.path().extension() == ".log")
          std::cerr << tail(entry.path()) << "\n";
    clients_.clear();
    server_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Starts the server (port 0 = any) and waits for "listening on 127.0.0.1:PORT".
  void start_server(int port = 0) {
    const fs::path log = dir_ / ("server-" + std::to_string(++server_runs_) + ".log");
    server_ = std::make_unique<Process>(
        std::vector<std::string>{ERYANTIS_SERVER_BIN, "--config", config_.string(), "--port",
                                 std::to_string(port), "--db", db_.string()},
        Process::Stdin::File, "/dev/null", dir_ / "server.out", log);
    ASSERT_TRUE(server_->started());
    static const std::regex listening(R"(listening on 127\.0\.0\.1:(\d+))");
    const bool up = eventually(15s, [&] {
      std::smatch m;
      const std::string text = slurp(log);
      if (!std::regex_search(text, m, listening)) return !server_->running();
      port_ = std::stoi(m[1]);
      return true;
    });
    ASSERT_TRUE(up && server_->running()) << "the server did not start listening\n" << tail(log);
    if (port != 0) {
      ASSERT_EQ(port_, port);
    }
  }

  // Starts eryantis-cli as `nickname` (its token file: NICKNAME.tokens; output: NAME.out).
  Process& start_cli(const std::string& nickname, const std::string& name, Process::Stdin how,
                     const std::string& script) {
    const fs::path input = dir_ / (name + ".in");
    if (how == Process::Stdin::File) write_file(input, script);
    clients_.push_back(std::make_unique<Process>(
        std::vector<std::string>{ERYANTIS_CLI_BIN, "--host", "127.0.0.1", "--port",
                                 std::to_string(port_), "--nickname", nickname, "--tokens",
                                 (dir_ / (nickname + ".tokens")).string(), "--no-color"},
        how, input, out(name), dir_ / (name + ".err")));
    Process& p = *clients_.back();
    EXPECT_TRUE(p.started());
    if (how == Process::Stdin::Pipe) {
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
      const std::string text = slurp(out(name));
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
  void expect_finishes(Process& p, const std::string& name) {
    const auto code = p.wait_exit(30s);
    ASSERT_TRUE(code.has_value()) << name << " did not end\n" << tail(out(name));
    EXPECT_EQ(*code, 0) << name << "\n" << tail(out(name));
    EXPECT_TRUE(contains(out(name), "*** game over: ")) << name << "\n" << tail(out(name));
  }

  // The "*** game over: ... ***" line of a client's output.
  std::string result_line(const std::string& name) {
    const std::string text = slurp(out(name));
    const auto at = text.find("*** game over: ");
    if (at == std::string::npos) return {};
    return text.substr(at, text.find('\n', at) - at);
  }

  fs::path dir_, db_, config_;
  std::unique_ptr<Process> server_;
  std::vector<std::unique_ptr<Process>> clients_;
  int port_ = 0;
  int server_runs_ = 0;
};

// (a) Two scripted clients play a whole expert game and quit at the end of their input.
TEST_F(CliEndToEnd, ScriptedFullGame) {
  ASSERT_NO_FATAL_FAILURE(start_server());
  Process& alice = start_cli("alice", "alice", Process::Stdin::File, "create 2 expert\nautoplay\n");
  const long long match = joined_match("alice");
  ASSERT_GT(match, 0) << tail(out("alice"));
  Process& bob = start_cli("bob", "bob", Process::Stdin::File,
                           "join " + std::to_string(match) + "\nautoplay\n");

  ASSERT_NO_FATAL_FAILURE(expect_finishes(alice, "alice"));
  ASSERT_NO_FATAL_FAILURE(expect_finishes(bob, "bob"));
  EXPECT_EQ(result_line("alice"), result_line("bob"));
  EXPECT_TRUE(std::regex_match(
      result_line("alice"),
      std::regex(R"(\*\*\* game over: \S.* (won|share the victory) \(\w+\) \*\*\*)")))
      << result_line("alice");

  const std::string a = slurp(out("alice"));
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

// A bad line is answered in words and the script goes on.
TEST_F(CliEndToEnd, MistakesAreExplainedAndTheScriptGoesOn) {
  ASSERT_NO_FATAL_FAILURE(start_server());
  Process& carol =
      start_cli("carol", "carol", Process::Stdin::File, "fly away\nplay 3\njoin 99\nlist\nquit\n");
  const auto code = carol.wait_exit(15s);
  ASSERT_TRUE(code.has_value()) << tail(out("carol"));
  EXPECT_EQ(*code, 0);
  const std::string text = slurp(out("carol"));
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
  Process& dave = start_cli("dave", "dave", Process::Stdin::File, script + "quit\n");
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
  Process& alice = start_cli("alice", "alice-1", Process::Stdin::Pipe, "create 2\nautoplay\n");
  const long long match = joined_match("alice-1");
  ASSERT_GT(match, 0) << tail(out("alice-1"));
  Process& bob = start_cli("bob", "bob", Process::Stdin::File,
                           "join " + std::to_string(match) + "\nautoplay\n");

  ASSERT_TRUE(eventually(15s, [&] { return last_event(out("alice-1")) >= 15; }))
      << tail(out("alice-1"));
  alice.kill_now();
  ASSERT_FALSE(contains(out("alice-1"), "*** game over"))
      << "the game ended before the client was killed";
  EXPECT_TRUE(fs::exists(dir_ / "alice.tokens"));

  Process& alice2 = start_cli("alice", "alice-2", Process::Stdin::File, "autoplay\n");
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
TEST_F(CliEndToEnd, ServerRestartMidGame) {
  const int port = free_port();
  ASSERT_GT(port, 0);
  ASSERT_NO_FATAL_FAILURE(start_server(port));
  Process& alice = start_cli("alice", "alice", Process::Stdin::File, "create 2\nautoplay\n");
  const long long match = joined_match("alice");
  ASSERT_GT(match, 0) << tail(out("alice"));
  Process& bob = start_cli("bob", "bob", Process::Stdin::File,
                           "join " + std::to_string(match) + "\nautoplay\n");

  ASSERT_TRUE(eventually(
      15s, [&] { return last_event(out("alice")) >= 15 && last_event(out("bob")) >= 15; }))
      << tail(out("alice")) << tail(out("bob"));
  server_->kill_now();
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
}

}  // namespace
