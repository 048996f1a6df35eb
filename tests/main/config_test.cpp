// The configuration file: the shipped reference parses to the built-in defaults,
// and every kind of mistake is an error that names the key.
#include "eryantis/main/config_file.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdlib>
#include <string>
#include <vector>

namespace eryantis::app {
namespace {

std::string error_of(const std::string& toml) {
  auto r = parse_config(toml, "test.toml");
  EXPECT_FALSE(r.has_value()) << toml;
  return r ? std::string() : r.error().message;
}

TEST(Config, ShippedFileEqualsTheDefaults) {
  auto c = load_config(ERYANTIS_CONFIG);
  ASSERT_TRUE(c.has_value()) << c.error().message;
  const Config d;
  EXPECT_EQ(c->server.listen, d.server.listen);
  EXPECT_EQ(c->server.port, d.server.port);
  EXPECT_EQ(c->storage.backend, d.storage.backend);
  EXPECT_EQ(c->storage.postgresql, d.storage.postgresql);
  EXPECT_EQ(c->storage.database, d.storage.database);
  EXPECT_EQ(c->storage.durability, d.storage.durability);
  EXPECT_EQ(c->storage.snapshot_every, d.storage.snapshot_every);
  EXPECT_EQ(c->server.heartbeat_interval_ms, d.server.heartbeat_interval_ms);
  EXPECT_EQ(c->server.heartbeat_timeout_ms, d.server.heartbeat_timeout_ms);
  EXPECT_EQ(c->server.turn_grace_ms, d.server.turn_grace_ms);
  EXPECT_EQ(c->server.forfeit_after_ms, d.server.forfeit_after_ms);
  EXPECT_EQ(c->server.abandon_after_ms, d.server.abandon_after_ms);
  EXPECT_EQ(c->server.require_resume_token, d.server.require_resume_token);
  EXPECT_EQ(c->server.setup_choice_ms, d.server.setup_choice_ms);
  EXPECT_EQ(c->server.lobby_idle_ms, d.server.lobby_idle_ms);
  EXPECT_EQ(c->server.limits.max_connections, d.server.limits.max_connections);
  EXPECT_EQ(c->server.limits.max_line_bytes, d.server.limits.max_line_bytes);
  EXPECT_EQ(c->server.limits.commands_per_second, d.server.limits.commands_per_second);
  EXPECT_EQ(c->server.limits.max_matches, d.server.limits.max_matches);
  EXPECT_EQ(c->server.limits.max_outgoing_bytes, d.server.limits.max_outgoing_bytes);
  EXPECT_EQ(c->server.limits.max_outgoing_bytes_total, d.server.limits.max_outgoing_bytes_total);
  EXPECT_EQ(c->server.limits.max_incoming_bytes_total, d.server.limits.max_incoming_bytes_total);
  EXPECT_EQ(c->server.limits.max_queued_per_match, d.server.limits.max_queued_per_match);
  EXPECT_EQ(c->log.level, d.log.level);
  EXPECT_EQ(c->log.file, d.log.file);
  EXPECT_EQ(c->log.max_bytes, d.log.max_bytes);
  EXPECT_EQ(c->log.max_files, d.log.max_files);
  // The one difference: the shipped file turns the web listener on (off by default).
  EXPECT_TRUE(c->web.enabled);
  EXPECT_FALSE(d.web.enabled);
  EXPECT_EQ(c->web.listen, d.web.listen);
  EXPECT_EQ(c->web.port, d.web.port);
  EXPECT_EQ(c->web.allowed_origins, d.web.allowed_origins);
  EXPECT_EQ(c->web.allowed_hosts, d.web.allowed_hosts);
  EXPECT_EQ(c->web.static_dir, d.web.static_dir);
  EXPECT_EQ(c->web.max_connections, d.web.max_connections);
  EXPECT_EQ(c->web.max_request_bytes, d.web.max_request_bytes);
  EXPECT_EQ(c->web.request_timeout_ms, d.web.request_timeout_ms);
  EXPECT_EQ(c->log.rotation, d.log.rotation);
  EXPECT_EQ(c->admin.enabled, d.admin.enabled);
  EXPECT_EQ(c->admin.socket, d.admin.socket);
  EXPECT_EQ(c->admin.max_connections, d.admin.max_connections);
  EXPECT_EQ(c->admin.idle_timeout_ms, d.admin.idle_timeout_ms);
  EXPECT_EQ(c->metrics.enabled, d.metrics.enabled);
  EXPECT_EQ(c->backup.directory, d.backup.directory);
  EXPECT_EQ(c->backup.interval_s, d.backup.interval_s);
  EXPECT_EQ(c->backup.keep, d.backup.keep);
  EXPECT_EQ(c->server.computer.workers, d.server.computer.workers);
  EXPECT_EQ(c->server.computer.level, d.server.computer.level);
  EXPECT_EQ(c->server.computer.playouts, d.server.computer.playouts);
  EXPECT_EQ(c->server.computer.think_ms, d.server.computer.think_ms);
  EXPECT_EQ(c->server.computer.pause_ms, d.server.computer.pause_ms);
  EXPECT_EQ(c->server.chat.rules.max_chars, d.server.chat.rules.max_chars);
  EXPECT_EQ(c->server.chat.rules.rate.burst, d.server.chat.rules.rate.burst);
  EXPECT_EQ(c->server.chat.rules.rate.per_second, d.server.chat.rules.rate.per_second);
  EXPECT_EQ(c->server.chat.rules.controls, d.server.chat.rules.controls);
  EXPECT_EQ(c->server.chat.history, d.server.chat.history);
  EXPECT_EQ(c->server.accounts.guests, d.server.accounts.guests);
  EXPECT_EQ(c->server.accounts.pool.params, d.server.accounts.pool.params);
  EXPECT_EQ(c->server.accounts.pool.threads, d.server.accounts.pool.threads);
  EXPECT_EQ(c->server.accounts.pool.capacity, d.server.accounts.pool.capacity);
  EXPECT_EQ(c->server.accounts.session_days, d.server.accounts.session_days);
  EXPECT_EQ(c->server.accounts.per_account.burst, d.server.accounts.per_account.burst);
  EXPECT_EQ(c->server.accounts.per_account.per_second, d.server.accounts.per_account.per_second);
  EXPECT_EQ(c->server.accounts.per_address.burst, d.server.accounts.per_address.burst);
  EXPECT_EQ(c->server.accounts.per_address.per_second, d.server.accounts.per_address.per_second);
  EXPECT_EQ(c->cluster.node, d.cluster.node);
  EXPECT_EQ(c->cluster.public_address, d.cluster.public_address);
  EXPECT_EQ(c->cluster.public_web, d.cluster.public_web);
  EXPECT_EQ(c->cluster.lease_ms, d.cluster.lease_ms);
  EXPECT_FALSE(c->cluster.enabled());
}

constexpr const char* kPostgres = R"(
[storage]
backend = "postgresql"
postgresql = "host=/tmp dbname=eryantis"
)";

TEST(Config, ClusterSectionIsReadAndChecked) {
  auto c = parse_config(std::string(kPostgres) + R"(
[cluster]
node = "a"
public_address = "127.0.0.1:7001"
public_web = "ws://127.0.0.1:8001/ws"
lease_ms = 1500
)");
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_TRUE(c->cluster.enabled());
  EXPECT_EQ(c->cluster.node, "a");
  EXPECT_EQ(c->cluster.public_address, "127.0.0.1:7001");
  EXPECT_EQ(c->cluster.public_web, "ws://127.0.0.1:8001/ws");
  EXPECT_EQ(c->cluster.lease_ms, 1500);
}

TEST(Config, ClusterMistakesNameTheKey) {
  // Only on PostgreSQL: SQLite has one writer per file.
  EXPECT_NE(error_of("[cluster]\nnode = \"a\"\npublic_address = \"127.0.0.1:7001\"\n")
                .find("cluster.node: a cluster shares one PostgreSQL"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kPostgres) + "[cluster]\nnode = \"a b\"\n"
                                              "public_address = \"127.0.0.1:7001\"\n")
                .find("cluster.node: 1 to 64"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kPostgres) + "[cluster]\nnode = \"a\"\n")
                .find("cluster.public_address: must be host:port"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kPostgres) +
                     "[cluster]\nnode = \"a\"\npublic_address = \"127.0.0.1:0\"\n")
                .find("cluster.public_address"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kPostgres) + "[cluster]\nnode = \"a\"\n"
                                              "public_address = \"h:7001\"\n"
                                              "public_web = \"http://h/ws\"\n")
                .find("cluster.public_web: must start with ws://"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kPostgres) + "[cluster]\nnode = \"a\"\n"
                                              "public_address = \"h:7001\"\nlease_ms = 10\n")
                .find("cluster.lease_ms: must be between 300"),
            std::string::npos);
  EXPECT_NE(error_of("[cluster]\npublic_address = \"h:7001\"\n").find("cluster.node: must name"),
            std::string::npos);
}

