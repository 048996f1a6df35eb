#include "eryantis/main/config_file.hpp"

#include <toml++/toml.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <sstream>
#include <type_traits>

#include "eryantis/net/allowed_hosts.hpp"
#include "eryantis/store/chat.hpp"

namespace eryantis::app {

namespace {

// One readable key: how to store it into the config ("" = ok, else the problem).
struct Key {
  std::function<std::string(const toml::node&, Config&)> read;
};

// A key's field, reached from the Config through the members in Path.
template <auto... Path>
auto& field(Config& c) {
  return (c.*....*Path);
}

template <auto... Path>
Key integer(std::int64_t lo, std::int64_t hi) {
  return {[=](const toml::node& n, Config& c) -> std::string {
    auto v = n.value_exact<std::int64_t>();
    if (!v) return "must be an integer";
    if (*v < lo || *v > hi)
      return "must be between " + std::to_string(lo) + " and " + std::to_string(hi);
    auto& f = field<Path...>(c);
    f = static_cast<std::remove_reference_t<decltype(f)>>(*v);
    return {};
  }};
}
template <auto... Path>
Key text(bool may_be_empty) {
  return {[=](const toml::node& n, Config& c) -> std::string {
    auto v = n.value_exact<std::string>();
    if (!v) return "must be a string";
    if (!may_be_empty && v->empty()) return "must not be empty";
    field<Path...>(c) = *v;
    return {};
  }};
}
template <auto... Path>
Key boolean() {
  return {[](const toml::node& n, Config& c) -> std::string {
    auto v = n.value_exact<bool>();
    if (!v) return "must be true or false";
    field<Path...>(c) = *v;
    return {};
  }};
}

// A list of non-empty strings.
template <auto... Path>
Key text_list() {
  return {[](const toml::node& n, Config& c) -> std::string {
    const toml::array* array = n.as_array();
    if (array == nullptr) return "must be an array of strings";
    std::vector<std::string> values;
    for (const toml::node& item : *array) {
      auto v = item.value_exact<std::string>();
      if (!v || v->empty()) return "must be an array of non-empty strings";
      values.push_back(*v);
    }
    field<Path...>(c) = std::move(values);
    return {};
  }};
}

constexpr auto kServer = &Config::server;
constexpr auto kWeb = &Config::web;
constexpr auto kLimits = &server::ServerConfig::limits;
constexpr auto kComputer = &server::ServerConfig::computer;
using server::ComputerConfig;
using server::Limits;
using server::ServerConfig;

const std::map<std::string, Key>& keys() {
  constexpr std::int64_t kDay = 24LL * 3600 * 1000;
  static const std::map<std::string, Key> k = {
      {"network.listen", text<kServer, &ServerConfig::listen>(false)},
      {"network.port", integer<kServer, &ServerConfig::port>(0, 65535)},
      {"storage.backend", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::string>();
         if (!v) return "must be a string";
         auto backend = store::parse_backend(*v);
         if (!backend) return "must be \"sqlite\" or \"postgresql\"";
         c.storage.backend = *backend;
         return {};
       }}},
      {"storage.database", text<&Config::storage, &StorageConfig::database>(false)},
      {"storage.postgresql", text<&Config::storage, &StorageConfig::postgresql>(true)},
      {"storage.durability", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::string>();
         if (!v) return "must be a string";
         if (*v == "full")
           c.storage.durability = store::Durability::Full;
         else if (*v == "normal")
           c.storage.durability = store::Durability::Normal;
         else
           return "must be \"full\" or \"normal\"";
         return {};
       }}},
      {"storage.snapshot_every",
       integer<&Config::storage, &StorageConfig::snapshot_every>(0, 1'000'000)},
      {"heartbeat.interval_ms", integer<kServer, &ServerConfig::heartbeat_interval_ms>(100, kDay)},
      {"heartbeat.timeout_ms", integer<kServer, &ServerConfig::heartbeat_timeout_ms>(200, kDay)},
      {"matches.turn_grace_ms", integer<kServer, &ServerConfig::turn_grace_ms>(0, kDay)},
      {"matches.forfeit_after_ms", integer<kServer, &ServerConfig::forfeit_after_ms>(0, kDay)},
      {"matches.abandon_after_ms", integer<kServer, &ServerConfig::abandon_after_ms>(0, 30 * kDay)},
      {"matches.require_resume_token", boolean<kServer, &ServerConfig::require_resume_token>()},
      {"matches.setup_choice_ms", integer<kServer, &ServerConfig::setup_choice_ms>(1000, kDay)},
      {"matches.lobby_idle_ms", integer<kServer, &ServerConfig::lobby_idle_ms>(1000, 30 * kDay)},
      {"limits.max_connections", integer<kServer, kLimits, &Limits::max_connections>(1, 1'000'000)},
      {"limits.max_line_bytes",
       integer<kServer, kLimits, &Limits::max_line_bytes>(1024, 64LL * 1024 * 1024)},
      {"limits.commands_per_second",
       integer<kServer, kLimits, &Limits::commands_per_second>(1, 1'000'000)},
      {"limits.max_matches", integer<kServer, kLimits, &Limits::max_matches>(1, 10'000'000)},
      {"limits.max_outgoing_bytes",
       integer<kServer, kLimits, &Limits::max_outgoing_bytes>(4096, 1LL << 32)},
      {"limits.max_outgoing_bytes_total",
       integer<kServer, kLimits, &Limits::max_outgoing_bytes_total>(64 * 1024, 1LL << 40)},
      {"limits.max_incoming_bytes_total",
       integer<kServer, kLimits, &Limits::max_incoming_bytes_total>(64 * 1024, 1LL << 40)},
      {"limits.max_queued_per_match",
       integer<kServer, kLimits, &Limits::max_queued_per_match>(1, 100'000)},
      {"log.level", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::string>();
         if (!v) return "must be a string";
         static const char* kLevels[] = {"trace", "debug",    "info", "warn",
                                         "error", "critical", "off"};
         for (const char* l : kLevels)
           if (*v == l) {
             c.log.level = *v;
             return {};
           }
         return "must be one of trace, debug, info, warn, error, critical, off";
       }}},
      {"log.file", text<&Config::log, &LogConfig::file>(true)},
      {"log.max_bytes", integer<&Config::log, &LogConfig::max_bytes>(4096, 1LL << 40)},
      {"log.max_files", integer<&Config::log, &LogConfig::max_files>(1, 1000)},
      {"web.enabled", boolean<kWeb, &WebConfig::enabled>()},
      {"web.listen", text<kWeb, &WebConfig::listen>(false)},
      {"web.port", integer<kWeb, &WebConfig::port>(0, 65535)},
      {"web.allowed_origins", text_list<kWeb, &WebConfig::allowed_origins>()},
      {"web.allowed_hosts", text_list<kWeb, &WebConfig::allowed_hosts>()},
      {"web.static_dir", text<kWeb, &WebConfig::static_dir>(true)},
      // Put into every profile page's links: only a web address, never "javascript:".
      {"web.replay_url", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::string>();
         if (!v) return "must be a string";
         if (!v->empty() && v->rfind("http://", 0) != 0 && v->rfind("https://", 0) != 0)
           return "must start with http:// or https:// (or be empty: no replay links)";
         if (v->find_first_of("\"<> \t\r\n") != std::string::npos)
           return "must be a URL without spaces, quotes or angle brackets";
         c.web.replay_url = *v;
         return {};
       }}},
      {"web.secure_cookie", boolean<kWeb, &WebConfig::secure_cookie>()},
      {"web.max_connections", integer<kWeb, &WebConfig::max_connections>(1, 1'000'000)},
      {"web.max_request_bytes", integer<kWeb, &WebConfig::max_request_bytes>(1024, 1 << 20)},
      {"web.request_timeout_ms", integer<kWeb, &WebConfig::request_timeout_ms>(100, 600'000)},
      {"log.rotation", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::string>();
         if (!v) return "must be a string";
         if (*v == "size")
           c.log.rotation = LogRotation::Size;
         else if (*v == "reopen")
           c.log.rotation = LogRotation::Reopen;
         else
           return "must be \"size\" or \"reopen\"";
         return {};
       }}},
      // --- operations: [admin], [metrics], [backup] ---
      {"admin.enabled", boolean<&Config::admin, &AdminConfig::enabled>()},
      {"admin.socket", text<&Config::admin, &AdminConfig::socket>(true)},
      {"admin.max_connections", integer<&Config::admin, &AdminConfig::max_connections>(1, 1000)},
      {"admin.idle_timeout_ms",
       integer<&Config::admin, &AdminConfig::idle_timeout_ms>(100, 600'000)},
      {"metrics.enabled", boolean<&Config::metrics, &MetricsConfig::enabled>()},
      {"backup.directory", text<&Config::backup, &BackupConfig::directory>(true)},
      {"backup.interval_s", integer<&Config::backup, &BackupConfig::interval_s>(60, 30 * 86400)},
      {"backup.keep", integer<&Config::backup, &BackupConfig::keep>(1, 10'000)},
      // --- [cluster]: one node of several on one PostgreSQL (docs/cluster.md) ---
      {"cluster.node", text<&Config::cluster, &ClusterConfig::node>(true)},
      {"cluster.public_address", text<&Config::cluster, &ClusterConfig::public_address>(true)},
      {"cluster.public_web", text<&Config::cluster, &ClusterConfig::public_web>(true)},
      {"cluster.lease_ms", integer<&Config::cluster, &ClusterConfig::lease_ms>(300, 600'000)},
      // --- [computer]: the server's computer players (docs/bots.md) ---
      {"computer.workers", integer<kServer, kComputer, &ComputerConfig::workers>(1, 256)},
      {"computer.level", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::string>();
         if (!v) return "must be a string";
         auto level = game::parse_level(*v);
         if (!level) return "must be \"random\", \"greedy\" or \"strong\"";
         c.server.computer.level = *level;
         return {};
       }}},
      {"computer.playouts", integer<kServer, kComputer, &ComputerConfig::playouts>(1, 10'000'000)},
      {"computer.think_ms", integer<kServer, kComputer, &ComputerConfig::think_ms>(1, 600'000)},
      {"computer.pause_ms", integer<kServer, kComputer, &ComputerConfig::pause_ms>(0, 60'000)},
      // --- [chat]: each match's players' and spectators' chat (docs/home.md) ---
      {"chat.max_chars", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::int64_t>();
         const auto most = static_cast<std::int64_t>(store::kMaxChatChars);
         if (!v || *v < 1 || *v > most)
           return "must be an integer between 1 and " + std::to_string(most);
         c.server.chat.rules.max_chars = static_cast<std::size_t>(*v);
         return {};
       }}},
      {"chat.burst", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::int64_t>();
         if (!v || *v < 1 || *v > 1000) return "must be an integer between 1 and 1000";
         c.server.chat.rules.rate.burst = static_cast<double>(*v);
         return {};
       }}},
      {"chat.every_ms", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::int64_t>();
         if (!v || *v < 1 || *v > kDay) return "must be an integer between 1 and " + std::to_string(kDay);
         c.server.chat.rules.rate.per_second = 1000.0 / static_cast<double>(*v);
         return {};
       }}},
      {"chat.controls", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::string>();
         if (v && *v == "strip") {
           c.server.chat.rules.controls = accounts::ControlPolicy::Strip;
         } else if (v && *v == "refuse") {
           c.server.chat.rules.controls = accounts::ControlPolicy::Refuse;
         } else {
           return "must be \"strip\" or \"refuse\"";
         }
         return {};
       }}},
      {"chat.history", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::int64_t>();
         if (!v || *v < 0 || *v > 1000) return "must be an integer between 0 and 1000";
         c.server.chat.history = static_cast<std::size_t>(*v);
         return {};
       }}},
      // --- [accounts]: registered players (docs/accounts.md) ---
      {"accounts.guests", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<bool>();
         if (!v) return "must be true or false";
         c.server.accounts.guests = *v;
         return {};
       }}},
      {"accounts.passes", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::int64_t>();
         if (!v || *v < 1 || *v > 100) return "must be an integer between 1 and 100";
         c.server.accounts.pool.params.passes = static_cast<std::uint64_t>(*v);
         return {};
       }}},
      {"accounts.memory_kib", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::int64_t>();
         if (!v || *v < 8 || *v > 1024 * 1024) return "must be an integer between 8 and 1048576";
         c.server.accounts.pool.params.memory_bytes = static_cast<std::size_t>(*v) * 1024;
         return {};
       }}},
      {"accounts.workers", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::int64_t>();
         if (!v || *v < 1 || *v > 64) return "must be an integer between 1 and 64";
         c.server.accounts.pool.threads = static_cast<int>(*v);
         return {};
       }}},
      {"accounts.queue", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::int64_t>();
         if (!v || *v < 1 || *v > 100'000) return "must be an integer between 1 and 100000";
         c.server.accounts.pool.capacity = static_cast<std::size_t>(*v);
         return {};
       }}},
      {"accounts.session_days", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::int64_t>();
         if (!v || *v < 1 || *v > 3650) return "must be an integer between 1 and 3650";
         c.server.accounts.session_days = *v;
         return {};
       }}},
      {"accounts.account_burst", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::int64_t>();
         if (!v || *v < 1 || *v > 1000) return "must be an integer between 1 and 1000";
         c.server.accounts.per_account.burst = static_cast<double>(*v);
         return {};
       }}},
      {"accounts.account_every_ms", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::int64_t>();
         if (!v || *v < 1 || *v > kDay) return "must be an integer between 1 and " + std::to_string(kDay);
         c.server.accounts.per_account.per_second = 1000.0 / static_cast<double>(*v);
         return {};
       }}},
      {"accounts.address_burst", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::int64_t>();
         if (!v || *v < 1 || *v > 100'000) return "must be an integer between 1 and 100000";
         c.server.accounts.per_address.burst = static_cast<double>(*v);
         return {};
       }}},
      {"accounts.address_every_ms", {[](const toml::node& n, Config& c) -> std::string {
         auto v = n.value_exact<std::int64_t>();
         if (!v || *v < 1 || *v > kDay) return "must be an integer between 1 and " + std::to_string(kDay);
         c.server.accounts.per_address.per_second = 1000.0 / static_cast<double>(*v);
         return {};
       }}},
  };
  return k;
}

