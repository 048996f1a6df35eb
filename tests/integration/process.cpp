#include "process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <random>

namespace eryantis::integration {

namespace {

using Clock = std::chrono::steady_clock;

// Builds a NULL-terminated argv before fork: the child only calls
// async-signal-safe functions (the test process has other threads).
struct Argv {
  explicit Argv(const std::vector<std::string>& args) : storage(args) {
    for (std::string& a : storage) pointers.push_back(a.data());
    pointers.push_back(nullptr);
  }
  std::vector<std::string> storage;
  std::vector<char*> pointers;
};

// fork + exec with stdout and stderr going to `out_fd`; the child dies with us.
pid_t spawn(const Argv& argv, int out_fd) {
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  // Child.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  const int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, 0);
  ::dup2(out_fd, 1);
  ::dup2(out_fd, 2);
  ::execv(argv.pointers[0], argv.pointers.data());
  ::_exit(127);
}

int decode_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

// ---------------------------------------------------------------------------

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "eryantis-it-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  if (std::getenv("ERYANTIS_KEEP_TEST_DIRS")) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string write_config(const TempDir& dir, const std::string& name, const std::string& db,
                         const TestConfig& c) {
  const std::string path = dir.file(name);
  std::ofstream out(path);
  out << "[network]\nlisten = \"127.0.0.1\"\nport = 0\n\n"
      << "[storage]\ndatabase = \"" << db << "\"\ndurability = \"" << c.durability
      << "\"\nsnapshot_every = " << c.snapshot_every << "\n\n"
      << "[heartbeat]\ninterval_ms = " << c.heartbeat_interval_ms
      << "\ntimeout_ms = " << c.heartbeat_timeout_ms << "\n\n"
      << "[matches]\nturn_grace_ms = " << c.turn_grace_ms
      << "\nforfeit_after_ms = " << c.forfeit_after_ms
      << "\nabandon_after_ms = 600000\nrequire_resume_token = true\n\n"
      << "[limits]\nmax_connections = 1000\nmax_line_bytes = " << c.max_line_bytes
      << "\ncommands_per_second = " << c.commands_per_second
      << "\nmax_matches = 1000\nmax_outgoing_bytes = 8388608\nmax_queued_per_match = "
      << c.max_queued_per_match << "\n\n"
      << "[log]\nlevel = \"info\"\n";
  return path;
}

// ---------------------------------------------------------------------------

ServerProcess::ServerProcess(std::string config_path, std::string db_path)
    : config_path_(std::move(config_path)), db_path_(std::move(db_path)) {}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) kill_hard();
  reap_reader();
}

bool ServerProcess::start(std::chrono::milliseconds timeout) {
  if (pid_ > 0) return false;
  reap_reader();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  const Argv argv({ERYANTIS_SERVER_BINARY, "--config", config_path_, "--listen", "127.0.0.1",
                   "--port", "0", "--db", db_path_});
  std::size_t log_start;
  {
    std::lock_guard lock(mutex_);
    log_start = log_.size();
    reader_done_ = false;
  }
  pid_ = spawn(argv, fds[1]);
  ::close(fds[1]);
  if (pid_ < 0) {
    ::close(fds[0]);
    return false;
  }
  pipe_read_ = fds[0];
  reader_ = std::thread([this, fd = fds[0]] {
    char chunk[8192];
    for (;;) {
      const ssize_t n = ::read(fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      std::lock_guard lock(mutex_);
      if (n <= 0) {
        reader_done_ = true;
        changed_.notify_all();
        return;
      }
      log_.append(chunk, static_cast<std::size_t>(n));
      changed_.notify_all();
    }
  });
  static constexpr std::string_view kListening = "eryantis-server listening on 127.0.0.1:";
  std::unique_lock lock(mutex_);
  const bool found = changed_.wait_for(lock, timeout, [&] {
    const std::size_t at = log_.find(kListening, log_start);
    if (at != std::string::npos) {
      const std::size_t digits = at + kListening.size();
      std::size_t end = digits;
      while (end < log_.size() && log_[end] >= '0' && log_[end] <= '9') ++end;
      if (end > digits && end < log_.size()) {  // the whole number has arrived
        port_ = std::atoi(log_.substr(digits, end - digits).c_str());
        return true;
      }
    }
    return reader_done_;
  });
  lock.unlock();
  if (!found || port_ <= 0 || reader_done_) {
    if (pid_ > 0) kill_hard();
    return false;
  }
  return true;
}

void ServerProcess::kill_hard() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  reap_reader();
}

void ServerProcess::signal_term() {
  if (pid_ > 0) ::kill(pid_, SIGTERM);
}

std::optional<int> ServerProcess::wait_exit(std::chrono::milliseconds timeout) {
  if (pid_ <= 0) return std::nullopt;
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      pid_ = -1;
      reap_reader();
      return decode_status(status);
    }
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void ServerProcess::reap_reader() {
  if (reader_.joinable()) reader_.join();  // ends at EOF: once the child is gone
  if (pipe_read_ >= 0) {
    ::close(pipe_read_);
    pipe_read_ = -1;
  }
}

std::string ServerProcess::log() const {
  std::lock_guard lock(mutex_);
  return log_;
}

std::string ServerProcess::log_tail(std::size_t lines) const {
  std::lock_guard lock(mutex_);
  std::size_t at = log_.size();
  for (std::size_t n = 0; n <= lines && at > 0; ++n) {
    const std::size_t nl = log_.rfind('\n', at - 1);
    if (nl == std::string::npos) {
      at = 0;
      break;
    }
    at = nl;
  }
  return log_.substr(at);
}

// ---------------------------------------------------------------------------

int run_program(const std::vector<std::string>& args, std::string* output,
                std::chrono::milliseconds timeout) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return -1;
  const Argv argv(args);
  const pid_t pid = spawn(argv, fds[1]);
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    return -1;
  }
  const auto deadline = Clock::now() + timeout;
  char chunk[8192];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      ::kill(pid, SIGKILL);
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    const ssize_t n = ::read(fds[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (output) output->append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return decode_status(status);
}

bool sanitizer_run() {
  const char* v = std::getenv("ERYANTIS_SANITIZER_RUN");
  return v && *v && std::string_view(v) != "0";
}

std::uint64_t test_seed() {
  if (const char* v = std::getenv("ERYANTIS_TEST_SEED"); v && *v)
    return std::strtoull(v, nullptr, 10);
  return (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
}

}  // namespace eryantis::integration
