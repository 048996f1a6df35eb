// What every binary does with a mistake on its command line or a configuration
// that is not a file: exit code 2 with a sentence, the code systemd's
// RestartPreventExitStatus=2 and scripts take for "fix the invocation" (CLI11's
// own codes, 100-115, escaped both before issue 23), and --help is exit 0.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/child_process.hpp"
#include "support/temp_dir.hpp"

namespace eryantis::app {
namespace {

using test::run_program;

// Every binary built with a CLI11 command line.
const std::vector<std::string>& binaries() {
  static const std::vector<std::string> all = {ERYANTIS_SERVER, ERYANTIS_TOOLS};
  return all;
}

TEST(CommandLine, AMistakeIsExitCode2InEveryBinary) {
  for (const std::string& binary : binaries()) {
    SCOPED_TRACE(binary);
    std::string output;
    EXPECT_EQ(run_program({binary, "--no-such-flag"}, &output), 2) << output;
    EXPECT_NE(output.find("Run with --help for more information."), std::string::npos) << output;
    output.clear();
    EXPECT_EQ(run_program({binary, "--help"}, &output), 0) << output;
  }
}

TEST(CommandLine, TheServerRefusesBadValuesWithCode2) {
  for (const std::vector<std::string>& flags : {std::vector<std::string>{"--port", "70000"},
                                                {"--port", "seven"},
                                                {"--log-level", "loud"},
                                                {"--config"},
                                                {"--check-config", "extra"}}) {
    SCOPED_TRACE(flags.front());
    std::vector<std::string> argv = {ERYANTIS_SERVER};
    argv.insert(argv.end(), flags.begin(), flags.end());
    std::string output;
    EXPECT_EQ(run_program(argv, &output, std::chrono::seconds(20)), 2) << output;
    EXPECT_EQ(output.find("listening"), std::string::npos) << output;
  }
}

// A folder is not a configuration: before issue 23 the server read it as an empty
// file and ran on the defaults (port 7777, ./data/eryantis.db).
TEST(CommandLine, AFolderGivenAsTheConfigurationIsExit2) {
  test::TempDir dir;
  for (const bool check_only : {true, false}) {
    SCOPED_TRACE(check_only ? "--check-config" : "a start");
    std::vector<std::string> argv = {
        ERYANTIS_SERVER, "--config", dir.path().string(), "--port", "0",
        "--no-web",      "--db",     dir.file("x.db")};
    if (check_only) argv.push_back("--check-config");
    std::string output;
    EXPECT_EQ(run_program(argv, &output, std::chrono::seconds(20)), 2) << output;
    EXPECT_NE(output.find(dir.path().string() + " is a folder, not a configuration file"),
              std::string::npos)
        << output;
    EXPECT_EQ(output.find("listening"), std::string::npos) << output;
    EXPECT_FALSE(std::filesystem::exists(dir.file("x.db")));
  }
}

}  // namespace
}  // namespace eryantis::app