TEST(Config, ComputerSectionIsReadAndChecked) {
  auto c = parse_config(R"(
[computer]
workers = 3
level = "strong"
playouts = 500
think_ms = 250
pause_ms = 0
)");
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(c->server.computer.workers, 3);
  EXPECT_EQ(c->server.computer.level, game::Level::Strong);
  EXPECT_EQ(c->server.computer.playouts, 500);
  EXPECT_EQ(c->server.computer.think_ms, 250);
  EXPECT_EQ(c->server.computer.pause_ms, 0);
  EXPECT_NE(error_of("[computer]\nlevel = \"expert\"\n").find("computer.level: must be"),
            std::string::npos);
  EXPECT_NE(error_of("[computer]\nworkers = 0\n").find("computer.workers: must be between"),
            std::string::npos);
  EXPECT_NE(error_of("[computer]\npause_ms = -1\n").find("computer.pause_ms"), std::string::npos);
  EXPECT_NE(error_of("[computer]\nthreads = 2\n").find("computer.threads: unknown option"),
            std::string::npos);
}

TEST(Config, AccountsSectionIsReadAndChecked) {
  auto c = parse_config(R"(
[accounts]
guests = false
passes = 3
memory_kib = 32768
workers = 4
queue = 8
session_days = 7
account_burst = 2
account_every_ms = 10000
address_burst = 50
address_every_ms = 500
)");
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_FALSE(c->server.accounts.guests);
  EXPECT_EQ(c->server.accounts.pool.params.passes, 3u);
  EXPECT_EQ(c->server.accounts.pool.params.memory_bytes, 32u << 20);
  EXPECT_EQ(c->server.accounts.pool.threads, 4);
  EXPECT_EQ(c->server.accounts.pool.capacity, 8u);
  EXPECT_EQ(c->server.accounts.session_days, 7);
  EXPECT_EQ(c->server.accounts.per_account.burst, 2.0);
  EXPECT_EQ(c->server.accounts.per_account.per_second, 0.1);
  EXPECT_EQ(c->server.accounts.per_address.burst, 50.0);
  EXPECT_EQ(c->server.accounts.per_address.per_second, 2.0);
  EXPECT_NE(error_of("[accounts]\nguests = 1\n").find("accounts.guests: must be"), std::string::npos);
  EXPECT_NE(error_of("[accounts]\nmemory_kib = 4\n").find("accounts.memory_kib: must be"),
            std::string::npos);
  EXPECT_NE(error_of("[accounts]\npasses = 0\n").find("accounts.passes: must be"), std::string::npos);
  EXPECT_NE(error_of("[accounts]\nworkers = 0\n").find("accounts.workers: must be"), std::string::npos);
}