std::string walk(const toml::table& table, const std::string& prefix, Config& config,
                 std::string_view source) {
  for (const auto& [name, node] : table) {
    const std::string key =
        prefix.empty() ? std::string(name.str()) : prefix + "." + std::string(name.str());
    if (const toml::table* sub = node.as_table()) {
      bool known_section = false;
      for (const auto& [k, _] : keys()) known_section = known_section || k.rfind(key + ".", 0) == 0;
      if (!known_section) return std::string(source) + ": " + key + ": unknown section";
      if (auto e = walk(*sub, key, config, source); !e.empty()) return e;
      continue;
    }
    auto it = keys().find(key);
    if (it == keys().end()) return std::string(source) + ": " + key + ": unknown option";
    if (auto problem = it->second.read(node, config); !problem.empty())
      return std::string(source) + ": " + key + ": " + problem;
  }
  return {};
}

// host:port with a non-empty host and a port 1..65535 (an IPv6 host in brackets).
bool host_port(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) return false;
  const std::string port = text.substr(colon + 1);
  if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos) return false;
  const int n = std::stoi(port);
  return n >= 1 && n <= 65535 && text.find_first_of(" \t/") == std::string::npos;
}

bool valid_node_name(const std::string& name) {
  if (name.size() > 64) return false;
  for (char ch : name) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.';
    if (!ok) return false;
  }
  return true;
}

