#include "support/postgres_cluster.hpp"

#include <libpq-fe.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "support/network.hpp"

namespace eryantis::test {

namespace {

constexpr uid_t kNobody = 65534;  // Debian's nobody:nogroup

// The argv that runs `program` unprivileged: itself, or through setpriv as root.
std::vector<std::string> unprivileged(std::vector<std::string> argv, bool die_with_parent) {
  if (::geteuid() != 0) return argv;
  std::vector<std::string> wrapped = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
                                      "--clear-groups"};
  // setpriv execs the program in place: the signal reaches postgres itself.
  if (die_with_parent) wrapped.push_back("--pdeathsig=SIGQUIT");
  wrapped.push_back("--");
  wrapped.insert(wrapped.end(), argv.begin(), argv.end());
  return wrapped;
}

}  // namespace

std::optional<std::string> PostgresCluster::bin_dir() {
  if (const char* dir = std::getenv("ERYANTIS_PG_BIN")) {
    if (!std::filesystem::exists(std::filesystem::path(dir) / "postgres")) return std::nullopt;
    return std::string(dir);
  }
  std::vector<std::filesystem::path> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
    if (std::filesystem::exists(entry.path() / "bin" / "postgres")) {
      found.push_back(entry.path() / "bin");
    }
  }
  if (found.empty()) return std::nullopt;
  // The newest major version (folders are named 13, 14, 15, ...).
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return std::atoi(a.parent_path().filename().c_str()) <
           std::atoi(b.parent_path().filename().c_str());
  });
  return found.back().string();
}

bool PostgresCluster::required() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && *ci != '\0';
}

PostgresCluster* PostgresCluster::shared(std::string* why_not) {
  static std::unique_ptr<PostgresCluster> cluster;
  static std::string failure;
  static bool tried = false;
  if (!tried) {
    tried = true;
    const auto bin = bin_dir();
    if (!bin) {
      failure =
          "PostgreSQL is not installed (no postgres in $ERYANTIS_PG_BIN or "
          "/usr/lib/postgresql/*/bin; tools/install-deps.sh installs it)";
    } else {
      cluster.reset(new PostgresCluster());
      if (!cluster->start(*bin, &failure)) cluster.reset();
    }
  }
  if (!cluster && why_not) *why_not = failure;
  return cluster.get();
}

bool PostgresCluster::start(const std::string& bin, std::string* why_not) {
  dir_ = std::make_unique<TempDir>("eryantis-pg");
  const std::string root = dir_->path().string();
  if (::geteuid() == 0 && ::chown(root.c_str(), kNobody, kNobody) != 0) {
    *why_not = "cannot hand " + root + " to nobody";
    return false;
  }
  ::chmod(root.c_str(), 0700);
  const std::string data = root + "/data";
  std::string output;
  // --no-sync: a throwaway cluster needs no fsync of its files (saves ~1 s).
  const int initdb = run_program(unprivileged({bin + "/initdb", "-D", data, "-A", "trust", "-U",
                                               "eryantis", "-E", "UTF8", "--locale=C", "--no-sync"},
                                              false),
                                 &output, std::chrono::seconds(60));
  if (initdb != 0) {
    *why_not = "initdb failed (exit " + std::to_string(initdb) + "): " + output;
    return false;
  }
  port_ = free_port();
  bin_ = bin;
  return spawn_and_wait(why_not);
}

