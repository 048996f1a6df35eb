#include "eryantis/log/escaping_formatter.hpp"

#include <spdlog/pattern_formatter.h>

namespace eryantis::logging {

namespace {
bool is_control(unsigned char c) {
  return c < 0x20 || c == 0x7f;
}
}  // namespace

std::string escape_control(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (!is_control(c)) {
      out.push_back(ch);
      continue;
    }
    out += "\\x";
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xf]);
  }
  return out;
}

EscapingFormatter::EscapingFormatter(std::unique_ptr<spdlog::formatter> inner)
    : inner_(std::move(inner)) {}

EscapingFormatter::EscapingFormatter()
    : EscapingFormatter(std::make_unique<spdlog::pattern_formatter>()) {}

void EscapingFormatter::format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) {
  const std::string_view payload(msg.payload.data(), msg.payload.size());
  bool clean = true;
  for (char c : payload) clean = clean && !is_control(static_cast<unsigned char>(c));
  if (clean) {  // the common case costs one scan
    inner_->format(msg, dest);
    return;
  }
  const std::string escaped = escape_control(payload);
  spdlog::details::log_msg copy = msg;
  copy.payload = spdlog::string_view_t(escaped.data(), escaped.size());
  inner_->format(copy, dest);
  // The colour sink reads where the level name is from the message it passed.
  msg.color_range_start = copy.color_range_start;
  msg.color_range_end = copy.color_range_end;
}

std::unique_ptr<spdlog::formatter> EscapingFormatter::clone() const {
  return std::make_unique<EscapingFormatter>(inner_->clone());
}

}  // namespace eryantis::logging
