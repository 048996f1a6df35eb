#include "running_server.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <fstream>
#include <iterator>

namespace eryantis::admin {

namespace {

std::optional<std::string> read_link(const std::string& path) {
  std::string target(4096, '\0');
  const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
  if (n <= 0 || static_cast<std::size_t>(n) >= target.size()) return std::nullopt;
  target.resize(static_cast<std::size_t>(n));
  return target;
}

// The value of `--name VALUE` or `--name=VALUE` (CLI11's two forms), last one wins.
std::optional<std::string> option(const std::vector<std::string>& args, const std::string& name) {
  std::optional<std::string> value;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == name && i + 1 < args.size())
      value = args[++i];
    else if (args[i].starts_with(name + "="))
      value = args[i].substr(name.size() + 1);
  }
  return value;
}

bool same_file(const struct stat& a, const std::string& path) {
  struct stat b {};
  return ::stat(path.c_str(), &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

}  // namespace

std::vector<RunningServer> servers_using(const std::string& config_path) {
  std::vector<RunningServer> found;
  struct stat config {};
  if (::stat(config_path.c_str(), &config) != 0) return found;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return found;
  while (const dirent* entry = ::readdir(proc)) {
    const std::string name = entry->d_name;
    if (name.empty() || !std::isdigit(static_cast<unsigned char>(name[0]))) continue;
    const std::string base = "/proc/" + name;
    // The executable's name ("... (deleted)" after an upgrade replaced it).
    const auto exe = read_link(base + "/exe");
    if (!exe) continue;
    const std::string file = exe->substr(exe->rfind('/') + 1);
    if (!file.starts_with("eryantis-server")) continue;
    std::ifstream cmdline(base + "/cmdline", std::ios::binary);
    const std::string raw{std::istreambuf_iterator<char>(cmdline), {}};
    std::vector<std::string> args;
    for (std::size_t at = 0; at < raw.size();) {
      const std::size_t end = raw.find('\0', at);
      args.push_back(raw.substr(at, end == std::string::npos ? std::string::npos : end - at));
      if (end == std::string::npos) break;
      at = end + 1;
    }
    const auto cwd = read_link(base + "/cwd");
    if (!cwd) continue;
    const std::string its_config = option(args, "--config").value_or("config/eryantis.toml");
    // Through /proc/PID/root and /proc/PID/cwd: as the server sees them, even from
    // another mount namespace (systemd's sandboxing gives it one).
    const std::string seen =
        its_config.starts_with('/') ? base + "/root" + its_config : base + "/cwd/" + its_config;
    if (!same_file(config, seen)) continue;
    found.push_back(RunningServer{static_cast<pid_t>(std::stol(name)), *cwd, option(args, "--db")});
  }
  ::closedir(proc);
  return found;
}

std::string resolve_like(const RunningServer& server, const std::string& path) {
  if (path.empty() || path.starts_with('/')) return path;
  return "/proc/" + std::to_string(server.pid) + "/cwd/" + path;
}

}  // namespace eryantis::admin
