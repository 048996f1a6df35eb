#pragma once
// The real eryantis-server as a child process on 127.0.0.1, found listening by
// its "listening on 127.0.0.1:PORT" line (port 0 = an ephemeral port, read from
// that line), and a configuration file for it.
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "support/child_process.hpp"
#include "support/temp_dir.hpp"

namespace eryantis::test {

// The path of the eryantis-server binary this build made.
const char* server_binary();

// The options the tests change; everything else keeps config/eryantis.toml's defaults.
struct TestConfig {
  std::string durability = "normal";
  int snapshot_every = 16;
  int heartbeat_interval_ms = 5000;
  int heartbeat_timeout_ms = 15000;
  int turn_grace_ms = 30000;
  int forfeit_after_ms = 120000;
  int abandon_after_ms = 600000;
  int commands_per_second = 100000;
  int max_line_bytes = 65536;
  int max_queued_per_match = 64;
};
// Writes a TOML configuration (port 0, database `db`) into `dir` and returns its path.
std::string write_config(const TempDir& dir, const std::string& name, const std::string& db,
                         const TestConfig& c);

class ServerProcess {
 public:
  // `port` 0: an ephemeral port on each start; otherwise that port every time.
  // `binary`: the server to run (eryantis-test-server plays the tests' games too).
  ServerProcess(std::string config_path, std::string db_path, int port = 0,
                std::string binary = server_binary());
  ~ServerProcess();  // kills the server if it still runs
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // Spawns the server and waits for its "listening on" line; false (the reason in
  // the log) if it exits or does not listen within `timeout`. Again after an exit:
  // a restart on the same database.
  bool start(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  int port() const { return port_; }
  pid_t pid() const { return child_ ? child_->pid() : -1; }
  bool running() const { return child_ && child_->running(); }

  // SIGKILL and reap (a crash: nothing gets a chance to run).
  void kill_hard();
  // Sends SIGTERM.
  void signal_term();
  // Waits for the server to exit; its exit code (or 128 + signal), nullopt on timeout.
  std::optional<int> wait_exit(std::chrono::milliseconds timeout);

  // Everything the server wrote to stderr and stdout so far (all its runs).
  std::string log() const;
  // The last `lines` lines of the log.
  std::string log_tail(std::size_t lines = 60) const;

 private:
  void end_run();  // keeps the finished run's output in earlier_runs_

  std::string config_path_;
  std::string db_path_;
  std::string binary_;
  int fixed_port_;
  int port_ = 0;
  std::unique_ptr<ChildProcess> child_;
  std::string earlier_runs_;
};

}  // namespace eryantis::test
