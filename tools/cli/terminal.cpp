// The terminal client's input: readline at a terminal, a reader thread otherwise.
#include "terminal.hpp"

#include <fcntl.h>
#include <poll.h>
#include <readline/history.h>
#include <readline/readline.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <system_error>
#include <vector>

#include "command_line.hpp"

namespace eryantis::cli {

namespace {

// readline's callback interface has no user pointer: the one live Prompt's sink
// and completer.
LineSink* g_sink = nullptr;
Completer* g_completer = nullptr;

// The matches of the word being completed, computed once per attempt (state 0).
std::vector<std::string> g_matches;
std::size_t g_next = 0;

// True while the sink handles a line readline just accepted: readline has ended
// that line (the cursor is at the start of the next) and draws a fresh prompt
// once the handler returns, so what is printed meanwhile needs no prompt kept.
bool g_in_line_handler = false;

char* next_match(const char*, int) {
  if (g_next >= g_matches.size()) return nullptr;
  return strdup(g_matches[g_next++].c_str());
}

// Each argument's values, from what comes before the word: `wizard ` -> 0 1 2 3.
char** complete(const char* text, int start, int) {
  rl_attempted_completion_over = 1;
  g_matches.clear();
  g_next = 0;
  if (g_completer != nullptr && *g_completer)
    g_matches = (*g_completer)(std::string_view(rl_line_buffer, static_cast<std::size_t>(start)),
                               std::string_view(text));
  return rl_completion_matches(text, next_match);
}

void on_readline(char* line) {
  if (g_sink == nullptr) {
    std::free(line);
    return;
  }
  if (line == nullptr) {  // Ctrl-D on an empty line
    (*g_sink)(std::nullopt);
    return;
  }
  std::string text(line);
  if (!text.empty()) add_history(line);
  std::free(line);
  g_in_line_handler = true;
  (*g_sink)(std::move(text));
  g_in_line_handler = false;
}

}  // namespace

void print_plain(const std::string& text) {
  std::fputs(text.c_str(), stdout);
  if (text.empty() || text.back() != '\n') std::fputc('\n', stdout);
  std::fflush(stdout);
}

// --- Prompt ------------------------------------------------------------------------

struct Prompt::Poll {
  uv_poll_t handle{};
};

Prompt::Prompt(net::EventLoop& loop, LineSink sink, Completer completer)
    : sink_(std::move(sink)), completer_(std::move(completer)) {
  g_sink = &sink_;
  g_completer = &completer_;
  rl_catch_signals = 0;  // SIGINT and SIGTERM belong to the event loop's watchers
  rl_attempted_completion_function = complete;
  rl_callback_handler_install("eryantis> ", on_readline);
  auto poll = std::make_unique<Poll>();
  if (uv_poll_init(loop.raw(), &poll->handle, STDIN_FILENO) != 0) {
    print_plain("(cannot watch the terminal: quit with Ctrl-C)");
  } else {
    // From here libuv knows the handle: it is freed by its close callback only.
    poll_ = poll.release();
    poll_->handle.data = poll_;
    if (uv_poll_start(&poll_->handle, UV_READABLE,
                      [](uv_poll_t*, int, int) { rl_callback_read_char(); }) != 0)
      print_plain("(cannot watch the terminal: quit with Ctrl-C)");
  }
  // loop.stop() must close the poll, or run() would wait for stdin forever.
  stop_hook_ = loop.add_stop_hook([this] { stop_polling(); });
}

void Prompt::stop_polling() {
  if (poll_ == nullptr) return;
  uv_close(reinterpret_cast<uv_handle_t*>(&poll_->handle),
           [](uv_handle_t* h) { delete static_cast<Poll*>(h->data); });
  poll_ = nullptr;
}

Prompt::~Prompt() {
  stop_polling();
  rl_callback_handler_remove();
  g_sink = nullptr;
  g_completer = nullptr;
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

// A message arrives while the person is typing: the half-typed line is lifted off
// the screen, the message printed above it, and the line put back exactly as it
// was, cursor included. Clearing it instead would throw away what they typed.
void Prompt::print(const std::string& text) {
  if (g_in_line_handler) {
    // Putting the prompt back here would draw it twice: once here, with the
    // accepted line still in readline's buffer, and once more by readline on the
    // same screen line ("eryantis> helperyantis> ").
    print_plain(text);
    return;
  }
  const std::unique_ptr<char, decltype(&std::free)> typed(
      rl_line_buffer != nullptr ? rl_copy_text(0, rl_end) : nullptr, &std::free);
  const int cursor = rl_point;
  rl_save_prompt();
  rl_replace_line("", 0);
  rl_redisplay();
  std::fputs(text.c_str(), stdout);
  if (text.empty() || text.back() != '\n') std::fputc('\n', stdout);
  rl_restore_prompt();
  rl_replace_line(typed ? typed.get() : "", 0);
  rl_point = cursor;
  rl_on_new_line();
  rl_redisplay();
}

// --- LineReader ----------------------------------------------------------------------

LineReader::LineReader(net::EventLoop& loop, LineSink sink) : sink_(std::move(sink)) {
  // Without its stop pipe the thread could not be told to end: refuse to start.
  if (::pipe2(stop_pipe_, O_CLOEXEC) != 0)
    throw std::system_error(errno, std::generic_category(), "pipe2 for the input reader");
  wakeup_ = loop.make_wakeup([this] { hand_over(); });
  thread_ = std::thread([this] { read_lines(); });
}

LineReader::~LineReader() {
  const char byte = 0;
  while (::write(stop_pipe_[1], &byte, 1) < 0 && errno == EINTR) {
  }
  thread_.join();
  for (int fd : stop_pipe_)
    if (fd >= 0) ::close(fd);
}

void LineReader::read_lines() {
  std::string pending;
  auto deliver = [this](std::optional<std::string> line) {
    std::lock_guard lock(mutex_);
    lines_.push_back(std::move(line));
    wakeup_->notify();
  };
  char chunk[4096];
  for (;;) {
    // Waits for input or for the owner's stop; a regular file is always readable.
    pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {stop_pipe_[0], POLLIN, 0}};
    const int ready = ::poll(fds, 2, -1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0 || (fds[1].revents & (POLLIN | POLLHUP)) != 0) return;
    const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;
    pending.append(chunk, static_cast<std::size_t>(n));
    for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
      deliver(pending.substr(0, nl));
      pending.erase(0, nl + 1);
    }
  }
  if (!pending.empty()) deliver(std::move(pending));  // a last line without '\n'
  deliver(std::nullopt);
}

void LineReader::hand_over() {
  std::deque<std::optional<std::string>> batch;
  {
    std::lock_guard lock(mutex_);
    batch.swap(lines_);
  }
  for (auto& line : batch) sink_(std::move(line));
}

}  // namespace eryantis::cli
