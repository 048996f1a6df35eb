// eryantis-cli in a real terminal: the binary runs in a pseudo-terminal (forkpty),
// so it uses readline and its prompt exactly as for a person, against the real
// server on 127.0.0.1. It must end on `quit`, on Ctrl-D and on SIGTERM (a prompt
// that stays after the end is the bug this guards against), also while the server
// is gone, and exit non-zero when its login is refused.
#include <gtest/gtest.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "command_line.hpp"
#include "fake_server.hpp"
#include "session.hpp"
#include "support/child_process.hpp"
#include "support/polling.hpp"
#include "support/server_process.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using eryantis::test::eventually;

// A program on the slave side of a pseudo-terminal; what it writes is drained
// from the master side by a thread. The destructor kills and reaps it.
class PtyProcess {
 public:
  explicit PtyProcess(std::vector<std::string> args, unsigned short rows = 40,
                      unsigned short columns = 120) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    winsize size{};
    size.ws_row = rows;
    size.ws_col = columns;
    pid_ = ::forkpty(&master_, nullptr, nullptr, &size);
    if (pid_ == 0) {
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    if (pid_ < 0) return;
    reader_ = std::thread([this] {
      char chunk[4096];
      for (;;) {
        const ssize_t n = ::read(master_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // EIO once the terminal's last user is gone
        std::lock_guard lock(mutex_);
        output_.append(chunk, static_cast<std::size_t>(n));
      }
    });
  }
  PtyProcess(const PtyProcess&) = delete;
  PtyProcess& operator=(const PtyProcess&) = delete;
  ~PtyProcess() {
    if (pid_ > 0 && !status_) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
    if (reader_.joinable()) reader_.join();
    if (master_ >= 0) ::close(master_);
  }

  bool started() const { return pid_ > 0; }
  void type(const std::string& keys) {
    ASSERT_EQ(::write(master_, keys.data(), keys.size()), static_cast<ssize_t>(keys.size()));
  }
  void signal(int signum) { ::kill(pid_, signum); }
  std::string output() const {
    std::lock_guard lock(mutex_);
    return output_;
  }
  bool wait_output(const std::string& needle, std::chrono::milliseconds timeout) {
    return eventually(timeout, [&] { return output().find(needle) != std::string::npos; });
  }
  // The exit code (128 + signal if a signal ended it) once it exits, nullopt if it still runs.
  std::optional<int> wait_exit(std::chrono::milliseconds timeout) {
    eventually(timeout, [&] {
      if (status_) return true;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) != pid_) return false;
      status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      // Everything it wrote is read once the reader sees the end (EIO): output() is complete.
      if (reader_.joinable()) reader_.join();
      return true;
    });
    return status_;
  }

 private:
  pid_t pid_ = -1;
  int master_ = -1;
  std::optional<int> status_;
  std::thread reader_;
  mutable std::mutex mutex_;
  std::string output_;
};

class CliTerminal : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("TERM", "xterm", 0);  // a terminal readline knows, when the test runner has none
    eryantis::test::write_file(config_,
                               "[network]\nlisten = \"127.0.0.1\"\n[log]\nlevel = \"info\"\n");
    server_ = std::make_unique<eryantis::test::ServerProcess>(config_, dir_.file("cli.db"));
    ASSERT_TRUE(server_->start()) << server_->log_tail();
  }
  void TearDown() override {
    if (HasFailure() && client_) std::cerr << "--- terminal ---\n" << client_->output() << "\n";
  }

  std::vector<std::string> cli_args(const std::string& nickname, const std::string& tokens) {
    return {
        ERYANTIS_CLI_BIN, "--host", "127.0.0.1", "--port",         std::to_string(server_->port()),
        "--nickname",     nickname, "--tokens",  dir_.file(tokens)};
  }
  // eryantis-cli in a terminal, logged in and at its prompt.
  void start_at_prompt(const std::string& nickname) {
    client_ = std::make_unique<PtyProcess>(cli_args(nickname, nickname + ".tokens"));
    ASSERT_TRUE(client_->started());
    ASSERT_TRUE(client_->wait_output("logged in as " + nickname, 10s)) << client_->output();
    ASSERT_TRUE(client_->wait_output("eryantis> ", 5s)) << client_->output();
  }
  void expect_exit(int code) {
    const auto status = client_->wait_exit(5s);
    ASSERT_TRUE(status.has_value()) << "still running: the prompt stayed";
    EXPECT_EQ(*status, code);
  }

  eryantis::test::TempDir dir_{"eryantis-cli-pty"};
  std::string config_ = dir_.file("server.toml");
  std::unique_ptr<eryantis::test::ServerProcess> server_;
  std::unique_ptr<PtyProcess> client_;
};

