// logrotate's way: the file is renamed, reopen() starts a new one at the path.
#include "eryantis/log/reopenable_file_sink.hpp"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace eryantis::logging {
namespace {

std::string contents(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ReopenableFileSink, AfterARenameReopenWritesToANewFileAtThePath) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "reopen-sink";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto path = dir / "server.log";
  auto sink = std::make_shared<ReopenableFileSink>(path.string());
  spdlog::logger logger("reopen", sink);
  logger.flush_on(spdlog::level::trace);
  logger.info("before the rotation");
  std::filesystem::rename(path, dir / "server.log.1");
  logger.info("still into the renamed file");
  sink->reopen();
  logger.info("after the reopen");
  const std::string old_file = contents(dir / "server.log.1");
  const std::string new_file = contents(path);
  EXPECT_NE(old_file.find("before the rotation"), std::string::npos);
  EXPECT_NE(old_file.find("still into the renamed file"), std::string::npos);
  EXPECT_EQ(old_file.find("after the reopen"), std::string::npos);
  EXPECT_NE(new_file.find("after the reopen"), std::string::npos);
  EXPECT_EQ(new_file.find("before"), std::string::npos);
}

TEST(ReopenableFileSink, ReopenAppendsToAnExistingFile) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "reopen-append";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto path = dir / "server.log";
  auto sink = std::make_shared<ReopenableFileSink>(path.string());
  spdlog::logger logger("append", sink);
  logger.flush_on(spdlog::level::trace);
  logger.info("first");
  sink->reopen();  // a SIGHUP without a rotation loses nothing
  logger.info("second");
  const std::string text = contents(path);
  EXPECT_NE(text.find("first"), std::string::npos);
  EXPECT_NE(text.find("second"), std::string::npos);
}

}  // namespace
}  // namespace eryantis::logging