TEST(Config, ChatSectionIsReadAndChecked) {
  auto c = parse_config(R"(
[chat]
max_chars = 200
burst = 3
every_ms = 4000
controls = "refuse"
history = 0
)");
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(c->server.chat.rules.max_chars, 200u);
  EXPECT_EQ(c->server.chat.rules.rate.burst, 3.0);
  EXPECT_EQ(c->server.chat.rules.rate.per_second, 0.25);
  EXPECT_EQ(c->server.chat.rules.controls, accounts::ControlPolicy::Refuse);
  EXPECT_EQ(c->server.chat.history, 0u);
  // More than the table holds (2,000 characters), a bucket of nothing, a word it does not know.
  EXPECT_NE(error_of("[chat]\nmax_chars = 2001\n").find("chat.max_chars: must be"), std::string::npos);
  EXPECT_NE(error_of("[chat]\nburst = 0\n").find("chat.burst: must be"), std::string::npos);
  EXPECT_NE(error_of("[chat]\nevery_ms = 0\n").find("chat.every_ms: must be"), std::string::npos);
  EXPECT_NE(error_of("[chat]\ncontrols = \"drop\"\n").find("chat.controls: must be"),
            std::string::npos);
  EXPECT_NE(error_of("[chat]\nhistory = 1001\n").find("chat.history: must be"), std::string::npos);
}

