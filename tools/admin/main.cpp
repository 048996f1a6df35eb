// eryantis-admin: the operator's commands to a running eryantis-server, through
// its admin socket (only the server's user can connect). Run `eryantis-admin --help`.
//
//   eryantis-admin [--socket PATH | --config FILE] sessions | matches | end MATCH [REASON] |
//                  kick NICKNAME [REASON] | drain [--timeout S] [--no-wait] | drain-status |
//                  backup FILE | reissue-token NICKNAME | chat MATCH |
//                  chat-delete MESSAGE [REASON] | metrics | accounts |
//                  reset-password NAME | disable NAME | enable NAME
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "eryantis/json/json.hpp"
#include "eryantis/main/config_file.hpp"
#include "eryantis/util/command_line.hpp"
#include "running_server.hpp"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitRefused = 1;   // the server answered {"ok":false}
constexpr int kExitError = 2;     // usage, configuration, or no server to talk to
constexpr int kExitTimedOut = 3;  // drain --timeout ran out with matches still in play

// A drain followed to its end: its progress is asked this often, and printed when
// the matches waited for change, and at least this often while they do not.
constexpr auto kDrainPoll = std::chrono::seconds(1);
constexpr auto kDrainPrint = std::chrono::seconds(30);

// Sends one line, returns the one-line reply ("" and a message on stderr if none,
// unless `quiet`: the server is expected to be gone).
std::string ask_server(const std::string& path, const std::string& request, bool quiet = false) {
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
    if (!quiet)
      std::fprintf(stderr,
                   "eryantis-admin: cannot connect to %s: %s (is the server running, as this "
                   "user?)\n",
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
  if (reply.empty() && !quiet)
    std::fprintf(stderr, "eryantis-admin: the server closed without a reply\n");
  return reply;
}

// The reply as JSON, or nullopt when it is not an object with a boolean "ok".
std::optional<rapidjson::Document> parse_reply(const std::string& reply) {
  rapidjson::Document d;
  d.Parse(reply.c_str());
  if (d.HasParseError() || !d.IsObject() || !d.HasMember("ok") || !d["ok"].IsBool())
    return std::nullopt;
  return d;
}

std::string member_text(const rapidjson::Value& v, const char* name) {
  if (!v.IsObject() || !v.HasMember(name)) return {};
  rapidjson::StringBuffer out;
  rapidjson::Writer<rapidjson::StringBuffer> writer(out);
  v[name].Accept(writer);
  return out.GetString();
}

// The matches a drain waits for, as a text that changes only when they do: the
// countdowns (`in_ms`) left out, so a line is printed when a match ends, a player
// comes or goes, a move is made or another timer takes over, not every second.
std::string waiting_key(rapidjson::Document& d) {
  if (!d.HasMember("waiting_for") || !d["waiting_for"].IsArray()) return {};
  for (auto& m : d["waiting_for"].GetArray())
    if (m.IsObject() && m.HasMember("deadline") && m["deadline"].IsObject())
      m["deadline"].RemoveMember("in_ms");
  return member_text(d, "waiting_for");
}

std::int64_t member_int(const rapidjson::Value& v, const char* name) {
  return v.IsObject() && v.HasMember(name) && v[name].IsInt64() ? v[name].GetInt64() : 0;
}

// `drain`, followed until the server stopped (exit 0) or `timeout` ran out (exit 3,
// with what is left): drain-status is asked every kDrainPoll, each change of the
// matches waited for is printed as one JSON line, and at least every kDrainPrint.
int follow_drain(const std::string& socket, const std::string& first,
                 std::optional<std::chrono::duration<double>> timeout) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto printed_at = start;
  std::string last = first;
  auto first_reply = parse_reply(first);
  std::string waiting = member_text(*first_reply, "waiting_for");
  std::string key = waiting_key(*first_reply);  // after: it drops the countdowns
  for (;;) {
    if (timeout && Clock::now() - start >= *timeout) {
      const auto d = parse_reply(last);
      const std::int64_t left = d ? member_int(*d, "in_play") : 0;
      const std::string why =
          left > 0 ? std::to_string(left) +
                         " match(es) still in play; the server goes on draining (end one with "
                         "`eryantis-admin end MATCH`, or wait: docs/operations.md)"
                   : "the last match in play is over but the server has not stopped yet";
      std::printf("{\"ok\":false,\"error\":\"drain: timed out after %g s: %s\",\"in_play\":%lld,"
                  "\"waiting_for\":%s}\n",
                  timeout->count(), why.c_str(), static_cast<long long>(left),
                  waiting.empty() ? "[]" : waiting.c_str());
      return kExitTimedOut;
    }
    std::chrono::duration<double> pause = kDrainPoll;
    if (timeout)
      pause = std::min(pause, std::chrono::duration<double>(*timeout - (Clock::now() - start)));
    std::this_thread::sleep_for(pause);
    const std::string reply = ask_server(socket, "drain-status", true);
    if (reply.empty()) {
      // The socket is gone: the server stopped once the last match was over.
      std::printf("{\"ok\":true,\"drained\":true,\"message\":\"the server stopped\"}\n");
      return kExitOk;
    }
    auto d = parse_reply(reply);
    if (!d) continue;
    last = reply;
    waiting = member_text(*d, "waiting_for");
    const std::string now_key = waiting_key(*d);
    if (now_key != key || Clock::now() - printed_at >= kDrainPrint) {
      std::printf("%s\n", reply.c_str());
      std::fflush(stdout);
      printed_at = Clock::now();
      key = now_key;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Operator commands for a running eryantis-server, over its admin socket (permissions 0600: "
      "run it as the server's user). Replies are one JSON line (drain: one per step; metrics: "
      "the Prometheus text).\n"
      "Exit codes: 0 done, 1 refused by the server (the reason is in the reply), 2 usage or no "
      "server, 3 drain --timeout ran out with matches still in play."};
  std::string socket_path;
  std::string config_path;
  std::vector<std::string> words;
  auto* socket_opt = app.add_option("--socket", socket_path, "the admin socket's path");
  app.add_option("--config", config_path,
                 "the server's configuration: the socket is admin.socket, or the database's path "
                 "+ \".sock\", a relative path being the working folder's of the server that "
                 "runs with this file (default: config/eryantis.toml, then "
                 "/etc/eryantis/eryantis.toml)")
      ->excludes(socket_opt);
  app.add_option("COMMAND", words,
                 "sessions | matches | end MATCH [REASON] | kick NICKNAME [REASON] | drain | "
                 "drain-status | backup FILE | reissue-token NICKNAME | chat MATCH | "
                 "chat-delete MESSAGE [REASON] | metrics | accounts | reset-password NAME | "
                 "disable NAME | enable NAME | help")
      ->required();
  std::optional<double> drain_timeout;
  bool no_wait = false;
  app.add_option("--timeout", drain_timeout,
                 "drain: stop waiting after this many seconds, print the matches still in play "
                 "and exit 3 (the server goes on draining)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--no-wait", no_wait,
               "drain: print the first reply and return at once (the server still stops by "
               "itself once the last match in play is over)");
  app.footer(
      "drain prints one JSON line when it starts (the matches in play it waits for, each with "
      "the timer that will end it if nobody plays), one whenever that list changes or every "
      "30 s, and returns once the server stopped (exit 0). metrics prints the Prometheus text "
      "itself.");
  if (auto exit = eryantis::util::parse_command_line(app, argc, argv)) return *exit;
  const bool draining = !words.empty() && words[0] == "drain";
  if ((drain_timeout || no_wait) && !draining) {
    std::fprintf(stderr, "eryantis-admin: --timeout and --no-wait go with drain only\n");
    return kExitError;
  }

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
    // A relative path of the configuration is the server's working folder's (the
    // unit's /var/lib/eryantis), not this folder's: ask the server that runs with
    // this file, as it resolved it (and with its --db, which moves the socket).
    if (!config_path.empty()) {
      const auto servers = eryantis::admin::servers_using(config_path);
      if (servers.size() > 1) {
        std::string pids;
        for (const auto& s : servers) pids += (pids.empty() ? "" : ", ") + std::to_string(s.pid);
        std::fprintf(stderr,
                     "eryantis-admin: several eryantis-servers use %s (pids %s): give --socket "
                     "PATH\n",
                     config_path.c_str(), pids.c_str());
        return kExitError;
      }
      if (servers.size() == 1) {
        if (servers.front().db && config.admin.socket.empty())
          socket_path = *servers.front().db + ".sock";
        socket_path = eryantis::admin::resolve_like(servers.front(), socket_path);
      } else if (!std::filesystem::path(socket_path).is_absolute()) {
        std::fprintf(stderr,
                     "eryantis-admin: no running eryantis-server uses %s, and the admin socket "
                     "it names (%s) is relative to that server's working folder: start the "
                     "server, or give --socket PATH\n",
                     config_path.c_str(), socket_path.c_str());
        return kExitError;
      }
    }
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
  const auto d = parse_reply(reply);
  // The Prometheus text itself, ready for promtool or a file collector.
  if (d && (*d)["ok"].GetBool() && words.size() == 1 && words[0] == "metrics" &&
      d->HasMember("text") && (*d)["text"].IsString()) {
    std::fwrite((*d)["text"].GetString(), 1, (*d)["text"].GetStringLength(), stdout);
    return kExitOk;
  }
  std::printf("%s\n", reply.c_str());
  std::fflush(stdout);
  if (!d) return kExitError;
  if (!(*d)["ok"].GetBool()) return kExitRefused;
  if (draining && !no_wait)
    return follow_drain(socket_path, reply,
                        drain_timeout ? std::optional(std::chrono::duration<double>(*drain_timeout))
                                      : std::nullopt);
  return kExitOk;
}
