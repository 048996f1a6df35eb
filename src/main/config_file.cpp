#include "eryantis/main/config_file.hpp"

#include <toml++/toml.h>

#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <sstream>

namespace eryantis::app {

namespace {

using server::ServerConfig;

// One readable key: its dotted name and how to store it into the config.
struct Key {
  std::function<std::string(const toml::node&, ServerConfig&)> read;  // "" = ok, else the problem
};

template <class Int>
Key integer(Int ServerConfig::*field, std::int64_t lo, std::int64_t hi) {
  return {[=](const toml::node& n, ServerConfig& c) -> std::string {
    auto v = n.value_exact<std::int64_t>();
    if (!v) return "must be an integer";
    if (*v < lo || *v > hi)
      return "must be between " + std::to_string(lo) + " and " + std::to_string(hi);
    c.*field = static_cast<Int>(*v);
    return {};
  }};
}
template <class Int>
Key limit(Int server::Limits::*field, std::int64_t lo, std::int64_t hi) {
  return {[=](const toml::node& n, ServerConfig& c) -> std::string {
    auto v = n.value_exact<std::int64_t>();
    if (!v) return "must be an integer";
    if (*v < lo || *v > hi)
      return "must be between " + std::to_string(lo) + " and " + std::to_string(hi);
    c.limits.*field = static_cast<Int>(*v);
    return {};
  }};
}
Key text(std::string ServerConfig::*field, bool may_be_empty) {
  return {[=](const toml::node& n, ServerConfig& c) -> std::string {
    auto v = n.value_exact<std::string>();
    if (!v) return "must be a string";
    if (!may_be_empty && v->empty()) return "must not be empty";
    c.*field = *v;
    return {};
  }};
}
Key boolean(bool ServerConfig::*field) {
  return {[=](const toml::node& n, ServerConfig& c) -> std::string {
    auto v = n.value_exact<bool>();
    if (!v) return "must be true or false";
    c.*field = *v;
    return {};
  }};
}

const std::map<std::string, Key>& keys() {
  constexpr std::int64_t kDay = 24LL * 3600 * 1000;
  static const std::map<std::string, Key> k = {
      {"network.listen", text(&ServerConfig::listen, false)},
      {"network.port", integer(&ServerConfig::port, 0, 65535)},
      {"storage.database", text(&ServerConfig::database, false)},
      {"storage.durability", {[](const toml::node& n, ServerConfig& c) -> std::string {
         auto v = n.value_exact<std::string>();
         if (!v) return "must be a string";
         if (*v == "full")
           c.durability = server::Durability::Full;
         else if (*v == "normal")
           c.durability = server::Durability::Normal;
         else
           return "must be \"full\" or \"normal\"";
         return {};
       }}},
      {"storage.snapshot_every", integer(&ServerConfig::snapshot_every, 0, 1'000'000)},
      {"heartbeat.interval_ms", integer(&ServerConfig::heartbeat_interval_ms, 100, kDay)},
      {"heartbeat.timeout_ms", integer(&ServerConfig::heartbeat_timeout_ms, 200, kDay)},
      {"matches.turn_grace_ms", integer(&ServerConfig::turn_grace_ms, 0, kDay)},
      {"matches.forfeit_after_ms", integer(&ServerConfig::forfeit_after_ms, 0, kDay)},
      {"matches.abandon_after_ms", integer(&ServerConfig::abandon_after_ms, 0, 30 * kDay)},
      {"matches.require_resume_token", boolean(&ServerConfig::require_resume_token)},
      {"limits.max_connections", limit(&server::Limits::max_connections, 1, 1'000'000)},
      {"limits.max_line_bytes", limit(&server::Limits::max_line_bytes, 1024, 64LL * 1024 * 1024)},
      {"limits.commands_per_second", limit(&server::Limits::commands_per_second, 1, 1'000'000)},
      {"limits.max_matches", limit(&server::Limits::max_matches, 1, 10'000'000)},
      {"limits.max_outgoing_bytes", limit(&server::Limits::max_outgoing_bytes, 4096, 1LL << 32)},
      {"limits.max_outgoing_bytes_total",
       limit(&server::Limits::max_outgoing_bytes_total, 64 * 1024, 1LL << 40)},
      {"limits.max_queued_per_match", limit(&server::Limits::max_queued_per_match, 1, 100'000)},
      {"log.level", {[](const toml::node& n, ServerConfig& c) -> std::string {
         auto v = n.value_exact<std::string>();
         if (!v) return "must be a string";
         static const char* kLevels[] = {"trace", "debug",    "info", "warn",
                                         "error", "critical", "off"};
         for (const char* l : kLevels)
           if (*v == l) {
             c.log_level = *v;
             return {};
           }
         return "must be one of trace, debug, info, warn, error, critical, off";
       }}},
      {"log.file", text(&ServerConfig::log_file, true)},
      {"log.max_bytes", integer(&ServerConfig::log_max_bytes, 4096, 1LL << 40)},
      {"log.max_files", integer(&ServerConfig::log_max_files, 1, 1000)},
  };
  return k;
}

std::string walk(const toml::table& table, const std::string& prefix, ServerConfig& config,
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

}  // namespace

std::expected<void, ConfigError> validate_config(const server::ServerConfig& c) {
  if (c.heartbeat_interval_ms >= c.heartbeat_timeout_ms)
    return std::unexpected(
        ConfigError{"heartbeat.timeout_ms: must be greater than heartbeat.interval_ms (" +
                    std::to_string(c.heartbeat_interval_ms) + ")"});
  if (c.port < 0 || c.port > 65535)
    return std::unexpected(ConfigError{"network.port: must be between 0 and 65535"});
  if (c.database.empty())
    return std::unexpected(ConfigError{"storage.database: must not be empty"});
  return {};
}

std::expected<server::ServerConfig, ConfigError> parse_config(std::string_view toml_text,
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
  server::ServerConfig config;
  if (auto e = walk(table, "", config, source); !e.empty()) return std::unexpected(ConfigError{e});
  if (auto v = validate_config(config); !v)
    return std::unexpected(ConfigError{std::string(source) + ": " + v.error().message});
  return config;
}

std::expected<server::ServerConfig, ConfigError> load_config(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(ConfigError{path + ": cannot open the configuration file"});
  std::stringstream text;
  text << in.rdbuf();
  return parse_config(text.str(), path);
}

}  // namespace eryantis::app
