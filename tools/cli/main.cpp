// eryantis-cli: the terminal client people play with. Connects, logs in (resume
// token kept per server and nickname), shows the lobby, and draws the whole board
// after every update (compact in a terminal smaller than 100x40: --layout). Reconnects
// by itself with backoff and lands back in the match, or watches the same match again.
// In a cluster (docs/cluster.md) it follows a node's `redirect` to the node serving
// the match (at most 3 in a row).
//
// The game flow is the Session (session.hpp); this file only wires it to the
// world: the connection, the loop's timers and signals, and the input (readline
// at a terminal, a reader thread for piped input: terminal.hpp).
//
// Exit codes: 0 after quit, end of input, SIGINT or SIGTERM; 3 when the login is
// refused for good (INVALID_NICKNAME, NICKNAME_TAKEN, BAD_TOKEN, ...); 1 when the
// input cannot be read; CLI11's codes for a bad command line.
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <cctype>
#include <iostream>
#include <system_error>

#include "eryantis/client/connection.hpp"
#include "eryantis/client/token_store.hpp"
#include "eryantis/net/event_loop.hpp"
#include "eryantis/util/command_line.hpp"
#include "session.hpp"
#include "terminal.hpp"

using namespace eryantis;

namespace {

// The Session's host: the connection, the loop and the screen.
class Shell final : public cli::SessionHost, public client::LineConnection::Handler {
 public:
  Shell(net::EventLoop& loop, client::ConnectionPool& pool, cli::SessionOptions options,
        const std::string& token_file)
      : loop_(loop),
        connection_(pool, *this),
        session_(
            *this, options,
            client::TokenStore(token_file.empty()
                                   ? client::TokenStore::default_path().value_or("eryantis-tokens")
                                   : std::filesystem::path(token_file)),
            std::random_device{}()) {}

  cli::Session& session() { return session_; }
  void set_prompt(cli::Prompt* prompt) { prompt_ = prompt; }

