// The real server (a child process on a free port, a fresh database) and the
// real eryantis-bot against it: whole games over TCP, no errors.
#include <gtest/gtest.h>

#include <rapidjson/document.h>
#include <cereal/archives/json.hpp>

#include <chrono>
#include <memory>
#include <sstream>
#include <string>

#include "support/child_process.hpp"
#include "support/server_process.hpp"
#include "support/temp_dir.hpp"

namespace {

using eryantis::test::read_file;

class EndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<eryantis::test::ServerProcess>(
        std::string(ERYANTIS_SOURCE_DIR) + "/config/eryantis.toml", dir_.file("e2e.db"));
    ASSERT_TRUE(server_->start()) << "the server did not start listening:\n" << server_->log_tail();
  }

  // Runs the bot; returns its exit code and the JSON object of its last stdout line.
  int run_bot(const std::string& args, rapidjson::Document& result) {
    std::vector<std::string> argv = {ERYANTIS_BOT_BIN, "--port", std::to_string(server_->port()),
                                     "--json", "--quiet"};
    std::istringstream words(args);
    for (std::string w; words >> w;) argv.push_back(w);
    eryantis::test::ChildProcess bot(eryantis::test::Spawn{
        .argv = argv, .stdout_file = dir_.file("bot.out"), .stderr_file = dir_.file("bot.log")});
    const auto code = bot.wait_exit(std::chrono::seconds(150));
    std::istringstream lines(read_file(dir_.file("bot.out")));
    std::string last;
    for (std::string l; std::getline(lines, l);)
      if (!l.empty()) last = l;
    result.Parse(last.c_str());
    return code.value_or(-1);
  }

  std::string bot_log() const { return read_file(dir_.file("bot.log")); }

  eryantis::test::TempDir dir_{"eryantis-e2e"};
  std::unique_ptr<eryantis::test::ServerProcess> server_;
};

TEST_F(EndToEnd, BotsPlayWholeGamesWithoutErrors) {
  rapidjson::Document r;
  const int rc =
      run_bot("--matches 2 --players 2 --mode simple --games 3 --duration 120 --seed 5", r);
  ASSERT_FALSE(r.HasParseError()) << bot_log();
  ASSERT_TRUE(r.IsObject());
  EXPECT_EQ(rc, 0) << bot_log();
  EXPECT_GE(r["games_finished"].GetUint64(), 3u);
  EXPECT_GT(r["commands_acked"].GetUint64(), 0u);
  EXPECT_EQ(r["unexpected_errors"].GetUint64(), 0u) << bot_log();
  EXPECT_TRUE(r["errors"].ObjectEmpty());
  EXPECT_EQ(r["syncs"].GetUint64(), 0u);  // every mirrored hash matched
  for (const char* key : {"commands_per_s", "ack_p50_ms", "ack_p99_ms", "ack_max_ms"})
    EXPECT_TRUE(r.HasMember(key)) << key;
}

TEST_F(EndToEnd, ChaosErrorsAreOnlyTheProvokedOnes) {
  rapidjson::Document r;
  const int rc = run_bot(
      "--matches 2 --players 3 --mode expert --games 3 --duration 120 --seed 9 --chaos 0.05", r);
  ASSERT_FALSE(r.HasParseError()) << bot_log();
  EXPECT_EQ(rc, 0) << bot_log();
  EXPECT_GE(r["games_finished"].GetUint64(), 3u);
  EXPECT_EQ(r["unexpected_errors"].GetUint64(), 0u) << bot_log();
  const auto& chaos = r["chaos"];
  const auto provoked = chaos["drops"].GetUint64() + chaos["malformed"].GetUint64() +
                        chaos["out_of_turn"].GetUint64();
  EXPECT_GT(provoked, 0u);
  EXPECT_LE(r["reconnects"].GetUint64(),
            chaos["drops"].GetUint64());  // the last drop may not be back yet
}

}  // namespace
