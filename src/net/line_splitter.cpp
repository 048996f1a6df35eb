#include "eryantis/net/line_splitter.hpp"

#include <cstdint>

namespace eryantis::net {

LineSplitter::LineSplitter(std::size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {}

void LineSplitter::feed(std::string_view bytes, Sink& sink) {
  // A line may end in "\r\n", so up to one byte past the limit is held until
  // its '\n' shows whether that byte is the '\r' that gets stripped.
  const std::size_t hold_limit = max_line_bytes_ + (max_line_bytes_ < SIZE_MAX ? 1 : 0);
  while (!bytes.empty()) {
    const std::size_t newline = bytes.find('\n');
    const std::string_view chunk = bytes.substr(0, newline);
    if (discarding_) {
      if (newline == std::string_view::npos) return;
      discarding_ = false;
    } else if (partial_.size() + chunk.size() > hold_limit) {
      clear_partial();
      sink.on_too_long();
      if (newline == std::string_view::npos) {
        discarding_ = true;
        return;
      }
    } else if (newline == std::string_view::npos) {
      partial_.append(chunk);
      return;
    } else if (partial_.empty()) {
      finish_line(chunk, sink);  // common case: no copy
    } else {
      partial_.append(chunk);
      finish_line(partial_, sink);
      clear_partial();
    }
    bytes.remove_prefix(newline + 1);
  }
}

void LineSplitter::end(Sink& sink) {
  // No '\r' can follow now: the byte held past the limit for it is too many.
  if (!discarding_ && !partial_.empty()) finish_line(partial_, sink);
  discarding_ = false;
  clear_partial();
}

void LineSplitter::reset() {
  discarding_ = false;
  std::string().swap(partial_);
}

void LineSplitter::clear_partial() {
  partial_.clear();  // keeps a small capacity for the next split line
  if (partial_.capacity() > kKeepBytes) std::string().swap(partial_);
}

void LineSplitter::finish_line(std::string_view line, Sink& sink) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() > max_line_bytes_) {
    sink.on_too_long();
    return;
  }
  sink.on_line(line);
}

}  // namespace eryantis::net
