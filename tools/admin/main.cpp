// eryantis-admin: the operator's commands to a running eryantis-server, through
// its admin socket (only the server's user can connect). Run `eryantis-admin --help`.
//
//   eryantis-admin [--socket PATH | --config FILE] sessions | matches | end MATCH [REASON] |
//                  kick NICKNAME [REASON] | drain | backup FILE | reissue-token NICKNAME
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "eryantis/json/json.hpp"
#include "eryantis/main/config_file.hpp"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitRefused = 1;  // the server answered {"ok":false}
constexpr int kExitError = 2;    // usage, configuration, or no server to talk to

// Sends one line, returns the one-line reply ("" and a message on stderr if none).
std::string ask_server(const std::string& path, const std::string& request) {
  sockaddr_un address{};
  if (path.size() >= sizeof address.sun_path) {
    std::fprintf(stderr, "eryantis-admin: socket path too long: %s\n", path.c_str());
    return {};
  }
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return {};
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    std::fprintf(
        stderr, "eryantis-admin: cannot connect to %s: %s (is the server running, as this user?)\n",
        path.c_str(), std::strerror(errno));
    ::close(fd);
    return {};
  }
  const std::string line = request + "\n";
  for (std::size_t sent = 0; sent < line.size();) {
    const ssize_t n = ::send(fd, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      ::close(fd);
      return {};
    }
    sent += static_cast<std::size_t>(n);
  }
  std::string reply;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n <= 0) break;
    reply.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  while (!reply.empty() && (reply.back() == '\n' || reply.back() == '\r')) reply.pop_back();
  if (reply.empty()) std::fprintf(stderr, "eryantis-admin: the server closed without a reply\n");
  return reply;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Operator commands for a running eryantis-server, over its admin socket (permissions 0600: "
      "run it as the server's user). Replies are one JSON line.\n"
      "Exit codes: 0 done, 1 refused by the server (the reason is in the reply), 2 usage or no "
      "server."};
  std::string socket_path;
  std::string config_path;
  std::vector<std::string> words;
  auto* socket_opt = app.add_option("--socket", socket_path, "the admin socket's path");
  app.add_option("--config", config_path,
                 "the server's configuration: the socket is admin.socket, or the database's path "
                 "+ \".sock\" (default: config/eryantis.toml, then /etc/eryantis/eryantis.toml)")
      ->excludes(socket_opt);
  app.add_option("COMMAND", words,
                 "sessions | matches | end MATCH [REASON] | kick NICKNAME [REASON] | drain | "
                 "backup FILE | reissue-token NICKNAME | help")
      ->required();
  CLI11_PARSE(app, argc, argv);

  if (socket_path.empty()) {
    if (config_path.empty())
      for (const char* candidate : {"config/eryantis.toml", "/etc/eryantis/eryantis.toml"})
        if (std::filesystem::exists(candidate)) {
          config_path = candidate;
          break;
        }
    eryantis::app::Config config;
    if (!config_path.empty()) {
      auto loaded = eryantis::app::load_config(config_path);
      if (!loaded) {
        std::fprintf(stderr, "eryantis-admin: %s\n", loaded.error().message.c_str());
        return kExitError;
      }
      config = *loaded;
    }
    socket_path = eryantis::app::admin_socket_path(config);
  }
  // A backup file is written by the server: a relative name means the admin's folder.
  if (words.size() == 2 && words[0] == "backup")
    words[1] = std::filesystem::absolute(words[1]).string();
  std::string request;
  for (const std::string& w : words) {
    if (w.find('\n') != std::string::npos) {
      std::fprintf(stderr, "eryantis-admin: arguments cannot contain a newline\n");
      return kExitError;
    }
    if (!request.empty()) request += ' ';
    request += w;
  }
  const std::string reply = ask_server(socket_path, request);
  if (reply.empty()) return kExitError;
  std::printf("%s\n", reply.c_str());
  rapidjson::Document d;
  d.Parse(reply.c_str());
  if (d.HasParseError() || !d.IsObject() || !d.HasMember("ok") || !d["ok"].IsBool())
    return kExitError;
  return d["ok"].GetBool() ? kExitOk : kExitRefused;
}
