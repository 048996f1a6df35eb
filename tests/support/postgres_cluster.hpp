#pragma once
// A throwaway PostgreSQL cluster for tests: initdb into a temporary folder, the
// postmaster listening on a Unix socket there (no TCP) under a free port number,
// stopped and removed at the end. PostgreSQL refuses to run as root (CI's user),
// so as root initdb and postgres run as `nobody` through setpriv(1); postgres is
// a direct child of the test with a parent-death signal (SIGQUIT, its immediate
// shutdown), so even a crashed test leaves no server behind. fsync is off: the
// tests check the store's logic, not the disk's.
#include <memory>
#include <optional>
#include <string>

#include "support/child_process.hpp"
#include "support/temp_dir.hpp"

namespace eryantis::test {

class PostgresCluster {
 public:
  // The cluster this test binary shares, started on first use (about 2 s);
  // null when the PostgreSQL binaries are missing, with the reason in `why_not`.
  static PostgresCluster* shared(std::string* why_not);
  // True when a missing PostgreSQL must fail the test instead of skipping it
  // (the CI environment variable is set: CI always installs it).
  static bool required();

  ~PostgresCluster();
  PostgresCluster(const PostgresCluster&) = delete;
  PostgresCluster& operator=(const PostgresCluster&) = delete;

  // A libpq connection string for `database` on this cluster.
  std::string conninfo(const std::string& database) const;
  // The same as a postgresql:// URI (what eryantis-replay takes in place of a file).
  std::string uri(const std::string& database) const;
  // The connection string of a new empty schema (t1, t2, ...) of the database
  // "postgres": each test gets its own store. Throws on failure.
  std::string fresh_conninfo();
  // The same as a postgresql:// URI.
  std::string fresh_uri();

  // The folder of the PostgreSQL binaries (initdb, postgres, pg_ctl).
  static std::optional<std::string> bin_dir();

  // A restart of the database under its clients (docs/cluster.md, "PostgreSQL
  // restarts"): `stop` sends the postmaster `signum` (SIGINT: the fast shutdown
  // that disconnects every client; SIGKILL: the postmaster dies, its backends
  // notice and exit) and waits until it and every backend are gone; `start_again`
  // starts it on the same folder, socket and port and waits until it answers.
  // Throws on failure.
  void stop(int signum);
  void start_again();
  // Sends the postmaster and every backend `signum` (SIGSTOP: PostgreSQL frozen,
  // connections open but nothing answers; SIGCONT: it goes on).
  void signal_all(int signum);

 private:
  PostgresCluster() = default;
  bool start(const std::string& bin, std::string* why_not);
  bool spawn_and_wait(std::string* why_not);

  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<ChildProcess> postgres_;
  std::string bin_;
  int port_ = 0;
  int databases_ = 0;
};

}  // namespace eryantis::test
