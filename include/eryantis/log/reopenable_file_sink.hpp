#pragma once
// A file sink for logrotate's default way of working: logrotate renames the file,
// then sends SIGHUP; reopen() closes the renamed file and creates a new one at
// the configured path. Without reopen() the server would go on writing into the
// renamed file. (The alternative, log.rotation = "size", is spdlog's rotating
// sink: the server renames files itself. docs/operations.md, "Logs".)
#include <spdlog/details/file_helper.h>
#include <spdlog/sinks/base_sink.h>

#include <mutex>
#include <string>

namespace eryantis::logging {

class ReopenableFileSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  // Opens (creating, appending) `path`; throws spdlog::spdlog_ex if it cannot.
  explicit ReopenableFileSink(std::string path);
  // Thread-safe: waits for a line being written, then closes and opens the path
  // again (appending). Throws spdlog::spdlog_ex if it cannot; the old file stays
  // closed then, and lines go nowhere until a later reopen() succeeds.
  void reopen();
  const std::string& path() const { return path_; }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override;
  void flush_() override;

 private:
  std::string path_;
  spdlog::details::file_helper file_;
  bool open_ = false;
};

}  // namespace eryantis::logging