  // cli::SessionHost
  void connect(const std::string& host, int port) override { connection_.connect(host, port); }
  void send(std::string_view line) override { connection_.send(line); }
  void print(const std::string& text) override {
    if (prompt_ != nullptr)
      prompt_->print(text);
    else
      cli::print_plain(text);
  }
  void after(std::uint64_t delay_ms, std::function<void()> callback) override {
    loop_.after(delay_ms, std::move(callback));
  }
  std::uint64_t now_ms() override {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
  }
  std::size_t columns() override {
    // Asked each time: the terminal may have been resized since.
    winsize size{};
    if (prompt_ == nullptr || ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
  }
  void quit() override {
    connection_.close();
    loop_.stop();  // closes the timers, the signal watchers, the wakeup and the prompt's poll
  }

  // client::LineConnection::Handler
  void on_connected() override { session_.connected(); }
  void on_line(std::string_view line) override { session_.line(line); }
  void on_closed(std::string_view reason) override { session_.closed(reason); }

 private:
  net::EventLoop& loop_;
  client::LineConnection connection_;
  cli::Prompt* prompt_ = nullptr;
  cli::Session session_;
};

// The full board needs about 40 rows and 100 columns; a smaller terminal (the
// classic 80x24) gets the compact one.
bool small_terminal() {
  winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_row == 0) return false;
  return size.ws_row < 40 || size.ws_col < 100;
}

// The account's password (docs/accounts.md, "The terminal client"): the first line of
// --password-file, else $ERYANTIS_PASSWORD, else typed at the terminal without echo;
// nullopt when none of them can give one.
std::optional<std::string> read_password(const std::string& file, const std::string& name,
                                         bool twice) {
  if (!file.empty()) {
    std::ifstream in(file);
    std::string line;
    if (!in || !std::getline(in, line)) {
      std::fprintf(stderr, "--password-file: cannot read %s\n", file.c_str());
      return std::nullopt;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
  }
  if (const char* env = std::getenv("ERYANTIS_PASSWORD"); env != nullptr && *env != '\0')
    return std::string(env);
  if (!isatty(STDIN_FILENO)) return std::nullopt;
  auto ask = [](const std::string& prompt) -> std::optional<std::string> {
    std::fputs(prompt.c_str(), stderr);
    std::fflush(stderr);
    termios saved{};
    const bool tty = ::tcgetattr(STDIN_FILENO, &saved) == 0;
    if (tty) {
      termios quiet = saved;
      quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
      quiet.c_lflag |= ECHONL;
      ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
    }
    std::string line;
    const bool got = static_cast<bool>(std::getline(std::cin, line));
    if (tty) ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    if (!got) return std::nullopt;
    return line;
  };
  auto first = ask("password for " + name + ": ");
  if (!first || !twice) return first;
  auto again = ask("the same password again: ");
  if (!again || *again != *first) {
    std::fprintf(stderr, "the two passwords differ\n");
    return std::nullopt;
  }
  return first;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "eryantis-cli: play Eriantys in a terminal (type help once connected).\n"
      "Exit codes: 0 after quit, the end of the input, SIGINT or SIGTERM; 3 when the server "
      "refuses the login for good (a nickname it does not accept, one in use, a wrong resume "
      "token); 1 when the input cannot be read."};
  cli::SessionOptions options;
  std::string token_file;  // empty = the default under the data directory
  bool no_color = false;
  app.add_option("--host", options.host, "server address")->capture_default_str();
  app.add_option("--port", options.port, "server port")
      ->capture_default_str()
      ->check(CLI::Range(1, 65535));
  auto* nickname_option =
      app.add_option("--nickname", options.nickname,
                     "your nickname as a guest: 1 to 24 letters, digits, _ - .");
  std::string login_name;
  std::string register_name;
  std::string password_file;
  std::string sessions_file;  // empty = the default under the data directory
  auto* login_option = app.add_option(
      "--login", login_name,
      "log in to account NAME: with the session saved by an earlier login, else the password "
      "(typed without echo, $ERYANTIS_PASSWORD or --password-file)");
  auto* register_option = app.add_option(
      "--register", register_name, "register account NAME (the password as for --login)");
  nickname_option->excludes(login_option)->excludes(register_option);
  login_option->excludes(register_option);
  app.add_option("--password-file", password_file,
                 "the account's password: the first line of this file");
  app.add_option("--sessions", sessions_file,
                 "account session file, mode 0600 (default: $XDG_DATA_HOME/eryantis/sessions)");
  app.add_option("--tokens", token_file,
                 "resume-token file (default: under $XDG_DATA_HOME/eryantis)");
  app.add_flag("--no-color", no_color, "plain text, no ANSI colours");
  std::string layout = "auto";
  app.add_option("--layout", layout,
                 "board layout: compact (80x24), full (100x40) or auto (by the terminal's size)")
      ->check(CLI::IsMember({"auto", "compact", "full"}))
      ->capture_default_str();
  std::string join_link;
  app.add_option("--join", join_link,
                 "an invite link (http://host:port/#join=MATCH&code=CODE): join that private "
                 "match once logged in");
  if (auto exit = eryantis::util::parse_command_line(app, argc, argv)) return *exit;
  if (options.nickname.empty() && login_name.empty() && register_name.empty()) {
    std::fprintf(stderr, "give --nickname NAME (a guest), --login NAME or --register NAME\n");
    return 2;
  }
  if (!login_name.empty() || !register_name.empty()) {
    options.account = true;
    options.register_account = !register_name.empty();
    options.nickname = options.register_account ? register_name : login_name;
    if (sessions_file.empty()) {
      auto tokens = client::TokenStore::default_path();
      sessions_file = tokens ? (tokens->parent_path() / "sessions").string()
                             : std::string("eryantis-sessions");
    }
    options.sessions_file = sessions_file;
    // A password is needed unless a saved session logs in.
    std::string key = options.nickname;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool saved =
        !options.register_account &&
        client::TokenStore(sessions_file)
            .get(options.host + ":" + std::to_string(options.port), key)
            .has_value();
    if (!saved) {
      auto password = read_password(password_file, options.nickname, options.register_account &&
                                                                         password_file.empty());
      if (password) options.password = std::move(*password);
    }
  }
  if (!join_link.empty()) {
    options.join = cli::parse_join_link(join_link);
    if (!options.join) {
      std::fprintf(stderr, "--join: not an invite link (http://host:port/#join=MATCH&code=CODE)\n");
      return 2;
    }
  }
  const bool tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  options.color = !no_color && isatty(STDOUT_FILENO);
  options.redraw_in_place = tty && options.color;
  options.interactive = tty;
  options.compact = layout == "compact" || (layout == "auto" && tty && small_terminal());

  net::EventLoop loop;
  client::ConnectionPool pool(loop);
  Shell shell(loop, pool, options, token_file);
  cli::Session& session = shell.session();
  loop.on_signals([&](int) { session.quit(); });

  auto sink = [&](std::optional<std::string> line) {
    if (line)
      session.typed(std::move(*line));
    else
      session.input_closed();
  };
  // Both are destroyed before the loop: the prompt restores the terminal, the
  // reader's thread is stopped and joined.
  std::optional<cli::Prompt> prompt;
  std::optional<cli::LineReader> reader;
  if (tty) {
    prompt.emplace(loop, sink, [&session](std::string_view before, std::string_view word) {
      return session.completions(before, word);
    });
    shell.set_prompt(&*prompt);
  } else {
    try {
      reader.emplace(loop, sink);
    } catch (const std::system_error& e) {
      std::fprintf(stderr, "eryantis-cli: cannot read the input: %s\n", e.what());
      return 1;
    }
  }
  session.start();
  loop.run();
  shell.set_prompt(nullptr);
  return session.exit_code();
}
