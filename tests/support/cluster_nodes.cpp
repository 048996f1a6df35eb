#include "support/cluster_nodes.hpp"

#include <signal.h>

#include "support/child_process.hpp"
#include "support/network.hpp"

namespace eryantis::test {

namespace {

// write_config's file with the PostgreSQL backend, plus [cluster] when `cluster`.
std::string node_config(const std::string& base, const std::string& uri, bool cluster,
                        const std::string& name, int port, int lease_ms) {
  std::string toml = base;
  const std::string section = "[storage]\n";
  toml.insert(toml.find(section) + section.size(),
              "backend = \"postgresql\"\npostgresql = \"" + uri + "\"\n");
  if (cluster)
    toml += "\n[cluster]\nnode = \"" + name +
            "\"\npublic_address = \"127.0.0.1:" + std::to_string(port) +
            "\"\nlease_ms = " + std::to_string(lease_ms) + "\n";
  return toml;
}

}  // namespace

std::string ClusterNodes::name(int i) {
  return std::string(1, static_cast<char>('a' + i));
}

std::unique_ptr<ClusterNodes> ClusterNodes::start(const ClusterOptions& options,
                                                  std::string* why_not) {
  PostgresCluster* pg = PostgresCluster::shared(why_not);
  if (!pg) return nullptr;
  std::unique_ptr<ClusterNodes> c(new ClusterNodes());
  c->dir_ = std::make_unique<TempDir>("eryantis-cluster");
  c->uri_ = pg->fresh_uri();

  // Does this server know [cluster]? A server without it refuses an unknown section.
  const std::string base =
      read_file(write_config(*c->dir_, "base.toml", c->dir_->file("base.db"), options.config));
  const std::string probe = c->dir_->file("probe.toml");
  write_file(probe, node_config(base, c->uri_, true, "a", 7001, options.lease_ms));
  std::string output;
  const int check = run_program({server_binary(), "--config", probe, "--check-config"}, &output,
                                std::chrono::seconds(30));
  if (check == 0) {
    c->cluster_section_ = true;
  } else if (output.find("cluster: unknown section") == std::string::npos) {
    *why_not = "eryantis-server --check-config refused a cluster node's configuration: " + output;
    return nullptr;
  }

  for (int i = 0; i < options.nodes; ++i) {
    const int port = free_port();
    if (port <= 0) {
      *why_not = "no free port for node " + name(i);
      return nullptr;
    }
    const std::string path = c->dir_->file("node-" + name(i) + ".toml");
    write_file(path,
               node_config(base, c->uri_, c->cluster_section_, name(i), port, options.lease_ms));
    c->ports_.push_back(port);
    c->configs_.push_back(path);
    c->stopped_.push_back(false);
    // Each node its own "database" path: PostgreSQL ignores it, but the admin
    // socket is named after it.
    const auto at = static_cast<std::size_t>(i);
    c->nodes_.push_back(std::make_unique<ServerProcess>(
        path, c->dir_->file("node-" + name(i) + ".db"), port,
        at < options.binaries.size() ? options.binaries[at] : server_binary()));
    if (!c->nodes_.back()->start()) {
      *why_not = "node " + name(i) + " did not start:\n" + c->nodes_.back()->log_tail();
      return nullptr;
    }
  }
  return c;
}

ClusterNodes::~ClusterNodes() {
  for (int i = 0; i < size(); ++i) {
    cont(i);  // SIGKILL works on a stopped process too; this only keeps the order plain
    nodes_[static_cast<std::size_t>(i)]->kill_hard();
  }
}

void ClusterNodes::kill_hard(int i) {
  node(i).kill_hard();
  stopped_[static_cast<std::size_t>(i)] = false;
}

void ClusterNodes::stop(int i) {
  if (!node(i).running()) return;
  ::kill(node(i).pid(), SIGSTOP);
  stopped_[static_cast<std::size_t>(i)] = true;
}

void ClusterNodes::cont(int i) {
  if (!stopped_[static_cast<std::size_t>(i)]) return;
  if (node(i).running()) ::kill(node(i).pid(), SIGCONT);
  stopped_[static_cast<std::size_t>(i)] = false;
}

bool ClusterNodes::restart(int i, std::chrono::milliseconds timeout) {
  cont(i);
  return node(i).start(timeout);
}

}  // namespace eryantis::test
