#include "eryantis/log/reopenable_file_sink.hpp"

namespace eryantis::logging {

ReopenableFileSink::ReopenableFileSink(std::string path) : path_(std::move(path)) {
  file_.open(path_, false);
  open_ = true;
}

void ReopenableFileSink::reopen() {
  std::lock_guard lock(mutex_);
  file_.close();
  open_ = false;
  file_.open(path_, false);  // by name: the renamed file is left to logrotate
  open_ = true;
}

void ReopenableFileSink::sink_it_(const spdlog::details::log_msg& msg) {
  if (!open_) return;
  spdlog::memory_buf_t formatted;
  formatter_->format(msg, formatted);
  file_.write(formatted);
}

void ReopenableFileSink::flush_() {
  if (open_) file_.flush();
}

}  // namespace eryantis::logging