TEST(Config, WebSectionIsRead) {
  auto c = parse_config(R"(
[web]
enabled = false
port = 9090
allowed_origins = ["http://example.test:3000", "https://play.example.test"]
static_dir = ""
request_timeout_ms = 2500
secure_cookie = true
)");
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_FALSE(c->web.enabled);
  EXPECT_TRUE(c->web.secure_cookie);
  EXPECT_FALSE(app::Config{}.web.secure_cookie);
  EXPECT_NE(error_of("[web]\nsecure_cookie = \"yes\"\n").find("web.secure_cookie"),
            std::string::npos);
  EXPECT_EQ(c->web.port, 9090);
  EXPECT_EQ(c->web.allowed_origins,
            (std::vector<std::string>{"http://example.test:3000", "https://play.example.test"}));
  EXPECT_EQ(c->web.static_dir, "");
  EXPECT_EQ(c->web.request_timeout_ms, 2500);
  EXPECT_NE(
      error_of("[web]\nallowed_origins = \"*\"\n").find("web.allowed_origins: must be an array"),
      std::string::npos);
  EXPECT_NE(error_of("[web]\nallowed_origins = [\"\"]\n").find("non-empty strings"),
            std::string::npos);
  EXPECT_NE(error_of("[web]\nenabled = true\nport = 7777\n")
                .find("web.port: must differ from network.port"),
            std::string::npos);
  EXPECT_NE(error_of("[web]\nrequest_timeout_ms = 5\n").find("web.request_timeout_ms"),
            std::string::npos);
}

// The DNS-rebinding names of the web listener and the admin socket's bounds.
TEST(Config, AllowedHostsAndAdminBoundsAreReadAndChecked) {
  auto c = parse_config(R"(
[web]
allowed_hosts = ["game.example.test", "*"]
[admin]
max_connections = 4
idle_timeout_ms = 2500
)");
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(c->web.allowed_hosts, (std::vector<std::string>{"game.example.test", "*"}));
  EXPECT_EQ(c->admin.max_connections, 4);
  EXPECT_EQ(c->admin.idle_timeout_ms, 2500);
  for (const char* bad : {"game.example.test:8080", "http://game.example.test", "a b", "[::1]"})
    EXPECT_NE(error_of(std::string("[web]\nallowed_hosts = [\"") + bad + "\"]\n")
                  .find("web.allowed_hosts: \"" + std::string(bad) + "\" is not a host name"),
              std::string::npos)
        << bad;
  // A cluster node's public_web host is one of the web listener's names.
  Config node;
  node.web.allowed_hosts = {"game.example.test"};
  node.cluster.public_web = "ws://Node2.Example.Test:8001/ws";
  EXPECT_EQ(web_host_names(node),
            (std::vector<std::string>{"game.example.test", "node2.example.test"}));
  node.cluster.public_web = "wss://[::1]:8443";
  EXPECT_EQ(web_host_names(node), (std::vector<std::string>{"game.example.test", "::1"}));
  node.cluster.public_web.clear();
  EXPECT_EQ(web_host_names(node), std::vector<std::string>{"game.example.test"});
  EXPECT_NE(error_of("[admin]\nmax_connections = 0\n").find("admin.max_connections"),
            std::string::npos);
  EXPECT_NE(error_of("[admin]\nidle_timeout_ms = 5\n").find("admin.idle_timeout_ms"),
            std::string::npos);
}

TEST(Config, ValuesAreRead) {
  auto c = parse_config(R"(
[network]
port = 9000
[storage]
durability = "normal"
[limits]
commands_per_second = 7
[log]
level = "debug"
[matches]
setup_choice_ms = 45000
lobby_idle_ms = 600000
)");
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(c->server.port, 9000);
  EXPECT_EQ(c->storage.durability, store::Durability::Normal);
  EXPECT_EQ(c->server.limits.commands_per_second, 7);
  EXPECT_EQ(c->log.level, "debug");
  EXPECT_EQ(c->server.setup_choice_ms, 45000);
  EXPECT_EQ(c->server.lobby_idle_ms, 600000);
  EXPECT_NE(error_of("[matches]\nsetup_choice_ms = 0\n").find("matches.setup_choice_ms"),
            std::string::npos);
}