TEST_F(CliTerminal, QuitEndsIt) {
  ASSERT_NO_FATAL_FAILURE(start_at_prompt("alice"));
  client_->type("list\r");
  ASSERT_TRUE(client_->wait_output("matches you can join:", 5s));
  client_->type("quit\r");
  expect_exit(eryantis::cli::kExitOk);
}

TEST_F(CliTerminal, CtrlDEndsIt) {
  ASSERT_NO_FATAL_FAILURE(start_at_prompt("alice"));
  client_->type("\x04");
  expect_exit(eryantis::cli::kExitOk);
}

TEST_F(CliTerminal, SigtermEndsIt) {
  ASSERT_NO_FATAL_FAILURE(start_at_prompt("alice"));
  client_->signal(SIGTERM);
  expect_exit(eryantis::cli::kExitOk);
}

// The server is gone and the client keeps reconnecting: a person's quit and
// Ctrl-D still end it at once.
TEST_F(CliTerminal, QuitAndCtrlDWorkWhileTheServerIsGone) {
  ASSERT_NO_FATAL_FAILURE(start_at_prompt("alice"));
  server_->kill_hard();
  ASSERT_TRUE(client_->wait_output("connection lost", 5s));
  client_->type("quit\r");
  expect_exit(eryantis::cli::kExitOk);

  ASSERT_TRUE(server_->start()) << server_->log_tail();
  ASSERT_NO_FATAL_FAILURE(start_at_prompt("bob"));
  server_->kill_hard();
  ASSERT_TRUE(client_->wait_output("connection lost", 5s));
  client_->type("\x04");
  expect_exit(eryantis::cli::kExitOk);
}

// An account's password is typed at the terminal without echo (termios), twice for
// --register; the session then saved logs in the next start with no prompt.
TEST_F(CliTerminal, TheAccountPasswordIsTypedWithoutEcho) {
  ::unsetenv("ERYANTIS_PASSWORD");
  const std::vector<std::string> base = {
      ERYANTIS_CLI_BIN, "--host",     "127.0.0.1", "--port", std::to_string(server_->port()),
      "--tokens",       dir_.file("pat.tokens"), "--sessions", dir_.file("pat.sessions")};
  std::vector<std::string> args = base;
  args.insert(args.end(), {"--register", "Pat"});
  client_ = std::make_unique<PtyProcess>(args);
  ASSERT_TRUE(client_->started());
  ASSERT_TRUE(client_->wait_output("password for Pat: ", 10s)) << client_->output();
  client_->type("correct horse\r");
  ASSERT_TRUE(client_->wait_output("the same password again: ", 5s)) << client_->output();
  client_->type("correct horse\r");
  ASSERT_TRUE(client_->wait_output("logged in as Pat", 10s)) << client_->output();
  EXPECT_EQ(client_->output().find("correct horse"), std::string::npos) << "echoed";
  ASSERT_TRUE(client_->wait_output("eryantis> ", 5s)) << client_->output();
  client_->type("quit\r");
  expect_exit(eryantis::cli::kExitOk);

  args = base;
  args.insert(args.end(), {"--login", "pat"});
  client_ = std::make_unique<PtyProcess>(args);
  ASSERT_TRUE(client_->started());
  ASSERT_TRUE(client_->wait_output("logged in as Pat", 10s)) << client_->output();
  EXPECT_EQ(client_->output().find("password for"), std::string::npos) << "the session logs in";
  ASSERT_TRUE(client_->wait_output("eryantis> ", 5s)) << client_->output();
  client_->type("logout\r");
  ASSERT_TRUE(client_->wait_output("logged out of account Pat", 5s)) << client_->output();
  expect_exit(eryantis::cli::kExitOk);
}

