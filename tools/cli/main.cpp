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
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
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
  app.add_option("--nickname", options.nickname, "your nickname: 1 to 24 letters, digits, _ - .")
      ->required();
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