std::expected<void, ConfigError> validate_cluster(const Config& config) {
  const ClusterConfig& k = config.cluster;
  if (!k.enabled()) {
    if (!k.public_address.empty() || !k.public_web.empty())
      return std::unexpected(ConfigError{
          "cluster.node: must name this node (e.g. \"a\") when cluster.public_address or "
          "cluster.public_web is set"});
    return {};
  }
  if (config.storage.backend != store::Backend::Postgresql)
    return std::unexpected(ConfigError{
        "cluster.node: a cluster shares one PostgreSQL database; set storage.backend = "
        "\"postgresql\" or remove the [cluster] section (one server on SQLite needs none)"});
  if (!valid_node_name(k.node))
    return std::unexpected(
        ConfigError{"cluster.node: 1 to 64 letters, digits, '-', '_' or '.' (\"" + k.node + "\")"});
  if (!host_port(k.public_address))
    return std::unexpected(ConfigError{
        "cluster.public_address: must be host:port as clients reach this node's TCP listener "
        "(e.g. \"127.0.0.1:7001\"), not \"" +
        k.public_address + "\""});
  if (!k.public_web.empty() && k.public_web.rfind("ws://", 0) != 0 &&
      k.public_web.rfind("wss://", 0) != 0)
    return std::unexpected(ConfigError{
        "cluster.public_web: must start with ws:// or wss:// (e.g. \"ws://127.0.0.1:8001/ws\"), "
        "or be empty"});
  return {};
}

}  // namespace

