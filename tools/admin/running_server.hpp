#pragma once
// The eryantis-server process that runs with a given configuration file, found
// through /proc: what eryantis-admin --config needs to resolve a relative path of
// that configuration exactly as the server did, i.e. against the server's working
// folder (under the packaged unit /var/lib/eryantis), which is neither the
// operator's folder nor the configuration's.
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace eryantis::admin {

struct RunningServer {
  pid_t pid = 0;
  std::string working_folder;     // its current folder as /proc shows it (for messages)
  std::optional<std::string> db;  // its --db, if it was given one
};

// Every eryantis-server (by its executable's name) whose --config, or default
// config/eryantis.toml, resolved against its own working folder, is the same file
// as `config_path` (same device and inode: a symlink or another spelling of the
// path matches). Processes this user may not inspect are skipped: their admin
// socket would refuse this user anyway (0600).
std::vector<RunningServer> servers_using(const std::string& config_path);

// `path` as the server resolves it: unchanged if absolute, else under its working
// folder, reached through /proc/PID/cwd (the same folder whatever mount namespace
// the server runs in; Unix sockets are reached through it too).
std::string resolve_like(const RunningServer& server, const std::string& path);

}  // namespace eryantis::admin