// Tab completes each argument from its values: `wiz` -> `wizard `, then two tabs
// list the wizards 0 to 3 (readline's own listing, in the terminal).
TEST_F(CliTerminal, TabCompletesCommandsAndTheirValues) {
  ASSERT_NO_FATAL_FAILURE(start_at_prompt("alice"));
  client_->type("wiz\t");
  ASSERT_TRUE(client_->wait_output("wizard ", 5s)) << client_->output();
  client_->type("\t\t");
  ASSERT_TRUE(eventually(5s, [&] {
    return std::regex_search(client_->output(), std::regex("0 +1 +2 +3"));
  })) << client_->output();
  client_->type("\x15help jes\t\r");  // Ctrl-U empties the line; `jes` completes to jester
  ASSERT_TRUE(client_->wait_output("Jester (1 coin)", 5s)) << client_->output();
  client_->type("quit\r");
  expect_exit(eryantis::cli::kExitOk);
}

// A message from the server while the person is half-way through a line (here:
// bob joins alice's match and her board is redrawn) is printed above the line;
// what she had typed is still there and the rest of it completes the command.
TEST_F(CliTerminal, AMessageWhileTypingKeepsTheTypedLine) {
  ASSERT_NO_FATAL_FAILURE(start_at_prompt("alice"));
  client_->type("create 2\r");
  ASSERT_TRUE(client_->wait_output("waiting for", 5s)) << client_->output();
  client_->type("help jes");
  ASSERT_TRUE(client_->wait_output("help jes", 5s)) << client_->output();
  const std::size_t before = client_->output().size();

  PtyProcess bob(cli_args("bob", "bob.tokens"));
  ASSERT_TRUE(bob.started());
  ASSERT_TRUE(bob.wait_output("eryantis> ", 10s)) << bob.output();
  bob.type("quick\r");
  // alice's terminal shows the news, then her line again, still unfinished.
  ASSERT_TRUE(eventually(5s, [&] {
    const std::string out = client_->output();
    const auto news = out.find("bob", before);
    return news != std::string::npos && out.find("help jes", news) != std::string::npos;
  })) << client_->output();
  client_->type("ter\r");
  ASSERT_TRUE(client_->wait_output("Jester (1 coin)", 5s)) << client_->output();
  client_->type("quit\r");
  expect_exit(eryantis::cli::kExitOk);
  bob.type("quit\r");
}

