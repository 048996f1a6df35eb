#include "support/server_process.hpp"

#include <signal.h>

#include <cstdlib>
#include <fstream>
#include <string_view>

#include "support/polling.hpp"

namespace eryantis::test {

const char* server_binary() {
  return ERYANTIS_SERVER_BINARY;
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
      << "\nabandon_after_ms = " << c.abandon_after_ms << "\nrequire_resume_token = true\n\n"
      << "[limits]\nmax_connections = 1000\nmax_line_bytes = " << c.max_line_bytes
      << "\ncommands_per_second = " << c.commands_per_second
      << "\nmax_matches = 1000\nmax_outgoing_bytes = 8388608\nmax_queued_per_match = "
      << c.max_queued_per_match << "\n\n"
      << "[log]\nlevel = \"info\"\n";
  return path;
}

ServerProcess::ServerProcess(std::string config_path, std::string db_path, int port,
                             std::string binary)
    : config_path_(std::move(config_path)),
      db_path_(std::move(db_path)),
      binary_(std::move(binary)),
      fixed_port_(port) {}

ServerProcess::~ServerProcess() {
  kill_hard();
}

bool ServerProcess::start(std::chrono::milliseconds timeout) {
  if (running()) return false;
  end_run();
  child_ = std::make_unique<ChildProcess>(
      // --web-port 0: a configuration that turns the web listener on (the shipped one
      // does) never makes parallel test servers fight over 8080.
      Spawn{.argv = {binary_, "--config", config_path_, "--listen", "127.0.0.1", "--port",
                     std::to_string(fixed_port_), "--db", db_path_, "--web-port", "0"}});
  if (!child_->started()) return false;
  static constexpr std::string_view kListening = "eryantis-server listening on 127.0.0.1:";
  port_ = 0;
  const bool up = eventually(timeout, [&] {
    const std::string text = child_->output();
    const std::size_t at = text.find(kListening);
    if (at == std::string::npos) return !child_->running();
    const std::size_t digits = at + kListening.size();
    std::size_t end = digits;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    if (end == digits || end == text.size()) return false;  // the whole number is not here yet
    port_ = std::atoi(text.substr(digits, end - digits).c_str());
    return true;
  });
  if (!up || port_ <= 0 || !child_->running()) {
    kill_hard();
    return false;
  }
  return true;
}

void ServerProcess::kill_hard() {
  if (child_) child_->kill_hard();
}

void ServerProcess::signal_term() {
  if (child_) child_->signal(SIGTERM);
}

std::optional<int> ServerProcess::wait_exit(std::chrono::milliseconds timeout) {
  if (!child_) return std::nullopt;
  return child_->wait_exit(timeout);
}

void ServerProcess::end_run() {
  if (!child_) return;
  child_->kill_hard();
  earlier_runs_ += child_->output();
  child_.reset();
}

std::string ServerProcess::log() const {
  return earlier_runs_ + (child_ ? child_->output() : std::string());
}

std::string ServerProcess::log_tail(std::size_t lines) const {
  const std::string text = log();
  std::size_t at = text.size();
  for (std::size_t n = 0; n <= lines && at > 0; ++n) {
    const std::size_t nl = text.rfind('\n', at - 1);
    if (nl == std::string::npos) {
      at = 0;
      break;
    }
    at = nl;
  }
  return text.substr(at);
}

}  // namespace eryantis::test
