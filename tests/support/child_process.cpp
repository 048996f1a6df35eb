#include "support/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "support/polling.hpp"

namespace eryantis::test {

namespace {

int decode_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

int open_output(const std::string& path, bool append) {
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
}

}  // namespace

ChildProcess::ChildProcess(const Spawn& spawn) {
  // Everything the child needs is prepared before fork: it only calls
  // async-signal-safe functions (the test process may have other threads).
  std::vector<std::string> storage = spawn.argv;
  std::vector<char*> argv;
  for (std::string& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  int stdin_pipe[2] = {-1, -1};
  int capture_pipe[2] = {-1, -1};
  if (spawn.stdin_pipe && ::pipe2(stdin_pipe, O_CLOEXEC) != 0) return;
  const bool capture = spawn.stdout_file.empty();
  if (capture && ::pipe2(capture_pipe, O_CLOEXEC) != 0) return;
  const int in =
      spawn.stdin_pipe ? stdin_pipe[0] : ::open(spawn.stdin_file.c_str(), O_RDONLY | O_CLOEXEC);
  const int out = capture ? capture_pipe[1] : open_output(spawn.stdout_file, false);
  const int err =
      spawn.stderr_file.empty() ? out : open_output(spawn.stderr_file, spawn.append_stderr);

  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    // dup2 clears close-on-exec on the copies: only 0, 1 and 2 reach the program.
    if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(126);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(in);
  if (err != out) ::close(err);
  ::close(out);
  if (spawn.stdin_pipe) stdin_ = stdin_pipe[1];
  if (pid_ < 0) {
    close_stdin();
    if (capture) ::close(capture_pipe[0]);
    return;
  }
  if (capture) {
    capture_ = capture_pipe[0];
    drain_ = std::thread([this] {
      char chunk[8192];
      for (;;) {
        const ssize_t n = ::read(capture_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // end of file: the child (and its children) closed it
        std::lock_guard lock(mutex_);
        output_.append(chunk, static_cast<std::size_t>(n));
      }
    });
  }
}

ChildProcess::~ChildProcess() {
  close_stdin();
  kill_hard();
  join_drain();
}

bool ChildProcess::write_stdin(const std::string& text) {
  if (stdin_ < 0) return false;
  return ::write(stdin_, text.data(), text.size()) == static_cast<ssize_t>(text.size());
}

void ChildProcess::close_stdin() {
  if (stdin_ >= 0) ::close(stdin_);
  stdin_ = -1;
}

bool ChildProcess::reap(bool block) {
  if (status_) return true;
  if (pid_ <= 0) return false;
  int status = 0;
  pid_t r;
  while ((r = ::waitpid(pid_, &status, block ? 0 : WNOHANG)) < 0 && errno == EINTR) {
  }
  if (r != pid_) return false;
  status_ = decode_status(status);
  join_drain();
  return true;
}

void ChildProcess::join_drain() {
  if (drain_.joinable()) drain_.join();
  if (capture_ >= 0) ::close(capture_);
  capture_ = -1;
}

bool ChildProcess::running() {
  return pid_ > 0 && !reap(false);
}

std::optional<int> ChildProcess::wait_exit(std::chrono::milliseconds timeout) {
  if (pid_ <= 0) return std::nullopt;
  eventually(
      timeout, [&] { return reap(false); }, std::chrono::milliseconds(5));
  return status_;
}

void ChildProcess::signal(int signum) {
  if (running()) ::kill(pid_, signum);
}

void ChildProcess::kill_hard() {
  if (!running()) return;
  ::kill(pid_, SIGKILL);
  reap(true);
}

std::string ChildProcess::output() const {
  std::lock_guard lock(mutex_);
  return output_;
}

int run_program(const std::vector<std::string>& argv, std::string* output,
                std::chrono::milliseconds timeout) {
  ChildProcess child(Spawn{.argv = argv});
  if (!child.started()) return -1;
  auto code = child.wait_exit(timeout);
  if (!code) {
    child.kill_hard();
    code = child.wait_exit(std::chrono::milliseconds(0));
  }
  if (output) *output += child.output();
  return code.value_or(-1);
}

}  // namespace eryantis::test
