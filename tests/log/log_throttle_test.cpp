// The throttle with a manual clock and the log captured in a string.
#include "eryantis/log/log_throttle.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>

#include <sstream>
#include <string>
#include <vector>

namespace eryantis::logging {
namespace {

class LogThrottleTest : public ::testing::Test {
 protected:
  LogThrottleTest() : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out_);
    sink->set_pattern("%l %v");
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("capture", sink));
  }
  ~LogThrottleTest() override { spdlog::set_default_logger(previous_); }

  std::vector<std::string> lines() const {
    std::vector<std::string> out;
    std::istringstream in(out_.str());
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }

  std::int64_t now = 5'000;
  LogThrottle::Clock clock = [this] { return now; };

 private:
  std::ostringstream out_;
  std::shared_ptr<spdlog::logger> previous_;
};

TEST_F(LogThrottleTest, ARepeatedLineIsWrittenOnceThenSummedUpPerWindow) {
  LogThrottle throttle(10'000, clock);
  for (int i = 0; i < 413; ++i) {
    throttle.log(spdlog::level::err, "write failed", "match " + std::to_string(i) + ": disk full");
    now += 20;  // 413 lines in 8.26 s
    throttle.flush();
  }
  ASSERT_EQ(lines(), std::vector<std::string>{"error match 0: disk full"});
  now = 5'000 + 10'000;
  throttle.flush();
  ASSERT_EQ(lines().size(), 2u);
  EXPECT_EQ(lines()[1], "error match 412: disk full (repeated 412 times in the last 10 s)");
  // The fault goes on: one summary per window, nothing in between.
  for (int i = 0; i < 100; ++i) {
    throttle.log(spdlog::level::err, "write failed", "match 7: disk full");
    now += 100;
    throttle.flush();
  }
  ASSERT_EQ(lines().size(), 3u);
  EXPECT_EQ(lines()[2], "error match 7: disk full (repeated 100 times in the last 10 s)");
  // Quiet for a window: the window closes and the next line is written at once.
  now += 10'000;
  throttle.flush();
  now += 1;
  throttle.log(spdlog::level::err, "write failed", "match 8: disk full");
  ASSERT_EQ(lines().size(), 4u);
  EXPECT_EQ(lines()[3], "error match 8: disk full");
}

TEST_F(LogThrottleTest, KindsAreCountedApart) {
  LogThrottle throttle(10'000, clock);
  throttle.log(spdlog::level::err, "a", "first a");
  throttle.log(spdlog::level::warn, "b", "first b");
  throttle.log(spdlog::level::err, "a", "second a");
  EXPECT_EQ(lines(), (std::vector<std::string>{"error first a", "warning first b"}));
}

TEST_F(LogThrottleTest, ALateLineSumsUpTheEndedWindowFirst) {
  LogThrottle throttle(10'000, clock);
  throttle.log(spdlog::level::err, "a", "one");
  throttle.log(spdlog::level::err, "a", "two");
  now += 12'000;  // no flush() in between
  throttle.log(spdlog::level::err, "a", "three");
  EXPECT_EQ(lines(),
            (std::vector<std::string>{"error one", "error two (repeated 1 times in the last 12 s)",
                                      "error three"}));
}

TEST_F(LogThrottleTest, WhatIsStillCountedIsWrittenAtTheEnd) {
  {
    LogThrottle throttle(10'000, clock);
    throttle.log(spdlog::level::err, "a", "one");
    throttle.log(spdlog::level::err, "a", "two");
    now += 3'000;
  }
  EXPECT_EQ(lines(), (std::vector<std::string>{"error one",
                                               "error two (repeated 1 times in the last 3 s)"}));
}

TEST_F(LogThrottleTest, LinesBelowTheLevelCostNothing) {
  spdlog::set_level(spdlog::level::err);
  LogThrottle throttle(10'000, clock);
  throttle.log(spdlog::level::info, "a", "hidden");
  throttle.log(spdlog::level::err, "a", "shown");
  spdlog::set_level(spdlog::level::info);
  EXPECT_EQ(lines(), std::vector<std::string>{"error shown"});
}

}  // namespace
}  // namespace eryantis::logging
