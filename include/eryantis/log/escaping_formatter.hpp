#pragma once
// Log lines carry text that clients chose (nicknames, whole protocol lines at
// debug level). A control byte in them could move a terminal's cursor (ESC),
// overwrite a line (CR) or forge a new log line (LF). This formatter writes every
// message with its control bytes (0x00-0x1f and 0x7f) as "\xNN", at every level
// and for every sink, so no caller has to remember to escape.
#include <spdlog/formatter.h>

#include <memory>
#include <string>
#include <string_view>

namespace eryantis::logging {

// `text` with each control byte written as \xNN; everything else as it is.
std::string escape_control(std::string_view text);

class EscapingFormatter final : public spdlog::formatter {
 public:
  explicit EscapingFormatter(std::unique_ptr<spdlog::formatter> inner);
  // spdlog's default pattern.
  EscapingFormatter();
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override;
  std::unique_ptr<spdlog::formatter> clone() const override;

 private:
  std::unique_ptr<spdlog::formatter> inner_;
};

}  // namespace eryantis::logging
