// The server as a service: SIGHUP reopens a log file logrotate renamed (and no
// longer kills the server), client text reaches the log escaped, periodic
// backups are named by time and pruned to backup.keep.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "eryantis/main/periodic_backup.hpp"
#include "support/child_process.hpp"
#include "support/polling.hpp"
#include "support/temp_dir.hpp"

namespace eryantis::app {
namespace {

using namespace std::chrono_literals;
using test::eventually;
using test::read_file;
using test::TempDir;
using test::write_file;

// Sends `text` to 127.0.0.1:port and closes.
void send_raw(int port, const std::string& text) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  ::usleep(100'000);
  ::close(fd);
}

TEST(Operations, SighupReopensTheLogAndClientTextIsEscaped) {
  TempDir dir;
  const std::string log = dir.file("server.log");
  const std::string config = dir.file("server.toml");
  write_file(config, "[network]\nlisten = \"127.0.0.1\"\nport = 0\n[storage]\ndatabase = \"" +
                         dir.file("game.db") + "\"\n[log]\nlevel = \"debug\"\nfile = \"" + log +
                         "\"\nrotation = \"reopen\"\n");
  test::ChildProcess server(test::Spawn{.argv = {ERYANTIS_SERVER, "--config", config}});
  int port = 0;
  ASSERT_TRUE(eventually(20s, [&] {
    const std::string text = read_file(log);
    const auto at = text.find("listening on 127.0.0.1:");
    if (at == std::string::npos) return false;
    port = std::atoi(text.c_str() + at + 23);
    return port > 0;
  })) << server.output();
  // A hostile line: ESC sequences, a CR and a forged log line after an LF.
  send_raw(port, "{\"type\":\"hello\x1b[2J\rprotocol\"}\n{\"x\":\"\x1b]0;t\x07\"}\n");
  std::filesystem::rename(log, log + ".1");
  server.signal(SIGHUP);
  ASSERT_TRUE(eventually(10s, [&] {
    return read_file(log).find("SIGHUP: log file") != std::string::npos;
  })) << server.output();
  EXPECT_TRUE(server.running()) << "SIGHUP must not stop the server";
  server.signal(SIGTERM);
  EXPECT_EQ(server.wait_exit(10s), 0);
  const std::string old_text = read_file(log + ".1");
  const std::string new_text = read_file(log);
  EXPECT_NE(old_text.find("hello\\x1b[2J\\x0dprotocol"), std::string::npos) << old_text;
  EXPECT_NE(new_text.find("stopped:"), std::string::npos) << new_text;
  for (const std::string* text : {&old_text, &new_text})
    for (char c : *text)
      ASSERT_FALSE((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f)
          << "a raw control byte " << int(c) << " in the log";
}

TEST(Operations, SighupWithSizeRotationOnlySaysSo) {
  TempDir dir;
  const std::string config = dir.file("server.toml");
  write_file(config, "[network]\nlisten = \"127.0.0.1\"\nport = 0\n[storage]\ndatabase = \"" +
                         dir.file("game.db") + "\"\n");
  test::ChildProcess server(test::Spawn{.argv = {ERYANTIS_SERVER, "--config", config}});
  ASSERT_TRUE(
      eventually(20s, [&] { return server.output().find("listening on") != std::string::npos; }));
  server.signal(SIGHUP);
  ASSERT_TRUE(eventually(10s, [&] {
    return server.output().find("SIGHUP: no log file to reopen") != std::string::npos;
  })) << server.output();
  EXPECT_TRUE(server.running());
  server.signal(SIGTERM);
  EXPECT_EQ(server.wait_exit(10s), 0);
}

TEST(PeriodicBackup, NamesSortByTimeAndPruningKeepsTheNewest) {
  EXPECT_EQ(backup_file_name(1'795'000'000'000), "eryantis-20261118-110640.db");
  TempDir dir;
  std::vector<std::string> names;
  for (int i = 0; i < 5; ++i) {
    names.push_back(backup_file_name(1'795'000'000'000 + i * 3'600'000LL));
    write_file(dir.file(names.back()), "x");
  }
  write_file(dir.file("eryantis-notes.db"), "not a backup");
  write_file(dir.file("copy.db"), "not a backup");
  const auto removed = prune_backups(dir.path().string(), 2);
  EXPECT_EQ(removed.size(), 3u);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(std::filesystem::exists(dir.file(names[i])), i >= 3) << names[i];
  EXPECT_TRUE(std::filesystem::exists(dir.file("eryantis-notes.db")));
  EXPECT_TRUE(std::filesystem::exists(dir.file("copy.db")));
}

TEST(PeriodicBackup, TheServerWritesBackupsIntoTheFolder) {
  // interval_s is at least 60 in a configuration: this drives the class directly.
  TempDir dir;
  const std::string config = dir.file("server.toml");
  const std::string db = dir.file("game.db");
  write_file(config,
             "[network]\nlisten = \"127.0.0.1\"\nport = 0\n[storage]\ndatabase = \"" + db + "\"\n");
  {
    test::ChildProcess server(test::Spawn{.argv = {ERYANTIS_SERVER, "--config", config}});
    ASSERT_TRUE(
        eventually(20s, [&] { return server.output().find("listening on") != std::string::npos; }));
    server.signal(SIGTERM);
    ASSERT_EQ(server.wait_exit(10s), 0);
  }
  net::EventLoop loop;
  BackupConfig c;
  c.directory = dir.file("backups");
  c.interval_s = 1;
  c.keep = 1;
  {
    PeriodicBackup backups(loop, db, c);
    loop.after(3500, [&] { loop.stop(); });
    loop.run();
  }
  std::vector<std::string> found;
  for (const auto& e : std::filesystem::directory_iterator(c.directory))
    found.push_back(e.path().filename().string());
  // Three were written (at 1, 2 and 3 s); each finished one prunes to keep = 1, so
  // at most the last one pruned to and the one written after it are left.
  ASSERT_GE(found.size(), 1u);
  EXPECT_LE(found.size(), 2u);
  for (const std::string& name : found)
    EXPECT_TRUE(store::integrity_check_file(c.directory + "/" + name).has_value()) << name;
}

// A web listener without its web client (the package's working directory has no
// web/dist): / can only answer 404, so the start says so in one line naming the
// folder; a folder with index.html starts without it.
TEST(Operations, AStaticDirWithoutTheWebClientIsOneWarningAtStart) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("client"));
  write_file(dir.file("client/index.html"), "<!doctype html>\n");
  for (const std::string& static_dir : {dir.file("missing"), dir.file("empty"), dir.file("client")}) {
    std::filesystem::create_directories(dir.file("empty"));
    const std::string config = dir.file("server.toml");
    write_file(config, "[network]\nlisten = \"127.0.0.1\"\nport = 0\n[storage]\ndatabase = \"" +
                           dir.file("game.db") +
                           "\"\n[web]\nenabled = true\nlisten = \"127.0.0.1\"\nport = 0\n"
                           "static_dir = \"" + static_dir + "\"\n");
    test::ChildProcess server(test::Spawn{.argv = {ERYANTIS_SERVER, "--config", config}});
    ASSERT_TRUE(eventually(20s, [&] {
      return server.output().find("eryantis-server listening on") != std::string::npos;
    })) << server.output();
    const std::string out = server.output();
    const std::string warning = "web.static_dir " + static_dir + " has no index.html";
    if (static_dir == dir.file("client")) {
      EXPECT_EQ(out.find("has no index.html"), std::string::npos) << out;
    } else {
      const auto at = out.find(warning);
      EXPECT_NE(at, std::string::npos) << out;
      EXPECT_EQ(out.find("has no index.html", at + warning.size()), std::string::npos)
          << "twice:\n"
          << out;
      EXPECT_NE(out.find("[warning]"), std::string::npos) << out;
    }
    server.signal(SIGTERM);
    EXPECT_EQ(server.wait_exit(10s), 0);
  }
}

}  // namespace
}  // namespace eryantis::app