bool PostgresCluster::spawn_and_wait(std::string* why_not) {
  const std::string& bin = bin_;
  const std::string root = dir_->path().string();
  const std::string data = root + "/data";
  postgres_ = std::make_unique<ChildProcess>(Spawn{
      .argv = unprivileged({bin + "/postgres", "-D", data, "-k", root, "-p", std::to_string(port_),
                            "-c", "listen_addresses=", "-c", "fsync=off", "-c",
                            "full_page_writes=off", "-c", "max_connections=60"},
                           true),
      .stdout_file = root + "/postgres.log"});
  if (!postgres_->started()) {
    *why_not = "could not start postgres";
    return false;
  }
  // Ready when it answers a ping; a loaded machine may need a few seconds.
  const std::string ping = conninfo("postgres");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    if (PQping(ping.c_str()) == PQPING_OK) return true;
    if (!postgres_->running()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  *why_not = "postgres did not come up within 30 s: " + read_file(root + "/postgres.log");
  return false;
}

namespace {

// The pids of the processes whose parent is `parent` (/proc).
std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state = 0;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent) out.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return out;
}

}  // namespace

void PostgresCluster::signal_all(int signum) {
  // Backends first (SIGCONT: the postmaster last, so nothing it does finds a
  // backend still stopped), then the postmaster.
  for (pid_t child : children_of(postgres_->pid())) ::kill(child, signum);
  postgres_->signal(signum);
}

void PostgresCluster::stop(int signum) {
  const std::vector<pid_t> backends = children_of(postgres_->pid());
  postgres_->signal(signum);
  if (!postgres_->wait_exit(std::chrono::seconds(30))) {
    postgres_->kill_hard();
    throw std::runtime_error("postgres did not stop within 30 s");
  }
  // After a SIGKILL the backends live on until they notice (postmaster death
  // pipe); a new postmaster refuses to start while they hold the shared memory.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (pid_t backend : backends) {
    while (::kill(backend, 0) == 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

void PostgresCluster::start_again() {
  std::string why;
  if (!spawn_and_wait(&why)) throw std::runtime_error("postgres did not start again: " + why);
}

PostgresCluster::~PostgresCluster() {
  if (!postgres_) return;
  // SIGINT: PostgreSQL's fast shutdown (disconnects clients, no checkpoint wait).
  postgres_->signal(SIGINT);
  if (!postgres_->wait_exit(std::chrono::seconds(10))) postgres_->kill_hard();
}

std::string PostgresCluster::conninfo(const std::string& database) const {
  return "host=" + dir_->path().string() + " port=" + std::to_string(port_) +
         " user=eryantis dbname=" + database + " connect_timeout=10";
}

std::string PostgresCluster::uri(const std::string& database) const {
  // The socket folder goes in the host query parameter (a path is not a host name).
  return "postgresql://eryantis@/" + database + "?host=" + dir_->path().string() +
         "&port=" + std::to_string(port_);
}

std::string PostgresCluster::fresh_uri() {
  const std::string info = fresh_conninfo();
  const std::string schema = info.substr(info.rfind('=') + 1, info.size() - info.rfind('=') - 2);
  // options=-c search_path=<schema>, percent-encoded.
  return uri("postgres") + "&options=-c%20search_path%3D" + schema;
}

std::string PostgresCluster::fresh_conninfo() {
  // A schema, not a database: CREATE DATABASE copies a template (~0.5 s on a
  // loaded machine), CREATE SCHEMA is a catalog row. The store uses the
  // connection's search_path, so each test sees only its own tables.
  // Appended piece by piece: g++ 12 warns (a false -Wrestrict) on "t" + to_string(...).
  std::string name = "t";
  name += std::to_string(++databases_);
  PGconn* conn = PQconnectdb(conninfo("postgres").c_str());
  std::string error;
  if (PQstatus(conn) != CONNECTION_OK) {
    error = PQerrorMessage(conn);
  } else {
    PGresult* result = PQexec(conn, ("CREATE SCHEMA " + name).c_str());
    if (PQresultStatus(result) != PGRES_COMMAND_OK) error = PQresultErrorMessage(result);
    PQclear(result);
  }
  PQfinish(conn);
  if (!error.empty()) throw std::runtime_error("CREATE SCHEMA " + name + ": " + error);
  return conninfo("postgres") + " options='-c search_path=" + name + "'";
}

}  // namespace eryantis::test
