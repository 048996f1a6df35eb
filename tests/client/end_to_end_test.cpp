// The real server (a child process on a free port, a fresh database) and the
// real eryantis-bot against it: whole games over TCP, no errors.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eryantis/codec/json.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class EndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/eryantis-e2e-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    const std::string log = (dir_ / "server.log").string();
    const std::string db = (dir_ / "e2e.db").string();
    const std::string config = std::string(ERYANTIS_SOURCE_DIR) + "/config/eryantis.toml";
    pid_ = ::fork();
    ASSERT_GE(pid_, 0);
    if (pid_ == 0) {
      std::freopen(log.c_str(), "w", stderr);
      ::execl(ERYANTIS_SERVER_BIN, ERYANTIS_SERVER_BIN, "--config", config.c_str(), "--port", "0",
              "--db", db.c_str(), "--log-level", "info", static_cast<char*>(nullptr));
      std::_Exit(127);
    }
    // The server logs "listening on 127.0.0.1:PORT" once it accepts connections.
    const std::regex listening(R"(listening on 127\.0\.0\.1:(\d+))");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      std::smatch m;
      const std::string text = slurp(log);
      if (std::regex_search(text, m, listening)) {
        port_ = std::stoi(m[1]);
        return;
      }
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        FAIL() << "the server exited: " << text;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    FAIL() << "the server did not start listening: " << slurp(log);
  }

  void TearDown() override {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      int status = 0;
      for (int i = 0; i < 500 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (::waitpid(pid_, &status, WNOHANG) == 0) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
      }
    }
    std::filesystem::remove_all(dir_);
  }

  // Runs the bot; returns its exit code and the JSON object of its last stdout line.
  int run_bot(const std::string& args, rapidjson::Document& result) {
    const std::string cmd = std::string(ERYANTIS_BOT_BIN) + " --port " + std::to_string(port_) +
                            " --json --quiet " + args + " 2>" + (dir_ / "bot.log").string();
    std::FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return -1;
    std::string out, last;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    const int status = ::pclose(p);
    std::istringstream lines(out);
    for (std::string l; std::getline(lines, l);)
      if (!l.empty()) last = l;
    result.Parse(last.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  std::filesystem::path dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

TEST_F(EndToEnd, BotsPlayWholeGamesWithoutErrors) {
  rapidjson::Document r;
  const int rc =
      run_bot("--matches 2 --players 2 --mode simple --games 3 --duration 120 --seed 5", r);
  ASSERT_FALSE(r.HasParseError()) << slurp(dir_ / "bot.log");
  ASSERT_TRUE(r.IsObject());
  EXPECT_EQ(rc, 0) << slurp(dir_ / "bot.log");
  EXPECT_GE(r["games_finished"].GetUint64(), 3u);
  EXPECT_GT(r["commands_acked"].GetUint64(), 0u);
  EXPECT_EQ(r["unexpected_errors"].GetUint64(), 0u) << slurp(dir_ / "bot.log");
  EXPECT_TRUE(r["errors"].ObjectEmpty());
  EXPECT_EQ(r["syncs"].GetUint64(), 0u);  // every mirrored hash matched
  for (const char* key : {"commands_per_s", "ack_p50_ms", "ack_p99_ms", "ack_max_ms"})
    EXPECT_TRUE(r.HasMember(key)) << key;
}

TEST_F(EndToEnd, ChaosErrorsAreOnlyTheProvokedOnes) {
  rapidjson::Document r;
  const int rc = run_bot(
      "--matches 2 --players 3 --mode expert --games 3 --duration 120 --seed 9 --chaos 0.05", r);
  ASSERT_FALSE(r.HasParseError()) << slurp(dir_ / "bot.log");
  EXPECT_EQ(rc, 0) << slurp(dir_ / "bot.log");
  EXPECT_GE(r["games_finished"].GetUint64(), 3u);
  EXPECT_EQ(r["unexpected_errors"].GetUint64(), 0u) << slurp(dir_ / "bot.log");
  const auto& chaos = r["chaos"];
  const auto provoked = chaos["drops"].GetUint64() + chaos["malformed"].GetUint64() +
                        chaos["out_of_turn"].GetUint64();
  EXPECT_GT(provoked, 0u);
  EXPECT_LE(r["reconnects"].GetUint64(),
            chaos["drops"].GetUint64());  // the last drop may not be back yet
}

}  // namespace