// In an 80x24 terminal the board takes the compact layout: 80 columns at most.
TEST_F(CliTerminal, ASmallTerminalGetsTheCompactBoard) {
  client_ = std::make_unique<PtyProcess>(cli_args("alice", "alice.tokens"), 24, 80);
  ASSERT_TRUE(client_->started());
  ASSERT_TRUE(client_->wait_output("eryantis> ", 10s)) << client_->output();
  client_->type("create 4 expert\r");
  ASSERT_TRUE(client_->wait_output("island Y B G R P towers", 5s)) << client_->output();
  ASSERT_TRUE(client_->wait_output("waiting for alice (you)", 5s)) << client_->output();
  const std::string out = client_->output();
  const auto board = out.find("ERYANTIS 4p expert");
  ASSERT_NE(board, std::string::npos) << out;
  const auto end = out.find("waiting for alice (you)", board);
  // Every board line up to the status line is within 80 columns (escapes aside).
  std::string plain =
      std::regex_replace(out.substr(board, end - board), std::regex("\x1b\\[[0-9;?]*[A-Za-z]"), "");
  std::size_t lines = 0;
  for (std::size_t at = 0; at < plain.size();) {
    const auto nl = plain.find('\n', at);
    const std::string line = plain.substr(at, nl == std::string::npos ? nl : nl - at);
    std::size_t columns = 0;
    for (unsigned char ch : line)
      if ((ch & 0xc0) != 0x80 && ch != '\r') ++columns;
    EXPECT_LE(columns, 80u) << line;
    ++lines;
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  EXPECT_LE(lines, 22u) << plain;
  client_->type("quit\r");
  expect_exit(eryantis::cli::kExitOk);
}

// `help` in an 80x24 terminal: every line fits in 80 columns, broken between
// words only (the words are exactly the help's), and the next prompt has a line of
// its own (it was drawn twice, the second one run into the first: "eryantis> help
// eryantis> ").
TEST_F(CliTerminal, HelpFitsEightyColumnsAndThePromptKeepsItsOwnLine) {
  client_ = std::make_unique<PtyProcess>(cli_args("alice", "alice.tokens"), 24, 80);
  ASSERT_TRUE(client_->started());
  ASSERT_TRUE(client_->wait_output("matches you can join:", 10s)) << client_->output();
  ASSERT_TRUE(eventually(5s, [&] {
    const std::string out = client_->output();
    return out.find("eryantis> ", out.find("matches you can join:")) != std::string::npos;
  })) << client_->output();
  const std::size_t before = client_->output().size();
  client_->type("help\r");
  const std::string last_words = "wins.";  // the help's last word (no line break inside)
  ASSERT_TRUE(eventually(5s, [&] {
    const std::string out = client_->output();
    const auto end = out.find(last_words, before);
    return end != std::string::npos && out.find("eryantis> ", end) != std::string::npos;
  })) << client_->output();
  client_->type("list\r");  // what follows the help is then on screen for good
  ASSERT_TRUE(eventually(5s, [&] {
    return client_->output().find("matches you can join:", before) != std::string::npos;
  })) << client_->output();

  const std::string plain = std::regex_replace(client_->output().substr(before),
                                               std::regex("\x1b\\[[0-9;?]*[A-Za-z]|\r"), "");
  const auto start = plain.find("help\n");
  const auto end = plain.find(last_words);
  ASSERT_NE(start, std::string::npos) << plain;
  ASSERT_NE(end, std::string::npos) << plain;
  const std::string help = plain.substr(start + 5, end + last_words.size() - start - 5);
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    std::size_t columns = 0;
    for (unsigned char ch : line)
      if ((ch & 0xc0) != 0x80) ++columns;
    EXPECT_LE(columns, 80u) << line;
  }
  auto words = [](const std::string& text) {
    std::istringstream in(text);
    return std::vector<std::string>(std::istream_iterator<std::string>(in),
                                    std::istream_iterator<std::string>());
  };
  EXPECT_EQ(words(help), words(eryantis::cli::help_text())) << help;
  // After the help: a new line, the prompt, and what was typed next.
  EXPECT_EQ(plain.substr(end + last_words.size(), 16), "\neryantis> list\n") << plain;
  client_->type("quit\r");
  expect_exit(eryantis::cli::kExitOk);
}

// alice is connected elsewhere (a piped client that stays): a second alice with
// no token is refused (NICKNAME_TAKEN) and must say so and exit non-zero.
TEST_F(CliTerminal, ARefusedLoginExitsNonZero) {
  eryantis::test::ChildProcess holder(
      eryantis::test::Spawn{.argv = cli_args("alice", "holder.tokens"), .stdin_pipe = true});
  ASSERT_TRUE(eventually(10s, [&] {
    return holder.output().find("logged in as alice") != std::string::npos;
  })) << holder.output();

  client_ = std::make_unique<PtyProcess>(cli_args("alice", "other.tokens"));
  ASSERT_TRUE(client_->started());
  expect_exit(eryantis::cli::kExitLoginRefused);
  EXPECT_NE(client_->output().find("NICKNAME_TAKEN"), std::string::npos);
  EXPECT_NE(client_->output().find("cannot log in as alice; quitting"), std::string::npos);
  EXPECT_TRUE(holder.running());  // the first alice is untouched
}

