#pragma once
// The two ways eryantis-cli reads its input, both handing whole lines to the loop
// thread. Neither knows the game: they call back with a line, or with the end of
// the input.
//   Prompt      a person at a terminal: readline (history, completion) fed by a
//               libuv poll of stdin; prints above the prompt without breaking it.
//   LineReader  piped or redirected input (a file cannot be polled by libuv): a
//               thread reading stdin, owned and joined by the object.
#include <uv.h>

#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "eryantis/net/event_loop.hpp"

namespace eryantis::cli {

// Callbacks on the loop thread: a line without '\n', or nullopt at the end of the input.
using LineSink = std::function<void(std::optional<std::string>)>;
// Tab completion: the words that may follow `before` and start with `word`.
using Completer =
    std::function<std::vector<std::string>(std::string_view before, std::string_view word)>;

class Prompt {
 public:
  // Installs readline's callback interface on stdin and polls it on `loop` until
  // loop.stop() (which closes the poll, so the loop can end). One at a time.
  Prompt(net::EventLoop& loop, LineSink sink, Completer completer);
  Prompt(const Prompt&) = delete;
  Prompt& operator=(const Prompt&) = delete;
  // Removes readline's handler (restoring the terminal's settings).
  ~Prompt();

  // Writes `text` above the prompt line and redraws the prompt.
  void print(const std::string& text);

 private:
  struct Poll;  // the uv_poll_t; freed by its close callback
  void stop_polling();

  LineSink sink_;
  Completer completer_;
  Poll* poll_ = nullptr;
  net::EventLoop::StopHook stop_hook_;
};

class LineReader {
 public:
  // Starts the thread; lines reach `sink` on `loop`'s thread.
  LineReader(net::EventLoop& loop, LineSink sink);
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  // Tells the thread to stop (even while stdin has nothing to read) and joins it.
  ~LineReader();

 private:
  void read_lines();  // the thread
  void hand_over();   // on the loop thread

  LineSink sink_;
  int stop_pipe_[2] = {-1, -1};
  std::mutex mutex_;
  std::deque<std::optional<std::string>> lines_;  // nullopt = end of input
  std::shared_ptr<net::Wakeup> wakeup_;
  std::thread thread_;  // last: started once everything above exists
};

// Prints `text` on stdout with a final '\n' and flushes (no prompt to keep).
void print_plain(const std::string& text);

}  // namespace eryantis::cli
