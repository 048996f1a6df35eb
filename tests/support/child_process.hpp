#pragma once
// A program run as a child process (fork + exec) by a test. Its standard input
// comes from a file or from a pipe the test writes; its output goes to files or
// is captured in memory by a thread that drains it (so the child never blocks on
// a full pipe). The child dies with the test process (PR_SET_PDEATHSIG), and the
// destructor kills (SIGKILL) and reaps it if it still runs: no test leaves a
// process behind.
#include <sys/types.h>

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace eryantis::test {

struct Spawn {
  std::vector<std::string> argv{};       // argv[0]: the program's path
  std::string stdin_file = "/dev/null";  // read from this file...
  bool stdin_pipe = false;               // ...or from a pipe: write_stdin()
  std::string stdout_file{};             // "" = captured: output()
  std::string stderr_file{};             // "" = wherever stdout goes
  bool append_stderr = false;            // stderr_file is appended to, not replaced
};

class ChildProcess {
 public:
  explicit ChildProcess(const Spawn& spawn);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  bool started() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

  bool write_stdin(const std::string& text);
  void close_stdin();

  // Still running (not yet reaped)?
  bool running();
  // Its exit code (128 + the signal's number if a signal ended it) once it exits
  // within `timeout`; nullopt if it still runs.
  std::optional<int> wait_exit(std::chrono::milliseconds timeout);
  // Sends a signal (nothing once it was reaped).
  void signal(int signum);
  // SIGKILL and reap: a crash, nothing gets a chance to run.
  void kill_hard();

  // What it wrote so far to the captured output ("" when it goes to files).
  std::string output() const;

 private:
  bool reap(bool block);
  void join_drain();

  pid_t pid_ = -1;
  int stdin_ = -1;
  int capture_ = -1;  // the read end of the captured output
  std::optional<int> status_;
  std::thread drain_;
  mutable std::mutex mutex_;
  std::string output_;
};

// Runs a program to completion, its stdout and stderr captured into `output`
// (may be null); its exit code, or -1 if it could not run. Killed at `timeout`.
int run_program(const std::vector<std::string>& argv, std::string* output,
                std::chrono::milliseconds timeout = std::chrono::seconds(60));

}  // namespace eryantis::test