// A nickname the server refuses (a space in it): the client says why and exits
// non-zero instead of leaving a prompt where nothing can run.
TEST_F(CliTerminal, AnInvalidNicknameExitsNonZeroWithASentence) {
  client_ = std::make_unique<PtyProcess>(cli_args("no spaces", "bad.tokens"));
  ASSERT_TRUE(client_->started());
  expect_exit(eryantis::cli::kExitLoginRefused);
  EXPECT_NE(client_->output().find("INVALID_NICKNAME"), std::string::npos) << client_->output();
  EXPECT_NE(client_->output().find("\"no spaces\" is not a nickname this server accepts"),
            std::string::npos)
      << client_->output();
}

// The same with piped input (a script): the client must not wait for its input
// to end (it never will here: the pipe stays open).
TEST_F(CliTerminal, AnInvalidNicknameExitsNonZeroWithPipedInput) {
  eryantis::test::ChildProcess piped(eryantis::test::Spawn{
      .argv = cli_args(std::string(25, 'a'), "long.tokens"), .stdin_pipe = true});
  ASSERT_TRUE(piped.write_stdin("list\ncreate 2\n"));
  const auto status = piped.wait_exit(10s);
  ASSERT_TRUE(status.has_value()) << "still running with its input open\n" << piped.output();
  EXPECT_EQ(*status, eryantis::cli::kExitLoginRefused) << piped.output();
  EXPECT_NE(piped.output().find("is not a nickname this server accepts"), std::string::npos)
      << piped.output();
  EXPECT_EQ(piped.output().find("matches you can join"), std::string::npos) << piped.output();
}

// Lines no server should send, each read with type checks: the client reports
// and skips them, and stays usable (a request still gets its answer, quit still
// ends it with 0). Fed by a fake server, to a client in a real terminal.
std::vector<std::string> hostile_lines() {
  std::vector<std::string> lines = {
      "not json at all",
      "[1,2,3]",
      "{\"type\":5}",
      "{\"type\":null,\"id\":{}}",
      "{\"type\":\"logged_in\",\"nickname\":5,\"token\":[1]}",
      "{\"type\":\"joined\",\"match\":\"x\",\"seat\":77}",
      "{\"type\":\"joined\",\"match\":1e999,\"seat\":-2147483649}",
      "{\"type\":\"state\",\"match\":1,\"seq\":-1,\"view\":\"no\",\"seat\":99}",
      "{\"type\":\"state\",\"match\":1,\"seq\":3,\"view\":{\"bogus\":1},\"hash\":\"zz\","
      "\"to_act\":[\"a\",99],\"allowed\":[1],\"legal\":[{\"type\":\"fly\"},7,null],"
      "\"deadline\":{\"action\":7,\"in_ms\":\"soon\",\"seat\":\"x\"}}",
      "{\"type\":\"event\",\"match\":1,\"seq\":4,\"event\":{\"type\":\"nope\"},\"text\":9}",
      "{\"type\":\"event\",\"match\":1,\"seq\":5,\"event\":[],\"deadline\":[]}",
      "{\"type\":\"seats\",\"match\":1,\"seats\":[{\"seat\":99,\"nickname\":\"x\"},{\"seat\":-5},"
      "7,{\"seat\":1,\"nickname\":[],\"connected\":\"yes\"}],"
      "\"deadline\":{\"action\":\"forfeit\",\"seat\":1,\"nickname\":\"bob\",\"in_ms\":-5}}",
      "{\"type\":\"seats\",\"deadline\":{\"action\":\"skip_turn\",\"seat\":9,\"in_ms\":1e300}}",
      "{\"type\":\"match_list\",\"open\":[1,{\"match\":\"a\"},{\"match\":2,\"seats\":\"x\"}],"
      "\"running\":{}}",
      "{\"type\":\"game_over\",\"match\":\"m\",\"result\":{\"winners\":[\"a\",-1],"
      "\"nicknames\":[1],\"draw\":\"no\"}}",
      "{\"type\":\"game_over\",\"result\":7}",
      "{\"type\":\"error\",\"code\":7,\"message\":[]}",
      "{\"type\":\"error\",\"code\":\"NOT_YOUR_TURN\",\"message\":\"seat 9 plays; seat -1\"}",
      "{\"type\":\"spectating\",\"match\":-4}",
      "{\"type\":\"left\"}",
      "{\"type\":\"ping\",\"id\":1.5}",
      "{\"type\":\"shutdown\",\"message\":{}}",
      "{\"type\":\"\xff\xfe\"}",
      "{\"type\":\"welcome\",\"protocol\":\"1\",\"max_line_bytes\":-1}",
      std::string(200000, '['),
      "{\"type\":\"state\"," + std::string(5000, ' ') + "\"match\":",
  };
  return lines;
}

