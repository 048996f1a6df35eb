#pragma once
// The process's configuration and config/eryantis.toml, read into it. The server
// layer gets only what its logic needs (server::ServerConfig); where the data
// lives, how durable it is and where the logs go belong to the application.
// Strict: an unknown key, a wrong type, an out-of-range value or an inconsistent
// pair is an error naming the key.
#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/game/registry.hpp"
#include "eryantis/server/config.hpp"
#include "eryantis/store/open_store.hpp"
#include "eryantis/store/sqlite_store.hpp"

namespace eryantis::app {

struct StorageConfig {
  // "sqlite" (the embedded default) or "postgresql" (docs/cluster.md).
  store::Backend backend = store::Backend::Sqlite;
  std::string database = "data/eryantis.db";
  std::string postgresql;  // a libpq connection string, when backend = "postgresql"
  store::Durability durability = store::Durability::Full;
  int snapshot_every = 64;  // events between snapshots; 0 = never
};

// How log.file is kept from growing without bound (docs/operations.md, "Logs").
enum class LogRotation : std::uint8_t {
  Size,    // the server rotates at max_bytes, keeping max_files old files
  Reopen,  // an outside tool (logrotate) renames the file; SIGHUP reopens it
};

struct LogConfig {
  std::string level = "info";
  std::string file;  // empty: log to stderr only
  LogRotation rotation = LogRotation::Size;
  std::size_t max_bytes = 10 * 1024 * 1024;
  int max_files = 5;
};

// [web]: the HTTP/WebSocket listener (docs/web.md). Message size and queued
// bytes are [limits]' values, the same as over TCP.
struct WebConfig {
  // Off unless a [web] section turns it on (config/eryantis.toml does): a server
  // started with an older configuration, or none, opens no new port by surprise
  // (and parallel test servers do not all claim 8080).
  bool enabled = false;
  std::string listen = "127.0.0.1";
  int port = 8080;  // 0 = any free port (logged)
  // Browser origins allowed to open /ws besides the server's own address.
  std::vector<std::string> allowed_origins;
  // Host names requests may name besides localhost and IP addresses (DNS
  // rebinding: net/allowed_hosts.hpp); "*" = any.
  std::vector<std::string> allowed_hosts;
  std::string static_dir = "web/dist";
  // The replay viewer (eryantis-replay DB serve) as browsers reach it, e.g.
  // "http://127.0.0.1:8090/": the profile page links each finished match to
  // <replay_url>#match=M. Empty: no links (GET /history/<name> says null).
  std::string replay_url;
  // The session cookie (docs/accounts.md, "The web page's cookie") gets `Secure`:
  // set it when browsers reach the server over https (a TLS proxy in front).
  bool secure_cookie = false;
  int max_connections = 4096;
  int max_request_bytes = 16384;  // request line + headers, and a body
  int request_timeout_ms = 10000;
};

// --- operations: [admin], [metrics], [backup] ---------------------------------
struct AdminConfig {
  bool enabled = true;
  std::string socket;            // empty: the database's path + ".sock"
  int max_connections = 16;      // at once; one more is told "busy" and closed
  int idle_timeout_ms = 10'000;  // a connection's request line must arrive within this
};

struct MetricsConfig {
  bool enabled = true;
};

struct BackupConfig {
  std::string directory;  // empty: no periodic backups
  int interval_s = 3600;
  int keep = 24;  // the newest this many periodic backups are kept
};

// [cluster]: this server as one node of several sharing one PostgreSQL database
// (docs/cluster.md). Absent (node empty): no cluster, no lease work at all.
struct ClusterConfig {
  std::string node;            // unique in the cluster; "" = not a cluster
  std::string public_address;  // host:port of the TCP listener as clients reach it
  std::string public_web;      // optional: ws://host:port/ws as web clients reach it
  int lease_ms = 3000;         // a match's lease lasts this long; renewed every lease_ms/3
  bool enabled() const { return !node.empty(); }
};

struct Config {
  server::ServerConfig server;
  ClusterConfig cluster;
  StorageConfig storage;
  LogConfig log;
  WebConfig web;
  AdminConfig admin;
  MetricsConfig metrics;
  BackupConfig backup;
};

// The admin socket's path for this configuration (admin.socket or the default).
std::string admin_socket_path(const Config& config);

// The host names the web listener answers to besides localhost and IP addresses
// (net/allowed_hosts.hpp): [web] allowed_hosts, and the host of a cluster node's
// [cluster] public_web, which redirected clients use.
std::vector<std::string> web_host_names(const Config& config);

struct ConfigError {
  std::string message;  // "config/eryantis.toml: heartbeat.timeout_ms: must be greater than
                        // heartbeat.interval_ms"
};

std::expected<Config, ConfigError> parse_config(std::string_view toml_text,
                                                std::string_view source_name = "config");
std::expected<Config, ConfigError> load_config(const std::string& path);

// Checks the relations between options (also after command-line overrides).
std::expected<void, ConfigError> validate_config(const Config& config);

// The store's options for this configuration.
store::Options store_options(const StorageConfig& storage, const game::Registry& games);
// Where the matches live: storage.database (SQLite) or storage.postgresql.
store::StoreLocation store_location(const StorageConfig& storage);

}  // namespace eryantis::app
