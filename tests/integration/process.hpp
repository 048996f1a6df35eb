#pragma once
// The real eryantis-server as a child process (fork + exec), its standard error
// drained by a thread (so its logging never blocks it) and searched for the
// "listening on" line that carries the ephemeral port. The destructor always
// kills and reaps the child: no test leaves a server behind.
#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace eryantis::integration {

// A fresh directory under the system temp folder, removed afterwards (kept when
// ERYANTIS_KEEP_TEST_DIRS is set, for post-mortems).
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// The options the tests change; everything else keeps config/eryantis.toml's defaults.
struct TestConfig {
  std::string durability = "normal";
  int snapshot_every = 16;
  int heartbeat_interval_ms = 5000;
  int heartbeat_timeout_ms = 15000;
  int turn_grace_ms = 30000;
  int forfeit_after_ms = 120000;
  int commands_per_second = 100000;
  int max_line_bytes = 65536;
  int max_queued_per_match = 64;
};
// Writes a TOML configuration (port 0, database `db`) and returns its path.
std::string write_config(const TempDir& dir, const std::string& name, const std::string& db,
                         const TestConfig& c);

class ServerProcess {
 public:
  ServerProcess(std::string config_path, std::string db_path);
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // Spawns the server and waits for its "listening on" line; false (with the log
  // in failure_) if it exits or does not listen within `timeout`.
  bool start(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  bool running() const { return pid_ > 0; }

  // SIGKILL and reap (a crash: nothing gets a chance to run).
  void kill_hard();
  // Sends SIGTERM.
  void signal_term();
  // Waits for the child to exit; its exit code (or 128 + signal), nullopt on timeout.
  std::optional<int> wait_exit(std::chrono::milliseconds timeout);

  // Everything the server wrote to stderr/stdout so far (all its runs).
  std::string log() const;
  // The last `lines` lines of the log.
  std::string log_tail(std::size_t lines = 60) const;

 private:
  void reap_reader();

  std::string config_path_;
  std::string db_path_;
  pid_t pid_ = -1;
  int port_ = 0;
  int pipe_read_ = -1;
  std::thread reader_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::string log_;
  bool reader_done_ = false;
};

// Runs a program to completion (stdout+stderr captured); its exit code or -1.
int run_program(const std::vector<std::string>& argv, std::string* output,
                std::chrono::milliseconds timeout = std::chrono::seconds(60));

// True when the tests run under a sanitizer (CI sets ERYANTIS_SANITIZER_RUN):
// randomized tests then do less work.
bool sanitizer_run();

// The seed of a randomized test: ERYANTIS_TEST_SEED if set, else from the clock.
std::uint64_t test_seed();

}  // namespace eryantis::integration
