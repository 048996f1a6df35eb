// --check-config checks what a start checks, and every configuration mistake is
// exit code 2 with nothing created (issue 14): the real binary, on temp folders.
#include "eryantis/main/preflight.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/child_process.hpp"
#include "support/temp_dir.hpp"

namespace eryantis::app {
namespace {

using test::run_program;
using test::TempDir;
using test::write_file;

// Leak reports of a sanitizer build would replace the exit code under test.
int run_server(const std::vector<std::string>& args, std::string* out) {
  std::vector<std::string> argv = {"/usr/bin/env", "ASAN_OPTIONS=detect_leaks=0", ERYANTIS_SERVER};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv, out, std::chrono::seconds(20));
}

std::string config_text(const TempDir& dir, const std::string& extra) {
  return "[network]\nlisten = \"127.0.0.1\"\nport = 0\n[storage]\ndatabase = \"" +
         dir.file("data/game.db") + "\"\n" + extra;
}

TEST(Preflight, ATextListenAddressIsExit2AtCheckAndAtStartAndCreatesNothing) {
  TempDir dir;
  const std::string config = dir.file("server.toml");
  write_file(config, config_text(dir, "") + "");
  std::string out;
  EXPECT_EQ(run_server({"--config", config, "--check-config"}, &out), 0) << out;
  for (const bool check : {true, false}) {
    std::vector<std::string> args = {"--config", config, "--listen", "not-an-ip"};
    if (check) args.push_back("--check-config");
    EXPECT_EQ(run_server(args, &out), 2) << out;
    EXPECT_NE(out.find("network.listen: \"not-an-ip\" is not an IPv4 or IPv6 address"),
              std::string::npos)
        << out;
    EXPECT_FALSE(std::filesystem::exists(dir.file("data"))) << "the start created the folder";
  }
}

TEST(Preflight, AMissingDefaultConfigurationFileFailsTheCheck) {
  TempDir dir;
  std::string out;
  // No --config: the default path, config/eryantis.toml, relative to the folder.
  const int code =
      run_program({"/bin/sh", "-c",
                   "cd " + dir.path().string() +
                       " && ASAN_OPTIONS=detect_leaks=0 exec " ERYANTIS_SERVER " --check-config"},
                  &out);
  EXPECT_EQ(code, 2) << out;
  EXPECT_NE(out.find("config/eryantis.toml: no such configuration file"), std::string::npos) << out;
}

TEST(Preflight, PathsThatCannotBeCreatedAreRefusedBeforeAnythingIsCreated) {
  TempDir dir;
  write_file(dir.file("a-file"), "not a folder");
  const std::string db = "database = \"" + dir.file("a-file/game.db") + "\"\n";
  struct Case {
    std::string toml;
    std::string expected;
  };
  const std::string base = "[network]\nlisten = \"::1\"\nport = 0\n";
  const std::string ok_db = "[storage]\ndatabase = \"" + dir.file("data/game.db") + "\"\n";
  const std::vector<Case> cases = {
      {base + "[storage]\n" + db, "storage.database: cannot create"},
      {base + "[storage]\ndatabase = \"" + dir.path().string() + "\"\n",
       "storage.database: " + dir.path().string() + " is a folder"},
      {base + ok_db + "[log]\nfile = \"" + dir.file("a-file/x.log") + "\"\n", "log.file"},
      {base + ok_db + "[admin]\nsocket = \"" + dir.file(std::string(120, 's')) + "\"\n",
       "admin.socket: "},
      {base + ok_db + "[backup]\ndirectory = \"" + dir.file("a-file") + "\"\n",
       "backup.directory: "},
  };
  for (const Case& c : cases) {
    const std::string config = dir.file("bad.toml");
    write_file(config, c.toml);
    std::string out;
    EXPECT_EQ(run_server({"--config", config, "--check-config"}, &out), 2) << c.toml << out;
    EXPECT_NE(out.find(c.expected), std::string::npos) << c.toml << out;
    EXPECT_EQ(run_server({"--config", config}, &out), 2) << c.toml << out;
    EXPECT_FALSE(std::filesystem::exists(dir.file("data"))) << c.toml;
  }
}

TEST(Preflight, AcceptsWhatAStartWouldAccept) {
  TempDir dir;
  Config c;
  c.storage.database = dir.file("new/folders/game.db");
  c.log.file = dir.file("logs/server.log");
  c.backup.directory = dir.file("backups");
  c.server.listen = "0.0.0.0";
  EXPECT_TRUE(preflight(c).has_value());
  c.server.listen = "::";
  EXPECT_TRUE(preflight(c).has_value());
  c.server.listen = "localhost";  // a name is not resolved: the server binds literals only
  EXPECT_FALSE(preflight(c).has_value());
  EXPECT_FALSE(std::filesystem::exists(dir.file("new")));
}

}  // namespace
}  // namespace eryantis::app