std::expected<void, ConfigError> validate_config(const Config& config) {
  const ServerConfig& c = config.server;
  if (c.heartbeat_interval_ms >= c.heartbeat_timeout_ms)
    return std::unexpected(
        ConfigError{"heartbeat.timeout_ms: must be greater than heartbeat.interval_ms (" +
                    std::to_string(c.heartbeat_interval_ms) + ")"});
  if (c.limits.max_incoming_bytes_total < 2 * c.limits.max_line_bytes)
    return std::unexpected(ConfigError{
        "limits.max_incoming_bytes_total: must be at least twice limits.max_line_bytes (" +
        std::to_string(2 * c.limits.max_line_bytes) + "), or a client sending one long line " +
        "would be cut"});
  if (c.port < 0 || c.port > 65535)
    return std::unexpected(ConfigError{"network.port: must be between 0 and 65535"});
  if (config.web.port < 0 || config.web.port > 65535)
    return std::unexpected(ConfigError{"web.port: must be between 0 and 65535"});
  if (config.web.enabled && config.web.port != 0 && config.web.port == c.port &&
      config.web.listen == c.listen)
    return std::unexpected(
        ConfigError{"web.port: must differ from network.port (" + std::to_string(c.port) + ")"});
  for (const std::string& host : config.web.allowed_hosts)
    if (host != "*" && !net::AllowedHosts::valid_name(host))
      return std::unexpected(ConfigError{
          "web.allowed_hosts: \"" + host +
          "\" is not a host name: list names without scheme or port (\"game.example.org\"); "
          "IP addresses and localhost are always allowed"});
  if (config.storage.database.empty())
    return std::unexpected(ConfigError{"storage.database: must not be empty"});
  if (config.storage.backend == store::Backend::Postgresql) {
    if (config.storage.postgresql.empty())
      return std::unexpected(ConfigError{
          "storage.postgresql: must be a libpq connection string (e.g. \"host=/run/postgresql "
          "dbname=eryantis\" or \"postgresql://eryantis@db.example/eryantis\") when "
          "storage.backend is \"postgresql\""});
    if (auto ok = store::check_conninfo(config.storage.postgresql); !ok)
      return std::unexpected(ConfigError{"storage.postgresql: " + ok.error().message});
    if (!config.backup.directory.empty())
      return std::unexpected(ConfigError{
          "backup.directory: periodic backups copy an SQLite file; back a PostgreSQL "
          "database up with its own tools (pg_dump, pg_basebackup) and leave this empty"});
  }
  return validate_cluster(config);
}

