#pragma once
// Reads config/eryantis.toml into a ServerConfig. Strict: an unknown key, a wrong
// type, an out-of-range value or an inconsistent pair is an error naming the key.
#include <expected>
#include <string>
#include <string_view>

#include "eryantis/server/config.hpp"

namespace eryantis::app {

struct ConfigError {
  std::string message;  // "config/eryantis.toml: heartbeat.timeout_ms: must be greater than
                        // heartbeat.interval_ms"
};

std::expected<server::ServerConfig, ConfigError> parse_config(
    std::string_view toml_text, std::string_view source_name = "config");
std::expected<server::ServerConfig, ConfigError> load_config(const std::string& path);

// Checks the relations between options (also after command-line overrides).
std::expected<void, ConfigError> validate_config(const server::ServerConfig& config);

}  // namespace eryantis::app