TEST(Config, StorageBackendChoosesSqliteOrPostgresql) {
  auto pg = parse_config(
      "[storage]\nbackend = \"postgresql\"\npostgresql = \"host=/tmp dbname=ery\"\n", "t.toml");
  ASSERT_TRUE(pg.has_value()) << pg.error().message;
  EXPECT_EQ(pg->storage.backend, store::Backend::Postgresql);
  const store::StoreLocation location = store_location(pg->storage);
  EXPECT_EQ(location.backend, store::Backend::Postgresql);
  EXPECT_EQ(location.target, "host=/tmp dbname=ery");
  EXPECT_EQ(store_location(Config{}.storage).target, Config{}.storage.database);
  EXPECT_NE(error_of("[storage]\nbackend = \"mysql\"\n").find("storage.backend: must be"),
            std::string::npos);
  EXPECT_NE(error_of("[storage]\nbackend = \"postgresql\"\n").find("storage.postgresql: must be"),
            std::string::npos);
  // libpq's own parser judges the string: a key it does not know is refused.
  EXPECT_NE(error_of("[storage]\nbackend = \"postgresql\"\npostgresql = \"hots=x\"\n")
                .find("storage.postgresql: invalid connection option"),
            std::string::npos);
  EXPECT_NE(error_of("[storage]\nbackend = \"postgresql\"\npostgresql = \"dbname=x\"\n"
                     "[backup]\ndirectory = \"/tmp/b\"\n")
                .find("backup.directory"),
            std::string::npos);
}

TEST(Config, MistakesNameTheKey) {
  EXPECT_NE(error_of("[network]\nprot = 1\n").find("network.prot: unknown option"),
            std::string::npos);
  EXPECT_NE(error_of("[nope]\nx = 1\n").find("nope: unknown section"), std::string::npos);
  EXPECT_NE(error_of("[network]\nport = \"80\"\n").find("network.port: must be an integer"),
            std::string::npos);
  EXPECT_NE(error_of("[network]\nport = 70000\n").find("network.port: must be between"),
            std::string::npos);
  EXPECT_NE(error_of("[storage]\ndurability = \"sometimes\"\n").find("storage.durability"),
            std::string::npos);
  EXPECT_NE(error_of("[matches]\nrequire_resume_token = 1\n").find("true or false"),
            std::string::npos);
  EXPECT_NE(error_of("[log]\nlevel = \"loud\"\n").find("log.level"), std::string::npos);
  EXPECT_NE(error_of("[log]\nrotation = \"daily\"\n").find("log.rotation"), std::string::npos);
  // The profile page's replay links: a web address or nothing.
  EXPECT_NE(error_of("[web]\nreplay_url = \"javascript:alert(1)\"\n")
                .find("web.replay_url: must start with http:// or https://"),
            std::string::npos);
  EXPECT_NE(error_of("[web]\nreplay_url = \"http://x/\\\"><img\"\n").find("web.replay_url"),
            std::string::npos);
  EXPECT_NE(error_of("[web]\nreplay_url = 8090\n").find("web.replay_url: must be a string"),
            std::string::npos);
  EXPECT_NE(error_of("[backup]\ninterval_s = 5\n").find("backup.interval_s"), std::string::npos);
  EXPECT_NE(error_of("[admin]\nenabled = \"yes\"\n").find("admin.enabled"), std::string::npos);
  EXPECT_NE(
      error_of("[heartbeat]\ninterval_ms = 5000\ntimeout_ms = 5000\n").find("heartbeat.timeout_ms"),
      std::string::npos);
  EXPECT_NE(error_of("[limits]\nmax_line_bytes = 65536\nmax_incoming_bytes_total = 100000\n")
                .find("limits.max_incoming_bytes_total: must be at least twice"),
            std::string::npos);
  EXPECT_NE(error_of("[network\nport = 1\n").find("test.toml:"),
            std::string::npos);  // syntax, with position
}

TEST(Config, TheServerExitsWithCode2OnABadFile) {
  const std::string dir = ::testing::TempDir();
  const std::string bad = dir + "/bad.toml";
  // Leak reports of a sanitizer build would replace the exit code under test.
  const std::string server = std::string("ASAN_OPTIONS=detect_leaks=0 ") + ERYANTIS_SERVER;
  ASSERT_EQ(std::system(("printf '[network]\\nprot = 1\\n' > " + bad).c_str()), 0);
  const int status =
      std::system((server + " --config " + bad + " --check-config 2>/dev/null").c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  const int ok =
      std::system((server + " --config " + ERYANTIS_CONFIG + " --check-config >/dev/null").c_str());
  EXPECT_EQ(WEXITSTATUS(ok), 0);
  const int missing = std::system((server + " --config " + dir + "/none.toml 2>/dev/null").c_str());
  EXPECT_EQ(WEXITSTATUS(missing), 2);
}

}  // namespace
}  // namespace eryantis::app
