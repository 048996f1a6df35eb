#pragma once
// Everything a start checks before it creates anything: the address parses, the
// ports are distinct, every path the server will write can be written. Run by
// --check-config and by every start, so a configuration mistake is exit code 2
// and leaves no database file or folder behind (issue 14).
#include <expected>

#include "eryantis/main/config_file.hpp"

namespace eryantis::app {

// Reads the file system (existence, permissions) but never changes it.
std::expected<void, ConfigError> preflight(const Config& config);

}  // namespace eryantis::app
