#pragma once
// A cluster of real eryantis-server processes on one throwaway PostgreSQL
// (docs/cluster.md, issue 16) for the failover tests: node i is named "a", "b",
// ... and listens on a fixed free port of 127.0.0.1 (its `public_address`), so a
// restart comes back where clients and redirects expect it. Every node shares one
// fresh schema of the shared test cluster (PostgresCluster::fresh_uri). Nodes
// start one after another: the first runs the migrations, the others find them.
//
// The [cluster] section goes in only when this build's server accepts it
// (`--check-config`); before the cluster's server side exists the nodes run
// without it: independent servers on one database (cluster_section() says which).
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "support/postgres_cluster.hpp"
#include "support/server_process.hpp"
#include "support/temp_dir.hpp"

namespace eryantis::test {

struct ClusterOptions {
  int nodes = 3;
  int lease_ms = 3000;  // [cluster] lease_ms
  TestConfig config;    // every node's other settings
  // The server binary of node i (binaries[i]; server_binary() past its end): a node
  // may be eryantis-test-server, which plays the tests' games too.
  std::vector<std::string> binaries;
};

class ClusterNodes {
 public:
  // PostgreSQL (started on first use) and the nodes, all listening; null with the
  // reason in `why_not` when PostgreSQL is missing or a node does not start
  // (its log in the reason).
  static std::unique_ptr<ClusterNodes> start(const ClusterOptions& options, std::string* why_not);
  ~ClusterNodes();  // kills every node (SIGCONT first: a stopped one too)
  ClusterNodes(const ClusterNodes&) = delete;
  ClusterNodes& operator=(const ClusterNodes&) = delete;

  int size() const { return static_cast<int>(nodes_.size()); }
  // "a", "b", ...
  static std::string name(int i);
  int port(int i) const { return ports_[static_cast<std::size_t>(i)]; }
  std::string public_address(int i) const { return "127.0.0.1:" + std::to_string(port(i)); }
  ServerProcess& node(int i) { return *nodes_[static_cast<std::size_t>(i)]; }
  // The database every node uses (a postgresql:// URI, for eryantis-replay and checks).
  const std::string& uri() const { return uri_; }
  // Whether the nodes run with a [cluster] section (the server accepted it).
  bool cluster_section() const { return cluster_section_; }
  const std::string& config_path(int i) const { return configs_[static_cast<std::size_t>(i)]; }

  // A crash: SIGKILL and reap.
  void kill_hard(int i);
  // A pause (a partition, a long GC): SIGSTOP; the node holds its sockets and
  // leases but does nothing until cont().
  void stop(int i);
  void cont(int i);
  // Starts node i again on its config and port (after kill_hard or an exit);
  // false (the reason in node(i).log()) when it does not listen within `timeout`.
  bool restart(int i, std::chrono::milliseconds timeout = std::chrono::seconds(20));

 private:
  ClusterNodes() = default;

  std::unique_ptr<TempDir> dir_;
  std::string uri_;
  bool cluster_section_ = false;
  std::vector<int> ports_;
  std::vector<std::string> configs_;
  std::vector<std::unique_ptr<ServerProcess>> nodes_;
  std::vector<bool> stopped_;
};

}  // namespace eryantis::test
