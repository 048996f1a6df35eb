#include "eryantis/main/preflight.hpp"

#include <arpa/inet.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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

// access(2) as this user; `why` gets the kernel's reason when it refuses
// ("Permission denied", "Read-only file system", "Operation not permitted" for
// an immutable file).
bool can_access(const fs::path& path, int mode, std::string& why) {
  if (::access(path.c_str(), mode) == 0) return true;
  why = std::strerror(errno);
  return false;
}

// The folder a new `path` will be created in: its nearest existing ancestor
// (the server creates the folders in between).
fs::path nearest_folder(const fs::path& path) {
  std::error_code ec;
  fs::path dir = path.parent_path();
  if (dir.empty()) dir = ".";
  while (!fs::exists(dir, ec)) {
    if (!dir.has_relative_path() || dir.parent_path() == dir) break;
    dir = dir.parent_path();
    if (dir.empty()) dir = ".";
  }
  return dir;
}

// `path` is a file the server will create or append to: it is not a folder, and
// either it exists and is writable, or the nearest existing folder above it is
// (the server creates the folders in between).
std::expected<void, ConfigError> writable_file(const std::string& key, const std::string& path) {
  std::error_code ec;
  const fs::path p(path);
  if (fs::exists(p, ec)) {
    if (fs::is_directory(p, ec)) return problem(key, path + " is a folder, not a file");
    if (std::string why; !can_access(p, R_OK | W_OK, why))
      return problem(key, "cannot write " + path + ": " + why);
    return {};
  }
  const fs::path dir = nearest_folder(p);
  if (!fs::is_directory(dir, ec))
    return problem(key, "cannot create " + path + ": " + dir.string() + " is not a folder");
  if (std::string why; !can_access(dir, W_OK | X_OK, why))
    return problem(key, "cannot create " + path + ": folder " + dir.string() + ": " + why);
  return {};
}

// The SQLite database: the server reads and writes the file, and SQLite creates
// "<file>-wal" and "<file>-shm" beside it, so the file, those two if they exist
// (left by another user?) and the folder must all be writable by this user.
// Checked before anything is created, so a read-only file or folder is exit code
// 2 naming the cause, with no file left beside the database (issue 23). The store
// checks again at open what access(2) cannot tell (SqliteStore::open's write probe).
std::expected<void, ConfigError> writable_database(const std::string& path) {
  const std::string key = "storage.database";
  std::error_code ec;
  const fs::path p(path);
  if (!fs::exists(p, ec)) return writable_file(key, path);
  if (fs::is_directory(p, ec)) return problem(key, path + " is a folder, not a file");
  for (const std::string& file : {path, path + "-wal", path + "-shm"}) {
    if (file != path && !fs::exists(file, ec)) continue;
    if (std::string why; !can_access(file, R_OK | W_OK, why))
      return problem(key, "cannot write " + file + ": " + why +
                              " (the server's user must read and write the database file and "
                              "its -wal and -shm; fix their owner or permissions, or the mount)");
  }
  fs::path dir = p.parent_path();
  if (dir.empty()) dir = ".";
  if (std::string why; !can_access(dir, W_OK | X_OK, why))
    return problem(key, "cannot write in the folder " + dir.string() + " of " + path + ": " + why +
                            " (SQLite creates " + path + "-wal and " + path +
                            "-shm there; fix the folder's owner or permissions, or the mount)");
  return {};
}

std::expected<void, ConfigError> writable_folder(const std::string& key, const std::string& path) {
  std::error_code ec;
  if (fs::exists(path, ec)) {
    if (!fs::is_directory(path, ec)) return problem(key, path + " is not a folder");
    if (std::string why; !can_access(path, W_OK | X_OK, why))
      return problem(key, "cannot write in the folder " + path + ": " + why);
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
    if (auto ok = writable_database(config.storage.database); !ok) return ok;
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
