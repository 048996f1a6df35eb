#include "eryantis/main/preflight.hpp"

#include <arpa/inet.h>
#include <sys/un.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace eryantis::app {

namespace {

namespace fs = std::filesystem;

std::unexpected<ConfigError> problem(const std::string& key, const std::string& what) {
  return std::unexpected(ConfigError{key + ": " + what});
}

bool is_ip_literal(const std::string& host) {
  unsigned char buffer[sizeof(in6_addr)];
  return inet_pton(AF_INET, host.c_str(), buffer) == 1 ||
         inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

// `path` is a file the server will create or append to: it is not a folder, and
// either it exists and is writable, or the nearest existing folder above it is
// (the server creates the folders in between).
// `existing_checked_later`: the store checks an existing database itself (exit 1,
// "cannot be written by this process": the file's state, not the configuration).
std::expected<void, ConfigError> writable_file(const std::string& key, const std::string& path,
                                               bool existing_checked_later = false) {
  std::error_code ec;
  const fs::path p(path);
  if (fs::exists(p, ec)) {
    if (fs::is_directory(p, ec)) return problem(key, path + " is a folder, not a file");
    if (!existing_checked_later && ::access(path.c_str(), R_OK | W_OK) != 0)
      return problem(key, path + " exists but this user cannot read and write it");
    return {};
  }
  fs::path dir = p.parent_path();
  if (dir.empty()) dir = ".";
  while (!fs::exists(dir, ec)) {
    if (!dir.has_relative_path() || dir.parent_path() == dir) break;
    dir = dir.parent_path();
    if (dir.empty()) dir = ".";
  }
  if (!fs::is_directory(dir, ec))
    return problem(key, "cannot create " + path + ": " + dir.string() + " is not a folder");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return problem(key, "cannot create " + path + ": folder " + dir.string() + " is not writable");
  return {};
}

std::expected<void, ConfigError> writable_folder(const std::string& key, const std::string& path) {
  std::error_code ec;
  if (fs::exists(path, ec)) {
    if (!fs::is_directory(path, ec)) return problem(key, path + " is not a folder");
    if (::access(path.c_str(), W_OK | X_OK) != 0)
      return problem(key, "folder " + path + " is not writable");
    return {};
  }
  return writable_file(key, path);  // created like a file's folders
}

}  // namespace

std::expected<void, ConfigError> preflight(const Config& config) {
  if (auto v = validate_config(config); !v) return v;
  const std::string& listen = config.server.listen;
  if (!is_ip_literal(listen))
    return problem(
        "network.listen",
        "\"" + listen + "\" is not an IPv4 or IPv6 address (e.g. 127.0.0.1, 0.0.0.0, ::)");
  if (config.web.enabled && !is_ip_literal(config.web.listen))
    return problem("web.listen", "\"" + config.web.listen +
                                     "\" is not an IPv4 or IPv6 address (e.g. 127.0.0.1, 0.0.0.0, ::)");
  // On PostgreSQL the server opens no database file (the connection is tried at start).
  if (config.storage.backend == store::Backend::Sqlite)
    if (auto ok = writable_file("storage.database", config.storage.database, true); !ok) return ok;
  if (!config.log.file.empty())
    if (auto ok = writable_file("log.file", config.log.file); !ok) return ok;
  if (config.admin.enabled) {
    const std::string socket = admin_socket_path(config);
    // sockaddr_un's sun_path: 108 bytes on Linux, with the terminating zero.
    if (socket.size() >= sizeof(sockaddr_un{}.sun_path))
      return problem("admin.socket", socket + " is longer than a Unix socket path may be (" +
                                         std::to_string(sizeof(sockaddr_un{}.sun_path) - 1) +
                                         " bytes)");
    if (auto ok = writable_file("admin.socket", socket); !ok) return ok;
  }
  if (!config.backup.directory.empty())
    if (auto ok = writable_folder("backup.directory", config.backup.directory); !ok) return ok;
  return {};
}

}  // namespace eryantis::app