std::expected<Config, ConfigError> parse_config(std::string_view toml_text,
                                                std::string_view source) {
  toml::table table;
  try {
    table = toml::parse(toml_text, source);
  } catch (const toml::parse_error& e) {
    std::ostringstream out;
    out << source << ":" << e.source().begin.line << ":" << e.source().begin.column << ": "
        << e.description();
    return std::unexpected(ConfigError{out.str()});
  }
  Config config;
  if (auto e = walk(table, "", config, source); !e.empty()) return std::unexpected(ConfigError{e});
  if (auto v = validate_config(config); !v)
    return std::unexpected(ConfigError{std::string(source) + ": " + v.error().message});
  return config;
}

std::expected<Config, ConfigError> load_config(const std::string& path) {
  // A folder opens like a file and reads as nothing: it would run on the defaults.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return std::unexpected(ConfigError{path + " is a folder, not a configuration file"});
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(ConfigError{path + ": cannot open the configuration file"});
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::unexpected(ConfigError{path + ": cannot read the configuration file"});
  return parse_config(text.str(), path);
}

std::vector<std::string> web_host_names(const Config& config) {
  std::vector<std::string> names = config.web.allowed_hosts;
  const std::string& url = config.cluster.public_web;
  if (const std::size_t scheme = url.find("://"); scheme != std::string::npos) {
    const std::size_t start = scheme + 3;
    const std::size_t path = url.find('/', start);
    const std::string name = net::AllowedHosts::name_of(std::string_view(url).substr(
        start, path == std::string::npos ? std::string::npos : path - start));
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

std::string admin_socket_path(const Config& config) {
  return config.admin.socket.empty() ? config.storage.database + ".sock" : config.admin.socket;
}

store::StoreLocation store_location(const StorageConfig& storage) {
  if (storage.backend == store::Backend::Postgresql)
    return store::StoreLocation{store::Backend::Postgresql, storage.postgresql};
  return store::StoreLocation{store::Backend::Sqlite, storage.database};
}

store::Options store_options(const StorageConfig& storage, const game::Registry& games) {
  store::Options options;
  options.durability = storage.durability;
  options.snapshot_every = storage.snapshot_every;
  // The server's games: a stored match of another game or version is left as it
  // is, for a build that has it.
  options.games = &games;
  return options;
}

}  // namespace eryantis::app