TEST(CliFakeServer, HostileLinesNeverCrashIt) {
  ::setenv("TERM", "xterm", 0);
  eryantis::test::FakeServer server([](const std::string& line) -> std::string {
    if (line.find("\"type\":\"login\"") != std::string::npos) {
      std::string out = "{\"type\":\"welcome\",\"protocol\":1,\"server\":\"fake\"}\n";
      for (const auto& l : hostile_lines()) out += l + "\n";
      out += "{\"type\":\"logged_in\",\"id\":\"login\",\"nickname\":\"alice\",\"token\":\"t\"}\n";
      for (const auto& l : hostile_lines()) out += l + "\n";
      return out;
    }
    if (line.find("\"type\":\"list_matches\"") != std::string::npos) {
      // The answer to the typed `list`, after more garbage.
      std::string out;
      for (const auto& l : hostile_lines()) out += l + "\n";
      const auto id_at = line.find("\"id\":");
      const std::string id =
          id_at == std::string::npos
              ? ""
              : line.substr(id_at + 5, line.find_first_of(",}", id_at) - id_at - 5);
      out += "{\"type\":\"match_list\"" + (id.empty() ? "" : ",\"id\":" + id) +
             ",\"open\":[{\"match\":42,\"players\":2,\"mode\":\"expert\",\"status\":\"lobby\","
             "\"seats\":[{\"seat\":0,\"nickname\":\"zed\",\"connected\":true}]}],\"running\":[]}\n";
      return out;
    }
    return {};
  });
  ASSERT_GT(server.port(), 0);
  eryantis::test::TempDir dir("eryantis-cli-hostile");
  PtyProcess client({ERYANTIS_CLI_BIN, "--host", "127.0.0.1", "--port",
                     std::to_string(server.port()), "--nickname", "alice", "--tokens",
                     dir.file("tokens")});
  ASSERT_TRUE(client.started());
  ASSERT_TRUE(client.wait_output("logged in as alice", 10s)) << client.output();
  ASSERT_TRUE(client.wait_output("unreadable line from the server", 5s)) << client.output();
  // Wait for the garbage after logged_in to be read, then ask for the lobby.
  ASSERT_TRUE(eventually(5s, [&] {
    const std::string out = client.output();
    std::size_t n = 0;
    for (auto at = out.find("unreadable line"); at != std::string::npos;
         at = out.find("unreadable line", at + 1))
      ++n;
    return n >= 8;
  })) << client.output();
  client.type("list\r");
  ASSERT_TRUE(client.wait_output("#42", 5s)) << client.output();
  EXPECT_NE(client.output().find("zed"), std::string::npos);
  client.type("quit\r");
  const auto status = client.wait_exit(5s);
  ASSERT_TRUE(status.has_value()) << "still running\n" << client.output();
  EXPECT_EQ(*status, eryantis::cli::kExitOk) << client.output();
  EXPECT_EQ(server.connections(), 1) << "the client had to reconnect:\n" << client.output();
}

}  // namespace
