#pragma once
// Turns a byte stream into '\n'-terminated lines, with a bound on line length.
// Pure: no I/O, no libuv; one instance per connection.
#include <cstddef>
#include <string>
#include <string_view>

namespace eryantis::net {

class LineSplitter {
 public:
  // Receives what feed() finds, synchronously, in stream order.
  class Sink {
   public:
    virtual ~Sink() = default;
    // One complete line without its '\n' and without one trailing '\r'. The
    // view is only valid during the call.
    virtual void on_line(std::string_view line) = 0;
    // A line grew past the limit; called once per such line, whose remaining
    // bytes (up to and including the next '\n') are then discarded.
    virtual void on_too_long() = 0;
  };

  // max_line_bytes: longest accepted line, not counting "\n" or "\r\n".
  explicit LineSplitter(std::size_t max_line_bytes);

  // Any number of bytes: several lines, a fragment, a line split anywhere.
  void feed(std::string_view bytes, Sink& sink);
  // The stream ended (the peer's EOF): an unfinished last line is a line, as
  // if its '\n' had come (a too-long one was already reported). Afterwards the
  // splitter is empty and may be fed a new stream.
  void end(Sink& sink);
  // Drops an unfinished line and gives its buffer back (a connection cut for
  // holding too much). Not from inside a Sink call.
  void reset();

  std::size_t max_line_bytes() const { return max_line_bytes_; }
  // Bytes of an unfinished line held between feeds.
  std::size_t buffered_bytes() const { return partial_.size(); }
  // Heap bytes held for the unfinished line: its allocation, not its length (a
  // string grows by doubling). Nothing while no line is unfinished: the buffer
  // kept for reuse is at most kKeepBytes.
  std::size_t held_bytes() const { return partial_.empty() ? 0 : partial_.capacity(); }
  // Capacity kept between split lines; a longer line's buffer is given back once
  // it is finished, so 10,000 idle connections that each once sent a 64 KiB
  // line do not keep 640 MB.
  static constexpr std::size_t kKeepBytes = 1024;

 private:
  void finish_line(std::string_view line, Sink& sink);
  void clear_partial();

  std::size_t max_line_bytes_;
  std::string partial_;      // start of a line whose '\n' has not arrived yet
  bool discarding_ = false;  // inside a too-long line, waiting for its '\n'
};

}  // namespace eryantis::net
